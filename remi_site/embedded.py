"""Single-process mode: a Celery worker inside the server process, and sends that reach its sockets.

Without Redis the broker (``memory://``) and the channel layer (``InMemoryChannelLayer``) exist
only inside one process, so the worker has to run in daphne's process (``CELERY_EMBEDDED_WORKER``,
on by default when ``REDIS_URL`` is unset). The same task code runs as under a separate
``celery worker``, with real countdowns (never eager mode). See ``docs/operations.md`` (embedded mode).

* ``remember_loop()`` / ``ensure_embedded_worker()`` are called by ``remi_site.asgi`` on every
  ASGI call (daphne has no lifespan events): the first call starts the worker thread, once per
  process, after forgetting the seats' sockets of the previous run (the only server process had
  them all). The ``WorkController`` is built *and* started inside that thread: built on the event
  loop, Celery's Django fixup raises SynchronousOnlyOperation.
* ``broadcast`` / ``broadcast_many`` are the one way game code pushes to sockets. In the server
  process a send from another thread (a database thread of ``database_sync_to_async``, or the
  embedded worker's) is handed to the server's loop (``call_soon_threadsafe``) and sent there by
  its ``Outbox``, in order, without the sending thread waiting: the in-memory layer's queues
  belong to that loop and are not thread-safe (a plain ``async_to_sync`` from the worker thread
  is never delivered), and for channels_redis the wait would hold up every other database call
  of the process. Without a running server loop (a ``celery worker`` process) the send goes
  through ``async_to_sync``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections import deque
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from celery import signals
from channels.layers import get_channel_layer
from django.conf import settings

logger = logging.getLogger(__name__)

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
            _forget_sockets()
            threading.Thread(target=_run_worker, name="celery-embedded", daemon=True).start()
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

        from games import services

        try:
            services.presence_reset()
        except Exception:  # pragma: no cover - logged, the server keeps serving
            logger.exception("the seats' sockets of the previous run were not reset")
        finally:
            connection.close()

    thread = threading.Thread(target=reset, name="presence-reset", daemon=True)
    thread.start()
    thread.join(timeout=30)


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
    """Send each (group, message) in order, from any synchronous code in any thread.

    In the server process (its loop is known and running) the messages are handed to the loop's
    ``Outbox`` and this returns at once: the thread that runs the database work does not wait
    for the loop, which serves every socket, to get round to the send. The outbox sends batches
    in the order they were handed over (each right after its commit; a client keeps the newest
    version it has seen in any case).
    Elsewhere (a ``celery worker`` process, a management command, a test without a running loop)
    the sends run through ``async_to_sync`` and are done when this returns.
    """
    layer = get_channel_layer()
    pending = list(messages)
    if layer is None or not pending:
        return
    loop = _loop
    if loop is not None and loop.is_running():
        outbox = _outbox_for(loop)
        if _running_loop() is loop:  # sync code on the loop itself
            outbox.put(layer, pending)
        else:
            loop.call_soon_threadsafe(outbox.put, layer, pending)
        return
    async_to_sync(send_batch)(layer, pending)


async def send_batch(layer: Any, pending: list[tuple[str, dict[str, Any]]]) -> None:
    """Every (group, message) through ``layer``: in one call when it has ``group_send_many``."""
    send_many = getattr(type(layer), "group_send_many", None)
    if send_many is not None:
        await layer.group_send_many(pending)
        return
    for group, message in pending:
        await layer.group_send(group, message)


class Outbox:
    """The sends handed to one event loop by ``broadcast_many``, sent one batch after another.

    ``put`` runs on the loop only (other threads reach it with ``call_soon_threadsafe``). One
    task drains the queue; batches queued meanwhile for the same layer go out together, so a
    busy server makes fewer, larger trips to the channel layer.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queue: deque[tuple[Any, list[tuple[str, dict[str, Any]]]]] = deque()
        self.draining = False

    def put(self, layer: Any, pending: list[tuple[str, dict[str, Any]]]) -> None:
        self.queue.append((layer, pending))
        if not self.draining:
            self.draining = True
            self.loop.create_task(self.drain())

    async def drain(self) -> None:
        try:
            while self.queue:
                layer, batch = self.queue.popleft()
                batch = list(batch)
                while self.queue and self.queue[0][0] is layer:
                    batch.extend(self.queue.popleft()[1])
                try:
                    await send_batch(layer, batch)
                except Exception:
                    logger.exception("a broadcast to %s was not sent", batch[0][0])
        finally:
            self.draining = False


_outboxes: dict[asyncio.AbstractEventLoop, Outbox] = {}


def _outbox_for(loop: asyncio.AbstractEventLoop) -> Outbox:
    outbox = _outboxes.get(loop)
    if outbox is None:
        with _lock:
            outbox = _outboxes.get(loop)
            if outbox is None:
                for old in [known for known in _outboxes if known.is_closed()]:
                    del _outboxes[old]
                outbox = _outboxes[loop] = Outbox(loop)
    return outbox


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
