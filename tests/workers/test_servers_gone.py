"""Sockets of a server process that is gone (killed hard: no ``disconnect`` ran) are closed by the
sweep, so their seats go offline and then away (RMI-NET-3/4), as if the tab had been closed.

Each socket a seat's player opens is recorded with its server's name (``SeatSocket``); each server
beats (``ServerProcess.beat``); ``services.servers_gone`` closes the sockets of the servers whose
beat is older than ``SERVER_GONE_AFTER_SECONDS``. A real daphne process killed with SIGKILL:
``test_a_server_killed_hard_leaves_no_seat_connected`` below.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone
from pytest_django.fixtures import Settings
from websockets.asyncio.client import connect

from games.play import servers, services
from games.play.models import Match, Room, Seat, SeatSocket, ServerProcess
from tests.live_server import LiveServer, start_daphne
from tests.workers.worker_helpers import bot_room, make_user, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def _table(names: tuple[str, ...] = ("ala",)) -> tuple[Room, Match, list[Any]]:
    people = [make_user(name) for name in names]
    room = bot_room(people[0], "remik51", {}, seats=2, humans=tuple(people))
    Room.objects.filter(pk=room.pk).update(turn_seconds=3600)
    return room, services.match_start(room=room), people


def _seat(room: Room, index: int = 0) -> Seat:
    return Seat.objects.get(room=room, index=index)


def _open_on(server: str, *, match: Match, user: Any, channel: str) -> None:
    """A socket opened on the server process ``server`` (another process of the same site)."""
    saved = servers._name
    servers._name = (os.getpid(), server)
    try:
        services.seat_connect(match_id=match.pk, user=user, channel=channel)
    finally:
        servers._name = saved


def _age(server: str, seconds: float) -> None:
    ServerProcess.objects.filter(name=server).update(beat=timezone.now() - timedelta(seconds=seconds))


def test_a_socket_is_recorded_with_its_server_and_forgotten_when_it_closes() -> None:
    room, match, (ala,) = _table()
    services.seat_connect(match_id=match.pk, user=ala, channel="chan-1")
    row = SeatSocket.objects.get()
    assert (row.seat_id, row.server, row.channel) == (_seat(room).pk, servers.server_name(), "chan-1")
    assert ServerProcess.objects.filter(name=servers.server_name()).exists()
    assert _seat(room).connections == 1
    assert services.seat_disconnect(match_id=match.pk, user=ala, channel="chan-1") is True
    assert not SeatSocket.objects.exists()
    assert (_seat(room).connections, _seat(room).state) == (0, Seat.State.OFFLINE)


def test_the_sockets_of_a_server_gone_are_closed_and_their_seats_go_offline_then_away(
    settings: Settings,
) -> None:
    settings.SERVER_GONE_AFTER_SECONDS = 30
    settings.AWAY_GRACE_SECONDS = 30
    room, match, (ala, ola) = _table(("ala", "ola"))
    _open_on("dead:1:a", match=match, user=ala, channel="a1")
    _open_on("dead:1:a", match=match, user=ala, channel="a2")  # two tabs, both on the dead server
    _open_on("dead:1:a", match=match, user=ola, channel="o1")
    _open_on("alive:2:b", match=match, user=ola, channel="o2")  # and one on a live server
    _age("dead:1:a", 31)
    _age("alive:2:b", 5)

    fired = services.sweep_overdue()

    assert fired["servers"] == 1
    ala_seat, ola_seat = _seat(room, 0), _seat(room, 1)
    assert (ala_seat.state, ala_seat.connections) == (Seat.State.OFFLINE, 0)
    assert (ola_seat.state, ola_seat.connections) == (Seat.State.CONNECTED, 1)
    assert sorted(SeatSocket.objects.values_list("channel", flat=True)) == ["o2"]
    assert list(ServerProcess.objects.values_list("name", flat=True)) == ["alive:2:b"]
    # A second sweep finds nothing more to close.
    assert services.servers_gone() == 0
    # The grace period runs out with no socket back: away.
    Seat.objects.filter(pk=ala_seat.pk).update(offline_since=timezone.now() - timedelta(seconds=31))
    assert services.sweep_overdue()["away"] == 1
    assert _seat(room, 0).state == Seat.State.AWAY


def test_a_server_that_beats_keeps_its_sockets(settings: Settings) -> None:
    settings.SERVER_GONE_AFTER_SECONDS = 30
    room, match, (ala,) = _table()
    _open_on("slow:1:a", match=match, user=ala, channel="a1")
    _age("slow:1:a", 29)
    assert services.servers_gone() == 0
    assert (_seat(room).state, _seat(room).connections) == (Seat.State.CONNECTED, 1)


def test_a_socket_closed_after_its_server_was_taken_for_gone_is_not_counted_twice(
    settings: Settings,
) -> None:
    settings.SERVER_GONE_AFTER_SECONDS = 30
    room, match, (ala,) = _table()
    _open_on("paused:1:a", match=match, user=ala, channel="a1")
    _age("paused:1:a", 31)
    assert services.servers_gone() == 1
    services.seat_connect(match_id=match.pk, user=ala, channel="b1")  # reconnected elsewhere
    assert (_seat(room).state, _seat(room).connections) == (Seat.State.CONNECTED, 1)
    # The first server was only paused: its socket closes now, and must not close the new one.
    assert services.seat_disconnect(match_id=match.pk, user=ala, channel="a1") is False
    assert (_seat(room).state, _seat(room).connections) == (Seat.State.CONNECTED, 1)


def test_a_server_stopping_normally_dates_its_beat_back(settings: Settings) -> None:
    settings.SERVER_GONE_AFTER_SECONDS = 30
    room, match, (ala,) = _table()
    services.seat_connect(match_id=match.pk, user=ala, channel="a1")
    servers.beat()
    servers.retire()
    servers._stopped.clear()
    assert services.servers_gone() == 1
    assert _seat(room).state == Seat.State.OFFLINE


# --- a real server process, killed hard ---------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_a_server_killed_hard_leaves_no_seat_connected(tmp_path: Path, settings: Settings) -> None:
    settings.SERVER_GONE_AFTER_SECONDS = 2
    room, match, (ala,) = _table()
    cookie = session_cookie(ala)
    # No worker in the server: no start-up reset of the seats either.
    server = start_daphne(tmp_path, heartbeat=0.5, embedded_worker=False, env={"BOT_MOVE_DELAY": "0"})
    try:
        asyncio.run(_connect_then_kill(server, match.pk, cookie, room))
    finally:
        server.stop()
        print(server.text()[-3000:])  # shown when the test fails
    # Its beat ages past SERVER_GONE_AFTER_SECONDS: the sweep closes the socket it held.
    deadline = time.monotonic() + 20
    while services.sweep_overdue()["servers"] == 0:
        assert time.monotonic() < deadline, "the sweep never took the killed server for gone"
        time.sleep(0.3)
    seat = _seat(room)
    assert (seat.state, seat.connections) == (Seat.State.OFFLINE, 0)
    assert not SeatSocket.objects.exists()


async def _connect_then_kill(server: LiveServer, match_id: int, cookie: str, room: Room) -> None:
    ws = await connect(
        server.ws_url(f"/ws/match/{match_id}/"),
        origin=server.origin,
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
        proxy=None,
    )
    frame = json.loads(await asyncio.wait_for(ws.recv(), 20))
    assert frame["type"] == "state"
    assert frame["seats"][0]["state"] == "connected"

    def recorded() -> tuple[int, int, int]:
        return (
            Seat.objects.get(room=room, index=0).connections,
            SeatSocket.objects.count(),
            ServerProcess.objects.count(),
        )

    assert await database_sync_to_async(recorded)() == (1, 1, 1)
    server.process.send_signal(signal.SIGKILL)  # no disconnect runs, no retire
    server.process.wait(10)
    await ws.close()
    assert await database_sync_to_async(recorded)() == (1, 1, 1)
