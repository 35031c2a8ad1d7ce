"""Remik 40 on the table page: the joker of a set of three comes back for both missing cards (two
exchanges on that meld in one play), and goes at once into a new meld with a declaration. The
page shows one freed joker, not two, and the table's prize pool.

The position is reached by the bot playing both seats through the services (deterministic given
the secret); the play is made by clicking the page.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import engine
from games.engine.rummy.moves import play_options
from tests.browser.tablekit import (
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


@pytest.fixture
def recovery(transactional_db: None) -> tuple[int, Any, dict[str, Any]]:
    players = users(2)
    match = start_match("remik40", {}, players, b"r40 78", name="Remik 40")
    found: list[Any] = []

    def two_exchanges(state: Any) -> bool:
        if state.phase != "play" or not state.cycle.opened[state.turn]:
            return False
        found[:] = [
            p
            for p in play_options(state, state.turn)
            if len(p.exchanges) == 2 and p.exchanges[0].meld == p.exchanges[1].meld and len(p.melds) == 1
        ]
        return bool(found)

    match = play_bots_until(match, players, two_exchanges, limit=200)
    state = match.game_state()
    return match.pk, seat_of(players, state.turn), engine.move_to_json(found[0])


def test_a_set_joker_comes_back_for_both_missing_cards(
    recovery: tuple[int, Any, dict[str, Any]], server_url: str, browser: Any
) -> None:
    match_id, seat, move = recovery
    page = open_page(browser, server_url, match_id, seat)
    start = version(page)
    hand_before = hand(page)
    assert "Prize pool 200 chips" in page.inner_text("#deal-info")

    first, second = move["exchanges"]
    meld_id = first["meld"]
    for exchange in (first, second):
        page.locator(f'#hand button[data-card="{exchange["card"]}"]').click()
        page.locator(f'[data-key="exchange:{meld_id}"]').click()
    assert page.locator(".draft-exchange").count() == 2
    assert page.locator('#hand button[data-card="JK"]').count() == 1  # one joker comes back, not two

    (meld,) = move["melds"]
    for text in meld:
        card = text.split("(")[0]
        freed = card.startswith("JK") and card not in hand_before
        page.locator(f'#hand button[data-card="{"JK" if freed else card}"]').click()
    click(page, "New meld from selected")
    for position, text in enumerate(meld):
        card = text.split("(")[0]
        shown = page.locator(".draft-meld").last.locator(".draft-card .card")
        current = [c.split("(")[0] for c in shown.evaluate_all("els => els.map(e => e.dataset.card)")]
        at = current.index(card) if card in current else current.index("JK")
        while at > position:
            page.locator(".draft-meld").last.locator(".shift button").nth(2 * at).click()
            at -= 1
        if "(" in text:
            page.locator(".draft-meld").last.locator("select").first.select_option(
                text.split("(")[1].rstrip(")")
            )
    click(page, "Lay down")
    wait_version(page, start + 1)

    assert page.inner_text("#move-error") == ""
    recovered = page.locator(f'.table-meld[data-meld="{meld_id}"] .card')
    cards = recovered.evaluate_all("els => els.map(e => e.dataset.card)")
    assert first["card"] in cards
    assert second["card"] in cards
    # Out: the two cards put in the joker's place and the new meld's cards from the hand; in: the joker.
    assert len(hand(page)) == len(hand_before) - 2 - (len(meld) - 1)
    assert js_errors(page) == []
