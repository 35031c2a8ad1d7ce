"""Match history (/matches/ and the profile pages) and leaving a seat before the match starts."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects
from pytest_django.fixtures import Settings

from games import engine
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match, ScoreLine, Seat
from tests.site.site_helpers import client_for, make_room

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    # Starting a match and every move publish after commit; keep them away from a shared Redis.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def play_to_the_end(match: Match, player: Any) -> Match:
    """Seat 0 is ``player``, seat 1 a bot; the engine's bot chooses the player's moves too."""
    state = match.game_state()
    for _ in range(2000):
        if state.is_over:
            break
        seat = state.turn
        if seat == 0:
            move = choose_move(engine.view_for(state, seat))
            services.move_submit(match_id=match.pk, user=player, move=move, expected_version=match.version)
        else:
            services.bot_move_play(match_id=match.pk, expected_version=match.version)
        match.refresh_from_db()
        state = match.game_state()
    assert state.is_over
    return match


def finished_bot_match(player: Any, **room: Any) -> Match:
    room_ = make_room(player, "remi", seats=2, options={"rounds": 1, "max_players": 2}, **room)
    services.seat_take(room=room_, user=player, index=0)
    services.seat_add_bot(room=room_, index=1)
    return play_to_the_end(services.match_start(room=room_), player)


# --- /matches/ ---------------------------------------------------------------------------------


def test_my_matches_needs_a_login() -> None:
    response = Client().get("/matches/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/matches/")


def test_my_matches_shows_a_finished_bot_match_with_totals_and_winners(ala: Any) -> None:
    match = finished_bot_match(ala, name="Ala against a bot")
    totals = {line.seat: line.total for line in ScoreLine.objects.filter(round__match=match, round__number=1)}
    names = match.state["names"]
    winners = [names[index] for index in match.winners]
    assert match.status == Match.Status.FINISHED
    assert winners

    response = client_for(ala).get("/matches/")

    assertContains(response, "Ala against a bot")
    assertContains(response, "Remi")  # the variant's title
    assertContains(response, f'href="/matches/{match.pk}/"')
    assertContains(response, f"ala ({totals[0]})")
    assertContains(response, f"Bot 2 ({totals[1]})")
    assertContains(response, f"winners: {', '.join(winners)}")
    assertContains(response, f"total {totals[0]}")
    assertContains(response, "won" if 0 in match.winners else "place 2")
    assertContains(response, "Finished")


def test_my_matches_are_newest_first_and_only_mine(ala: Any, bob: Any) -> None:
    older = make_room(ala, name="Older table")
    services.seat_take(room=older, user=ala)
    services.seat_add_bot(room=older, index=1)
    services.match_start(room=older)
    newer = make_room(ala, name="Newer table")
    services.seat_take(room=newer, user=ala)
    services.seat_add_bot(room=newer, index=1)
    services.match_start(room=newer)
    other = make_room(bob, name="Bob's table")
    services.seat_take(room=other, user=bob)
    services.seat_add_bot(room=other, index=1)
    services.match_start(room=other)

    html = client_for(ala).get("/matches/").content.decode()

    assert html.index("Newer table") < html.index("Older table")
    assert "Bob&#x27;s table" not in html
    assert "Playing" in html


def test_my_matches_without_matches(ala: Any) -> None:
    assertContains(client_for(ala).get("/matches/"), "No matches played yet.")


def test_the_nav_links_to_my_matches(ala: Any) -> None:
    assertContains(client_for(ala).get("/"), 'href="/matches/"')


# --- profiles ----------------------------------------------------------------------------------


def test_a_profile_lists_the_players_public_matches(ala: Any, bob: Any) -> None:
    match = finished_bot_match(ala, name="Public table")

    response = client_for(bob).get("/u/ala/")

    assertContains(response, "Public table")
    assertContains(response, f'href="/matches/{match.pk}/"')
    assertNotContains(response, "No matches played yet.")
    assert Client().get("/u/ala/").status_code == 200  # anonymous visitors too


def test_private_rooms_matches_are_not_on_profiles(ala: Any, bob: Any) -> None:
    match = finished_bot_match(ala, name="Secret table", private=True)

    response = client_for(bob).get("/u/ala/")

    assertNotContains(response, "Secret table")
    assertNotContains(response, f'href="/matches/{match.pk}/"')
    assertContains(response, "No matches played yet.")
    # The player still finds it in their own list.
    assertContains(client_for(ala).get("/matches/"), "Secret table")


def test_a_profile_without_matches_says_so(ala: Any, bob: Any) -> None:
    assertContains(client_for(bob).get("/u/ala/"), "No matches played yet.")


# --- leaving a seat ----------------------------------------------------------------------------


def test_leaving_a_seat_before_the_start(ala: Any, bob: Any) -> None:
    room = make_room(ala)
    services.seat_take(room=room, user=ala)
    services.seat_take(room=room, user=bob)
    client = client_for(bob)
    assertContains(client.get(f"/rooms/{room.pk}/"), f'action="/rooms/{room.pk}/leave/"')

    response = client.post(f"/rooms/{room.pk}/leave/")

    assertRedirects(response, f"/rooms/{room.pk}/", fetch_redirect_response=False)
    assert Seat.objects.get(room=room, index=1).is_free
    assert Seat.objects.get(room=room, index=0).user == ala
    page = client.get(f"/rooms/{room.pk}/")
    assertContains(page, "You left your seat.")
    assertNotContains(page, f'action="/rooms/{room.pk}/leave/"')


def test_leaving_after_the_start_is_refused(ala: Any, bob: Any) -> None:
    room = make_room(ala)
    services.seat_take(room=room, user=ala)
    services.seat_take(room=room, user=bob)
    services.match_start(room=room)

    response = client_for(bob).post(f"/rooms/{room.pk}/leave/", follow=True)

    assertContains(response, "the match has started: you can no longer leave your seat")
    assert Seat.objects.get(room=room, index=1).user == bob


def test_leaving_without_a_seat_is_refused(ala: Any, bob: Any) -> None:
    room = make_room(ala)

    response = client_for(bob).post(f"/rooms/{room.pk}/leave/", follow=True)

    assertContains(response, "you have no seat at this table")


def test_leaving_needs_a_login_and_a_post(ala: Any) -> None:
    room = make_room(ala)
    services.seat_take(room=room, user=ala)

    assert Client().post(f"/rooms/{room.pk}/leave/").status_code == 302
    assert client_for(ala).get(f"/rooms/{room.pk}/leave/").status_code == 405
    assert Seat.objects.get(room=room, index=0).user == ala
