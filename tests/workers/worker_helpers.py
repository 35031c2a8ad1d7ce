"""Helpers for tests with a real Celery worker: start one, wait for the database, build tables.

The worker is ``celery.contrib.testing.worker.start_worker`` (a real ``WorkController`` in a
thread of the test process, solo pool) against the configured broker: ``memory://`` by default,
Redis under REDIS_URL. Never eager mode: countdowns are real.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from celery.contrib.testing.worker import TestWorkController, start_worker
from celery.signals import task_postrun
from celery.worker import state as worker_state
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.play import services
from games.play.models import Match, Room
from remi_site.celery import app
from remi_site.embedded import AnnouncesReady

T = TypeVar("T")

#: Generous: a CI machine on PostgreSQL can be slow.
WAIT = 30.0


class ReadyAnnouncingTestWorker(AnnouncesReady, TestWorkController):
    """A test worker that sends ``worker_ready`` like ``celery worker`` (and the embedded one)."""

    __test__ = False


def purge_queue() -> int:
    """Drop every task waiting in this run's queue (left by earlier tests, or a "crashed" server)."""
    return app.control.purge()


#: What wakes a stopping worker: Celery's built-in task that returns its arguments and does
#: nothing else (always registered; a task of our own here would be registered twice, once per
#: name pytest imports this module under).
WAKE_TASK = "celery.accumulate"
#: Wake-ups sent to a stopping worker: its loop checks for the stop, then waits once more.
WAKE_UPS = 2


@contextmanager
def running_worker(*, announce_ready: bool = False) -> Iterator[Any]:
    """A real worker consuming this run's queue until the block ends; the queue is purged first.

    ``announce_ready`` sends ``worker_ready`` when it starts, which queues the start-up sweep.

    At the end the worker is told to stop, as ``start_worker`` does, and then woken by two tasks
    that do nothing (``WAKE_TASK``): Celery's loop waits for a message up to 2 s at a time, checks
    for the stop between two waits and waits once more after it, so a worker left to notice by
    itself took 2 to 4 s to stop, after every test that ran one (docs/testing.md, "Speed").
    """
    purge_queue()
    options: dict[str, Any] = {"WorkController": ReadyAnnouncingTestWorker} if announce_ready else {}
    with start_worker(
        app, perform_ping_check=False, pool="solo", loglevel="WARNING", shutdown_timeout=30, **options
    ) as worker:
        try:
            yield worker
        finally:
            worker_state.should_terminate = 0  # what start_worker sets before it joins the thread
            for _ in range(WAKE_UPS):
                app.send_task(WAKE_TASK, queue=settings.CELERY_TASK_DEFAULT_QUEUE)


class TaskLog:
    """What the worker's tasks returned: (task name, args, return value), in order."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, tuple[Any, ...], Any]] = []

    def _record(self, sender: Any = None, args: Any = (), retval: Any = None, **kwargs: Any) -> None:
        self.runs.append((sender.name, tuple(args or ()), retval))

    def results(self, name: str, args: tuple[Any, ...] | None = None) -> list[Any]:
        return [r for n, a, r in self.runs if n == name and (args is None or a == args)]


@contextmanager
def task_log() -> Iterator[TaskLog]:
    log = TaskLog()
    task_postrun.connect(log._record, weak=False)
    try:
        yield log
    finally:
        task_postrun.disconnect(log._record)


def wait_until(check: Callable[[], T], *, timeout: float = WAIT, what: str = "the condition") -> T:
    """Poll ``check`` until it returns something truthy; that value. Fails after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.05)


def match_finished(match_id: int) -> bool:
    return Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).exists()


def make_user(username: str) -> Any:
    return get_user_model().objects.create_user(username=username, password=None)


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def bot_room(
    owner: Any, variant: str, options: dict[str, Any], *, seats: int, humans: tuple[Any, ...] = ()
) -> Room:
    """A room whose first seats go to ``humans`` and the others to normal bots."""
    room = services.room_create(
        owner=owner, name="Workers", variant=variant, options=options, seats=seats, turn_seconds=45
    )
    for index, user in enumerate(humans):
        services.seat_take(room=room, user=user, index=index)
    for index in range(len(humans), seats):
        services.seat_add_bot(room=room, index=index)
    return room
