"""The Django admin for rooms, seats and the match record: actions, filters, read-only logs."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from pytest_django.fixtures import Settings

from games import engine
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match, MoveRecord, Room, ScoreLine, Seat, ServerProcess

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def staff() -> Client:
    admin = get_user_model().objects.create_superuser(username="boss", email="boss@example.com", password="x")
    client = Client()
    client.force_login(admin)
    return client


@pytest.fixture
def ala() -> Any:
    return get_user_model().objects.create_user(username="ala", password="not-used-here")


def make_room(owner: Any, name: str = "Table", variant: str = "remik51") -> Room:
    return services.room_create(owner=owner, name=name, variant=variant, options={}, seats=2, turn_seconds=60)


@pytest.fixture
def played(ala: Any) -> Match:
    """A match with a few moves in its log."""
    room = make_room(ala)
    services.seat_take(room=room, user=ala, index=0)
    services.seat_add_bot(room=room, index=1)
    match = services.match_start(room=room)
    for _ in range(4):
        state = match.game_state()
        if state.turn == 0:
            move = choose_move(engine.view_for(state, 0))
            services.move_submit(match_id=match.pk, user=ala, move=move, expected_version=match.version)
        else:
            services.bot_move_play(match_id=match.pk, expected_version=match.version)
        match.refresh_from_db()
    assert MoveRecord.objects.filter(match=match).count() == 4
    return match


def test_the_close_room_action(staff: Client, ala: Any) -> None:
    room = make_room(ala, name="To close")
    other = make_room(ala, name="Stays open")

    response = staff.post(
        "/admin/games/room/",
        {"action": "close_rooms", "_selected_action": [room.pk]},
        follow=True,
    )

    assert response.status_code == 200
    assert "1 room(s) closed." in response.content.decode()
    room.refresh_from_db()
    other.refresh_from_db()
    assert room.status == Room.Status.CLOSED
    assert other.status == Room.Status.OPEN


def test_rooms_are_filtered_by_variant_and_status_and_searched_by_name(staff: Client, ala: Any) -> None:
    make_room(ala, name="Remik table", variant="remik51")
    make_room(ala, name="Remi table", variant="remi")
    closed = make_room(ala, name="Closed table", variant="remi")
    services.room_close(room_ids=[closed.pk])

    by_variant = staff.get("/admin/games/room/", {"variant": "remik51"}).content.decode()
    by_status = staff.get("/admin/games/room/", {"status__exact": "closed"}).content.decode()
    by_name = staff.get("/admin/games/room/", {"q": "Remik"}).content.decode()

    assert "Remik table" in by_variant
    assert "Closed table" not in by_variant
    assert "Closed table" in by_status
    assert "Remik table" not in by_status
    assert "Remik table" in by_name
    assert "Remi table" not in by_name


def test_the_remove_player_action_frees_seats_of_open_rooms_only(staff: Client, ala: Any) -> None:
    bob = get_user_model().objects.create_user(username="bob", password="not-used-here")
    room = make_room(ala)
    seat = services.seat_take(room=room, user=bob)
    started = make_room(ala, name="Started")
    playing = services.seat_take(room=started, user=ala)
    services.seat_add_bot(room=started, index=1)
    services.match_start(room=started)

    response = staff.post(
        "/admin/games/seat/",
        {"action": "remove_player", "_selected_action": [seat.pk, playing.pk]},
        follow=True,
    )

    html = response.content.decode()
    assert "1 seat(s) freed." in html
    assert "1 seat(s) left as they were" in html
    assert Seat.objects.get(pk=seat.pk).is_free
    assert Seat.objects.get(pk=playing.pk).user == ala


def test_the_match_page_shows_its_move_log_read_only(staff: Client, played: Match) -> None:
    response = staff.get(f"/admin/games/match/{played.pk}/change/")

    html = response.content.decode()
    assert response.status_code == 200
    assert "Move records" in html or "move records" in html.lower()
    assert 'name="moves-0-seq"' not in html  # shown, not editable
    assert played.secret_bytes.hex() not in html


def test_move_logs_cannot_be_changed_through_the_admin(staff: Client, played: Match) -> None:
    record = MoveRecord.objects.filter(match=played).order_by("seq").first()
    assert record is not None
    url = f"/admin/games/moverecord/{record.pk}/change/"
    before = (record.seq, record.seat, record.move)

    page = staff.get(url)
    refused = staff.post(url, {"seq": "99", "round_number": "1", "seat": "1", "move": "{}", "actor": "bot"})
    delete = staff.post(f"/admin/games/moverecord/{record.pk}/delete/", {"post": "yes"})
    add = staff.get("/admin/games/moverecord/add/")

    assert page.status_code == 200
    assert 'type="submit" value="Save"' not in page.content.decode()
    assert refused.status_code == 403
    assert delete.status_code == 403
    assert add.status_code == 403
    record = MoveRecord.objects.get(pk=record.pk)
    assert (record.seq, record.seat, record.move) == before


def test_score_lines_and_rounds_are_read_only(staff: Client, played: Match) -> None:
    round_1 = played.rounds.get(number=1)
    line = ScoreLine.objects.create(round=round_1, seat=0, points=5, total=5)

    assert staff.post(f"/admin/games/scoreline/{line.pk}/change/", {"points": "0"}).status_code == 403
    assert staff.post(f"/admin/games/round/{round_1.pk}/change/", {"number": "7"}).status_code == 403
    assert staff.get(f"/admin/games/round/{round_1.pk}/change/").status_code == 200
    assert ScoreLine.objects.get(pk=line.pk).points == 5


@pytest.mark.parametrize("path", ["/admin/", "/admin/games/room/", "/admin/games/moverecord/"])
def test_non_staff_users_are_sent_to_the_admin_login(ala: Any, path: str) -> None:
    client = Client()
    client.force_login(ala)

    response = client.get(path)

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_server_processes_and_a_seats_sockets_are_shown_read_only(staff: Client, played: Match) -> None:
    ala = get_user_model().objects.get(username="ala")
    services.seat_connect(match_id=played.pk, user=ala, channel="specific.chan-1")
    server = ServerProcess.objects.get()
    seat = Seat.objects.get(room=played.room, index=0)

    listing = staff.get("/admin/games/serverprocess/").content.decode()
    seat_page = staff.get(f"/admin/games/seat/{seat.pk}/change/").content.decode()
    refused = staff.post(f"/admin/games/serverprocess/{server.pk}/delete/", {"post": "yes"})

    assert server.name in listing
    assert '<td class="field-sockets">1</td>' in listing
    assert "specific.chan-1" in seat_page
    assert server.name in seat_page
    assert refused.status_code == 403
    assert ServerProcess.objects.filter(pk=server.pk).exists()
