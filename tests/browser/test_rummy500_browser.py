"""Rummy 500 on the table page: a player reaches deep into the fanned discard row; the cards above
come along into the hand, the card reached for goes into a new meld in the same move, and the
running total (plus points for the cards laid this deal) goes up by the meld's points.

The position is reached by the bot playing both seats through the services (deterministic given
the secret); the take is made by clicking the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from games.engine import view_for
from games.engine.rummy.moves import take_options
from tests.browser.tablekit import (
    Seat,
    click,
    hand,
    open_page,
    play_bots_until,
    seat_of,
    start_match,
    users,
    version,
    wait_version,
)


@dataclass(frozen=True)
class DeepTake:
    match_id: int
    player: Seat
    card: str  # the discard reached for, below the top of the row
    meld: list[str]  # the new meld that uses it, in an order the engine accepts
    along: list[str]  # the cards above it, which come into the hand too
    points: int  # what the meld scores
    running: int  # the player's running total before the take


@pytest.fixture
def deep_take(transactional_db: None) -> DeepTake:
    players = users(2)
    match = start_match("rummy500", {}, players, b"browser rummy500 row", name="Row")
    found: list[Any] = []

    def reachable(state: Any) -> bool:
        if state.phase != "draw":
            return False
        for take in take_options(state, state.turn):
            index = len(state.discard) - 1 - list(reversed(state.discard)).index(take.card)
            plain = not take.play.layoffs and not take.play.exchanges and len(take.play.melds) == 1
            if len(state.discard) - index > 1 and plain:
                found[:] = [take, index]
                return True
        return False

    match = play_bots_until(match, players, reachable)
    state = match.game_state()
    take, index = found
    (meld,) = take.play.melds
    seat = state.turn
    return DeepTake(
        match_id=match.pk,
        player=seat_of(players, seat),
        card=str(take.card),
        meld=[str(card) for card in meld],
        along=[str(card) for card in state.discard[index + 1 :]],
        points=state.rules.meld_points(meld),
        running=view_for(state, seat)["running_totals"][seat],
    )


def test_a_rummy500_player_takes_deep_from_the_row(
    deep_take: DeepTake, server_url: str, browser: Any
) -> None:
    page = open_page(browser, server_url, deep_take.match_id, deep_take.player)
    start = version(page)
    seat = deep_take.player.seat
    hand_before = hand(page)
    assert "highest total past 500 wins" in page.inner_text("#scoring")
    assert page.locator(".discards.row").count() == 1

    page.locator(f'.discards button[data-card="{deep_take.card}"]').click()
    along = page.eval_on_selector_all(".discards .card.along", "els => els.map(e => e.dataset.card)")
    assert along == deep_take.along
    assert "along" in page.inner_text("#draft")  # "comes along" for one card, "come along" for more
    for card in deep_take.meld:
        if card != deep_take.card:
            page.locator(f'#hand button[data-card="{card}"]').click()
    click(page, "New meld from selected")
    for position, card in enumerate(deep_take.meld):  # the engine's order (the hand sorts an ace high)
        current = page.eval_on_selector_all(
            ".draft-meld .draft-card .card", "els => els.map(e => e.dataset.card)"
        )
        at = current.index(card)
        while at > position:
            page.locator(".draft-meld .shift button").nth(2 * at).click()
            at -= 1
            # The draft is drawn again after each shift: wait for the card to be where it went.
            page.wait_for_function(
                "([card, at]) => [...document.querySelectorAll('.draft-meld .draft-card .card')]"
                ".map(e => e.dataset.card).indexOf(card) === at",
                arg=[card, at],
            )
    click(page, "Take and lay down")
    wait_version(page, start + 1)

    assert page.inner_text("#move-error") == ""
    laid = page.locator(".table-melds .table-meld").last
    assert laid.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)") == deep_take.meld
    assert f"{deep_take.points} pts" in laid.inner_text()
    assert len(hand(page)) == len(hand_before) + len(deep_take.along) + 1 - len(deep_take.meld)
    running = page.locator(".scores-table .running-row td").all_inner_texts()
    assert int(running[seat]) == deep_take.running + deep_take.points
    assert page.get_by_role("button", name="Discard selected", exact=True).count() == 1
