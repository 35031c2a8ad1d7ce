"""A real daphne process serving the site on the test database, for tests that need one.

``start_daphne`` starts ``daphne remi_site.asgi:application`` on a free port with the test
database's URL and waits until it accepts connections; ``LiveServer.stop`` sends SIGTERM and
waits until the process is gone (SIGKILL after ``STOP_TIMEOUT``), so nothing a test starts
outlives it or writes into the next test's database. The process's heartbeat is off unless a
test asks for one (``heartbeat=``): a server that beats recreates its ``ServerProcess`` row in a
database flushed under it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connection

#: Generous: a busy machine needs a few seconds to import Django, Channels and Celery.
START_TIMEOUT = 60.0
#: How long ``stop`` waits after SIGTERM before it kills the process.
STOP_TIMEOUT = 15.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def subprocess_database_url() -> str:
    """The URL of the test database (not the one in DATABASE_URL), for a server's subprocess."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@dataclass
class LiveServer:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def origin(self) -> str:
        return self.url

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self, *, timeout: float = STOP_TIMEOUT) -> float | None:
        """SIGTERM, then wait until the process is gone; the seconds that took, or None if it had
        to be killed (it had not exited ``timeout`` seconds after SIGTERM)."""
        if self.process.poll() is not None:
            return 0.0
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
            return None
        return time.monotonic() - started


def start_daphne(
    log_dir: Path,
    *,
    name: str = "daphne",
    heartbeat: float = 0.0,
    embedded_worker: bool | None = None,
    env: Mapping[str, str] | None = None,
    database_url: str | None = None,
    root: Path | None = None,
    port: int | None = None,
) -> LiveServer:
    """Start daphne on the test database and wait until it accepts connections.

    ``embedded_worker``: run the Celery worker inside it (default: when there is no REDIS_URL,
    as ``make run`` does). ``env`` adds or overrides environment variables. ``root``: serve the
    site found there (default: this repository); ``port``: this port (default: a free one).
    """
    if embedded_worker is None:
        embedded_worker = not settings.REDIS_URL

    port = port or free_port()
    environment = dict(
        os.environ,
        DATABASE_URL=database_url or subprocess_database_url(),
        EMBEDDED_WORKER="1" if embedded_worker else "0",
        SERVER_HEARTBEAT_SECONDS=str(heartbeat),
        # The site's own settings, not the test runner's (remi_site/settings/test.py).
        DJANGO_SETTINGS_MODULE="remi_site.settings",
        # Every client of a test connects from 127.0.0.1: the per-address handshake limit
        # (games/play/limits.py, tested in-process by tests/realtime/test_limits.py) would count a
        # whole session's browsers as one visitor.
        WS_HANDSHAKE_BURST="100000",
        # So would the replay limits (games/play/limits.py, tested in-process by
        # tests/site/test_replay_limits.py).
        REPLAY_PAGES_PER_MINUTE="100000",
        REPLAY_UPLOADS_PER_HOUR="100000",
        PYTHONUNBUFFERED="1",
    )
    environment.update(env or {})
    log = log_dir / f"{name}-{port}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "remi_site.asgi:application",
            ],
            cwd=root or settings.BASE_DIR,
            env=environment,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    server = LiveServer(port=port, process=process, log=log)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited with {process.returncode}:\n{server.text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return server
        except OSError:
            if time.monotonic() > deadline:
                server.stop()
                raise RuntimeError(f"daphne did not start:\n{server.text()}") from None
            time.sleep(0.05)


def start_celery_worker(
    log_dir: Path, *, env: Mapping[str, str] | None = None, queues: tuple[str, ...] = ()
) -> LiveServer:
    """A ``celery worker`` (solo pool) on this run's queues and the test database (needs REDIS_URL).

    ``queues``: only these (``-Q``); by default both, live play's and background work's
    (``CELERY_TASK_QUEUES``). Returned as a ``LiveServer`` without a port, for its ``stop`` and its log.
    """
    environment = dict(
        os.environ,
        DATABASE_URL=subprocess_database_url(),
        DJANGO_SETTINGS_MODULE="remi_site.settings",
        PYTHONUNBUFFERED="1",
        **(env or {}),
    )
    log = log_dir / f"celery-{uuid.uuid4().hex[:8]}.log"
    command = [sys.executable, "-m", "celery", "-A", "remi_site", "worker", "--pool", "solo", "-l", "warning"]
    command += [
        "--without-mingle",
        "--without-gossip",
        "--without-heartbeat",
        "-n",
        f"test-{uuid.uuid4().hex}@%h",
    ]
    if queues:
        command += ["-Q", ",".join(queues)]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=settings.BASE_DIR, env=environment, stdout=out, stderr=subprocess.STDOUT
        )
    return LiveServer(port=0, process=process, log=log)


@contextmanager
def serving(
    log_dir: Path,
    *,
    env: Mapping[str, str] | None = None,
    heartbeat: float = 0.0,
    worker: bool = True,
    background_worker: bool = False,
) -> Iterator[LiveServer]:
    """The site as ``make run`` serves it, on the test database, until the block ends.

    Without REDIS_URL: one daphne with the embedded worker. Under REDIS_URL: daphne and, if
    ``worker``, a ``celery worker`` process (this run's queue is purged first, so the server's
    worker does not run an earlier test's tasks). Both are stopped, and waited for, at the end;
    their logs' tails are printed (pytest shows them when the test fails). ``background_worker``
    (under REDIS_URL): two worker processes, one on live play's queue and one on background
    work's, as docs/operations.md advises (the embedded mode always has both threads).
    """
    from remi_site.celery import app

    processes: list[LiveServer] = []
    try:
        if settings.REDIS_URL and worker:
            app.control.purge()
        server = start_daphne(
            log_dir, heartbeat=heartbeat, embedded_worker=None if worker else False, env=env
        )
        processes.append(server)
        if settings.REDIS_URL and worker:
            if background_worker:
                live, background = settings.CELERY_TASK_DEFAULT_QUEUE, settings.BACKGROUND_QUEUE
                processes.append(start_celery_worker(log_dir, env=env, queues=(live,)))
                processes.append(start_celery_worker(log_dir, env=env, queues=(background,)))
            else:
                processes.append(start_celery_worker(log_dir, env=env))
        yield server
    finally:
        for process in processes:
            process.stop()
            print(f"--- {process.log.name} ---\n{process.text()[-4000:]}")
