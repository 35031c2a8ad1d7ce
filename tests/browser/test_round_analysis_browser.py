"""The analysis of a round in a real browser (docs/learn.md): an analysed replay shows its marks
at the moves they concern, and "Analyse my round" asks for one and shows its state.

The gin deal is played in the fixture through ``games.play.services`` from a fixed match secret (so the
same deal and moves every run): ala, careless, plays the easy bot's moves; bartek the normal
bot's. The analysis the first test opens is computed in the fixture, as the worker would."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games import engine
from games.engine.bots import choose_move
from games.learn.models import RoundAnalysis
from games.learn.services import analysis as analysis_services
from games.play import services
from games.play.models import Match
from tests.browser.tablekit import cookie, js_errors, open_path, start_match, users

#: The secret of the deal: chosen so that ala's careless play holds marked decisions.
SECRET = b"analysis of a round, browser test 11"


def gin_deal_played(players: list[Any]) -> Match:
    """A gin match with its first deal over (ala careless, bartek normal)."""
    match = start_match("gin", {}, players, SECRET, name="Gin to analyse")
    levels = {0: "easy", 1: "normal"}
    for _ in range(500):
        match = Match.objects.get(pk=match.pk)
        state = match.game_state()
        if state.round_no >= 2 or state.is_over:
            return match
        move = choose_move(engine.view_for(state, state.turn), levels[state.turn])
        services.move_submit(
            match_id=match.pk, user=players[state.turn], move=move, expected_version=match.version
        )
    raise AssertionError("the deal did not end")


@pytest.fixture
def analysed(transactional_db: None) -> dict[str, Any]:
    ala, bartek = users(2)
    match = gin_deal_played([ala, bartek])
    analysis_services.analysis_request(match_id=match.pk, number=1, user=ala)
    analysis = RoundAnalysis.objects.get()
    assert analysis_services.analysis_run(analysis_id=analysis.pk) == "done"
    analysis.refresh_from_db()
    assert analysis.report is not None
    marked = [d for d in analysis.report["decisions"] if d["mark"]]
    assert marked, "the chosen deal holds marked decisions"
    return {"cookie": cookie(ala), "bartek": cookie(bartek), "match": match.pk, "marked": marked}


@pytest.fixture
def unanalysed(transactional_db: None) -> dict[str, Any]:
    ala, bartek = users(2)
    match = gin_deal_played([ala, bartek])
    return {"cookie": cookie(ala), "match": match.pk}


def test_an_analysed_replay_shows_its_marks_at_their_moves(
    server_url: str, analysed: dict[str, Any], browser: Any, screenshot: Callable[..., Path]
) -> None:
    page = open_path(browser, server_url, "", analysed["cookie"])
    page.goto(f"{server_url}/matches/{analysed['match']}/rounds/1/replay/")
    page.wait_for_selector("#replay.live")
    status = page.locator('.analysis-status[data-seat="0"]')
    assert status.get_attribute("data-status") == "done"
    jumps = page.locator(".analysis-jump")
    assert jumps.count() == len(analysed["marked"])
    first = analysed["marked"][0]
    jumps.first.click()
    assert page.text_content("#replay-position").startswith(f"Move {first['step']} of")
    mark = page.locator(f"#analysis-marks .analysis-mark.{first['mark']}")
    assert mark.count() == 1
    text = mark.text_content() or ""
    assert text.startswith("ala")
    assert ("Mistake" if first["mark"] == "mistake" else "Questionable") in text
    assert "best other move found" in text
    assert "±" in text
    assert page.locator("#analysis-form").count() == 0  # asked already
    shot = screenshot(page, "replay-analysis.png")
    assert shot.stat().st_size > 0
    # A step with no decision of ala's shows no mark.
    page.keyboard.press("Home")
    assert page.locator("#analysis-marks .analysis-mark").count() == 0
    assert js_errors(page) == []

    # bartek, during the match, does not read ala's analysis.
    other = open_path(browser, server_url, "", analysed["bartek"])
    other.goto(f"{server_url}/matches/{analysed['match']}/rounds/1/replay/")
    other.wait_for_selector("#replay.live")
    assert other.locator(".analysis-status").count() == 0
    assert other.locator(".analysis-jump").count() == 0


def test_analyse_my_round_asks_and_shows_its_state(
    server_url: str, unanalysed: dict[str, Any], browser: Any, screenshot: Callable[..., Path]
) -> None:
    page = open_path(browser, server_url, "", unanalysed["cookie"])
    page.goto(f"{server_url}/matches/{unanalysed['match']}/rounds/1/replay/")
    page.wait_for_selector("#replay.live")
    page.click("#analysis-ask")
    status = page.locator('.analysis-status[data-seat="0"]')
    status.wait_for(timeout=10000)
    # Pending or running until a worker takes it (the server's embedded worker, where there is
    # one, finishes a gin deal in seconds); the form is gone either way.
    assert status.get_attribute("data-status") in ("pending", "running", "done")
    assert page.locator("#analysis-form").is_hidden()
    screenshot(page, "replay-analysis-asked.png")
    assert js_errors(page) == []
