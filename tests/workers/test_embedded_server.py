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
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection
from websockets.asyncio.client import ClientConnection, connect

from games import engine, services
from games.engine.bots import choose_move
from games.models import MoveRecord
from tests.workers.worker_helpers import bot_room, make_user, purge_queue, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

RECEIVE_TIMEOUT = 20


@dataclass(frozen=True)
class LiveTable:
    match_id: int
    cookie: str


@dataclass(frozen=True)
class Server:
    port: int

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _test_database_url() -> str:
    """The URL of the test database, for the server's subprocesses."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def live_table(transactional_db: None) -> LiveTable:
    """Every ORM call happens here, before the test's event loop starts."""
    ala = make_user("ala")
    room = bot_room(ala, "remik51", {}, seats=2, humans=(ala,))
    match = services.match_start(room=room)
    return LiveTable(match_id=match.pk, cookie=session_cookie(ala))


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


@pytest.fixture
def server(live_table: LiveTable, tmp_path: Path) -> Iterator[Server]:
    port = _free_port()
    env = dict(
        os.environ,
        DATABASE_URL=_test_database_url(),
        BOT_MOVE_DELAY="0",
        ROUND_PAUSE_SECONDS="0.2",
        EMBEDDED_WORKER="0" if settings.REDIS_URL else "1",
        PYTHONUNBUFFERED="1",
        # asyncio's debug mode refuses a loop's callbacks scheduled from another thread: a send to
        # the in-memory layer that skipped run_coroutine_threadsafe fails instead of arriving late.
        PYTHONASYNCIODEBUG="1",
    )
    processes: list[tuple[subprocess.Popen[bytes], Path]] = []

    def start(name: str, *command: str) -> None:
        log = tmp_path / f"{name}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                command, cwd=settings.BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT
            )
        processes.append((process, log))

    # The server's queue must not hold this test process's tasks: the sweep alone starts the bot.
    purge_queue()
    start(
        "daphne",
        sys.executable,
        "-m",
        "daphne",
        "-b",
        "127.0.0.1",
        "-p",
        str(port),
        "remi_site.asgi:application",
    )
    if settings.REDIS_URL:
        start(
            "celery",
            *(sys.executable, "-m", "celery", "-A", "remi_site", "worker", "--pool", "solo", "-l", "warning"),
            *(
                "--without-mingle",
                "--without-gossip",
                "--without-heartbeat",
                "-n",
                f"test-{uuid.uuid4().hex}@%h",
            ),
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or processes[0][0].poll() is not None:
                    raise AssertionError("daphne did not start:\n" + processes[0][1].read_text()) from None
                time.sleep(0.1)
        yield Server(port=port)
    finally:
        for process, log in processes:
            _stop(process)
            print(f"--- {log.name} ---\n{log.read_text()[-4000:]}")  # shown when the test fails


async def _next_frame(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), RECEIVE_TIMEOUT))
        assert message["type"] != "error", message
        if message["type"] == "state":
            return message


@pytest.mark.timeout(90)
async def test_a_person_and_a_bot_play_on_a_real_server(live_table: LiveTable, server: Server) -> None:
    async with connect(
        f"ws://127.0.0.1:{server.port}/ws/match/{live_table.match_id}/",
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
