"""A real server: daphne in a subprocess, a person on a real WebSocket, a bot on the worker.

By default the worker runs inside daphne (``EMBEDDED_WORKER``, memory:// broker, in-memory
layer): the bot's frames can only reach the socket through ``run_coroutine_threadsafe`` onto
daphne's loop. Under REDIS_URL the same test runs the production shape instead: daphne plus a
separate ``celery worker`` process, Redis broker and channel layer. Either way the bot's first
move is not queued by anyone but the worker's start-up sweep (the test process's own queue is
not the server's), so the sweep is exercised too.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from websockets.asyncio.client import ClientConnection, connect

from games import engine
from games.engine.bots import choose_move
from games.play import services
from games.play.models import MoveRecord
from tests.live_server import LiveServer, serving
from tests.schema import assert_frame
from tests.workers.worker_helpers import bot_room, make_user, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

RECEIVE_TIMEOUT = 20


@dataclass(frozen=True)
class LiveTable:
    match_id: int
    cookie: str


@pytest.fixture
def live_table(transactional_db: None) -> LiveTable:
    """Every ORM call happens here, before the test's event loop starts."""
    ala = make_user("ala")
    room = bot_room(ala, "remik51", {}, seats=2, humans=(ala,))
    match = services.match_start(room=room)
    return LiveTable(match_id=match.pk, cookie=session_cookie(ala))


@pytest.fixture
def server(live_table: LiveTable, tmp_path: Path) -> Iterator[LiveServer]:
    # asyncio's debug mode refuses a loop's callbacks scheduled from another thread: a send to
    # the in-memory layer that skipped run_coroutine_threadsafe fails instead of arriving late.
    # The server's queue must not hold this test process's tasks: the sweep alone starts the bot.
    env = {"BOT_MOVE_DELAY": "0", "ROUND_PAUSE_SECONDS": "0.2", "PYTHONASYNCIODEBUG": "1"}
    with serving(tmp_path, env=env) as server:
        yield server


async def _next_frame(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), RECEIVE_TIMEOUT))
        assert_frame(message)  # the published schema (docs/protocol.md)
        assert message["type"] != "error", message
        if message["type"] == "state":
            return message


@pytest.mark.timeout(90)
async def test_a_person_and_a_bot_play_on_a_real_server(live_table: LiveTable, server: LiveServer) -> None:
    async with connect(
        server.ws_url(f"/ws/match/{live_table.match_id}/"),
        origin=server.origin,
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={live_table.cookie}"},
        proxy=None,
    ) as ws:
        frame = await _next_frame(ws)
        assert frame["view"]["seat"] == 0
        assert frame["clock"]["turn_seconds"] == 45
        bot_frames = 0
        my_turns = 0
        # Two turns of the person: each answered by the bot through the worker.
        while my_turns < 2:
            if not frame["view"]["you"]["my_turn"]:
                frame = await _next_frame(ws)
                if any(event.get("seat") == 1 and event["kind"] != "turn" for event in frame["events"]):
                    bot_frames += 1
                continue
            my_turns += 1
            while frame["view"]["you"]["my_turn"]:
                move = choose_move(frame["view"])
                command = {"type": "move", "id": uuid.uuid4().hex, "version": frame["version"]}
                await ws.send(json.dumps({**command, "move": engine.move_to_json(move)}))
                sent = frame["version"]
                while frame["version"] <= sent:
                    frame = await _next_frame(ws)
            assert frame["view"]["phase"] != "over"
        # The bot moved at least once after each of the person's turns (and maybe first).
        assert bot_frames >= 1
        assert "clock" in frame
    actors = await database_sync_to_async(
        lambda: set(MoveRecord.objects.filter(match_id=live_table.match_id).values_list("actor", "seat"))
    )()
    assert actors == {(MoveRecord.Actor.PLAYER, 0), (MoveRecord.Actor.BOT, 1)}
