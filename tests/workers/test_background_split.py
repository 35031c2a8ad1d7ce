"""Issue 32, item 9: background work never runs where live play does, in every documented way of
running the site (docs/operations.md, "One process, or several"; docs/architecture.md, "Heavy work").

* ``make run`` (with REDIS_URL) and ``make worker`` start ``python -m remi_site.workers``: a worker
  on live play's queue and another on the background queue alone, never one on both (one person's
  analyses took another table's bot reply p50 from 18 ms to 4 s under one worker of both queues).
* Under REDIS_URL, those two processes: a bot answers a person while an analysis runs.
* Embedded (one process), the server computes a background task in a child process
  (``games.play.offload.background``), not in a thread of the process whose event loop serves the
  sockets.

Only the order of events and which process does what are compared, never a duration.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from websockets.sync.client import connect

from games import engine
from games.engine.bots import choose_move
from games.learn.models import RoundAnalysis
from tests.live_server import LiveServer, serving, start_daphne, subprocess_database_url
from tests.workers.test_background_queue import (
    Tables,
    _analysis_status,
    _ask_analysis,
    _bot_moves,
    _next_state,
    tables,
)
from tests.workers.worker_helpers import wait_until

__all__ = ["tables"]  # the fixture, shared with test_background_queue

ROOT = Path(settings.BASE_DIR)


def _make_commands(target: str) -> str:
    """What ``make <target>`` runs with REDIS_URL set (``make -n``: printed, not run)."""
    done = subprocess.run(
        ["make", "-n", target, "REDIS_URL=redis://127.0.0.1:6379/0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.mark.parametrize("target", ["run", "worker"])
def test_make_run_and_make_worker_start_the_live_and_the_background_worker_apart(target: str) -> None:
    commands = _make_commands(target)
    assert "-m remi_site.workers" in commands
    assert "celery -A remi_site worker" not in commands  # no worker on both queues
    from remi_site import workers

    live, background = workers.commands(["live", "background"])
    assert live[live.index("-Q") + 1] == settings.CELERY_TASK_DEFAULT_QUEUE
    assert background[background.index("-Q") + 1] == settings.BACKGROUND_QUEUE
    assert background[background.index("--concurrency") + 1] == "1"


def _children(pid: int) -> list[tuple[int, str]]:
    """The processes whose parent is ``pid`` (Linux /proc), with their command lines."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                found.append((int(stat.parent.name), command))
        except (OSError, ValueError, IndexError):
            continue
    return found


def _play_until_the_bot_moved(server: LiveServer, tables: Tables) -> None:
    """The person's turns in the live match until the bot has moved once more."""
    before = _bot_moves(tables.live)
    with connect(
        server.ws_url(f"/ws/match/{tables.live}/"),
        origin=server.origin,
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={tables.cookie}"},
        proxy=None,
    ) as ws:
        frame = _next_state(ws)
        while _bot_moves(tables.live) == before:
            if frame["view"]["you"]["my_turn"]:
                move = choose_move(frame["view"])
                command = {"type": "move", "id": uuid.uuid4().hex, "version": frame["version"]}
                ws.send(json.dumps({**command, "move": engine.move_to_json(move)}))
                sent = frame["version"]
                while frame["version"] <= sent:
                    frame = _next_state(ws)
            else:
                frame = _next_state(ws)


ENV = {"BOT_MOVE_DELAY": "0", "ROUND_PAUSE_SECONDS": "0.2", "TURN_SWEEP_SECONDS": "0"}


@pytest.fixture
def split_workers(tables: Tables, tmp_path: Path) -> Iterator[LiveServer]:
    """daphne, and ``python -m remi_site.workers`` as ``make worker`` starts it (under REDIS_URL)."""
    if not settings.REDIS_URL:
        pytest.skip("the PostgreSQL + Redis shape: run with REDIS_URL")
    from remi_site.celery import app

    app.control.purge()
    server = start_daphne(tmp_path, embedded_worker=False, env=ENV)
    log = tmp_path / "workers.log"
    env = {
        **os.environ,
        **ENV,
        "DATABASE_URL": subprocess_database_url(),
        "DJANGO_SETTINGS_MODULE": "remi_site.settings",
        "PYTHONUNBUFFERED": "1",
    }
    options = [
        "--pool",
        "solo",
        "--without-mingle",
        "--without-gossip",
        "--without-heartbeat",
        "-l",
        "warning",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "remi_site.workers", "--", *options],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    launched = LiveServer(port=0, process=process, log=log)
    try:
        yield server
    finally:
        launched.stop()
        server.stop()
        print(f"--- workers ---\n{launched.text()[-4000:]}\n--- daphne ---\n{server.text()[-2000:]}")


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
@pytest.mark.timeout(180)
def test_the_split_workers_answer_a_bot_move_while_an_analysis_runs(
    tables: Tables, split_workers: LiveServer
) -> None:
    launched = _children(split_workers.process.pid)  # daphne has none; the launcher is apart
    assert launched == [] or all("spawn_main" in command for _, command in launched)
    _ask_analysis(split_workers, tables)
    wait_until(lambda: _analysis_status() == RoundAnalysis.Status.RUNNING, what="the analysis to start")
    _play_until_the_bot_moved(split_workers, tables)
    assert _analysis_status() == RoundAnalysis.Status.RUNNING


@pytest.fixture
def embedded(tables: Tables, tmp_path: Path) -> Iterator[LiveServer]:
    if settings.REDIS_URL:
        pytest.skip("the embedded shape: run without REDIS_URL")
    with serving(tmp_path, env=ENV) as server:
        yield server


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
@pytest.mark.timeout(180)
def test_the_embedded_server_analyses_in_a_child_process(tables: Tables, embedded: LiveServer) -> None:
    _ask_analysis(embedded, tables)
    wait_until(lambda: _analysis_status() == RoundAnalysis.Status.RUNNING, what="the analysis to start")
    children = [command for _, command in _children(embedded.process.pid) if "spawn_main" in command]
    assert children, _children(embedded.process.pid)
    # The server's own loop answers the table meanwhile.
    _play_until_the_bot_moved(embedded, tables)
    assert _analysis_status() == RoundAnalysis.Status.RUNNING
