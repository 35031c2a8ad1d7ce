"""The table's modules (static/js/table/) run in the browser on their own: plain functions of the
rack (rack.js) called through a dynamic import on a page of the site, no game needed."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.timeout(120)


def _reconcile(page: Any, slots: list[str | None] | None, keys: list[str]) -> list[str | None]:
    return list(
        page.evaluate(
            """async ([slots, keys]) => {
                const rack = await import("/static/js/table/rack.js");
                return rack.reconcile(slots, keys);
            }""",
            [slots, keys],
        )
    )


def test_a_new_deal_lays_the_new_hand_side_by_side_from_the_first_slot_issue_14_item_4(
    server_url: str, browser: Any
) -> None:
    page = browser.new_page()
    page.goto(f"{server_url}/")
    old = ["AS", "2S", "3S", None, "9H", "9D", "9C", None, "KD", None, None, "5C"]
    new = ["4H", "7C", "8C", "JD", "QS", "TS", "2D", "5S", "6S", "AH", "KC", "3D", "6D"]

    rack = _reconcile(page, old, new)

    # Every card of the old rack has left: the rack is a new one, the cards in hand order with no
    # gaps between them (before the fix each new card took a slot apart, over two or three rows).
    assert rack[: len(new)] == new
    assert all(slot is None for slot in rack[len(new) :])


def test_cards_still_in_hand_keep_their_slots_and_a_drawn_card_stands_apart(
    server_url: str, browser: Any
) -> None:
    page = browser.new_page()
    page.goto(f"{server_url}/")
    old = ["AS", "2S", "3S", None, "9H", "9D", "9C"]

    rack = _reconcile(page, old, ["AS", "2S", "3S", "9H", "9D", "9C", "KD"])

    assert rack[:7] == old
    assert rack.index("KD") >= 8  # after a gap: it joins no block
    assert rack[rack.index("KD") - 1] is None
