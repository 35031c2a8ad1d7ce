"""One seat open in two tabs (issue 32, item 2; docs/protocol.md, "`away` and `back`").

A player with the table open in two tabs closes one of them: the page sends ``away`` as it goes
(static/js/table/main.js, on ``pagehide``), but another socket of the seat is still open, so the
seat stays connected, no stand-in plays, and the player goes on playing in the other tab. Closing
that last tab is leaving the table: the seat is away and the stand-in plays the turn.

A server of the test's own with its worker (``tests.live_server.serving``, the shape the test
runs in: daphne with the embedded worker, or on PostgreSQL + Redis daphne and a ``celery worker``
process), so that a stand-in would play as it does in production.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.play.models import Match, Seat, SeatSocket
from tests.browser.tablekit import Seat as Player
from tests.browser.tablekit import (
    js_errors,
    open_page,
    play_bots_until,
    seat_of,
    start_match,
    users,
    version,
    wait_live,
)
from tests.live_server import LiveServer, serving

pytestmark = [pytest.mark.timeout(240), pytest.mark.django_db(transaction=True)]

LAPTOP = {"viewport": {"width": 1366, "height": 768}}


@pytest.fixture
def table(transactional_db: None) -> tuple[int, Player, Player]:
    """Remik 51 for two, a turn timer of an hour (nobody times out), at a turn's draw: the seat to
    move and the other one."""
    players = users(2)
    match = start_match("remik51", {"max_players": 2}, players, b"two tabs", name="Dwie karty")
    match = play_bots_until(match, players, lambda state: state.phase == "draw")
    mover = match.game_state().turn
    return match.pk, seat_of(players, mover), seat_of(players, 1 - mover)


@pytest.fixture
def site(table: tuple[int, Player, Player], tmp_path: Path) -> Iterator[LiveServer]:
    env = {"BOT_MOVE_DELAY": "0", "DJANGO_DEBUG": "1"}
    with serving(tmp_path, env=env) as server:
        yield server


def _seat(match_id: int, index: int) -> Seat:
    room_id = Match.objects.filter(pk=match_id).values_list("room_id", flat=True).get()
    return Seat.objects.get(room_id=room_id, index=index)


def _until_sockets(match_id: int, index: int, count: int) -> None:
    """Wait until the server has counted the seat's sockets down to ``count`` (a tab closed)."""
    deadline = time.monotonic() + 15
    while SeatSocket.objects.filter(seat=_seat(match_id, index)).count() != count:
        assert time.monotonic() < deadline, f"seat {index} still has another number of sockets than {count}"
        time.sleep(0.05)


def _seat_state(page: Any, seat: int, state: str) -> None:
    page.wait_for_selector(f'#seat-strip li[data-seat="{seat}"][data-state="{state}"]', timeout=15000)


def test_closing_one_of_two_tabs_keeps_the_seat_and_closing_the_last_hands_it_to_the_stand_in(
    table: tuple[int, Player, Player], site: LiveServer, browser: Any
) -> None:
    match_id, player, other = table
    seat = player.seat
    assert seat is not None
    first = open_page(browser, site.url, match_id, player, **LAPTOP)
    # A second tab of the same browser (the same session), on the same table.
    second = first.context.new_page()
    second.goto(f"{site.url}/matches/{match_id}/")
    wait_live(second)
    watcher = open_page(browser, site.url, match_id, other, **LAPTOP)
    _seat_state(watcher, seat, "connected")
    _until_sockets(match_id, seat, 2)
    start = version(watcher)
    assert watcher.evaluate("window.remiTable.model.frame.view.turn") == seat  # the player's turn

    # The player closes the second tab: it says "away" on its way out, but the first is still open.
    second.close(run_before_unload=True)
    _until_sockets(match_id, seat, 1)
    assert _seat(match_id, seat).state == Seat.State.CONNECTED
    _seat_state(watcher, seat, "connected")
    _seat_state(first, seat, "connected")
    assert first.locator("#away-banner").count() == 0
    assert "bot playing" not in watcher.inner_text(f'.player[data-seat="{seat}"]')

    # The turn is still the player's: a draw in the tab that is left, and nobody else's move.
    assert version(first) == start
    first.locator('[data-key="draw"]').click()
    first.wait_for_function(
        f"Number(document.getElementById('table-app').dataset.version) === {start + 1}", timeout=15000
    )
    assert Match.objects.get(pk=match_id).game_state().turn == seat  # a discard to come
    assert _seat(match_id, seat).state == Seat.State.CONNECTED

    # Closing the last tab is leaving the table: away, and the stand-in finishes the turn.
    first.close(run_before_unload=True)
    _seat_state(watcher, seat, "away")
    watcher.wait_for_function(f"window.remiTable.model.frame.view.turn === {1 - seat}", timeout=20000)
    assert f"away — bot playing for {player.name}" in watcher.inner_text(f'.player[data-seat="{seat}"]')
    assert js_errors(watcher) == []
