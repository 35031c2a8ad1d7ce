"""A match with no winner on the table, in Polish and Romanian (R40-Q15; docs/engine.md, "No
winner"; issue 32, item 4): the banner and the scores say "No winner.", never a list of winners."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.browser import tablekit


@pytest.fixture(params=[("pl", "Brak zwycięzcy."), ("ro", "Niciun câștigător.")], ids=["pl", "ro"])
def void_match(request: Any, transactional_db: None) -> tuple[int, tablekit.Seat, str, str]:
    from games import engine
    from games.play import services

    language, said = request.param
    players = tablekit.users(2)
    for player in players:
        player.language = language
        player.save(update_fields=["language"])
    match = tablekit.start_match("remik40", {}, players, b"browser remik40 void")
    state = engine.position(
        engine.variant("remik40"),
        hands=["2C 3C", "4H 5H"],
        discard="KC",
        stock="",
        turn=0,
        phase="draw",
        rest="drop",
        names=[p.username for p in players],
    )
    match = tablekit.rig(match, state)
    services.move_submit(
        match_id=match.pk, user=players[0], move=engine.DrawStock(), expected_version=match.version
    )
    match.refresh_from_db()
    assert match.game_state().winners == ()
    return match.pk, tablekit.seat_of(players, 0), language, said


def test_r40_q15_the_table_says_no_winner(
    void_match: tuple[int, tablekit.Seat, str, str],
    server_url: str,
    browser: Any,
    screenshot: Callable[..., Any],
) -> None:
    match_id, seat, language, said = void_match
    page = tablekit.open_page(browser, server_url, match_id, seat)
    tablekit.wait_live(page)
    banner = page.inner_text("#tbl-summary")
    assert said in banner
    tablekit.open_drawer(page, "scores")
    assert said in page.inner_text(".winners")
    screenshot(page, f"table-no-winner-{language}.png", full_page=False)
    assert tablekit.js_errors(page) == []
