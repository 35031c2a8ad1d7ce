"""Real ``celery -A remi_site worker`` processes for tests, against Redis and PostgreSQL.

Each worker is started the way ``make worker`` starts one (the default prefork pool), in its own
process group, with its output in a log file; the tests read what it did from that log (one
``Task ...[id] succeeded in ...: result`` line per task at INFO level). ``WorkerSet`` stops every
worker it started, whatever the test did, so no process outlives its test.

``held_tasks`` and ``redeliver`` look into the Redis transport's bookkeeping of delivered but
unacknowledged messages (kombu's ``unacked`` hash): what a worker killed hard leaves behind, and
what the broker would hand out again once the visibility timeout has passed.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection

from remi_site.celery import app

#: Generous: a busy CI machine needs a few seconds to import Django and Celery.
START_TIMEOUT = 60.0

_SUCCEEDED = re.compile(
    r"Task (?P<name>[\w.]+)\[(?P<id>[0-9a-f-]+)\] succeeded in [0-9.e+-]+s: (?P<result>.*)$"
)
_SWEPT = re.compile(r"sweep fired (?P<turns>\d+) overdue turn")
_FAILED = re.compile(r"(: (ERROR|CRITICAL)/)|(Task [\w.]+\[[0-9a-f-]+\] (raised unexpected|retry))")

BOT_MOVE = "games.tasks.bot_move"
RESUME_TABLES = "games.tasks.resume_tables"
TURN_TIMEOUT = "games.tasks.turn_timeout"
SEAT_GRACE_END = "games.tasks.seat_grace_end"


def database_url_for_workers() -> str:
    """The URL of the test database (not the one in DATABASE_URL), for the worker processes."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db["HOST"] or "127.0.0.1"
    return f"postgres://{db['USER']}{password}@{host}:{db['PORT'] or 5432}/{db['NAME']}"


def queue_name() -> str:
    """The queue this test run publishes to (``celery_<TOX_PARALLEL_ENV>``, see the settings)."""
    return str(app.conf.task_default_queue)


@dataclass
class WorkerProcess:
    """One ``celery worker`` process group and its log."""

    name: str
    process: subprocess.Popen[bytes]
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def results(self, task: str) -> list[str]:
        """What each finished run of ``task`` returned, as logged (``'played'``, ``1``), in order."""
        return [m["result"] for m in self._succeeded() if m["name"] == task]

    def result_of(self, task_id: str) -> str | None:
        """What the run of the task with this id returned, or None if it has not finished here."""
        return next((m["result"] for m in self._succeeded() if m["id"] == task_id), None)

    def _succeeded(self) -> Iterator[re.Match[str]]:
        for line in self.text().splitlines():
            found = _SUCCEEDED.search(line)
            if found:
                yield found

    def swept(self) -> int:
        """Moves the periodic sweep played here (a bot's move more than a moment late, say)."""
        return sum(int(found["turns"]) for found in _SWEPT.finditer(self.text()))

    def received(self, task_id: str) -> bool:
        """Whether this worker fetched the task with this id (it logs each one it gets)."""
        return f"[{task_id}] received" in self.text()

    def failures(self) -> list[str]:
        """Lines of tasks that raised or were retried, and every error the worker logged."""
        return [line for line in self.text().splitlines() if _FAILED.search(line)]

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while f"{self.name}@" not in self.text() or " ready." not in self.text():
            if not self.alive:
                raise AssertionError(f"worker {self.name} exited:\n{self.text()[-4000:]}")
            if time.monotonic() > deadline:
                raise AssertionError(f"worker {self.name} not ready after {timeout}s:\n{self.text()[-4000:]}")
            time.sleep(0.05)

    def signal(self, signum: int) -> None:
        """Send ``signum`` to the whole group: the main process and its pool's children."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signum)

    def kill(self) -> None:
        """SIGKILL, as a crash or the OOM killer would: nothing is acknowledged or requeued."""
        self.signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def terminate(self) -> None:
        """SIGTERM to the main process only: a warm shutdown (it stops its pool's children once
        their tasks are done; signalled directly, a child would die mid-task)."""
        if self.alive:
            self.signal(signal.SIGCONT)  # in case a test froze it
            self.process.send_signal(signal.SIGTERM)

    def stop(self, timeout: float = 15.0) -> None:
        """A warm shutdown (running tasks finish, reserved ones go back to the queue), else SIGKILL."""
        self.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=timeout)
        self.signal(signal.SIGKILL)  # children left behind, or a worker that did not stop
        if self.alive:
            self.process.wait(timeout=10)


@dataclass
class WorkerSet:
    """Starts workers for one test (or module) and stops all of them at the end."""

    log_dir: Path
    env: Mapping[str, str]
    started: list[WorkerProcess] = field(default_factory=list)

    def start(self, *, concurrency: int = 2, wait: bool = True, **env: str) -> WorkerProcess:
        """A ``celery -A remi_site worker`` on this run's queue; ``env`` adds to the environment."""
        name = f"w{len(self.started) + 1}-{uuid.uuid4().hex[:8]}"
        log = self.log_dir / f"{name}.log"
        command = [
            # If the test process dies without its teardown (SIGKILL), its workers die too (their
            # pool's children follow their parent).
            *(("setpriv", "--pdeathsig", "KILL", "--") if shutil.which("setpriv") else ()),
            *(sys.executable, "-m", "celery", "-A", "remi_site", "worker", "-l", "info"),
            *("-n", f"{name}@%h", "-Q", queue_name(), "--concurrency", str(concurrency)),
            # Other tests' workers may share the broker: no talking to them.
            *("--without-mingle", "--without-gossip", "--without-heartbeat"),
        ]
        with log.open("wb") as out:
            process = subprocess.Popen(
                command,
                cwd=settings.BASE_DIR,
                env={**self.env, **env},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: killpg reaches the pool's children
            )
        worker = WorkerProcess(name=name, process=process, log=log)
        self.started.append(worker)
        if wait:
            worker.wait_ready()
        return worker

    def results(self, task: str) -> Counter[str]:
        """How many runs of ``task`` returned each result, over every worker started here."""
        return Counter(result for worker in self.started for result in worker.results(task))

    def swept(self) -> int:
        return sum(worker.swept() for worker in self.started)

    def result_of(self, task_id: str) -> str | None:
        return next((r for w in self.started if (r := w.result_of(task_id)) is not None), None)

    def failures(self) -> list[str]:
        return [line for worker in self.started for line in worker.failures()]

    def stop_all(self) -> None:
        for worker in self.started:  # all at once: each warm shutdown takes a moment
            worker.terminate()
        for worker in self.started:
            worker.stop()

    def report(self) -> str:
        return "\n".join(f"--- {w.log.name} ---\n{w.text()[-3000:]}" for w in self.started)


def worker_env(**extra: str) -> dict[str, str]:
    """The environment of a worker process: the test database, fast bots, this run's queue."""
    return {
        **os.environ,
        "DATABASE_URL": database_url_for_workers(),
        "REDIS_URL": settings.REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "remi_site.settings",  # the site's, not the test runner's
        "EMBEDDED_WORKER": "0",
        "BOT_MOVE_DELAY": "0",
        # Short, but not zero: the first move of each next round is a countdown (ETA) task.
        "ROUND_PAUSE_SECONDS": "0.05",
        "PYTHONUNBUFFERED": "1",
        **extra,
    }


# --- what the broker holds ---------------------------------------------------------------------


@dataclass(frozen=True)
class HeldTask:
    """A task message in the broker: waiting in the queue, or delivered and not acknowledged."""

    tag: str
    task: str
    task_id: str
    args: tuple[Any, ...]


def _task_message(tag: str, message: dict[str, Any]) -> HeldTask:
    body = message["body"]
    if message["properties"].get("body_encoding") == "base64":
        body = base64.b64decode(body)
    args, _kwargs, _embed = json.loads(body)
    headers = message["headers"]
    return HeldTask(tag=tag, task=headers["task"], task_id=headers["id"], args=tuple(args))


def held_tasks() -> list[HeldTask]:
    """Messages of this run's queue delivered to some worker and not acknowledged yet.

    A worker that dies without acknowledging leaves its messages here (kombu's ``unacked``
    hash); Redis gives them out again only when kombu's restore sweep finds them older than the
    visibility timeout.
    """
    held = []
    with app.connection_for_write() as conn:
        channel = conn.default_channel
        raw: dict[bytes, bytes] = channel.client.hgetall(channel.unacked_key)
        for tag, value in raw.items():
            message, _exchange, routing_key = json.loads(value)
            if routing_key == queue_name():
                held.append(_task_message(tag.decode(), message))
    return held


def queued_tasks() -> list[HeldTask]:
    """Messages waiting in this run's queue (the Redis list of that name), for any worker."""
    with app.connection_for_write() as conn:
        raw: list[bytes] = conn.default_channel.client.lrange(queue_name(), 0, -1)
    return [_task_message("", json.loads(value)) for value in raw]


def redeliver(tasks: list[HeldTask]) -> None:
    """Put held messages back in their queue, as kombu does once the visibility timeout passes.

    The same code path (``QoS.restore_by_tag``), only sooner: the settings keep the timeout at an
    hour, well above the longest countdown, and a short one would redeliver the ETA tasks of
    every other test sharing this Redis.
    """
    with app.connection_for_write() as conn:
        channel = conn.default_channel
        for held in tasks:
            channel.qos.restore_by_tag(held.tag)
