"""The Celery application. Its settings are the Django settings prefixed with CELERY_.

Tasks live in ``games/tasks.py``. Every worker (``celery worker``, or the embedded one of
remi_site/embedded.py):

* queues the start-up sweep when it becomes ready (``worker_ready``): the move of every table
  waiting for a bot and the timer of every table waiting for a person are scheduled again, so a
  restarted server resumes every table from the database;
* runs every task through ``GatedTask``: once its server process has begun to stop
  (``games.play.servers.shutdown``: only the embedded worker shares a process with a server), a task
  is not started (its message is dropped; the next start-up sweep resumes the table) and the stop
  waits for a running one to end;
* runs the periodic sweep (``TurnSweep``) every ``TURN_SWEEP_SECONDS``: turn deadlines and
  offline grace periods whose task was lost (a worker killed hard keeps the tasks it had fetched
  until the broker's visibility timeout, an hour) are fired anyway. Several workers sweeping at
  once are safe: each move is applied under the match's row lock, for the version the sweep read.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from celery import Celery, Task, bootsteps
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

logger = logging.getLogger(__name__)


class GatedTask(Task):
    """A task that does not start once its process has begun to stop (``servers.task_gate``)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from games.play import servers

        with servers.task_gate() as allowed:
            if not allowed:
                logger.info("%s not run: this process is stopping", self.name)
                return None
            return super().__call__(*args, **kwargs)


app = Celery("remi_site", task_cls=GatedTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def resume_tables_on_start(sender: Any = None, **kwargs: Any) -> None:
    # Queue the sweep rather than run it here: the worker runs it like any task (its own
    # database connection, closed afterwards). Several workers starting at once queue several
    # sweeps; the duplicate bot moves they schedule are refused by the version check.
    from games.tasks import analyses_resume, puzzles_resume, resume_tables

    resume_tables.apply_async()
    # Puzzle batches left unfinished (the start-up seed of `make run`: docs/learn.md) go on.
    puzzles_resume.apply_async()
    # So do the analyses of rounds asked for and not finished (an embedded worker's queue is gone).
    analyses_resume.apply_async()


class Sweeper:
    """A thread that calls ``games.play.services.sweep_overdue`` every ``interval`` seconds until stopped.

    It does not go through the broker: a sweep must run even when the queue holds the lost tasks
    (or is far behind). Its database connection is closed after each sweep.
    """

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.thread = threading.Thread(target=self.run, name="turn-sweep", daemon=True)
        self.thread.start()
        logger.info("turn sweep every %g s", self.interval)

    def stop(self) -> None:
        self.stopping.set()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(timeout=30)

    def run(self) -> None:
        from django.db import close_old_connections, connection

        from games.play import servers, services

        while not self.stopping.wait(self.interval):
            with servers.task_gate() as allowed:
                if not allowed:
                    return
                try:
                    close_old_connections()
                    services.sweep_overdue()
                except Exception:  # logged; the next sweep tries again
                    logger.exception("the turn sweep failed")
                finally:
                    connection.close()


class TurnSweep(bootsteps.StartStopStep):
    """Worker bootstep: the periodic sweep in every worker (off when ``TURN_SWEEP_SECONDS`` is 0,
    and in the embedded background worker, whose process's live worker sweeps)."""

    requires = ("celery.worker.components:Pool",)

    def include_if(self, parent: Any) -> bool:
        from django.conf import settings

        return float(getattr(settings, "TURN_SWEEP_SECONDS", 0)) > 0 and getattr(parent, "sweeps", True)

    def create(self, parent: Any) -> Sweeper:
        from django.conf import settings

        return Sweeper(float(settings.TURN_SWEEP_SECONDS))


app.steps["worker"].add(TurnSweep)
