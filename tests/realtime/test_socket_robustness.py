"""What an outside client found (issue 19): messages and paths that must never kill a socket or
the server, private rooms that strangers must not watch, and presence that stays right however a
socket dies. docs/protocol.md ("Limits", "Close codes") says what a client gets instead.

Every test talks to ``remi_site.asgi.application`` (origin check, session auth, routing) with real
communicators; the services commit for real.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from pytest_django.fixtures import Settings

from games.play import selectors, services
from games.play.models import Match, MoveRecord, Seat
from remi_site.asgi import application
from tests.realtime.sockets import (
    ORIGIN,
    TIMEOUT,
    Player,
    Table,
    joined,
    open_socket,
    room_path,
    session_cookie,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _snapshot(match_id: int) -> tuple[Any, ...]:
    match = Match.objects.get(pk=match_id)
    return match.version, match.state, MoveRecord.objects.filter(match_id=match_id).count()


def _tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Records at ERROR or above, or carrying a traceback: bad input must produce neither."""
    return [
        record.getMessage()
        for record in caplog.records
        if record.levelno >= logging.ERROR or record.exc_info is not None
    ]


async def _answers_a_resync(socket: Any, version: int) -> None:
    await socket.send_json_to({"type": "resync"})
    frame = await socket.receive_json_from(timeout=TIMEOUT)
    assert (frame["type"], frame["version"], frame["events"]) == ("state", version, [])


DEEP_LIST_MOVE = '{"type":"move","id":"d1","version":0,"move":' + "[" * 100_000 + "]" * 100_000 + "}"
DEEP_OBJECT = '{"a":' * 50_000 + "1" + "}" * 50_000


@pytest.mark.parametrize("text", [DEEP_LIST_MOVE, DEEP_OBJECT], ids=["list-in-move", "objects"])
async def test_deeply_nested_json_is_malformed_and_the_socket_lives_on(
    table: Table, text: str, caplog: pytest.LogCaptureFixture
) -> None:
    before = await database_sync_to_async(_snapshot)(table.match_id)
    async with joined(table.match_id, table.mover) as (socket, _):
        await socket.send_to(text_data=text)
        error = await socket.receive_json_from(timeout=TIMEOUT)
        assert (error["type"], error["code"]) == ("error", "malformed_message")
        await _answers_a_resync(socket, version=0)
    assert await database_sync_to_async(_snapshot)(table.match_id) == before
    assert _tracebacks(caplog) == []


async def test_a_message_over_the_size_limit_is_malformed_and_not_read(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    huge = json.dumps(
        {"type": "move", "id": "h1", "version": 0, "move": {"kind": "draw", "pad": "x" * 70_000}}
    )
    async with joined(table.match_id, table.mover) as (socket, _):
        await socket.send_to(text_data=huge)
        error = await socket.receive_json_from(timeout=TIMEOUT)
        assert (error["type"], error["code"], error["id"]) == ("error", "malformed_message", None)
        await _answers_a_resync(socket, version=0)
    assert _tracebacks(caplog) == []


async def test_deep_nesting_over_the_budget_is_answered_rate_limited(
    table: Table, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    # The message that is not read any further still has its id looked for (_request_id).
    settings.WS_RATE_LIMIT_BURST = 1
    settings.WS_RATE_LIMIT_PER_SECOND = 0.001
    settings.WS_RATE_LIMIT_CLOSE_FACTOR = 50
    async with joined(table.match_id, table.mover) as (socket, _):
        await socket.send_json_to({"type": "resync"})
        assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "state"
        for text in (DEEP_LIST_MOVE, DEEP_OBJECT):
            await socket.send_to(text_data=text)
            error = await socket.receive_json_from(timeout=TIMEOUT)
            assert (error["code"], error["id"]) == ("rate_limited", None)
    assert _tracebacks(caplog) == []


# --- private rooms ---------------------------------------------------------------------------------


@pytest.fixture
def private_table(transactional_db: None) -> dict[str, Any]:
    make = get_user_model().objects.create_user
    ola, piotr, obcy = (make(username=name, password=None) for name in ("ola", "piotr", "obcy"))
    room = services.room_create(
        owner=ola, name="Tylko dla nas", variant="remik51", options={}, seats=2, turn_seconds=60, private=True
    )
    services.seat_take(room=room, user=ola, index=0)
    services.seat_take(room=room, user=piotr, index=1)
    match = services.match_start(room=room)
    return {
        "match_id": match.pk,
        "room_id": room.pk,
        "seated": Player(user=piotr, cookie=session_cookie(piotr), seat=1, hand=()),
        "stranger": Player(user=obcy, cookie=session_cookie(obcy), seat=None, hand=()),
    }


@pytest.mark.parametrize("by", ["match", "room"])
async def test_a_stranger_cannot_watch_a_private_room_over_a_socket(
    private_table: dict[str, Any], by: str
) -> None:
    path = room_path(private_table["room_id"]) if by == "room" else None
    async with open_socket(private_table["match_id"], private_table["stranger"].cookie, path=path) as socket:
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        # The same answer as for a match that does not exist: nothing is said about it.
        assert await socket.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4404}


@pytest.mark.parametrize("by", ["match", "room"])
async def test_a_seated_player_of_a_private_room_still_plays_over_its_socket(
    private_table: dict[str, Any], by: str
) -> None:
    path = room_path(private_table["room_id"]) if by == "room" else None
    async with joined(private_table["match_id"], private_table["seated"], path=path) as (_socket, frame):
        assert frame["view"]["seat"] == 1
        assert frame["view"]["hand"]


async def test_a_stranger_still_watches_a_public_room(table: Table) -> None:
    async with joined(table.match_id, table.spectator, path=room_path(table.room_id)) as (_socket, frame):
        assert frame["view"]["seat"] is None


# --- paths that do not exist -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/ws/match/abc/",
        "/ws/match/-1/",
        "/ws/admin/",
        "/ws/",
        "/ws/rooms/99999999999999999999999/",
        "/ws/match/99999999999999999999999/",
        "/ws/match/9223372036854775808/",
        "/ws/rooms/0/",
    ],
)
async def test_a_socket_on_a_path_that_leads_nowhere_is_closed_with_4404(
    table: Table, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    async with open_socket(table.match_id, table.mover.cookie, path=path) as socket:
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        assert await socket.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4404}
    assert _tracebacks(caplog) == []


# --- presence however a socket dies ------------------------------------------------------------------


def _presence(match_id: int, seat: int) -> tuple[int, str]:
    room_id = Match.objects.values_list("room_id", flat=True).get(pk=match_id)
    row = Seat.objects.get(room_id=room_id, index=seat)
    return row.connections, row.state


async def test_a_socket_killed_by_a_server_side_exception_leaves_its_seat_offline(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    seat = table.mover.seat
    assert seat is not None
    headers = [
        (b"origin", ORIGIN),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={table.mover.cookie}".encode()),
    ]
    socket = WebsocketCommunicator(application, f"/ws/match/{table.match_id}/", headers=headers)
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "state"
    assert await database_sync_to_async(_presence)(table.match_id, seat) == (1, Seat.State.CONNECTED)

    # A fault on our side while answering (here: reading the version for a resync) ends the
    # socket's application with an exception; daphne closes such a socket with 1011 and sends
    # it no ``websocket.disconnect``.
    def broken(**kwargs: Any) -> dict[str, Any]:
        raise RuntimeError("injected fault")

    monkeypatch.setattr(selectors, "match_version", broken)
    await socket.send_json_to({"type": "resync"})
    with pytest.raises(RuntimeError, match="injected fault"):
        await socket.wait(timeout=TIMEOUT)
    assert await database_sync_to_async(_presence)(table.match_id, seat) == (0, Seat.State.OFFLINE)
