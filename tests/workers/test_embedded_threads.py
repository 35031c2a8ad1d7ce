"""The single-process mode's worker threads (remi_site/embedded.py, docs/operations.md): a live
worker and a background worker, and one periodic turn sweep per process, not one per worker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import time, threading
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from remi_site.embedded import ensure_embedded_worker
assert ensure_embedded_worker()
deadline = time.monotonic() + 60
names = []
while time.monotonic() < deadline:
    names = sorted(t.name for t in threading.enumerate())
    if "celery-embedded-background" in names and "turn-sweep" in names:
        time.sleep(2)  # both workers have started their bootsteps by now
        names = sorted(t.name for t in threading.enumerate())
        break
    time.sleep(0.2)
print("THREADS", ",".join(names))
"""


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_the_embedded_mode_runs_a_live_and_a_background_worker_and_one_sweep(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL", "EMBEDDED_WORKER")}
    env.update(
        DJANGO_SETTINGS_MODULE="remi_site.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        TURN_SWEEP_SECONDS="1",
    )
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, env=env, capture_output=True, text=True, timeout=150
    )
    assert done.returncode == 0, done.stderr[-3000:]
    line = next(line for line in done.stdout.splitlines() if line.startswith("THREADS "))
    names = line.removeprefix("THREADS ").split(",")
    assert "celery-embedded" in names
    assert "celery-embedded-background" in names
    assert names.count("turn-sweep") == 1, names


QUEUES_PROGRAM = """
import time
import django
django.setup()
from django.conf import settings
from django.core.management import call_command
call_command("migrate", verbosity=0)
from remi_site import embedded
assert embedded.ensure_embedded_worker()
live, background = settings.CELERY_TASK_DEFAULT_QUEUE, settings.BACKGROUND_QUEUE
deadline = time.monotonic() + 60
def consumed(queue):
    worker = embedded.workers.get(queue)
    consumer = getattr(worker, "consumer", None)
    task_consumer = getattr(consumer, "task_consumer", None)
    return None if task_consumer is None else sorted(q.name for q in task_consumer.queues)
while time.monotonic() < deadline and (consumed(live) is None or consumed(background) is None):
    time.sleep(0.1)
print("LIVE", consumed(live))
print("BACKGROUND", consumed(background))
# What the other thread's start did to the app (Celery keeps one selection per app): a consumer
# rebuilt in a thread that names its queue still consumes that queue.
from remi_site.celery import app
app.amqp.queues.select([live])
import threading
rebuilt = []
def rebuild():
    embedded._consuming.queues = [app.amqp.queues[background]]
    with app.connection_for_read() as connection:
        rebuilt.append(sorted(q.name for q in app.amqp.TaskConsumer(connection).queues))
thread = threading.Thread(target=rebuild)
thread.start()
thread.join()
print("REBUILT", rebuilt[0])
"""


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_each_embedded_worker_consumes_its_own_queue_whatever_the_other_selected(tmp_path: Path) -> None:
    # Celery's queue selection is one per app: the two workers starting at once once both consumed
    # the live queue, and an analysis waited for ever (CI, test_background_queue.py).
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL", "EMBEDDED_WORKER")}
    env.update(DJANGO_SETTINGS_MODULE="remi_site.settings", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sql'}")
    done = subprocess.run(
        [sys.executable, "-c", QUEUES_PROGRAM], cwd=ROOT, env=env, capture_output=True, text=True, timeout=150
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines() if line.split(" ", 1)[0].isupper())
    # The subprocess inherits this test's environment, so its queue names are this process's.
    assert lines["LIVE"] == repr([settings.CELERY_TASK_DEFAULT_QUEUE]), lines
    assert lines["BACKGROUND"] == repr([settings.BACKGROUND_QUEUE]), lines
    assert lines["REBUILT"] == repr([settings.BACKGROUND_QUEUE]), lines


def test_a_slow_reset_of_the_seats_sockets_is_logged_with_where_it_waits(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The worker waits for ``presence_reset`` a bounded time, and says where the reset is stuck
    (docs/operations.md, embedded mode): once seen as a worker starting 30 s late, unexplained."""
    import threading

    from games.play import services
    from remi_site import embedded

    release = threading.Event()

    def a_reset_that_waits_for_a_lock() -> int:
        release.wait(10)
        return 0

    monkeypatch.setattr(services, "presence_reset", a_reset_that_waits_for_a_lock)
    monkeypatch.setattr(embedded, "RESET_WAITS", (0.05, 0.1))
    try:
        with caplog.at_level("WARNING", logger="remi_site.embedded"):
            embedded._forget_sockets()
    finally:
        release.set()
    stuck = [record.getMessage() for record in caplog.records if "still running" in record.getMessage()]
    assert len(stuck) == 2
    assert "after 0.05 s" in stuck[0]
    assert "after 0.15 s" in stuck[1]
    assert "a_reset_that_waits_for_a_lock" in stuck[1]
    assert "release.wait(10)" in stuck[1]
    assert "without waiting any longer" in caplog.records[-1].getMessage()


def test_a_quick_reset_of_the_seats_sockets_logs_nothing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from games.play import services
    from remi_site import embedded

    done: list[bool] = []
    monkeypatch.setattr(services, "presence_reset", lambda: done.append(True) or 0)
    with caplog.at_level("WARNING", logger="remi_site.embedded"):
        embedded._forget_sockets()
    assert done == [True]
    assert not caplog.records
