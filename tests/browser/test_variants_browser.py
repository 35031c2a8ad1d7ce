"""Every rule set the engine has, on the table page at phone size (390x844).

Each match is played by the bot for every seat (through the services, deterministic given the
secret) up to a moment that shows what the variant adds: the gin defender's reply with the knock
on the table, Oklahoma's columns and a doubled deal, Knock-108's extra exchange with the pool and
the chips, Rummy 500's row and running totals, Remik 40's prize pool. The seat to move opens the
page; a screenshot of each goes to tests/browser/artifacts/table-<variant>-390x844.png.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from games import engine
from tests.browser.tablekit import (
    Screenshot,
    Seat,
    js_errors,
    no_sideways_scroll,
    open_page,
    play_bots_until,
    seat_of,
    spectator,
    start_match,
    users,
)


def _melds_and_my_play(state: Any) -> bool:
    return len(state.melds) >= 2 and state.phase == "play" and bool(state.cycle.opened[state.turn])


@dataclass(frozen=True)
class Scene:
    options: dict[str, Any]
    players: int
    done: Callable[[Any], bool]
    shows: tuple[str, ...]  # selectors the page must hold at that moment


SCENES: dict[str, Scene] = {
    "remik51": Scene({}, 2, _melds_and_my_play, (".table-melds .table-meld",)),
    "remi": Scene({"max_players": 2}, 2, _melds_and_my_play, (".atu", ".discards.row")),
    "rummy500": Scene(
        {},
        3,
        lambda s: len(s.melds) >= 2 and s.phase == "draw" and len(s.discard) >= 4,
        (".discards.row", ".running-row", ".discards .takeable"),
    ),
    "remik40": Scene({}, 2, _melds_and_my_play, ("#deal-info",)),
    "gin": Scene({}, 2, lambda s: s.cycle.step == "reply", ("#knock-panel", "#deadwood", ".deals-row")),
    "oklahoma": Scene(
        {},
        2,
        # Deal 2's up-card is a spade: the deal counts double.
        lambda s: s.round_no == 2 and s.cycle.step == "turn" and s.phase == "play",
        ("#columns", "#knock-limit", "#deal-factor", "#deadwood"),
    ),
    "knock108": Scene(
        {},
        3,
        lambda s: s.cycle.stage == "exchange" and s.phase == "draw",
        ("#knock-panel", "#pool", ".chips-row", "#loose-points"),
    ),
}


def test_every_variant_has_a_scene() -> None:
    assert set(SCENES) == set(engine.variant_names())


@pytest.fixture(params=sorted(SCENES))
def scene(request: pytest.FixtureRequest, transactional_db: None) -> tuple[str, int, Any, Scene]:
    variant = request.param
    setup = SCENES[variant]
    players = users(setup.players)
    match = start_match(variant, setup.options, players, f"scene {variant}".encode())
    match = play_bots_until(match, players, setup.done)
    seat = match.game_state().turn
    return variant, match.pk, seat_of(players, seat), setup, spectator()


def test_each_variant_on_a_phone(
    scene: tuple[str, int, Any, Scene, Seat], server_url: str, browser: Any, screenshot: Screenshot
) -> None:
    variant, match_id, seat, setup, spectator = scene
    page = open_page(browser, server_url, match_id, seat, viewport={"width": 390, "height": 844})

    assert "Your turn" in page.inner_text("#turn-line")
    for selector in setup.shows:
        assert page.locator(selector).count() >= 1, f"{variant}: no {selector}"
    assert page.locator("#controls button").count() >= 1
    assert page.inner_text("#move-error") == ""
    assert no_sideways_scroll(page), f"the {variant} table scrolls sideways"
    screenshot(page, f"table-{variant}-390x844.png")
    assert js_errors(page) == []

    # A spectator sees the same table, no hand and no controls.
    watcher = open_page(browser, server_url, match_id, spectator)
    assert watcher.locator("#hand").count() == 0
    assert watcher.locator("#controls").count() == 0
    assert watcher.locator(".players .player").count() == setup.players
    assert js_errors(watcher) == []


@pytest.fixture(params=["remik40", "knock108", "rummy500"])
def finished(request: pytest.FixtureRequest, transactional_db: None) -> tuple[str, int, Any, Any]:
    variant = request.param
    options = {"target": 100} if variant == "rummy500" else {}
    players = users(2)
    match = start_match(variant, options, players, f"finished {variant}".encode())
    match = play_bots_until(match, players, lambda s: s.is_over)
    return variant, match.pk, seat_of(players, 0), match.game_state()


def test_a_finished_match_shows_its_result(
    finished: tuple[str, int, Any, Any], server_url: str, browser: Any, screenshot: Screenshot
) -> None:
    variant, match_id, seat, state = finished
    page = open_page(browser, server_url, match_id, seat, viewport={"width": 390, "height": 844})

    banner = page.inner_text("#tbl-summary")
    assert "Match over" in banner
    for winner in state.winners:
        assert state.names[winner] in banner
    assert page.inner_text("#turn-line") == "The match is over"
    rows = page.locator(".scores-table tbody tr").count()
    assert rows == len(state.results) + 1  # every round and the totals
    if variant == "remik40":
        payouts = [line.chips for line in state.results[-1].lines]
        assert "Chips from the pool" in banner
        assert page.locator(".scores-table .chips-row td").all_inner_texts() == [str(c) for c in payouts]
    elif variant == "knock108":
        assert "Chips:" in banner
        assert page.locator(".scores-table .status-row td").all_inner_texts().count("in the game") == 1
    else:
        assert "+" in page.locator(".scores-table tbody tr").first.inner_text()  # points for cards laid
    assert no_sideways_scroll(page)
    screenshot(page, f"table-{variant}-over-390x844.png")
