"""The lobby, create-room, room and match pages, and the seed_demo command."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects
from pytest_django.fixtures import Settings

from games import engine
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match, Room, Seat
from tests.site.site_helpers import client_for, make_room

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    # Starting a match publishes after commit; keep it away from a shared Redis.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


# --- lobby -------------------------------------------------------------------------------------


def test_the_lobby_lists_open_public_rooms_with_their_seats(ala: Any, bob: Any) -> None:
    room = make_room(ala, "remi", seats=3, name="Evening remi", ranked=True, turn_seconds=45)
    services.seat_take(room=room, user=ala)
    casual = make_room(ala, "remi", seats=2, name="Casual remi")  # a ranked room seats no bot
    services.seat_add_bot(room=casual, index=1, level="hard")
    make_room(ala, name="Secret table", private=True)
    started = make_room(ala, name="Already playing")
    services.seat_add_bot(room=started, index=0)
    services.seat_add_bot(room=started, index=1)
    services.match_start(room=started)

    response = Client().get("/")

    assertContains(response, "Evening remi")
    assertContains(response, "Remi")  # the variant's title
    assertContains(response, "opening 45")  # the options summary
    assertContains(response, "<strong>45 seconds</strong> per turn", html=False)
    assertContains(response, "Ranked")
    assertContains(response, "Bot (hard)")
    assertContains(response, "ala")
    assertContains(response, "free")
    assertContains(response, "Log in to join")
    assertNotContains(response, "Secret table")
    assertNotContains(response, "Already playing")


def test_the_lobby_offers_join_and_create_to_a_logged_in_user(ala: Any, bob: Any) -> None:
    room = make_room(ala)

    response = client_for(bob).get("/")

    assertContains(response, f'action="/rooms/{room.pk}/seats/take/"')
    assertContains(response, 'href="/rooms/new/"')


def test_joining_from_the_lobby_takes_the_first_free_seat(ala: Any, bob: Any) -> None:
    room = make_room(ala)
    services.seat_take(room=room, user=ala)

    response = client_for(bob).post(f"/rooms/{room.pk}/seats/take/")

    assertRedirects(response, f"/rooms/{room.pk}/")
    assert Seat.objects.get(room=room, index=1).user == bob


def test_the_lobby_lists_my_rooms_with_a_link_to_the_match(ala: Any, bob: Any) -> None:
    room = make_room(ala, name="Ala and a bot")
    services.seat_take(room=room, user=ala)
    services.seat_add_bot(room=room, index=1)
    match = services.match_start(room=room)

    mine = client_for(ala).get("/")
    theirs = client_for(bob).get("/")

    assertContains(mine, "Your rooms")
    assertContains(mine, f'href="/matches/{match.pk}/"')
    assertNotContains(theirs, "Your rooms")


# --- create a room -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/rooms/new/", "/rooms/new/?variant=remi"])
def test_creating_a_room_needs_a_login(path: str) -> None:
    response = Client().get(path)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/rooms/new/")


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("remik51", ['name="option_jokers_per_deck"', 'name="option_penalty_limit"', "extra_round"]),
        ("remi", ['name="option_opening"', 'name="option_short_game"', 'name="option_rounds"']),
    ],
)
def test_the_create_form_shows_the_options_of_the_chosen_variant(
    ala: Any, variant: str, expected: list[str]
) -> None:
    response = client_for(ala).get(f"/rooms/new/?variant={variant}")

    assert response.status_code == 200
    for text in expected:
        assertContains(response, text)
    assertContains(response, f'name="variant" value="{variant}"')
    assertNotContains(response, 'name="option_max_players"')  # that option is the seat count
    other = {"remi": "option_penalty_limit", "remik51": "option_short_game"}[variant]
    assertNotContains(response, other)


def test_an_unknown_variant_falls_back_to_a_known_one(ala: Any) -> None:
    response = client_for(ala).get("/rooms/new/?variant=canasta")

    assert response.status_code == 200
    assertContains(response, f'name="variant" value="{engine.variant_names()[0]}"')


BASE = {"name": "Friday", "seats": "3", "turn_seconds": "90"}


def test_creating_a_remik51_room_seats_the_owner(ala: Any) -> None:
    data = {
        **BASE,
        "variant": "remik51",
        "ranked": "on",
        "option_jokers_per_deck": "3",
        "option_joker_penalty": "50",
        "option_penalty_limit": "300",
        "option_lowest_tie": "extra_round",
    }

    response = client_for(ala).post("/rooms/new/?variant=remik51", data)

    room = Room.objects.get(name="Friday")
    assertRedirects(response, f"/rooms/{room.pk}/")
    assert room.variant == "remik51"
    assert room.options == {
        "jokers_per_deck": 3,
        "joker_penalty": 50,
        "penalty_limit": 300,
        "lowest_tie": "extra_round",
        "max_players": 3,
        "rounds": None,  # every variant's round limit, off the form and unset (docs/engine.md)
    }
    assert (room.seat_count, room.turn_seconds, room.ranked, room.join_code) == (3, 90, True, None)
    assert [seat.user for seat in room.seats.order_by("index")] == [ala, None, None]


def test_creating_a_private_remi_room_with_options(ala: Any) -> None:
    data = {
        **BASE,
        "variant": "remi",
        "private": "on",
        "option_opening": "51",
        "option_row_visible_depth": "",
        "option_rounds": "5",
        "option_target": "",
    }

    response = client_for(ala).post("/rooms/new/", data)

    room = Room.objects.get(name="Friday")
    assertRedirects(response, f"/rooms/{room.pk}/")
    assert room.options == {
        "opening": "51",
        "short_game": False,
        "row_visible_depth": None,
        "rounds": 5,
        "target": None,
        "max_players": 3,
    }
    assert room.join_code
    page = client_for(ala).get(f"/rooms/{room.pk}/")
    assertContains(page, f"/rooms/join/{room.join_code}/")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"variant": "remik51", "option_jokers_per_deck": "2", "option_joker_penalty": "30"}
            | {"option_penalty_limit": "10", "option_lowest_tie": "shared"},
            "remik51: option penalty_limit must be at least 50 (got 10)",
        ),
        (
            {"variant": "remi", "option_opening": "45", "option_short_game": "on"},
            "remi is played by 2 to 2 players",
        ),
        (
            {"variant": "remik51", "seats": "7", "option_jokers_per_deck": "2"}
            | {"option_joker_penalty": "30", "option_penalty_limit": "500", "option_lowest_tie": "shared"},
            "remik51: option max_players must be at most 6 (got 7)",
        ),
    ],
)
def test_options_the_engine_refuses_are_shown_on_the_form(
    ala: Any, data: dict[str, str], message: str
) -> None:
    response = client_for(ala).post("/rooms/new/", {**BASE, **data})

    assert response.status_code == 200
    errors = response.context["form"].non_field_errors()
    assert len(errors) == 1
    assert message in errors[0]
    assertContains(response, 'class="errorlist nonfield"')
    assert not Room.objects.exists()


def test_the_engine_message_is_the_one_on_the_page(ala: Any) -> None:
    data = {
        **BASE,
        "variant": "remik51",
        "option_jokers_per_deck": "2",
        "option_joker_penalty": "30",
        "option_penalty_limit": "10",
        "option_lowest_tie": "shared",
    }
    try:
        engine.variant("remik51", penalty_limit=10)
    except ValueError as error:
        expected = str(error)

    response = client_for(ala).post("/rooms/new/", data)

    assertContains(response, expected)


def test_creating_a_room_by_post_needs_a_login() -> None:
    response = Client().post("/rooms/new/", {**BASE, "variant": "remi"})

    assert response.status_code == 302
    assert not Room.objects.exists()


# --- room page: seats, bots, private rooms -----------------------------------------------------


def test_taking_a_given_seat(ala: Any, bob: Any) -> None:
    room = make_room(ala, seats=3)
    services.seat_take(room=room, user=ala)

    response = client_for(bob).post(f"/rooms/{room.pk}/seats/take/", {"index": "2"})

    assertRedirects(response, f"/rooms/{room.pk}/")
    assert Seat.objects.get(room=room, index=2).user == bob


def test_taking_a_taken_seat_shows_the_error(ala: Any, bob: Any) -> None:
    room = make_room(ala)
    services.seat_take(room=room, user=ala, index=0)

    response = client_for(bob).post(f"/rooms/{room.pk}/seats/take/", {"index": "0"}, follow=True)

    assertContains(response, "that seat is taken or does not exist")
    assert Seat.objects.get(room=room, index=0).user == ala


def test_taking_a_seat_needs_a_login(ala: Any) -> None:
    room = make_room(ala)

    response = Client().post(f"/rooms/{room.pk}/seats/take/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_owner_adds_bots_of_a_chosen_level(ala: Any) -> None:
    room = make_room(ala, seats=3)
    client = client_for(ala)

    client.post(f"/rooms/{room.pk}/seats/bot/", {"index": "1", "level": "easy"})
    client.post(f"/rooms/{room.pk}/seats/bot/", {"index": "2", "level": "hard"})

    seats = list(room.seats.order_by("index").values_list("is_bot", "bot_level"))
    assert seats == [(False, ""), (True, "easy"), (True, "hard")]
    page = client.get(f"/rooms/{room.pk}/")
    assertContains(page, "Bot (easy)")
    assertContains(page, "Add bot")


def test_only_the_owner_adds_bots(ala: Any, bob: Any) -> None:
    room = make_room(ala)

    response = client_for(bob).post(
        f"/rooms/{room.pk}/seats/bot/", {"index": "1", "level": "normal"}, follow=True
    )

    assertContains(response, "only the room&#x27;s owner may do this")
    assert not room.seats.filter(is_bot=True).exists()
    assertNotContains(client_for(bob).get(f"/rooms/{room.pk}/"), "Add bot")


def test_a_bad_bot_level_is_refused(ala: Any) -> None:
    room = make_room(ala)

    client_for(ala).post(f"/rooms/{room.pk}/seats/bot/", {"index": "1", "level": "godlike"})

    assert not room.seats.filter(is_bot=True).exists()


def test_a_private_room_is_reached_by_its_join_code_only(ala: Any, bob: Any) -> None:
    room = make_room(ala, private=True)
    services.seat_take(room=room, user=ala)
    bob_client = client_for(bob)

    assert bob_client.get(f"/rooms/{room.pk}/").status_code == 404
    assert bob_client.post(f"/rooms/{room.pk}/seats/take/").status_code == 404
    page = bob_client.get(f"/rooms/join/{room.join_code.lower()}/")
    assertContains(page, "Take this seat")
    response = bob_client.post(f"/rooms/{room.pk}/seats/take/", {"code": room.join_code})

    assertRedirects(response, f"/rooms/join/{room.join_code}/")
    assert Seat.objects.get(room=room, index=1).user == bob
    assert bob_client.get(f"/rooms/{room.pk}/").status_code == 200  # now a member
    assert Client().get("/rooms/join/NOSUCHCD/").status_code == 404


# --- starting a match and the match page ------------------------------------------------------


def test_start_needs_every_seat_filled(ala: Any) -> None:
    room = make_room(ala)
    services.seat_take(room=room, user=ala)

    response = client_for(ala).post(f"/rooms/{room.pk}/start/", follow=True)

    assertContains(response, "every seat needs a player or a bot before the match starts")
    assert not Match.objects.exists()


def test_only_the_owner_starts_when_the_owner_plays(ala: Any, bob: Any) -> None:
    room = make_room(ala)
    services.seat_take(room=room, user=ala)
    services.seat_take(room=room, user=bob)

    response = client_for(bob).post(f"/rooms/{room.pk}/start/", follow=True)

    assertContains(response, "only the room&#x27;s owner may do this")
    assert not Match.objects.exists()


@pytest.fixture
def started(ala: Any, bob: Any) -> tuple[Room, Match]:
    room = make_room(ala, "remik51", seats=3)
    client = client_for(ala)
    client.post(f"/rooms/{room.pk}/seats/take/", {"index": "0"})
    client_for(bob).post(f"/rooms/{room.pk}/seats/take/", {"index": "1"})
    client.post(f"/rooms/{room.pk}/seats/bot/", {"index": "2", "level": "normal"})
    response = client.post(f"/rooms/{room.pk}/start/")
    match = Match.objects.get(room=room)
    assertRedirects(response, f"/matches/{match.pk}/")
    return room, match


def test_the_match_page_shows_only_the_viewers_hand(started: tuple[Room, Match], ala: Any) -> None:
    _, match = started
    state = match.game_state()
    mine = [str(card) for card in state.hands[0]]
    others = [str(card) for seat in (1, 2) for card in state.hands[seat]]

    response = client_for(ala).get(f"/matches/{match.pk}/")

    html = response.content.decode()
    assert response.status_code == 200
    for card in mine:
        assert f'data-card="{card}"' in html
    for card in others:
        assert card not in html
    frame = json.loads(
        re.search(r'<script id="initial-frame" type="application/json">(.*?)</script>', html)[1]
    )
    assert frame["view"]["seat"] == 0
    assert frame["view"]["hand"] == mine
    assert frame["version"] == match.version
    assertContains(response, "Your hand")
    assertContains(response, "ala (you)")


def test_the_match_page_shows_the_round_commitment(started: tuple[Room, Match], bob: Any) -> None:
    _, match = started
    commitment = match.rounds.get(number=1).commitment

    response = client_for(bob).get(f"/matches/{match.pk}/")

    assertContains(response, commitment)
    assertContains(response, "Stock:")


def test_a_spectator_sees_no_hand(started: tuple[Room, Match]) -> None:
    _, match = started
    state = match.game_state()

    response = Client().get(f"/matches/{match.pk}/")

    html = response.content.decode()
    assert response.status_code == 200
    assert all(str(card) not in html for hand in state.hands for card in hand)
    assertContains(response, "nobody's hand is shown")


def test_the_match_page_shows_scores_and_seeds_of_finished_rounds(ala: Any) -> None:
    room = make_room(ala, "remi", seats=2, options={"rounds": 1, "max_players": 2})
    services.seat_take(room=room, user=ala)
    services.seat_add_bot(room=room, index=1)
    match = services.match_start(room=room)
    # Let the engine's bot play both seats until the one-round match is over.
    state = match.game_state()
    for _ in range(2000):
        if state.is_over:
            break
        match.refresh_from_db()
        seat = state.turn
        move = choose_move(engine.view_for(state, seat))
        if seat == 0:
            services.move_submit(match_id=match.pk, user=ala, move=move, expected_version=match.version)
        else:
            services.bot_move_play(match_id=match.pk, expected_version=match.version)
        match.refresh_from_db()
        state = match.game_state()
    assert state.is_over
    round_1 = match.rounds.get(number=1)

    response = client_for(ala).get(f"/matches/{match.pk}/")

    assertContains(response, round_1.revealed_seed)
    for line in round_1.score_lines.all():
        assertContains(response, f"<td>{line.total}</td>")
    assertContains(response, "Winners:")


def test_a_missing_match_is_a_404(ala: Any) -> None:
    assert client_for(ala).get("/matches/999999/").status_code == 404


# --- seed_demo ---------------------------------------------------------------------------------


def test_seed_demo_opens_one_room_per_variant_and_is_idempotent() -> None:
    call_command("seed_demo", verbosity=0)
    call_command("seed_demo", verbosity=0)

    demo = get_user_model().objects.get(username="demo")
    assert not demo.has_usable_password()
    rooms = Room.objects.filter(owner=demo)
    assert sorted(rooms.values_list("variant", flat=True)) == sorted(engine.variant_names())
    for room in rooms:
        seats = list(room.seats.all())
        assert room.status == Room.Status.OPEN
        assert room.join_code is None
        assert sum(seat.is_free for seat in seats) == 1
        assert all(seat.is_bot and seat.bot_level == "normal" for seat in seats if not seat.is_free)
        room.rules()  # the stored options are valid


def test_a_newcomer_fills_a_demo_room_and_starts_it(ala: Any) -> None:
    call_command("seed_demo", verbosity=0)
    room = Room.objects.filter(owner__username="demo").first()
    client = client_for(ala)

    lobby = client.get("/")
    assertContains(lobby, room.name)
    client.post(f"/rooms/{room.pk}/seats/take/")
    response = client.post(f"/rooms/{room.pk}/start/")

    match = Match.objects.get(room=room)
    assertRedirects(response, f"/matches/{match.pk}/")
    call_command("seed_demo", verbosity=0)  # the started room is replaced by a new open one
    assert Room.objects.filter(owner__username="demo", variant=room.variant, status="open").count() == 1
