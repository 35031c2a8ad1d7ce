"""Security of the site's doors: CSRF on every form, the Origin check on sockets, a staff-only admin.

Each refusal is paired with the same request done right, so a 403 here means "no CSRF token" and
not some other failure. (Non-staff users bounced from the admin pages: ``test_admin.py``; a
foreign Origin on the match socket: ``tests/realtime``.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.play import services
from games.play.models import Room, Seat
from remi_site.asgi import application
from tests.site.site_helpers import client_for, make_room

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-passphrase-42"


def _csrf_client(user: Any | None = None) -> Client:
    """A client that, like a browser, gets no CSRF exemption (Django's test client has one)."""
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


def _token(client: Client, page: str) -> str:
    """The CSRF token of a form on ``page``, as a browser would submit it."""
    html = client.get(page).content.decode()
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert match, f"no CSRF token on {page}"
    return match.group(1)


# --- CSRF -------------------------------------------------------------------------------------


def test_registering_without_a_csrf_token_is_refused() -> None:
    form = {"username": "mallory", "email": "m@example.com", "password1": PASSWORD, "password2": PASSWORD}
    client = _csrf_client()

    refused = client.post("/accounts/register/", form)
    assert refused.status_code == 403
    assert not get_user_model().objects.filter(username="mallory").exists()

    accepted = client.post(
        "/accounts/register/", {**form, "csrfmiddlewaretoken": _token(client, "/accounts/register/")}
    )
    assert accepted.status_code == 302
    assert get_user_model().objects.filter(username="mallory").exists()


def test_logging_in_without_a_csrf_token_is_refused(ala: Any) -> None:
    ala.set_password(PASSWORD)
    ala.save()
    client = _csrf_client()

    assert client.post("/accounts/login/", {"username": "ala", "password": PASSWORD}).status_code == 403
    assert (
        settings.SESSION_COOKIE_NAME not in client.cookies
        or not client.cookies[settings.SESSION_COOKIE_NAME].value
    )


def test_creating_a_room_without_a_csrf_token_is_refused(ala: Any) -> None:
    form = {"name": "Forged", "variant": "remik51", "seats": "2", "turn_seconds": "60"}
    form |= {"option_jokers_per_deck": "2", "option_joker_penalty": "30", "option_penalty_limit": "500"}
    form |= {"option_lowest_tie": "shared"}
    client = _csrf_client(ala)

    assert client.post("/rooms/new/?variant=remik51", form).status_code == 403
    assert not Room.objects.filter(name="Forged").exists()

    token = _token(client, "/rooms/new/?variant=remik51")
    accepted = client.post("/rooms/new/?variant=remik51", {**form, "csrfmiddlewaretoken": token})
    assert accepted.status_code == 302
    assert Room.objects.filter(name="Forged").exists()


def test_taking_a_seat_without_a_csrf_token_is_refused(ala: Any, bob: Any) -> None:
    room = make_room(ala)
    client = _csrf_client(bob)

    assert client.post(f"/rooms/{room.pk}/seats/take/", {"index": "1"}).status_code == 403
    assert not Seat.objects.filter(room=room, user=bob).exists()

    token = _token(client, f"/rooms/{room.pk}/")
    accepted = client.post(f"/rooms/{room.pk}/seats/take/", {"index": "1", "csrfmiddlewaretoken": token})
    assert accepted.status_code == 302
    assert Seat.objects.filter(room=room, user=bob, index=1).exists()


@pytest.mark.parametrize("action", ["seats/bot/", "start/", "leave/"])
def test_the_other_room_forms_need_a_csrf_token_too(ala: Any, bob: Any, action: str) -> None:
    room = make_room(ala)
    services.seat_take(room=room, user=ala, index=0)
    if action == "start/":
        services.seat_add_bot(room=room, index=1)
    before = (Room.objects.get(pk=room.pk).status, list(room.seats.values_list("user_id", "is_bot")))

    response = _csrf_client(ala).post(f"/rooms/{room.pk}/{action}", {"index": "1", "level": "normal"})

    assert response.status_code == 403
    assert (Room.objects.get(pk=room.pk).status, list(room.seats.values_list("user_id", "is_bot"))) == before


def test_logging_out_without_a_csrf_token_is_refused(ala: Any) -> None:
    client = _csrf_client(ala)

    assert client.post("/accounts/logout/").status_code == 403
    assert client.get("/matches/").status_code == 200  # still logged in


# --- the Origin of a WebSocket handshake --------------------------------------------------------


def _cookie(user: Any) -> str:
    return client_for(user).cookies[settings.SESSION_COOKIE_NAME].value


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/match/1/", "/ws/rooms/1/", "/ws/echo/"])
async def test_a_socket_from_another_origin_or_none_is_refused_even_with_a_session(
    path: str, make_user: Any
) -> None:
    cookie = await database_sync_to_async(lambda: _cookie(make_user("ala")))()
    for origin in (b"https://evil.example", b"http://127.0.0.1.evil.example", b"null", None):
        headers = [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]
        if origin is not None:
            headers.append((b"origin", origin))
        communicator = WebsocketCommunicator(application, path, headers=headers)
        try:
            connected, _ = await communicator.connect(timeout=5)
            assert not connected, origin
        finally:
            await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_from_our_own_origin_is_let_in(make_user: Any) -> None:
    cookie = await database_sync_to_async(lambda: _cookie(make_user("ala")))()
    headers = [
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
        (b"origin", b"http://127.0.0.1:8000"),
    ]
    communicator = WebsocketCommunicator(application, "/ws/echo/", headers=headers)
    try:
        connected, _ = await communicator.connect(timeout=5)
        assert connected
        await communicator.send_to(text_data="ping")
        assert await communicator.receive_from(timeout=5) == "ping"
    finally:
        await communicator.disconnect()


# --- the admin ----------------------------------------------------------------------------------


def test_a_player_cannot_log_in_to_the_admin(ala: Any) -> None:
    ala.set_password(PASSWORD)
    ala.save()
    client = Client()

    response = client.post("/admin/login/?next=/admin/", {"username": "ala", "password": PASSWORD})

    assert response.status_code == 200  # the login form again, with its error
    assert "staff account" in response.content.decode()
    assert client.get("/admin/").status_code == 302


def test_a_player_cannot_use_an_admin_action(ala: Any) -> None:
    room = make_room(ala)

    response = client_for(ala).post(
        "/admin/games/room/", {"action": "close_rooms", "_selected_action": [str(room.pk)]}
    )

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
    assert Room.objects.get(pk=room.pk).status == Room.Status.OPEN
