"""Turn timers and the sweep in a real server: daphne in a subprocess with its embedded worker
(or, under REDIS_URL, daphne plus a separate ``celery worker`` process), a person on a real
WebSocket who does not play.

The test process's own queue is not the server's: the first timer is queued by the worker's
start-up sweep, and a deadline moved into the past afterwards can only be fired by the worker's
periodic sweep.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone
from websockets.asyncio.client import ClientConnection, connect

from games.play import services
from games.play.models import Match, MoveRecord, Room, Seat
from tests.live_server import LiveServer, serving
from tests.schema import assert_frame
from tests.workers.worker_helpers import bot_room, make_user, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

RECEIVE_TIMEOUT = 20


@dataclass(frozen=True)
class Tables:
    timed: int  # 1 s turns: the person's turns run out
    swept: int  # an hour's turns, its deadline moved into the past once the server runs
    cookie: str


@pytest.fixture
def tables(transactional_db: None) -> Tables:
    ala = make_user("ala")
    timed = bot_room(ala, "remik51", {}, seats=2, humans=(ala,))
    Room.objects.filter(pk=timed.pk).update(turn_seconds=1)
    swept = bot_room(ala, "remik51", {}, seats=2, humans=(ala,))
    Room.objects.filter(pk=swept.pk).update(turn_seconds=3600)
    timed_match = services.match_start(room=timed)
    swept_match = services.match_start(room=swept)
    # The swept table waits for the person (the bot plays first when it deals).
    if swept_match.game_state().turn != 0:
        services.bot_move_play(match_id=swept_match.pk, expected_version=0)
        for _ in range(10):
            match = Match.objects.get(pk=swept_match.pk)
            if match.game_state().turn == 0:
                break
            services.bot_move_play(match_id=match.pk, expected_version=match.version)
    # A socket of the previous server run was open on the swept table.
    Seat.objects.filter(room=swept, index=0).update(connections=1)
    return Tables(timed=timed_match.pk, swept=swept_match.pk, cookie=session_cookie(ala))


@pytest.fixture
def server(tables: Tables, tmp_path: Path) -> Iterator[LiveServer]:
    env = {
        "BOT_MOVE_DELAY": "0",
        "ROUND_PAUSE_SECONDS": "0.2",
        "AWAY_AFTER_TIMEOUTS": "2",
        "TURN_SWEEP_SECONDS": "0.3",
        "AWAY_GRACE_SECONDS": "600",
    }
    with serving(tmp_path, env=env) as server:
        yield server


async def _next_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), RECEIVE_TIMEOUT))
        assert_frame(message)  # the published schema (docs/protocol.md)
        assert message["type"] != "error", message
        if message["type"] == "state":
            return message


def _standin_moves(match_id: int, seat: int = 0) -> int:
    return MoveRecord.objects.filter(match_id=match_id, seat=seat, actor=MoveRecord.Actor.STANDIN).count()


@pytest.mark.timeout(120)
async def test_a_person_who_does_not_play_is_timed_out_then_away_and_comes_back(
    tables: Tables, server: LiveServer
) -> None:
    async with connect(
        server.ws_url(f"/ws/match/{tables.timed}/"),
        origin=server.origin,
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={tables.cookie}"},
        proxy=None,
    ) as ws:
        frame = await _next_state(ws)
        assert frame["seats"][0]["state"] == "connected"
        assert frame["seats"][1] == {
            "seat": 1,
            "kind": "bot",
            "state": "connected",
            "standin": False,
            "timeouts": 0,
        }
        # She does not play: her turn runs out (a stand-in plays it), twice; then she is away.
        counts = []
        while frame["seats"][0]["state"] != "away":
            frame = await _next_state(ws)
            counts.append(frame["seats"][0]["timeouts"])
        assert frame["seats"][0] == {
            "seat": 0,
            "kind": "human",
            "state": "away",
            "standin": True,
            "timeouts": 2,
        }
        assert 1 in counts
        # "I'm back": everyone (she too) hears it.
        await ws.send(json.dumps({"type": "back"}))
        while frame["seats"][0]["state"] != "connected":
            frame = await _next_state(ws)
        assert frame["seats"][0] == {
            "seat": 0,
            "kind": "human",
            "state": "connected",
            "standin": False,
            "timeouts": 0,
        }

    assert await database_sync_to_async(_standin_moves)(tables.timed) >= 2

    # The other table's deadline passes with no task queued for it anywhere: the sweep fires it.
    def overdue() -> int:
        version = Match.objects.get(pk=tables.swept).version
        Match.objects.filter(pk=tables.swept).update(turn_deadline=timezone.now() - timedelta(seconds=10))
        return version

    if not settings.REDIS_URL:
        # The single server process forgot the sockets of its previous run when it started: the
        # seat that had one is offline now (and away after the grace period).
        state = await database_sync_to_async(
            lambda: Seat.objects.get(room__matches__pk=tables.swept, index=0).state
        )()
        assert state == Seat.State.OFFLINE
    version = await database_sync_to_async(overdue)()
    for _ in range(RECEIVE_TIMEOUT * 10):
        if await database_sync_to_async(_standin_moves)(tables.swept):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the sweep did not fire the overdue turn")
    first = await database_sync_to_async(
        lambda: MoveRecord.objects.filter(match_id=tables.swept, seq__gt=version).order_by("seq").first()
    )()
    assert (first.seat, first.actor) == (0, MoveRecord.Actor.STANDIN)
