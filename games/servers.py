"""This server process's name and heartbeat, so that the sockets of a process that is gone are closed.

Each daphne process has a name (host, pid and a random part, so a restarted process with the same
pid is another one) and, from ``remi_site.asgi``, a thread that writes ``ServerProcess.beat`` every
``SERVER_HEARTBEAT_SECONDS``. Every socket a seat's player opens is recorded with that name
(``SeatSocket``). A process killed hard runs no ``disconnect``: its sockets would stay counted and
their seats would never go offline. The workers' sweep (``services.servers_gone``) closes the
sockets of every process that has not beaten for ``SERVER_GONE_AFTER_SECONDS``; a process that
stops normally marks itself gone on its way out, so the next sweep need not wait.
"""

from __future__ import annotations

import atexit
import logging
import os
import socket
import threading
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_name: tuple[int, str] | None = None
_heartbeat_pid: int | None = None
_stopped = threading.Event()


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
    from games.models import ServerProcess

    now = now or timezone.now()
    updated = ServerProcess.objects.filter(name=server_name()).update(beat=now)
    if not updated:
        ServerProcess.objects.get_or_create(name=server_name(), defaults={"started": now, "beat": now})


def retire() -> None:
    """This process stops: its heartbeat is dated long ago, so the next sweep closes its sockets."""
    from games.models import ServerProcess

    _stopped.set()
    try:
        ServerProcess.objects.filter(name=server_name()).update(beat=timezone.now() - timedelta(days=1))
    except Exception:  # pragma: no cover - the database may be gone already; the beat will age
        logger.warning("could not mark server %s gone", server_name(), exc_info=True)
    finally:
        connection.close()


def _run(interval: float) -> None:
    while True:
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
