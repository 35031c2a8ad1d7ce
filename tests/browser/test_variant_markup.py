"""The match page's snapshot (what is served before the script takes over, and all a visitor
without JavaScript gets) for every variant: the facts of the deal and score columns that fit it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import engine
from tests.browser.tablekit import play_bots_until, start_match, users

EXPECTED = {
    "gin": ("Face-up pile", "Up-card", "knock with up to 10 loose points"),
    "oklahoma": ("Face-up pile", "Up-card"),
    "knock108": ("Pool 20 chips", "In game", "Record"),
    "remik40": ("Prize pool 200 chips",),
    "rummy500": ("Discard pile", "Opened"),
    "remik51": ("Discard pile", "Opened"),
    "remi": ("Discard pile", "Opened"),
}


def test_every_variant_is_expected() -> None:
    assert set(EXPECTED) == set(engine.variant_names())


@pytest.mark.parametrize("variant", sorted(EXPECTED))
def test_the_snapshot_fits_the_variant(db: None, variant: str) -> None:
    players = users(2)
    options: dict[str, Any] = {"max_players": 2} if variant == "remi" else {}
    match = start_match(variant, options, players, f"markup {variant}".encode())
    match = play_bots_until(match, players, lambda s: s.round_no == 2 or s.is_over)

    html = Client().get(f"/matches/{match.pk}/").content.decode()

    for text in EXPECTED[variant]:
        assert text in html, text
    family_knock = variant in ("gin", "oklahoma", "knock108")
    assert ("<th>Opened</th>" in html) is not family_knock
    assert ("<th>Loose</th>" in html) is family_knock  # the first round's lines, in that round's words
    assert ("<th>Atu</th>" in html) is (variant == "remi")
