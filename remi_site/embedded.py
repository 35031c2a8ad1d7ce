"""Single-process mode: a Celery worker inside the server process.

Without Redis the broker (``memory://``) and the channel layer (``InMemoryChannelLayer``) exist
only inside one process, so the worker has to run in daphne's process (``CELERY_EMBEDDED_WORKER``,
on by default when ``REDIS_URL`` is unset). The same task code runs as under a separate
``celery worker``, with real countdowns (never eager mode). See ``docs/operations.md`` (embedded mode).

* ``ensure_embedded_worker()`` is called by ``remi_site.asgi`` when it is loaded and on every
  ASGI call (daphne has no lifespan events): the first call starts the worker thread, once per
  process, after forgetting the seats' sockets of the previous run (the only server process had
  them all). The ``WorkController`` is built *and* started inside that thread: built on the event
  loop, Celery's Django fixup raises SynchronousOnlyOperation.
* Two such threads: one consumes the default queue (live play: bot moves, turn timers, sweeps),
  the other ``BACKGROUND_QUEUE`` (a round's analysis, puzzle generation: ``CELERY_TASK_ROUTES``),
  so live play never waits behind background work. Both pass through the same task gate.
  Celery keeps the queues a worker consumes in the *app* (``app.amqp.queues.select``), one set per
  process: two workers of one app starting at once could both end up on the same queue (the other
  queue's tasks then waited for ever: an analysis never started, seen once in CI). Each thread
  names its own queue (``_own_queue``), read when its consumer is built or rebuilt.
* Its sends reach the server's sockets through ``games.play.broadcast.send_many`` (handed to the
  server's loop). When the server stops, ``games.play.servers.shutdown`` closes the task gate: the
  worker thread (a daemon) starts no task after that, and the process exits without it.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import traceback
from typing import Any

from celery import signals
from django.conf import settings

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_worker_pid: int | None = None
#: The queue the current worker thread consumes (``_own_queue``); unset in other threads.
_consuming = threading.local()
_wrap_lock = threading.Lock()
#: The running workers by queue (in this process), for the tests and for a debugger.
workers: dict[str, Any] = {}


def ensure_embedded_worker() -> bool:
    """Start the embedded worker thread if the settings ask for one; idempotent per process.

    Returns whether this process has (now) an embedded worker. Per PID, so that a forked child
    starts its own instead of believing its parent's thread is running in it.
    """
    global _worker_pid
    if not settings.CELERY_EMBEDDED_WORKER:
        return False
    pid = os.getpid()
    if _worker_pid == pid:
        return True
    with _lock:
        if _worker_pid != pid:
            _forget_sockets()
            # Live play (bot moves, timers) and background work (analyses, puzzles) each have a
            # worker thread: a bot's move never waits behind a minute of analysis.
            live, background = settings.CELERY_TASK_DEFAULT_QUEUE, settings.BACKGROUND_QUEUE
            threading.Thread(
                target=_run_worker, args=(live, True), name="celery-embedded", daemon=True
            ).start()
            threading.Thread(
                target=_run_worker, args=(background, False), name="celery-embedded-background", daemon=True
            ).start()
            _worker_pid = pid
    return True


def _forget_sockets() -> None:
    """The server process starts: no socket of its previous run survives (``presence_reset``).

    Done before the worker starts and before any socket of this run connects, so that no seat's
    new connection is forgotten. In a thread of its own, joined: the caller may be on the event
    loop, where the ORM may not run.
    """

    def reset() -> None:
        from django.db import connection

        from games.play import services

        try:
            services.presence_reset()
        except Exception:  # pragma: no cover - logged, the server keeps serving
            logger.exception("the seats' sockets of the previous run were not reset")
        finally:
            connection.close()

    thread = threading.Thread(target=reset, name="presence-reset", daemon=True)
    thread.start()
    waited = 0.0
    for wait in RESET_WAITS:
        thread.join(timeout=wait)
        if not thread.is_alive():
            return
        waited += wait
        # Seen once in CI under full load: the worker started 30 s late, with nothing in the log
        # to say what the reset waited for. Now the log says where it is.
        logger.warning(
            "the reset of the seats' sockets is still running after %g s; it is at:\n%s",
            waited,
            _stack_of(thread),
        )
    logger.warning("the worker starts without waiting any longer for the reset of the seats' sockets")


#: How long ``_forget_sockets`` waits for the reset, in steps (its stack is logged after each).
RESET_WAITS: tuple[float, ...] = (10.0, 20.0)


def _stack_of(thread: threading.Thread) -> str:
    frame = sys._current_frames().get(thread.ident or -1)
    return "".join(traceback.format_stack(frame)) if frame is not None else "(no frame)"


class AnnouncesReady:
    """A WorkController mixin that sends ``worker_ready`` when it starts consuming.

    The ``celery worker`` command sends that signal (it runs the start-up sweep, see
    ``remi_site.celery``); a bare ``WorkController`` does not, so the embedded one adds it.
    """

    def on_consumer_ready(self, consumer: Any) -> None:
        super().on_consumer_ready(consumer)  # type: ignore[misc]
        signals.worker_ready.send(sender=consumer)


def _run_worker(queue: str, announce_ready: bool) -> None:
    """A worker (solo pool, one task at a time) consuming ``queue`` only; the live one (the default
    queue) ``announce_ready`` so that the start-up sweep is queued once."""
    from celery.worker import WorkController

    from remi_site.celery import app

    class EmbeddedWorkController(AnnouncesReady, WorkController):
        pass

    class BackgroundWorkController(WorkController):
        #: The live worker of this process sweeps; one periodic sweep per process is enough.
        sweeps = False

    try:
        # Both threads start at once: the tasks must be registered before either consumer reads
        # them (the autodiscovery inside ``start`` runs in one thread only).
        import games.tasks  # noqa: F401

        app.finalize()
        app.set_current()
        _own_queue(app)
        _consuming.queues = [app.amqp.queues[queue]]
        worker = (EmbeddedWorkController if announce_ready else BackgroundWorkController)(
            app=app,
            pool="solo",
            concurrency=1,
            queues=[queue],
            hostname=f"embedded-{queue}-{os.getpid()}@localhost",
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            loglevel="WARNING",
        )
        workers[queue] = worker
        worker.start()
    except Exception:  # pragma: no cover - logged, the server keeps serving
        logger.exception("the embedded Celery worker stopped")


def _own_queue(app: Any) -> None:
    """Make ``app``'s task consumers consume the queue their thread names (``_consuming.queues``).

    A worker builds its task consumer with ``app.amqp.TaskConsumer(connection)``, which consumes
    ``app.amqp.queues.consume_from``: the queues the *last* worker built in the process selected.
    Wrapped once per app; in a thread that names no queue (a ``celery worker`` process, the tests),
    the consumer is Celery's own.
    """
    amqp = app.amqp
    with _wrap_lock:
        if getattr(amqp.TaskConsumer, "own_queue", False):
            return
        task_consumer = amqp.TaskConsumer

        def own_queue_consumer(channel: Any, queues: Any = None, **kwargs: Any) -> Any:
            if queues is None:
                queues = getattr(_consuming, "queues", None)
            return task_consumer(channel, queues=queues, **kwargs)

        own_queue_consumer.own_queue = True  # type: ignore[attr-defined]
        amqp.TaskConsumer = own_queue_consumer
