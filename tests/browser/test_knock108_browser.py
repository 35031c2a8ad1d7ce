"""Knock-108 on the table page: three players, the pool and the chips, plain turns with a take from
the discard pile, a knock followed by the others' extra exchange (one passes, one draws and
discards) and the deal's score lines and chips, and a player who is out buying back in.

Positions are reached by the bot playing every seat through the services (deterministic given
the secret); the moves under test are made by clicking the page.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import engine
from games.engine.bots import choose_move
from games.play.models import Match
from tests.browser.tablekit import (
    NAMES,
    Screenshot,
    Seat,
    click,
    close_drawer,
    hand,
    js_errors,
    open_drawer,
    open_page,
    play_bots_until,
    seat_of,
    start_match,
    users,
    version,
    wait_version,
)

pytestmark = pytest.mark.timeout(240)

PLAYERS = 3


def _pages(browser: Any, server_url: str, match_id: int, seats: list[Seat]) -> list[Any]:
    return [open_page(browser, server_url, match_id, seat) for seat in seats]


@pytest.fixture
def fresh_table(transactional_db: None) -> tuple[int, list[Seat], int]:
    players = users(PLAYERS)
    match = start_match("knock108", {}, players, b"browser knock108 smoke", name="Knock table")
    dealer = match.game_state().turn
    return match.pk, [seat_of(players, i) for i in range(PLAYERS)], dealer


def test_a_knock108_table_renders_and_plays_turns(
    fresh_table: tuple[int, list[Seat], int], server_url: str, browser: Any
) -> None:
    match_id, seats, dealer = fresh_table
    pages = _pages(browser, server_url, match_id, seats)
    at = version(pages[0])
    nxt = (dealer + 1) % PLAYERS

    for page in pages:
        assert "Pool 30 chips" in page.inner_text("#deal-info")
        assert "knock with at most 5 loose points" in page.inner_text("#deal-info")
        assert page.locator(".players .player").count() == PLAYERS
        assert page.locator(".scores-table .chips-row td").all_inner_texts() == ["-10"] * PLAYERS
        assert "lowest is best" in page.inner_text("#scoring")
    dealer_page = pages[dealer]
    assert len(hand(dealer_page)) == 11
    assert dealer_page.inner_text("#turn-line") in (
        "Your turn: discard or knock",
        "Your turn: discard a card",
    )
    assert "Loose points:" in dealer_page.inner_text("#knock-info")

    # The dealer's first discard reaches every page.
    card = hand(dealer_page)[0]
    dealer_page.locator(f'#hand button[data-card="{card}"]').click()
    click(dealer_page, "Discard selected")
    at += 1
    for page in pages:
        wait_version(page, at)
        assert page.locator(f'.discards [data-card="{card}"]').count() == 1

    # The next player takes it (a move of its own), may not discard it, and discards another.
    page = pages[nxt]
    assert page.inner_text("#turn-line") == "Your turn: draw a card"
    page.locator(f'.discards button[data-card="{card}"]').click()
    at += 1
    wait_version(page, at)
    assert page.inner_text("#move-error") == ""
    assert len(hand(page)) == 11
    taken = page.locator(f'#hand button[data-card="{card}"]')
    assert "taken" in taken.inner_text()
    taken.click()
    assert page.get_by_role("button", name="Discard selected", exact=True).is_disabled()
    taken.click()
    other = next(c for c in hand(page) if c.split("#")[0] != card.split("#")[0])  # not its twin either
    page.locator(f'#hand button[data-card="{other}"]').click()
    click(page, "Discard selected")
    at += 1
    wait_version(pages[dealer], at)
    assert f"{NAMES[nxt]} discarded" in pages[dealer].inner_text("#tbl-events").lower()
    assert pages[(nxt + 1) % PLAYERS].inner_text("#turn-line") == "Your turn: draw a card"


def _find_knock(limit: int = 200) -> bytes:
    """A secret whose first deal offers some seat a plain knock (the bots playing until then)."""
    rules = engine.variant("knock108")
    for n in range(limit):
        secret = f"browser knock108 {n}".encode()
        state = engine.new_game(rules, list(NAMES[:PLAYERS]), secret)
        for _ in range(120):
            view = engine.view_for(state, state.turn)
            hint = view["you"]["knock"]
            if hint and hint["kind"] == "knock":
                return secret
            if hint:
                break  # gin or a special hand: no extra exchange follows
            state = engine.apply_move(state, state.turn, choose_move(view)).state
            if state.round_no != 1:
                break
    raise AssertionError("no knock came up")


@pytest.fixture
def knock_ready(transactional_db: None) -> tuple[int, list[Seat], int]:
    players = users(PLAYERS)
    match = start_match("knock108", {}, players, _find_knock(), name="Knock table")

    def can_knock(state: Any) -> bool:
        hint = engine.view_for(state, state.turn)["you"]["knock"]
        return bool(hint) and hint["kind"] == "knock"

    match = play_bots_until(match, players, can_knock)
    return match.pk, [seat_of(players, i) for i in range(PLAYERS)], match.game_state().turn


def test_a_knock_then_the_extra_exchange_then_the_score(
    knock_ready: tuple[int, list[Seat], int], server_url: str, browser: Any, screenshot: Screenshot
) -> None:
    match_id, seats, knocker = knock_ready
    pages = _pages(browser, server_url, match_id, seats)
    at = version(pages[0])
    page = pages[knocker]
    assert "You can end the deal" in page.inner_text("#knock-ready")
    button = page.locator('[data-key="knock-best"]')
    assert button.inner_text().startswith("Knock: discard ")
    button.click()
    at += 1
    for p in pages:
        wait_version(p, at)
        name = "You" if p is page else NAMES[knocker]
        assert f"{name} knocked with" in p.inner_text("#knock-panel")
        assert p.locator(".table-melds .table-meld").count() >= 1

    first = (knocker + 1) % PLAYERS
    second = (knocker + 2) % PLAYERS
    assert pages[first].inner_text("#turn-line") == "Your turn: extra exchange or pass"
    assert "one extra exchange" in pages[first].inner_text("#knock-info")
    assert pages[second].inner_text("#turn-line").endswith("s extra exchange")
    assert pages[second].inner_text("#turn-line").startswith(NAMES[first])
    screenshot(pages[first], "table-knock108-exchange-desktop.png")
    click(pages[first], "Pass (no exchange)")
    at += 1
    wait_version(pages[second], at)

    page = pages[second]
    assert page.inner_text("#turn-line") == "Your turn: extra exchange or pass"
    before = set(hand(page))
    click(page, "Draw from stock")
    at += 1
    wait_version(page, at)
    (drawn,) = set(hand(page)) - before
    page.locator(f'#hand button[data-card="{drawn}"]').click()
    click(page, "Discard selected")
    at += 1

    # The deal is scored: a line per seat, the records, the chips moved, the ledger and the summary.
    for p in pages:
        wait_version(p, at)
    state = Match.objects.get(pk=match_id).game_state()
    (result,) = state.results
    for p in pages:
        row = p.locator(".scores-table tbody tr").first.locator("td").all_inner_texts()
        assert row == [str(line.points) for line in result.lines]
        chips = p.locator(".scores-table .chips-row td").all_inner_texts()
        assert chips == [f"+{c}" if c > 0 else str(c) for c in state.cycle.chips]
        assert p.locator("#ledger").count() == 1
        summary = p.locator("#last-deal").text_content() or ""
        assert f"{NAMES[knocker]}: [" in summary  # the knocker's melds, then everyone's loose cards
        assert js_errors(p) == []


@pytest.fixture
def buy_back(transactional_db: None) -> tuple[int, Seat, int]:
    players = users(PLAYERS)
    match = start_match("knock108", {}, players, b"dump", name="Knock table")
    match = play_bots_until(match, players, lambda s: s.cycle.stage == "buy_back")
    seat = match.game_state().turn
    return match.pk, seat_of(players, seat), seat


def test_a_player_who_is_out_buys_back_in(
    buy_back: tuple[int, Seat, int], server_url: str, browser: Any, screenshot: Screenshot
) -> None:
    match_id, seat, index = buy_back
    page = open_page(browser, server_url, match_id, seat, viewport={"width": 390, "height": 844})
    at = version(page)
    me = page.locator(f'.player[data-seat="{index}"]')
    assert "out" in me.get_attribute("class").split()
    assert page.inner_text("#turn-line") == "Your turn: buy back in or stay out"
    assert "may buy back in for 30 chips" in page.inner_text("#buy-back-panel")
    assert page.locator("#hand button").count() == 0
    chips_before = page.locator(".scores-table .chips-row td").all_inner_texts()[index]
    assert page.get_by_role("button", name="Stay out", exact=True).is_enabled()
    screenshot(page, "table-knock108-buy-back-390x844.png")

    open_drawer(page, "scores")
    page.locator("#ledger summary").click()  # an opened section stays open when a frame arrives
    close_drawer(page)
    click(page, "Buy back in (30 chips)")
    wait_version(page, at + 1)
    assert page.locator("#ledger").get_attribute("open") is not None
    assert "buy back" in page.inner_text("#ledger")
    assert page.inner_text("#move-error") == ""
    assert len(hand(page)) == 10
    assert "out" not in me.get_attribute("class").split()
    assert "bought back 1" in me.inner_text()
    chips_after = page.locator(".scores-table .chips-row td").all_inner_texts()[index]
    assert int(chips_after) == int(chips_before) - 30
    assert "bought back in for 30 chips" in page.inner_text("#tbl-events")
