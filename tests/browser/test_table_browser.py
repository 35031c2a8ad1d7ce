"""The match page as a playable table, in a real browser against a real daphne (issue 4).

Two players at a two-seat Remik 51 match, each in their own browser context, and a spectator:
a discard reaches the other page, a draw, a refused meld with its reason shown, a reload in the
middle of the turn, the suggested opening laid down, a discard; the spectator sees no hand. A
second test drops the socket after a move was applied and checks the page resends the command
with the same id and gets the duplicate's ack. A third breaks the Remi discard row deep down:
the cards that come along are shown, and the picked card goes into a meld in the same move.
Others exchange a joker (Remik 51: the freed joker into a new meld in the same move; Remi: a
buy-back), show the end of a match, and the pause between rounds with its countdown.
Screenshots at 390x844 and at desktop size go to tests/browser/artifacts/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from games import engine
from games.engine.bots import choose_move
from games.engine.rummy.moves import play_options, take_options
from games.play import services
from games.play.models import Match
from tests.browser import tablekit
from tests.browser.tablekit import Seat

NAMES = ("ala", "bartek")


@dataclass(frozen=True)
class TableSetup:
    match_id: int
    mover: Seat  # the dealer: 14 cards, plays (discards) without drawing
    other: Seat  # draws next, and can then open with the suggested melds
    spectator: Seat
    dealer_discard: str  # the card the dealer discards
    opening: list[list[str]]  # the other player's suggested opening after the draw


def _secret_for_the_test() -> tuple[bytes, str, list[list[str]]]:
    """A match secret whose deal lets the second player open right after drawing.

    The engine is deterministic given the secret: we replay the test's first moves (the dealer
    discards its first card, the other player draws) until the suggested opening is ready.
    """
    rules = engine.variant("remik51")
    for n in range(2000):
        secret = f"browser table {n}".encode()
        state = engine.new_game(rules, list(NAMES), secret)
        dealer = state.turn
        card = str(state.hands[dealer][0])
        state = engine.apply_move(
            state, dealer, engine.move_from_json({"kind": "discard", "card": card})
        ).state
        state = engine.apply_move(state, 1 - dealer, engine.move_from_json({"kind": "draw"})).state
        opening = engine.view_for(state, 1 - dealer)["you"]["opening"]
        if opening["ready"] and len(opening["melds"]) >= 2:
            return secret, card, opening["melds"]
    raise AssertionError("no suitable secret among the candidates")


@pytest.fixture
def table(transactional_db: None) -> TableSetup:
    users = tablekit.users(3)
    secret, card, opening = _secret_for_the_test()
    match = tablekit.start_match("remik51", {}, users[:2], secret, name="Browser table")
    dealer = match.game_state().turn
    seats = [tablekit.seat_of(users, i) for i in range(2)]
    return TableSetup(
        match_id=match.pk,
        mover=seats[dealer],
        other=seats[1 - dealer],
        spectator=Seat("celina", tablekit.cookie(users[2]), None),
        dealer_discard=card,
        opening=opening,
    )


def test_two_players_play_through_the_page(
    table: TableSetup, server_url: str, browser: Any, screenshot: tablekit.Screenshot
) -> None:
    mover = tablekit.open_page(browser, server_url, table.match_id, table.mover)
    other = tablekit.open_page(browser, server_url, table.match_id, table.other)
    watcher = tablekit.open_page(browser, server_url, table.match_id, table.spectator)
    start = tablekit.version(mover)

    # Every seat's name, card count and whose turn it is.
    for page in (mover, other, watcher):
        players = page.locator(".players .player")
        assert players.count() == 2
        assert page.locator(".player.to-move").inner_text().startswith(table.mover.name)
    assert other.locator(".player", has_text=table.mover.name).inner_text().count("14 cards") == 1
    assert "Your turn" in mover.inner_text("#turn-line")
    assert "Your turn" not in other.inner_text("#turn-line")

    # The dealer discards; the other page follows.
    card = mover.locator(f'#hand button[data-card="{table.dealer_discard}"]')
    assert card.get_attribute("aria-label")  # a spoken name such as "queen of hearts"
    card.click()
    assert card.get_attribute("aria-pressed") == "true"
    tablekit.click(mover, "Discard selected")
    tablekit.wait_version(other, start + 1)
    assert other.locator(f'.discards [data-card="{table.dealer_discard}"]').count() == 1
    assert other.inner_text("#turn-line") == "Your turn: draw a card"
    tablekit.wait_version(mover, start + 1)  # the mover's own frame may come after the other's
    assert "13 cards" in mover.locator(".player.me").inner_text()

    # The other player draws from the stock.
    tablekit.click(other, "Draw from stock")
    tablekit.wait_version(other, start + 2)
    assert len(tablekit.hand(other)) == 14
    tablekit.wait_version(mover, start + 2)
    assert "drew from the stock" in mover.inner_text("#tbl-events")

    # An illegal action: a "meld" of two cards. The server refuses it with its reason; nothing changes.
    before = tablekit.hand(other)
    other.locator("#hand button.card").nth(0).click()
    other.locator("#hand button.card").nth(1).click()
    tablekit.click(other, "New meld from selected")
    tablekit.click(other, "Lay down")
    other.wait_for_selector("#move-error[data-code]", timeout=10000)
    assert other.get_attribute("#move-error", "data-code") == "too_few_cards"
    assert "too_few_cards" not in other.inner_text("#move-error")  # the code is not shown
    assert "at least 3 cards" in other.inner_text("#move-error")
    assert tablekit.version(other) == start + 2
    tablekit.click(other, "Clear")
    assert tablekit.hand(other) == before

    # A reload in the middle of the turn comes back to the same state.
    other.reload()
    tablekit.wait_live(other)
    assert tablekit.version(other) == start + 2
    assert tablekit.hand(other) == before
    assert other.get_by_role("button", name="Discard selected").count() == 1

    # Lay down the suggested opening, then discard.
    opening = other.locator("#opening")
    assert "ready to open" in opening.inner_text()
    tablekit.click(other, "Use suggested opening")
    assert other.locator(".draft-meld").count() == len(table.opening)
    tablekit.click(other, "Lay down")
    tablekit.wait_version(other, start + 3)
    laid = sum(len(meld) for meld in table.opening)
    assert len(tablekit.hand(other)) == 14 - laid
    for page in (mover, watcher):
        tablekit.wait_version(page, start + 3)
        assert page.locator(".table-melds .table-meld").count() == len(table.opening)
        assert "opened" in page.locator(".player", has_text=table.other.name).inner_text()

    screenshot(other, "table-desktop-player.png")
    last = other.locator("#hand button.card").nth(0)
    discarded = last.get_attribute("data-card")
    last.click()
    tablekit.click(other, "Discard selected")
    tablekit.wait_version(mover, start + 4)
    assert mover.inner_text("#turn-line") == "Your turn: draw a card"
    assert mover.locator(f'.discards [data-card="{discarded}"]').count() == 1

    # The spectator sees the table, and no hand and no controls.
    tablekit.wait_version(watcher, start + 4)
    assert watcher.locator("#hand").count() == 0
    assert watcher.locator("#controls").count() == 0
    assert "hand is shown" in watcher.inner_text(".spectator-note")
    assert watcher.locator(".table-melds .table-meld").count() == len(table.opening)

    # Phone and desktop screenshots of the player to move.
    for name, size in (
        ("phone-390x844", {"width": 390, "height": 844}),
        ("desktop-1280x900", {"width": 1280, "height": 900}),
    ):
        page = tablekit.open_page(browser, server_url, table.match_id, table.mover, viewport=size)
        no_sideways_scroll = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert no_sideways_scroll, f"the {name} page scrolls sideways"
        screenshot(page, f"table-{name}.png")
        page.context.close()


def test_a_command_whose_answer_was_lost_is_resent_with_the_same_id(
    table: TableSetup, server_url: str, browser: Any
) -> None:
    mover = tablekit.open_page(browser, server_url, table.match_id, table.mover)
    start = tablekit.version(mover)
    commands: list[dict[str, Any]] = []
    answers: list[dict[str, Any]] = []
    dropped: list[bool] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "move":
                commands.append(data)
            server.send(message)

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            answers.append(data)
            if commands and not dropped and data.get("type") == "state" and data.get("events"):
                # The move was applied, but its frame never reaches the page: the line drops.
                dropped.append(True)
                ws.close()
                server.close()
                return
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    other = _open_routed(browser, server_url, table.match_id, table.other, route)
    # The dealer discards so that the other player can draw.
    mover.locator(f'#hand button[data-card="{table.dealer_discard}"]').click()
    tablekit.click(mover, "Discard selected")
    tablekit.wait_version(other, start + 1)

    tablekit.click(other, "Draw from stock")
    other.wait_for_selector("#conn-status:has-text('Reconnecting')", timeout=10000)
    tablekit.wait_version(other, start + 2)
    tablekit.wait_live(other)

    moves = [c for c in commands if c["move"] == {"kind": "draw"}]
    assert len(moves) == 2, commands
    assert moves[0]["id"] == moves[1]["id"]
    assert moves[0]["version"] == moves[1]["version"] == start + 1
    # The page may show the resynced state before the resent command's answer comes: wait for it.
    duplicate = {"type": "ack", "id": moves[0]["id"], "version": start + 2, "duplicate": True}
    for _ in range(200):
        if duplicate in answers:
            break
        other.wait_for_timeout(50)  # Playwright delivers the routed socket's messages meanwhile
    assert duplicate in answers
    assert len(tablekit.hand(other)) == 14  # drawn once, not twice


def _open_routed(
    browser: Any, server_url: str, match_id: int, seat: Seat, route: Callable[[Any], None]
) -> Any:
    page = tablekit.open_path(browser, server_url, "", seat.cookie)
    page.route_web_socket(re.compile(r".*/ws/match/\d+/$"), route)
    page.goto(f"{server_url}/matches/{match_id}/")
    tablekit.wait_live(page)
    return page


@dataclass(frozen=True)
class RowTake:
    match_id: int
    player: Seat
    card: str  # the discard to pick, below the top of the row
    meld: list[str]  # the new meld that uses it, in an order the engine accepts
    along: list[str]  # the cards above it, which come into the hand too


@pytest.fixture
def remi_row(transactional_db: None) -> RowTake:
    """A Remi match played by the bot for both seats until a seat can break the row deep down.

    Deterministic: the secret is fixed, and so are the bot's moves.
    """
    users = tablekit.users(2)
    match = tablekit.start_match("remi", {"max_players": 2}, users, b"browser remi row", name="Row")
    for _ in range(600):
        match = Match.objects.get(pk=match.pk)
        state = match.game_state()
        assert not state.is_over
        seat = state.turn
        if state.phase == "draw" and state.cycle.opened[seat]:
            for take in take_options(state, seat):
                (meld,) = take.play.melds or ((),)
                index = len(state.discard) - 1 - list(reversed(state.discard)).index(take.card)
                depth = len(state.discard) - index
                plain = not take.play.layoffs and not take.play.exchanges and len(take.play.melds) == 1
                if depth > 1 and plain and not any(card.is_joker for card in meld):
                    return RowTake(
                        match_id=match.pk,
                        player=tablekit.seat_of(users, seat),
                        card=str(take.card),
                        meld=[str(card) for card in meld],
                        along=[str(card) for card in state.discard[index + 1 :]],
                    )
        move = choose_move(engine.view_for(state, seat))
        services.move_submit(match_id=match.pk, user=users[seat], move=move, expected_version=match.version)
    raise AssertionError("no deep take came up")


def test_a_remi_player_breaks_the_row_deep_down(remi_row: RowTake, server_url: str, browser: Any) -> None:
    page = tablekit.open_page(browser, server_url, remi_row.match_id, remi_row.player)
    start = tablekit.version(page)
    hand_before = tablekit.hand(page)

    page.locator(f'.discards button[data-card="{remi_row.card}"]').click()
    # The picked card and every card above it are shown coming into the hand.
    assert page.locator(".discards .card.picked").get_attribute("data-card") == remi_row.card
    assert (
        page.eval_on_selector_all(".discards .card.along", "els => els.map(e => e.dataset.card)")
        == remi_row.along
    )
    assert "come along" in page.inner_text("#draft")
    for card in remi_row.along:
        assert page.locator(f'#hand button[data-card="{card}"]').count() == 1
    # The picked card starts selected; add the rest of the meld from the hand.
    for card in remi_row.meld:
        if card != remi_row.card:
            page.locator(f'#hand button[data-card="{card}"]').click()
    assert page.locator('#hand button[aria-pressed="true"]').count() == len(remi_row.meld)
    tablekit.click(page, "New meld from selected")
    # Put the new meld in the engine's order (the hand sorts an ace after the king).
    wanted = remi_row.meld
    for position, card in enumerate(wanted):
        current = page.eval_on_selector_all(
            ".draft-meld .draft-card .card", "els => els.map(e => e.dataset.card)"
        )
        at = current.index(card)
        while at > position:
            page.locator(".draft-meld .shift button").nth(2 * at).click()
            at -= 1
    tablekit.click(page, "Take and lay down")
    tablekit.wait_version(page, start + 1)

    assert page.inner_text("#move-error") == ""
    new_meld = page.locator(".table-melds .table-meld").last
    assert new_meld.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)") == wanted
    assert len(tablekit.hand(page)) == len(hand_before) + len(remi_row.along) + 1 - len(wanted)
    assert page.locator(f'.discards [data-card="{remi_row.card}"]').count() == 0
    assert page.get_by_role("button", name="Discard selected").count() == 1


def _remi_match(options: dict[str, Any], secret: bytes) -> tuple[Match, list[Any]]:
    users = tablekit.users(2)
    return tablekit.start_match("remi", options, users, secret, name="Remi"), users


@pytest.fixture
def finished(transactional_db: None) -> tuple[int, Seat, list[str]]:
    """A one-round Remi match played to its end."""
    match, users = _remi_match({"max_players": 2, "rounds": 1}, b"browser remi finished")
    match = tablekit.play_bots_until(match, users, lambda state: state.is_over)
    winners = [NAMES[seat] for seat in match.game_state().winners]
    return match.pk, tablekit.seat_of(users, 0), winners


def test_the_end_of_the_match_shows_the_winners_and_the_scores(
    finished: tuple[int, Seat, list[str]], server_url: str, browser: Any
) -> None:
    match_id, seat, winners = finished
    page = tablekit.open_page(browser, server_url, match_id, seat)

    banner = page.inner_text("#tbl-summary")
    assert "Match over" in banner
    for name in winners:
        assert name in banner
    assert page.inner_text("#turn-line") == "The match is over"
    assert page.locator(".scores-table tbody tr").count() == 2  # round 1 and the totals
    assert page.locator("#controls button").count() == 0


@pytest.fixture
def paused(transactional_db: None, settings: Any) -> tuple[int, Seat, str]:
    """A Remi match just after its first round ended, with a long pause before the next one."""
    settings.ROUND_PAUSE_SECONDS = 120
    match, users = _remi_match({"max_players": 2, "rounds": 3}, b"browser remi pause")
    match = tablekit.play_bots_until(match, users, lambda state: state.round_no == 2)
    from games.play import selectors

    if "clock" not in selectors.match_frame_for(match_id=match.pk, user=users[0]):
        pytest.skip("state frames carry no clock yet")
    seat = match.game_state().turn
    commitment = match.rounds.get(number=2).commitment
    return match.pk, tablekit.seat_of(users, seat), commitment


def test_the_pause_between_rounds_counts_down_with_the_round_lines(
    paused: tuple[int, Seat, str], server_url: str, browser: Any, screenshot: tablekit.Screenshot
) -> None:
    match_id, seat, commitment = paused
    page = tablekit.open_page(browser, server_url, match_id, seat)

    banner = page.inner_text("#tbl-summary")
    assert "Round 1 is over" in banner
    assert re.search(r"Next round in [0-2]:\d\d", banner)
    for name in NAMES:
        assert f"{name}:" in banner  # each seat's line for the round
    assert page.inner_text("#turn-line") == "Pause between rounds"
    assert page.inner_text("#turn-timer") == ""
    assert page.get_by_role("button", name="Draw from stock").count() == 0
    assert page.locator(".scores-table tbody tr").count() == 2
    # The next deal's commitment is on the table before anyone plays it (the one stored for it).
    assert page.get_attribute("#fair-deal", "data-commitment") == commitment
    assert commitment[:16] in page.inner_text("#fair-deal")
    screenshot(page, "table-pause.png", full_page=False)


@dataclass(frozen=True)
class JokerSwap:
    match_id: int
    player: Seat
    move: dict[str, Any]  # a play with an exchange, as the engine's search found it
    hand: list[str]


@pytest.fixture(params=["remik51", "remi"])
def joker_swap(request: pytest.FixtureRequest, transactional_db: None) -> JokerSwap:
    """A match played by the bot for both seats until the seat to move can exchange a joker."""
    variant = request.param
    users = tablekit.users(2)
    options = {"max_players": 2} if variant == "remi" else {}
    match = tablekit.start_match(variant, options, users, b"x0", name="Joker")
    found: list[Any] = []

    def can_swap(state: Any) -> bool:
        if state.phase != "play" or not state.cycle.opened[state.turn]:
            return False
        found[:] = [p for p in play_options(state, state.turn) if p.exchanges and not p.layoffs]
        return bool(found)

    match = tablekit.play_bots_until(match, users, can_swap)
    state = match.game_state()
    seat = state.turn
    return JokerSwap(
        match_id=match.pk,
        player=tablekit.seat_of(users, seat),
        move=engine.move_to_json(found[0]),
        hand=[str(card) for card in state.hands[seat]],
    )


def test_a_joker_is_exchanged_through_the_page(joker_swap: JokerSwap, server_url: str, browser: Any) -> None:
    page = tablekit.open_page(browser, server_url, joker_swap.match_id, joker_swap.player)
    start = tablekit.version(page)
    move = joker_swap.move
    (exchange,) = move["exchanges"]

    page.locator(f'#hand button[data-card="{exchange["card"]}"]').click()
    page.locator(f'[data-key="exchange:{exchange["meld"]}"]').click()
    assert page.locator(".draft-exchange").count() == 1
    # The joker freed by the exchange can be used in this move; it waits in the hand meanwhile.
    assert page.locator('#hand button[data-card="JK"]').count() == 1
    for meld in move.get("melds", []):
        for text in meld:
            card = text.split("(")[0]
            freed = card.startswith("JK") and card not in joker_swap.hand
            page.locator(f'#hand button[data-card="{"JK" if freed else card}"]').click()
        tablekit.click(page, "New meld from selected")
        for position, text in enumerate(meld):
            card = text.split("(")[0]
            shown = page.locator(".draft-meld").last.locator(".draft-card .card")
            current = [c.split("(")[0] for c in shown.evaluate_all("els => els.map(e => e.dataset.card)")]
            at = current.index(card) if card in current else current.index("JK")
            while at > position:
                page.locator(".draft-meld").last.locator(".shift button").nth(2 * at).click()
                at -= 1
            if "(" in text:  # the declared card of a joker
                select = (
                    page.locator(".draft-meld")
                    .last.locator("select")
                    .nth(sum(t.startswith("JK") for t in meld[:position]))
                )
                select.select_option(text.split("(")[1].rstrip(")"))
    tablekit.click(page, "Lay down")
    tablekit.wait_version(page, start + 1)

    assert page.inner_text("#move-error") == ""
    swapped = page.locator(f'.table-meld[data-meld="{exchange["meld"]}"] .card')
    assert exchange["card"] in swapped.evaluate_all("els => els.map(e => e.dataset.card)")
    laid = sum(len(meld) for meld in move.get("melds", []))
    # Out: the card put in the joker's place and the cards melded; in: the joker.
    assert len(tablekit.hand(page)) == len(joker_swap.hand) - 1 - laid + 1


def _tab_to(page: Any, selector: str, limit: int = 60) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({json.dumps(selector)})"):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_turn_can_be_played_with_the_keyboard(table: TableSetup, server_url: str, browser: Any) -> None:
    page = tablekit.open_page(browser, server_url, table.match_id, table.mover)
    start = tablekit.version(page)

    _tab_to(page, "#hand button.card")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none"), "keyboard focus is visible"
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    card = page.evaluate("document.activeElement.dataset.card")
    page.keyboard.press("Space")
    assert page.get_attribute(f'#hand button[data-card="{card}"]', "aria-pressed") == "true"
    _tab_to(page, '[data-key="discard"]')
    page.keyboard.press("Enter")
    tablekit.wait_version(page, start + 1)

    assert page.locator(f'.discards [data-card="{card}"]').count() == 1
    assert card not in tablekit.hand(page)
