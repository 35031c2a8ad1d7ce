"""History in a real browser: the match list's filter form, a round replay stepped with the
arrow keys, the leaderboard and a profile's rating chart, and the /verify/ page.

Matches are played to their end in the fixtures (the engine's bot choosing each person's moves,
through ``games.play.services``), before Playwright starts."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from games.play.models import Match, MoveRecord
from games.ranked import ratings
from tests.browser.tablekit import cookie, js_errors, open_path, users
from tests.site.test_history_pages import bot_match, two_people_match


@pytest.fixture
def history(transactional_db: None) -> dict[str, Any]:
    """ala and bartek: two ranked Remi matches between them, a finished Remi match of ala against a
    bot, and a Gin match still being played (each test plays only the matches it looks at)."""
    ala, bartek = users(2)
    ranked = [two_people_match(ala, bartek, ranked=True, name=f"Ranked {n}") for n in range(2)]
    remi = bot_match(ala, options={"rounds": 1}, name="Remi against a bot")
    gin = bot_match(ala, "gin", {}, finish=False, name="Gin being played")
    return {"cookie": cookie(ala), "ranked": [m.pk for m in ranked], "remi": remi.pk, "gin": gin.pk}


@pytest.fixture
def remi(transactional_db: None) -> dict[str, Any]:
    """A finished one-round Remi match of ala against a bot."""
    (ala,) = users(1)
    match = bot_match(ala, options={"rounds": 1}, name="Remi against a bot")
    moves = MoveRecord.objects.filter(match=match, round_number=1).count()
    return {"cookie": cookie(ala), "remi": match.pk, "moves": moves}


@pytest.fixture
def leaderboard(transactional_db: None) -> dict[str, Any]:
    """ala and bartek: five ranked Remi matches between them, enough for the leaderboard."""
    ala, bartek = users(2)
    ranked = [two_people_match(ala, bartek, ranked=True, name=f"Ranked {n}") for n in range(5)]
    return {
        "cookie": cookie(ala),
        "category": ratings.category_for("remi", dict(Match.objects.get(pk=ranked[0].pk).room.options)),
    }


def listed(page: Any) -> list[int]:
    return [
        int(re.sub(r"\D", "", row))
        for row in page.eval_on_selector_all("tr.match-row", "rows => rows.map(r => r.id)")
    ]


def test_the_history_filter_form(server_url: str, history: dict[str, Any], browser: Any) -> None:
    page = open_path(browser, server_url, "", history["cookie"])
    page.goto(f"{server_url}/matches/")
    assert set(listed(page)) == {*history["ranked"], history["remi"], history["gin"]}

    page.select_option("#id_variant", "gin")
    page.click("#history-filters button[type=submit]")
    page.wait_for_url(re.compile(r"variant=gin"))
    assert listed(page) == [history["gin"]]

    page.select_option("#id_variant", "")
    page.select_option("#id_kind", "ranked")
    page.fill("#id_opponent", "bartek")
    page.click("#history-filters button[type=submit]")
    page.wait_for_url(re.compile(r"kind=ranked"))
    assert sorted(listed(page)) == sorted(history["ranked"])
    assert page.input_value("#id_opponent") == "bartek"
    assert js_errors(page) == []


def test_a_replay_steps_with_the_arrow_keys(server_url: str, remi: dict[str, Any], browser: Any) -> None:
    page = open_path(browser, server_url, "", remi["cookie"])
    page.goto(f"{server_url}/matches/{remi['remi']}/rounds/1/replay/")
    # The page holds the first page of frames (docs/record.md, "Replays"); the others are fetched.
    frames = json.loads(page.text_content("#replay-frames"))
    last = int(page.get_attribute("#replay", "data-last"))
    assert last == remi["moves"]
    assert len(frames) == min(last + 1, 40)
    page.wait_for_selector("#replay.live")

    def position() -> str:
        return page.text_content("#replay-position")

    assert position() == f"Move 0 of {last}"
    page.keyboard.press("ArrowRight")
    assert position() == f"Move 1 of {last}"
    assert page.text_content("#replay-move") == f"{frames[1]['move']['name']}: {frames[1]['move']['text']}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert position() == f"Move 1 of {last}"
    assert page.url.endswith("?step=1")
    hand = sorted(
        page.eval_on_selector_all(
            '.replay-hand[data-seat="1"] .replay-card', "cs => cs.map(c => c.dataset.card)"
        )
    )
    assert hand == sorted(
        card["id"] for card in frames[1]["hands"][1]["cards"]
    )  # the match is over: every hand
    page.keyboard.press("End")
    page.wait_for_function(
        f"document.getElementById('replay-position').textContent === 'Move {last} of {last}'"
    )
    assert page.is_visible("#replay-lines table")
    page.keyboard.press("ArrowRight")
    assert position() == f"Move {last} of {last}"
    page.keyboard.press("Home")
    assert position() == f"Move 0 of {last}"
    assert page.text_content("#replay-stock strong") == str(frames[0]["stock"])
    page.click("#replay-next")
    assert position() == f"Move 1 of {last}"
    assert js_errors(page) == []


def test_the_leaderboard_and_a_profiles_chart(
    server_url: str, leaderboard: dict[str, Any], browser: Any
) -> None:
    page = open_path(browser, server_url, "", leaderboard["cookie"])
    page.goto(f"{server_url}/leaderboard/?variant={leaderboard['category']}")
    names = page.eval_on_selector_all(
        "tr.leaderboard-row td:nth-child(2) a", "as => as.map(a => a.textContent)"
    )
    assert sorted(names) == ["ala", "bartek"]

    page.click("tr.leaderboard-row a:text('ala')")
    page.wait_for_url(re.compile(r"/u/ala/"))
    chart = page.locator(f"#rating-{leaderboard['category']} svg")
    assert chart.is_visible()
    assert chart.locator("circle").count() == 1 + 5  # the start, then one dot per rated match
    assert "Rated matches played" in chart.text_content()
    assert js_errors(page) == []


def test_the_verify_page(server_url: str, remi: dict[str, Any], browser: Any) -> None:
    page = open_path(browser, server_url, "", remi["cookie"])
    page.goto(f"{server_url}/verify/")
    page.select_option("#verify-match", str(remi["remi"]))
    page.click("#verify-pick button[type=submit]")
    page.wait_for_selector("#verify-verdict")
    assert "The record verifies." in page.text_content("#verify-verdict")
    assert page.locator(".verify-round").count() == 1

    record = page.request.get(f"{server_url}/matches/{remi['remi']}/record.json").json()
    record["rounds"][0]["seed"] = "00" * 32
    page.fill("#id_record", json.dumps(record))
    page.click("#verify-form button[type=submit]")
    page.wait_for_selector("#verify-problems")
    assert "does NOT verify" in page.text_content("#verify-verdict")
    assert "round 1: the revealed seed is not the one the match secret gives" in page.text_content(
        "#verify-problems"
    )
    assert js_errors(page) == []
