"""This server process: its name, its heartbeat, and its orderly stop.

The heartbeat, so that the sockets of a process that is gone are closed:

Each daphne process has a name (host, pid and a random part, so a restarted process with the same
pid is another one) and, from ``remi_site.asgi``, a thread that writes ``ServerProcess.beat`` every
``SERVER_HEARTBEAT_SECONDS``. Every socket a seat's player opens is recorded with that name
(``SeatSocket``). A process killed hard runs no ``disconnect``: its sockets would stay counted and
their seats would never go offline. The workers' sweep (``services.servers_gone``) closes the
sockets of every process that has not beaten for ``SERVER_GONE_AFTER_SECONDS``; a process that
stops normally marks itself gone on its way out, so the next sweep need not wait.

The orderly stop (``shutdown``, called by ``remi_site.asgi`` when daphne is told to stop, by
SIGTERM or SIGINT): from that moment the process accepts no new socket, sends no frame (its
sockets are about to close; every client resyncs on reconnecting), starts no Celery task and no
sweep in its embedded worker (``task_gate``), and stops beating (its row is dated back, so the
sweep closes its sockets at once). A task already running is waited for, briefly: it commits or
rolls back whole, and the next worker's start-up sweep resumes its table either way.
"""

from __future__ import annotations

import atexit
import logging
import os
import socket
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from time import monotonic

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_name: tuple[int, str] | None = None
_heartbeat_pid: int | None = None
_stopped = threading.Event()
#: Held while a beat or the retirement is written: a beat never lands after the retirement.
_beating = threading.Lock()

#: Set when the process begins to stop (``shutdown``); never cleared.
_stopping = threading.Event()
#: Tasks (and sweeps) running now, under ``_gate``; ``shutdown`` waits for them to end.
_gate = threading.Condition()
_running = 0


def stopping() -> bool:
    """Whether this process has begun to stop: no new socket, frame, task or sweep."""
    return _stopping.is_set()


@contextmanager
def task_gate() -> Iterator[bool]:
    """Run a task or a sweep unless the process is stopping; yields whether it may run.

    ``shutdown`` waits (a bounded time) for every task inside the gate to leave it.
    """
    global _running
    with _gate:
        if _stopping.is_set():
            allowed = False
        else:
            allowed = True
            _running += 1
    try:
        yield allowed
    finally:
        if allowed:
            with _gate:
                _running -= 1
                _gate.notify_all()


def shutdown(*, wait: float = 1.0) -> bool:
    """Stop this process in order (see the module's docstring); whether running tasks ended in time.

    Safe from the event loop's thread: the database write of ``retire`` runs in a thread of its
    own, joined for at most ``wait`` seconds. Idempotent.
    """
    deadline = monotonic() + wait
    with _gate:
        _stopping.set()
        finished = _gate.wait_for(lambda: _running == 0, timeout=wait)
    if not finished:
        logger.warning("stopping with %d task(s) still running", _running)
    # The children computing replays and background work (games/play/offload.py) are ended, not waited for.
    from games.play import offload

    offload.stop()
    if _heartbeat_pid == os.getpid():
        thread = threading.Thread(target=retire, name="server-retire", daemon=True)
        thread.start()
        thread.join(timeout=max(0.1, deadline - monotonic()))
        if thread.is_alive():
            logger.warning("server %s: its heartbeat was not dated back in time", server_name())
    logger.info("server %s stopping (tasks %s)", server_name(), "done" if finished else "still running")
    return finished


def server_name() -> str:
    """This process's name (per pid: a forked child is another server)."""
    global _name
    pid = os.getpid()
    with _lock:
        if _name is None or _name[0] != pid:
            _name = (pid, f"{socket.gethostname()}:{pid}:{uuid.uuid4().hex[:8]}")
        return _name[1]


def beat(now: datetime | None = None) -> None:
    """Write this process's heartbeat (its row is created by the first one)."""
    from games.play.models import ServerProcess

    now = now or timezone.now()
    updated = ServerProcess.objects.filter(name=server_name()).update(beat=now)
    if not updated:
        ServerProcess.objects.get_or_create(name=server_name(), defaults={"started": now, "beat": now})


def retire() -> None:
    """This process stops: its heartbeat is dated long ago, so the next sweep closes its sockets.

    Once per process (``shutdown`` and ``atexit`` both call it).
    """
    from games.play.models import AccountSocket, ServerProcess

    with _beating:  # a beat being written finishes first, and none follows
        if _stopped.is_set():
            return
        _stopped.set()
        try:
            ServerProcess.objects.filter(name=server_name()).update(beat=timezone.now() - timedelta(days=1))
            # Its sockets no longer count against their accounts' caps (the sweep still closes
            # its seats' sockets, which change the seats' presence).
            AccountSocket.objects.filter(server=server_name()).delete()
        except Exception:  # pragma: no cover - the database may be gone already; the beat will age
            logger.warning("could not mark server %s gone", server_name(), exc_info=True)
        finally:
            connection.close()


def _run(interval: float) -> None:
    while True:
        with _beating:
            if _stopped.is_set():
                return
            try:
                close_old_connections()
                beat()
            except Exception:  # logged; the next beat tries again
                logger.exception("server heartbeat failed")
            finally:
                connection.close()
        if _stopped.wait(interval):
            return


def ensure_heartbeat() -> bool:
    """Start this process's heartbeat thread (idempotent per pid); whether it runs.

    Off when ``SERVER_HEARTBEAT_SECONDS`` is 0 (the test runner's default: tests beat by hand).
    """
    global _heartbeat_pid
    interval = settings.SERVER_HEARTBEAT_SECONDS
    if interval <= 0:
        return False
    pid = os.getpid()
    with _lock:
        if _heartbeat_pid == pid:
            return True
        _heartbeat_pid = pid
    threading.Thread(target=_run, args=(interval,), name="server-heartbeat", daemon=True).start()
    atexit.register(retire)
    logger.info("server %s beats every %g s", server_name(), interval)
    return True
