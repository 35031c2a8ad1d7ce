"""Single-process mode: a Celery worker inside the server process, and sends that reach its sockets.

Without Redis the broker (``memory://``) and the channel layer (``InMemoryChannelLayer``) exist
only inside one process, so the worker has to run in daphne's process (``CELERY_EMBEDDED_WORKER``,
on by default when ``REDIS_URL`` is unset). The same task code runs as under a separate
``celery worker``, with real countdowns (never eager mode). See ``../shared/STACK.md`` §3.

* ``remember_loop()`` / ``ensure_embedded_worker()`` are called by ``remi_site.asgi`` on every
  ASGI call (daphne has no lifespan events): the first call starts the worker thread, once per
  process. The ``WorkController`` is built *and* started inside that thread: built on the event
  loop, Celery's Django fixup raises SynchronousOnlyOperation.
* ``broadcast`` / ``broadcast_many`` are the one way game code pushes to sockets. The in-memory
  layer's queues belong to the server's event loop and are not thread-safe, so a send from
  another thread (the worker's) is run on that loop with ``run_coroutine_threadsafe``; a plain
  ``async_to_sync`` from the worker thread is never delivered. Any other layer (channels_redis)
  is used through ``async_to_sync``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from celery import signals
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings

logger = logging.getLogger(__name__)

#: How long a send from another thread waits for the server's loop to run it.
SEND_TIMEOUT = 5.0

_lock = threading.Lock()
_worker_pid: int | None = None
_loop: asyncio.AbstractEventLoop | None = None


def remember_loop() -> None:
    """Note the running event loop (the server's): sends from other threads are run on it."""
    global _loop
    _loop = asyncio.get_running_loop()


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
            threading.Thread(target=_run_worker, name="celery-embedded", daemon=True).start()
            _worker_pid = pid
    return True


class AnnouncesReady:
    """A WorkController mixin that sends ``worker_ready`` when it starts consuming.

    The ``celery worker`` command sends that signal (it runs the start-up sweep, see
    ``remi_site.celery``); a bare ``WorkController`` does not, so the embedded one adds it.
    """

    def on_consumer_ready(self, consumer: Any) -> None:
        super().on_consumer_ready(consumer)  # type: ignore[misc]
        signals.worker_ready.send(sender=consumer)


def _run_worker() -> None:
    from celery.worker import WorkController

    from remi_site.celery import app

    class EmbeddedWorkController(AnnouncesReady, WorkController):
        pass

    try:
        app.finalize()
        app.set_current()
        worker = EmbeddedWorkController(
            app=app,
            pool="solo",
            concurrency=1,
            hostname=f"embedded-{os.getpid()}@localhost",
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            loglevel="WARNING",
        )
        worker.start()
    except Exception:  # pragma: no cover - logged, the server keeps serving
        logger.exception("the embedded Celery worker stopped")


def broadcast(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to a channel-layer group, from any synchronous code in any thread."""
    broadcast_many([(group, message)])


def broadcast_many(messages: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """Send each (group, message) in order, in one trip to the event loop."""
    layer = get_channel_layer()
    pending = list(messages)
    if layer is None or not pending:
        return

    async def send_all() -> None:
        for group, message in pending:
            await layer.group_send(group, message)

    loop = _loop
    if isinstance(layer, InMemoryChannelLayer) and loop is not None and loop.is_running():
        if _running_loop() is loop:  # sync code on the loop itself: cannot block, so schedule
            loop.create_task(send_all())
            return
        future = asyncio.run_coroutine_threadsafe(send_all(), loop)
        try:
            future.result(SEND_TIMEOUT)
        except TimeoutError:
            future.cancel()
            logger.warning("a broadcast to %s was not delivered within %ss", pending[0][0], SEND_TIMEOUT)
        return
    async_to_sync(send_all)()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
