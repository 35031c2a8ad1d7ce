"""One seat with a socket on each of two daphne processes sharing PostgreSQL and Redis (issue 32,
item 2; docs/protocol.md, "`away` and `back`").

The player's tab on the second process closes, saying ``away`` as a page does when it goes: the
seat keeps its socket on the first process, so it stays connected and nobody hears a thing. Then
the first process is killed hard (no ``disconnect`` runs): the sweep closes the socket it held,
the seat, with none left, goes offline, and away once its grace period is over.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import connection
from pytest_django.fixtures import Settings
from websockets.asyncio.client import ClientConnection, connect

from games.play import services
from games.play.models import Match, Room, Seat, SeatSocket
from tests.live_server import LiveServer, start_daphne
from tests.workers.worker_helpers import make_user, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

WAIT = 15
QUIET = 0.5


async def _open(server: LiveServer, match_id: int, cookie: str) -> tuple[ClientConnection, dict[str, Any]]:
    ws = await connect(
        server.ws_url(f"/ws/match/{match_id}/"),
        origin=server.origin,
        additional_headers={"Cookie": f"{django_settings.SESSION_COOKIE_NAME}={cookie}"},
        proxy=None,
    )
    return ws, json.loads(await asyncio.wait_for(ws.recv(), WAIT))


async def _next_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if frame["type"] == "state":
            return frame


async def _nothing_more(ws: ClientConnection) -> bool:
    try:
        await asyncio.wait_for(ws.recv(), QUIET)
    except TimeoutError:
        return True
    return False


def _seat(room: Room, index: int) -> Seat:
    try:
        return Seat.objects.get(room=room, index=index)
    finally:
        connection.close()


def _sockets(room: Room, index: int) -> list[str]:
    try:
        return list(
            SeatSocket.objects.filter(seat__room=room, seat__index=index).values_list("server", flat=True)
        )
    finally:
        connection.close()


async def _until(check: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not await asyncio.to_thread(check):
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


@pytest.mark.timeout(180)
def test_away_from_a_tab_on_one_server_keeps_the_seat_while_its_tab_on_another_is_open(
    tmp_path: Path, settings: Settings
) -> None:
    if not settings.REDIS_URL:
        pytest.skip("two server processes need Redis between them")
    # This process publishes what the sweep changes as a worker of the site does: on the site's
    # own layer (the servers' prefix), not the private one of this folder's tests.
    from remi_site.settings import base

    settings.CHANNEL_LAYERS = base.CHANNEL_LAYERS
    settings.SERVER_GONE_AFTER_SECONDS = 2
    settings.AWAY_GRACE_SECONDS = 0
    ala, bartek = make_user("ala"), make_user("bartek")
    room = services.room_create(
        owner=ala, name="Two servers", variant="remik51", options={}, seats=2, turn_seconds=3600
    )
    services.seat_take(room=room, user=ala, index=0)
    services.seat_take(room=room, user=bartek, index=1)
    match = services.match_start(room=room)
    cookies = {user.username: session_cookie(user) for user in (ala, bartek)}
    # No worker in either (no start-up reset of the seats): the test runs the sweep itself.
    one = start_daphne(tmp_path, name="one", heartbeat=0.5, embedded_worker=False)
    two = start_daphne(tmp_path, name="two", heartbeat=0.5, embedded_worker=False)

    async def play() -> None:
        ala_one, _ = await _open(one, match.pk, cookies["ala"])
        ala_two, _ = await _open(two, match.pk, cookies["ala"])
        bartek_two, first = await _open(two, match.pk, cookies["bartek"])
        assert first["seats"][0]["state"] == "connected"
        await _until(lambda: len(_sockets(room, 0)) == 2, "Ala's two sockets were not both recorded")
        assert len(set(await asyncio.to_thread(_sockets, room, 0))) == 2  # one on each server process

        # The tab on the second server goes, saying "away" as a page does when it closes.
        await ala_two.send(json.dumps({"type": "away", "id": "bye"}))
        fresh = await _next_state(ala_two)
        assert fresh["seats"][0]["state"] == "connected"
        await ala_two.close()
        await _until(lambda: len(_sockets(room, 0)) == 1, "the closed socket was not forgotten")
        seat = await asyncio.to_thread(_seat, room, 0)
        assert (seat.state, seat.connections) == (Seat.State.CONNECTED, 1)
        assert await _nothing_more(bartek_two), "Bartek heard of a change of Ala's seat"

        # The first server dies hard with Ala's last socket: nothing is left of her at the table.
        one.process.send_signal(signal.SIGKILL)
        one.process.wait(10)
        await ala_one.close()

        def swept() -> bool:
            try:
                services.sweep_overdue()
                return _seat(room, 0).state == Seat.State.AWAY
            finally:
                connection.close()

        await _until(swept, "Ala's seat never went away once her last socket was gone")
        states = []
        while not states or states[-1] != "away":
            states.append((await _next_state(bartek_two))["seats"][0]["state"])
        assert states == ["offline", "away"]
        await bartek_two.close()

    try:
        asyncio.run(play())
    finally:
        one.stop()
        two.stop()
    assert "Traceback" not in two.text(), two.text()[-3000:]
    assert Match.objects.filter(pk=match.pk).exists()
