"""The rules of a table are shown before anyone sits down: on the room page and in the lobby.

Above the "take a seat" / "Join" button: the variant's rules in plain words (the engine's
summary and the sentence of every option, with the value this room chose), the seat count, the
turn time, how the match ends, and whether it is ranked.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.utils.html import strip_tags

from games import engine
from games.shared import i18n_rules
from tests.site.site_helpers import client_for, make_room

pytestmark = pytest.mark.django_db


def _page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return str(response.content.decode())


def _text(page: str) -> str:
    """What a reader sees: no tags, entities decoded, runs of white space as one space."""
    return re.sub(r"\s+", " ", html.unescape(strip_tags(page)))


def _before(page: str, text: str, button: str) -> None:
    """``text`` is on the page, above the first ``button``."""
    page = _text(page)
    assert text in page, text
    assert button in page, button
    assert page.index(text) < page.index(button), f"{text!r} is not above {button!r}"


def test_the_room_page_shows_the_rules_above_the_take_a_seat_button(ala: Any, bob: Any) -> None:
    room = make_room(ala, "remik51", seats=4, options={"penalty_limit": 300}, ranked=True, turn_seconds=90)
    rules = room.rules()

    page = _page(client_for(bob), f"/rooms/{room.pk}/")

    button = "Take this seat"
    _before(page, rules.summary, button)
    for spec in type(rules).option_specs():
        if spec["name"] != "max_players":
            _before(page, spec["help"], button)
    _before(page, "This table: 300 (the default is 500)", button)
    _before(page, "This table: 30", button)  # joker penalty, left at its default
    _before(page, "4 seats", button)
    _before(page, "90 seconds", button)
    _before(
        page,
        "The match ends when a player's total goes over 300 penalty points; the lowest total wins.",
        button,
    )
    _before(page, "Ranked", button)
    assert '<details class="table-rules-text" open>' in page  # unfolded on the room page


def test_the_lobby_shows_each_rooms_rules_above_its_join_button(ala: Any, bob: Any) -> None:
    room = make_room(ala, "remi", seats=3, options={"rounds": 3, "opening": "51"}, turn_seconds=45)

    page = _page(client_for(bob), "/")
    card = page[page.index(f'id="room-{room.pk}"') :]

    button = "Join"
    _before(card, "Rules of the table: Remi", button)
    _before(card, room.rules().summary, button)
    _before(
        card, "Opening requirement: classic (a run, no minimum), 45 or 51 points including a run.", button
    )
    _before(card, "This table: 51 (the default is 45)", button)
    _before(card, "3 seats", button)
    _before(card, "45 seconds", button)
    _before(card, "The match ends after 3 rounds; the highest total wins.", button)
    _before(card, "Not ranked", button)


def test_a_visitor_sees_the_rules_too(ala: Any) -> None:
    room = make_room(ala, "remi", seats=2)

    page = _page(Client(), f"/rooms/{room.pk}/")

    _before(
        page, "No round limit or target: the match goes on until the table is closed", "Log in to sit here"
    )
    _before(page, "2 seats", "Log in to sit here")


@pytest.mark.parametrize(
    ("options", "end"),
    [
        ({"target": 500}, "The match ends when a player's total reaches 500 points; the highest total wins."),
        ({"rounds": 1}, "The match ends after 1 round; the highest total wins."),
    ],
)
def test_the_end_condition_follows_the_rooms_options(ala: Any, options: dict[str, Any], end: str) -> None:
    room = make_room(ala, "remi", seats=2, options=options)

    assert end in _text(_page(client_for(ala), f"/rooms/{room.pk}/"))


@pytest.mark.parametrize("variant", engine.variant_names())
def test_every_variant_has_its_rules_in_plain_words_on_the_room_page(ala: Any, variant: str) -> None:
    rules = engine.variant(variant)
    room = make_room(ala, variant, seats=rules.min_players)

    page = _text(_page(client_for(ala), f"/rooms/{room.pk}/"))

    assert rules.summary
    assert rules.summary in page
    # Each sentence with its rule ids beside it as a tag, not inside it (docs/i18n.md).
    for spec in type(rules).option_specs():
        if spec["name"] != "max_players":
            sentence, cited = i18n_rules.split_rules(spec["help"])
            assert sentence in page
            assert all(rule in page for rule in cited)
    sentence, cited = i18n_rules.split_rules(rules.end_condition())
    assert sentence in page
    assert all(rule in page for rule in cited)
