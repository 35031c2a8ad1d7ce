"""A room's name is shown to everyone in the lobby, so it is cleaned as a chat line is
(docs/protocol.md, "Chat"): composed, without control or direction-turning characters, and never a
letter under a pile of combining marks (text written to spill over the lines around it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.play.models import Room
from tests.site.site_helpers import client_for

pytestmark = pytest.mark.django_db

FORM = {
    "seats": "2",
    "turn_seconds": "90",
    "variant": "remik51",
    "option_jokers_per_deck": "3",
    "option_joker_penalty": "50",
    "option_penalty_limit": "300",
    "option_lowest_tie": "extra_round",
}


def create(user: Any, name: str, language: str = "en") -> Any:
    user.language = language
    user.save(update_fields=["language"])
    return client_for(user).post("/rooms/new/?variant=remik51", {**FORM, "name": name})


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Too many accents on one letter."),
        ("pl", "Za dużo znaków diakrytycznych przy jednej literze."),
        ("ro", "Prea multe semne diacritice pe o singură literă."),
    ],
)
def test_a_room_name_with_a_letter_under_a_pile_of_marks_is_refused(
    ala: Any, language: str, words: str
) -> None:
    response = create(ala, "Z" + "\u0301" * 40 + "algo", language)
    assert response.status_code == 200  # the form again, with the refusal
    assert words in response.content.decode()
    assert not Room.objects.exists()


def test_a_room_name_is_composed_and_loses_its_invisible_characters(ala: Any) -> None:
    response = create(ala, "  Masa\u0306\u202e  lui\tIon \u200b ")
    assert response.status_code == 302
    assert Room.objects.get().name == "Masă lui Ion"


def test_polish_and_romanian_letters_and_a_vietnamese_name_are_kept(ala: Any) -> None:
    for name in ("Zażółć gęślą jaźń", "Șase și țară", "Vi\u1ec7t Nam"):
        assert create(ala, name).status_code == 302
    assert sorted(Room.objects.values_list("name", flat=True)) == sorted(
        ["Zażółć gęślą jaźń", "Șase și țară", "Việt Nam"]
    )


def test_a_name_of_only_invisible_characters_is_refused_as_empty(ala: Any) -> None:
    response = create(ala, "\u200b\u202e \u2060")
    assert response.status_code == 200
    assert not Room.objects.exists()
