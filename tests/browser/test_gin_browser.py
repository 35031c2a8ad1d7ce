"""A deal of gin played to its scored end by two people, each in their own browser.

The secret is chosen with the engine (the bot's choices for both seats from the deal): the
non-dealer passes the up-card, the dealer takes it, both draw and discard, one knocks with a few
loose points, and the defender lays one card off onto the knocker's melds before pressing Done.
The game is played to 10 points, so this one deal ends the match: the page shows the score lines,
the deals won and the settlement. Every move is made by clicking the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from games import engine
from games.engine.bots import choose_move
from games.engine.moves import Discard, DrawStock, Knock, Pass, Play, TakeDiscard
from tests.browser.tablekit import (
    NAMES,
    Screenshot,
    Seat,
    click,
    hand,
    js_errors,
    open_page,
    play_bots_until,
    seat_of,
    start_match,
    users,
    version,
    wait_version,
)

pytestmark = pytest.mark.timeout(240)

OPTIONS = {"target": 10}


@dataclass(frozen=True)
class GinDeal:
    secret: bytes
    moves: list[tuple[int, Any]]  # (seat, move) up to and including the knock
    deadwood: int  # the knocker's deadwood after the best discard, as its view says before knocking
    layoff: tuple[int, str]  # the defender's lay-off: (table meld id, card)
    totals: list[int]
    winners: list[int]
    net: list[int]


def _find_deal() -> GinDeal:
    rules = engine.variant("gin", **OPTIONS)
    for n in range(5000):
        secret = f"browser gin {n}".encode()
        state = engine.new_game(rules, list(NAMES[:2]), secret)
        moves: list[tuple[int, Any]] = []
        deadwood = -1
        while len(moves) < 22 and state.cycle.step in ("offer", "turn"):
            view = engine.view_for(state, state.turn)
            move = choose_move(view)
            if isinstance(move, Knock):
                deadwood = view["you"]["deadwood"]
            moves.append((state.turn, move))
            state = engine.apply_move(state, state.turn, move).state
        kinds = [type(move) for _, move in moves]
        if state.cycle.step != "reply" or kinds[:2] != [Pass, TakeDiscard] or state.cycle.knock.gin:
            continue
        defender = state.turn
        single = [
            move
            for move in engine.legal_moves(state, defender)
            if isinstance(move, Play)
            and not move.melds
            and len(move.layoffs) == 1
            and len(move.layoffs[0].cards) == 1
        ]
        if not single:
            continue
        after = engine.apply_move(state, defender, single[0]).state
        if after.cycle.step != "reply":
            continue
        final = engine.apply_move(after, defender, Pass()).state
        if final.phase != "over":
            continue
        layoff = single[0].layoffs[0]
        return GinDeal(
            secret=secret,
            moves=moves,
            deadwood=deadwood,
            layoff=(layoff.meld, str(layoff.cards[0])),
            totals=list(final.totals),
            winners=list(final.winners),
            net=list(final.cycle.settlement["net"]),
        )
    raise AssertionError("no suitable gin deal among the candidates")


@pytest.fixture
def gin_table(transactional_db: None) -> tuple[int, list[Seat], GinDeal]:
    deal = _find_deal()
    players = users(2)
    match = start_match("gin", OPTIONS, players, deal.secret, name="Gin table")
    return match.pk, [seat_of(players, 0), seat_of(players, 1)], deal


def _select(page: Any, card: str) -> None:
    page.locator(f'#hand button[data-card="{card}"]').click()
    assert page.get_attribute(f'#hand button[data-card="{card}"]', "aria-pressed") == "true"


def test_a_gin_deal_is_played_through_the_page_to_its_score(
    gin_table: tuple[int, list[Seat], GinDeal], server_url: str, browser: Any, screenshot: Screenshot
) -> None:
    match_id, seats, deal = gin_table
    pages = [
        open_page(browser, server_url, match_id, seat, viewport={"width": 390, "height": 844})
        for seat in seats
    ]
    at = version(pages[0])
    offered = deal.moves[0][0]
    dealer = 1 - offered

    # The up-card offer: the non-dealer sees it offered to them, the dealer waits.
    assert pages[offered].inner_text("#turn-line") == "Your turn: take the up-card or pass"
    assert "offered to you" in pages[offered].inner_text("#offer")
    assert pages[dealer].inner_text("#turn-line") == f"{NAMES[offered]} is offered the up-card"
    assert "knock with up to 10 loose points" in pages[offered].inner_text("#deal-info")
    assert "dealer" in pages[offered].locator(f'.player[data-seat="{dealer}"]').inner_text()
    assert pages[dealer].get_by_role("button", name="Pass", exact=True).count() == 0

    knocker = deal.moves[-1][0]
    for number, (seat, move) in enumerate(deal.moves):
        page = pages[seat]
        other = pages[1 - seat]
        if isinstance(move, Pass):
            click(page, "Pass")
        elif isinstance(move, TakeDiscard) and number == 1:
            assert "passed" in page.inner_text("#offer")
            click(page, "Take the up-card")
        elif isinstance(move, TakeDiscard):
            top = page.eval_on_selector_all(".discards .card", "els => els.map(e => e.dataset.card)")[-1]
            page.locator(f'.discards button[data-card="{top}"]').click()  # the face-up card itself
        elif isinstance(move, DrawStock):
            click(page, "Draw from stock")
        elif isinstance(move, Discard):
            _select(page, str(move.card))
            click(page, "Discard selected")
        elif isinstance(move, Knock):
            assert page.inner_text("#deadwood") == f"Deadwood: {deal.deadwood}"
            assert "You can knock" in page.inner_text("#knock-ready")
            assert page.inner_text("#turn-line") == "Your turn: discard or knock"
            _select(page, str(move.card))
            click(page, "Knock, discarding selected")
        else:
            raise AssertionError(f"unexpected move {move!r}")
        at += 1
        wait_version(page, at)
        wait_version(other, at)
        assert page.inner_text("#move-error") == ""
        if isinstance(move, TakeDiscard):
            # The card just taken is marked in the hand and may not be discarded this turn.
            taken = page.locator("#hand button.card", has_text="taken")
            assert taken.count() == 1
            taken.click()
            assert page.get_by_role("button", name="Discard selected", exact=True).is_disabled()
            taken.click()
        if isinstance(move, DrawStock):
            assert len(hand(page)) == 11
            assert "drew from the stock" in other.inner_text("#tbl-events")

    # The knock: both pages show the knocker's melds and loose cards; the defender replies.
    defender = 1 - knocker
    reply = pages[defender]
    panel = reply.inner_text("#knock-panel")
    assert f"{NAMES[knocker]} knocked with {deal.deadwood} loose point" in panel
    loose = reply.locator("#knock-panel .loose .card").count()
    assert loose >= 1  # no gin: some loose cards, shown face up
    assert f"{loose} cards" in reply.locator(f'.player[data-seat="{knocker}"]').inner_text()
    assert reply.inner_text("#turn-line") == "Your turn: lay off, then done"
    assert pages[knocker].inner_text("#turn-line") == f"{NAMES[defender]} is laying off"
    melds_before = reply.locator(".table-melds .table-meld").count()
    assert melds_before >= 1
    screenshot(reply, "table-gin-reply-390x844.png")

    meld, card = deal.layoff
    _select(reply, card)
    reply.locator(f'[data-key="layoff:{meld}"]').click()
    assert reply.locator(".draft-layoff").count() == 1
    click(reply, "Lay down")
    at += 1
    wait_version(reply, at)
    wait_version(pages[knocker], at)
    assert reply.inner_text("#move-error") == ""
    laid = pages[knocker].locator(f'.table-meld[data-meld="{meld}"] .card')
    assert card in laid.evaluate_all("els => els.map(e => e.dataset.card)")
    assert "lay-offs" in pages[knocker].inner_text(f'.table-meld[data-meld="{meld}"] .meld-label')

    click(reply, "Done")
    at += 1
    for page in pages:
        wait_version(page, at)
        banner = page.inner_text("#tbl-summary")
        assert "Match over" in banner
        assert ", ".join(NAMES[s] for s in deal.winners) in banner
        assert "Settlement:" in banner
        assert page.inner_text("#turn-line") == "The match is over"
        assert page.locator("#controls button").count() == 0
        # The deal's score line, the totals, the deals won and the settlement.
        row = page.locator(".scores-table tbody tr").first.locator("td").all_inner_texts()
        assert row == [f"+{t}" if t > 0 else "0" for t in deal.totals]
        totals = page.locator(".scores-table .totals-row td").all_inner_texts()
        assert totals == [str(t) for t in deal.totals]
        won = page.locator(".scores-table .deals-row td").all_inner_texts()
        assert won == ["1" if s in deal.winners else "0" for s in range(2)]
        settled = page.locator(".scores-table .settled-row td").all_inner_texts()
        assert settled == [f"+{n}" if n > 0 else str(n) for n in deal.net]
        assert "game won by" in page.inner_text("#settlement")
    screenshot(pages[knocker], "table-gin-over-390x844.png")
    assert [js_errors(page) for page in pages] == [[], []]


@dataclass(frozen=True)
class Arranged:
    match_id: int
    knocker: Seat
    defender: Seat
    card: str  # the knock's discard
    melds: list[list[str]]  # the knocker's melds, low to high
    defender_melds: list[list[str]]  # what "Use best melds" puts in the defender's reply


@pytest.fixture
def arranged(transactional_db: None) -> Arranged:
    """Oklahoma, played by the bot until the seat to move may knock with melds of its choosing."""
    rules = engine.variant("oklahoma")
    for n in range(200):
        secret = f"browser oklahoma {n}".encode()
        state = engine.new_game(rules, list(NAMES[:2]), secret)
        for _ in range(60):
            if state.round_no != 1 or state.phase == "over":
                break
            view = engine.view_for(state, state.turn)
            you = view["you"]
            if "knock" in you["moves"] and you["deadwood"] > 0:
                used = {card for meld in you["best_melds"] for card in meld}
                for card in you["knock_discards"]:
                    if card in used:
                        continue
                    move = Knock(
                        engine.parse_card(card), tuple(engine.parse_cards(m) for m in you["best_melds"])
                    )
                    after = engine.apply_move(state, state.turn, move).state
                    reply = engine.view_for(after, after.turn)["you"]
                    if reply["best_melds"]:
                        break
                else:
                    state = engine.apply_move(state, state.turn, choose_move(view)).state
                    continue
                players = users(2)
                match = start_match("oklahoma", {}, players, secret, name="Oklahoma")
                match = play_bots_until(match, players, lambda s, v=state.moves_played: s.moves_played == v)
                seat = state.turn
                return Arranged(
                    match_id=match.pk,
                    knocker=seat_of(players, seat),
                    defender=seat_of(players, 1 - seat),
                    card=card,
                    melds=you["best_melds"],
                    defender_melds=reply["best_melds"],
                )
            state = engine.apply_move(state, state.turn, choose_move(view)).state
    raise AssertionError("no knock with melds came up")


def _order_draft_meld(page: Any, wanted: list[str]) -> None:
    """Shift the cards of the last new meld into ``wanted``'s order (runs are written low to high)."""
    meld = page.locator(".draft-meld").last
    for position, card in enumerate(wanted):
        current = meld.locator(".draft-card .card").evaluate_all("els => els.map(e => e.dataset.card)")
        at = current.index(card)
        while at > position:
            meld.locator(".shift button").nth(2 * at).click()
            at -= 1


def test_a_knock_with_melds_of_ones_choosing_and_a_reply_with_the_best_melds(
    arranged: Arranged, server_url: str, browser: Any
) -> None:
    page = open_page(browser, server_url, arranged.match_id, arranged.knocker)
    other = open_page(browser, server_url, arranged.match_id, arranged.defender)
    at = version(page)
    assert "knock with up to" in page.inner_text("#knock-limit") or "gin only" in page.inner_text(
        "#knock-limit"
    )

    for meld in arranged.melds:
        for card in meld:
            _select(page, card)
        click(page, "New meld from selected")
        _order_draft_meld(page, meld)
    assert page.locator(".draft-meld").count() == len(arranged.melds)
    assert (
        page.get_by_role("button", name="Lay down", exact=True).count() == 0
    )  # nothing is laid but by a knock
    _select(page, arranged.card)
    click(page, "Knock, discarding selected")
    at += 1
    wait_version(page, at)
    wait_version(other, at)
    assert page.inner_text("#move-error") == ""
    table = [
        meld.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)")
        for meld in other.locator(".table-melds .table-meld").all()
    ]
    assert table == arranged.melds
    assert "discarded" in other.inner_text("#knock-panel")

    click(other, "Use best melds")
    assert other.locator(".draft-meld").count() == len(arranged.defender_melds)
    click(other, "Lay down")
    at += 1
    wait_version(other, at)
    assert other.inner_text("#move-error") == ""
    assert other.locator(".table-melds .table-meld").count() >= len(arranged.melds) + len(
        arranged.defender_melds
    )
    click(other, "Done")
    at += 1
    wait_version(other, at)
    wait_version(page, at)
    assert other.inner_text("#move-error") == ""
    # The deal is scored into the first column.
    assert other.locator(".scores-table tbody tr").count() == 2
    assert other.locator("#columns tbody tr").count() == 3
