"""The table's move log holds the whole round (issue 14, "The move log"):

* a page opened (or reloaded with nothing kept in the tab) in the middle of a round shows every
  move since the deal, from its first frame's ``log`` (docs/protocol.md): the seat's own draws
  with their card, the others' as draws from the stock, and a spectator's page the same way;
* a move a stand-in bot plays for an away seat reads "The bot for ala …" on the pages. The session's
  server runs no worker, so that test starts a server of its own with the embedded worker (the
  single-process setup of ``make run``), which plays the stand-in's moves as it would in play.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from games.play.models import MoveRecord
from tests.browser.tablekit import (
    Seat,
    open_drawer,
    open_page,
    play_bots_until,
    seat_of,
    spectator,
    start_match,
    users,
    version,
    wait_version,
)
from tests.live_server import start_daphne, subprocess_database_url

pytestmark = pytest.mark.timeout(240)

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}


@dataclass
class Played:
    match_id: int
    ala: Seat
    bartek: Seat
    watcher: Seat
    #: (seat, kind of the move) of every move of the round so far, oldest first.
    moves: list[tuple[int, str]]


@pytest.fixture
def mid_round(transactional_db: None) -> Played:
    """Remik 51, two seats, eight moves of the first round played by the bot through the services."""
    players = users(2)
    match = start_match("remik51", {"max_players": 2}, players, b"log mid round", name="Dziennik")
    match = play_bots_until(
        match,
        players,
        lambda state: (
            state.turn == 0 and state.phase == "draw" and MoveRecord.objects.filter(match=match).count() >= 8
        ),
    )
    assert match.game_state().round_no == 1
    moves = [
        (seat, move["kind"])
        for seat, move in MoveRecord.objects.filter(match=match).order_by("seq").values_list("seat", "move")
    ]
    return Played(match.pk, seat_of(players, 0), seat_of(players, 1), spectator(), moves)


def _log(page: Any) -> list[str]:
    open_drawer(page, "log")
    return list(page.eval_on_selector_all("#move-log li", "els => els.map(e => e.textContent)"))


def _expected_starts(moves: list[tuple[int, str]], me: int | None) -> list[str]:
    """How each move's line starts on the page of seat ``me``: "You …" or the player's name."""
    names = ("Ala", "Bartek")
    return ["You" if seat == me else names[seat] for seat, _kind in moves]


def test_a_page_opened_mid_round_shows_every_move_since_the_deal(
    mid_round: Played, server_url: str, browser: Any
) -> None:
    played = mid_round.moves
    bartek = open_page(browser, server_url, mid_round.match_id, mid_round.bartek, **PHONE)
    lines = _log(bartek)
    # Before: the log started with the page (empty here).
    assert len(lines) == len(played), lines
    assert [line.split(" ")[0] for line in lines] == _expected_starts(played, 1)
    # Ala's draws from the stock never name her card on Bartek's page; his own do.
    for line, (seat, kind) in zip(lines, played, strict=True):
        if kind == "draw" and seat == 0:
            assert line == "Ala drew from the stock.", line
        if kind == "draw" and seat == 1:
            assert line.startswith("You drew "), line
            assert "stock" not in line, line

    watcher = open_page(browser, server_url, mid_round.match_id, mid_round.watcher, **LAPTOP)
    seen = _log(watcher)
    assert [line.split(" ")[0] for line in seen] == _expected_starts(played, None)
    assert all(
        line.endswith("drew from the stock.")
        for line, (_, kind) in zip(seen, played, strict=True)
        if kind == "draw"
    )

    # A move played now joins the log; a reload with nothing kept in the tab shows it all again.
    ala = open_page(browser, server_url, mid_round.match_id, mid_round.ala, **LAPTOP)
    at = version(ala)
    assert ala.evaluate("window.remiTable.model.frame.view.turn") == 0
    button = ala.locator('[data-key="draw"]')
    button.click()
    wait_version(bartek, at + 1)
    after = _log(bartek)
    assert after[:-1] == lines
    assert after[-1] == "Ala drew from the stock."
    bartek.evaluate("sessionStorage.clear()")
    bartek.reload()
    bartek.wait_for_selector('#table-app[data-status="live"]', timeout=15000)
    assert _log(bartek) == after


@pytest.fixture
def worker_server(mid_round: Played, tmp_path: Path) -> Iterator[str]:
    """A server of this test's own running the worker inside it (no Redis: the in-memory channel
    layer and broker of the single-process setup), on the test database."""
    server = start_daphne(
        tmp_path,
        name="daphne-worker",
        database_url=subprocess_database_url(),
        embedded_worker=True,
        env={"DJANGO_DEBUG": "1", "REDIS_URL": "", "BOT_MOVE_DELAY": "0.2"},
    )
    try:
        yield server.url
    finally:
        server.stop()


def test_a_stand_in_move_for_an_away_seat_reads_bot_for_the_player(
    mid_round: Played, worker_server: str, browser: Any
) -> None:
    ala = open_page(browser, worker_server, mid_round.match_id, mid_round.ala, **LAPTOP)
    bartek = open_page(browser, worker_server, mid_round.match_id, mid_round.bartek, **PHONE)
    at = version(bartek)
    assert bartek.evaluate("window.remiTable.model.frame.view.turn") == 0  # Ala's turn
    # Ala is marked away (as after leaving the page or running out of time): the bot plays her turn.
    ala.evaluate('window.remiTable.connection.sendRaw({type: "away"})')
    bartek.wait_for_function(
        f"Number(document.getElementById('table-app').dataset.version) >= {at + 2}", timeout=20000
    )
    bartek.wait_for_function("window.remiTable.model.frame.view.turn === 1", timeout=20000)
    lines = _log(bartek)
    standin = lines[len(mid_round.moves) :]
    assert len(standin) >= 2, lines
    # The bot is the subject, the player named once (docs/i18n.md, the stand-in's lines).
    assert all(line.startswith("The bot for ala ") for line in standin), standin
    assert standin[0] == "The bot for ala drew from the stock." or "took" in standin[0], standin
    marked = bartek.eval_on_selector_all("#move-log li.standin", "els => els.length")
    assert marked == len(standin)
    # Ala's own page tells it as the bot's move for her, not as "You …".
    ala.wait_for_function(f"Number(document.getElementById('table-app').dataset.version) >= {at + 2}")
    own = _log(ala)[len(mid_round.moves) :]
    assert own, "no stand-in line on Ala's page"
    assert all(line.startswith("The bot for ala ") for line in own), own
    assert not any(" you " in f" {line.lower()} " for line in own), own
