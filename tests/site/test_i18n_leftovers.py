"""English left in Polish and Romanian pages (issue 14, item 9): the demo rooms' names, word option
values (``shared`` / ``extra_round``), the score notes ("went out"), "Gin rummy" in match lists
where the lobby says "Remik gin", and "seed" as a proper word."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from pytest_django.fixtures import Settings

from games import engine
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match, Room, ScoreLine
from games.shared import i18n_rules
from tests.site.site_helpers import client_for, make_room

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def page(path: str, language: str, user: Any = None) -> str:
    client = client_for(user) if user is not None else Client()
    if user is not None:
        user.language = language
        user.save(update_fields=["language"])
    client.cookies["django_language"] = language
    return client.get(path).content.decode()


@pytest.mark.parametrize(
    ("language", "name"),
    [("pl", "Remik 51 z botami"), ("ro", "Remik 51 cu boți"), ("en", "Remik 51 with bots")],
)
def test_the_demo_rooms_are_named_in_the_visitors_language(language: str, name: str) -> None:
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    room = Room.objects.get(variant="remik51")
    assert room.name == "Remik 51 with bots"  # stored in English, as seeded

    assert name in page("/", language)
    assert f"<h1>{name}</h1>" in page(f"/rooms/{room.pk}/", language)


def test_a_room_its_owner_named_keeps_its_name(ala: Any) -> None:
    room = make_room(ala, name="Remik 51 with bots and friends")
    assert "Remik 51 with bots and friends" in page(f"/rooms/{room.pk}/", "pl")


@pytest.mark.parametrize(
    ("language", "shown", "hidden"),
    [("pl", "jeszcze jedna runda", "extra_round"), ("ro", "încă o rundă", "extra_round")],
)
def test_word_option_values_are_translated(ala: Any, language: str, shown: str, hidden: str) -> None:
    room = make_room(ala, options={"lowest_tie": "extra_round"})
    text = page(f"/rooms/{room.pk}/", language)
    assert shown in text
    assert hidden not in text
    assert "(shared)" not in text


def test_every_word_option_value_of_every_variant_has_a_translation() -> None:
    for name in engine.variant_names():
        for spec in type(engine.variant(name)).option_specs():
            for choice in spec.get("choices") or ():
                if isinstance(choice, str) and not choice.isdigit():
                    assert choice in i18n_rules.OPTION_VALUES, (name, spec["name"], choice)


@pytest.mark.parametrize(
    ("note", "language", "expected"),
    [
        ("went out", "pl", "zejście z kart"),
        ("went out", "ro", "a ieșit"),
        ("void round (R51-Q9)", "pl", "runda nieważna"),
        ("knocked with 5 against 12: 7 (GIN-19)", "ro", "a bătut cu 5 contra 12: 7"),
        ("never laid a formation: -100 (RMI-58)", "pl", "bez żadnego wyłożonego układu: -100"),
        ("column 1 won by Ala: 40 (OKL-Q4)", "pl", "column 1 won by Ala: 40 (OKL-Q4)"),  # no kind says it
    ],
)
def test_score_notes_are_translated_with_their_numbers(note: str, language: str, expected: str) -> None:
    with translation.override(language):
        assert i18n_rules.score_note(note) == expected


def _finished_remik51(player: Any) -> Match:
    room = make_room(player, seats=2)
    services.seat_take(room=room, user=player, index=0)
    services.seat_add_bot(room=room, index=1)
    match = services.match_start(room=room)
    for _ in range(3000):
        match.refresh_from_db()
        state = match.game_state()
        if state.round_no > 1 or state.is_over:
            return match
        if state.turn == 0:
            move = choose_move(engine.view_for(state, 0))
            services.move_submit(match_id=match.pk, user=player, move=move, expected_version=match.version)
        else:
            services.bot_move_play(match_id=match.pk, expected_version=match.version)
    raise AssertionError("the first round did not end")


def test_the_match_pages_score_notes_are_in_the_players_language(ala: Any) -> None:
    match = _finished_remik51(ala)
    lines = ScoreLine.objects.filter(round__match=match, round__number=1)
    notes = [note for line in lines for note in line.notes]
    assert notes, "the round's lines carry a note"
    text = page(f"/matches/{match.pk}/", "pl", ala)
    for note in notes:
        with translation.override("pl"):
            translated = i18n_rules.score_note(note)
        assert translated != note
        assert translated in text


def test_gin_is_remik_gin_in_polish_match_lists(ala: Any) -> None:
    room = make_room(ala, variant="gin", seats=2)
    services.seat_take(room=room, user=ala, index=0)
    services.seat_add_bot(room=room, index=1)
    services.match_start(room=room)

    mine = page("/matches/", "pl", ala)
    assert "Remik gin" in mine
    assert "Gin rummy" not in mine
    assert "Remik gin" in page("/u/ala/", "pl")


@pytest.mark.parametrize(
    ("language", "clumsy"),
    [
        ("pl", "ziarn"),  # the seed: "klucz rozdania"
        ("ro", "sămân"),  # the seed: "cheia împărțirii"
        ("ro", "semin"),
        ("pl", "nic się nie skończyło"),  # "Na razie nic się nie skończyło (runda)" (issue 14, item 9)
        ("ro", "rândurile de scor"),  # "Rândurile de scor (CSV)": now "Scorurile rundelor (CSV)"
    ],
)
def test_the_clumsy_lines_and_the_seeds_word_are_gone(language: str, clumsy: str) -> None:
    for domain in ("django", "djangojs"):
        catalog = (ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po").read_text()
        translations = [
            line for line in catalog.splitlines() if line.startswith("msgstr") or line.startswith('"')
        ]
        assert not [line for line in translations if clumsy in line.lower()], (language, domain, clumsy)
