"""Heavy work off the processes that serve sockets (docs/architecture.md, "Heavy work").

A daphne process serves every socket of its tables from one event loop; a page or a task that
computes for seconds in one of its threads holds the interpreter's lock for most of that time,
and every table's frames and bot replies wait (issue 32: three visitors replaying a long uploaded
record moved another table's move -> frame p90 from 40 to 908 ms). Two pools of child processes
take that work:

* :func:`replay` - a replay's page or a record's check (pure computation with the engine: no
  database). One child per server process (``REPLAY_PROCESSES``); at most ``REPLAY_WAITING``
  requests wait for it, the next is refused at once with ``replay_busy``. The caller's thread
  waits for the answer without holding the lock.
* :func:`background` - a background task's work (a round's analysis, a step of a puzzle batch)
  when the embedded worker runs it inside the server process (``BACKGROUND_IN_CHILD``, on by
  default with the embedded worker): one child that opens its own database connection. A
  ``celery worker -Q background`` process is already apart from the servers and computes in
  itself.

The children are started with ``spawn`` (a fresh interpreter: forking a process that runs an
event loop and threads is unsafe), set Django up once and lower their priority
(``OFFLOAD_NICE``, 10: when every CPU is busy the server's tables come first); they start on
first use. When the
server stops (``games.play.servers.shutdown``) :func:`stop` ends them: an analysis cut short is
queued again by the next start (``analyses_resume``).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from django.conf import settings
from django.utils import translation

from games.shared.errors import ReplayBusyError

logger = logging.getLogger(__name__)

T = TypeVar("T")

_lock = threading.Lock()
_pools: dict[str, tuple[int, ProcessPoolExecutor]] = {}
_waiting: dict[str, tuple[int, threading.BoundedSemaphore]] = {}


def replay(function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``function(*args, **kwargs)`` in the replay child, in the caller's language; raises
    ``ReplayBusyError`` when ``REPLAY_WAITING`` requests already wait for it. Runs in this
    process when ``OFFLOAD_PROCESSES`` is off. ``function`` must be importable by name."""
    if not settings.OFFLOAD_PROCESSES:
        return function(*args, **kwargs)
    slots = _slots("replay", settings.REPLAY_WAITING)
    if not slots.acquire(blocking=False):
        raise ReplayBusyError(site=True)
    try:
        return _call("replay", settings.REPLAY_PROCESSES, function, args, kwargs)
    finally:
        slots.release()


def background(function: Callable[..., T], /, **kwargs: Any) -> T:
    """``function(**kwargs)`` in the background child when this process serves sockets and runs
    background tasks itself (``BACKGROUND_IN_CHILD``); in this process otherwise."""
    if not settings.BACKGROUND_IN_CHILD:
        return function(**kwargs)
    return _call("background", 1, function, (), kwargs)


def stop() -> None:
    """End this process's children (their running work is dropped, not waited for)."""
    with _lock:
        pools = [pool for pid, pool in _pools.values() if pid == os.getpid()]
        _pools.clear()
    for pool in pools:
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)


def children() -> list[int]:
    """The process ids of this process's children (for the tests and a debugger)."""
    with _lock:
        pools = [pool for pid, pool in _pools.values() if pid == os.getpid()]
    return [pid for pool in pools for pid in getattr(pool, "_processes", {})]


def _slots(name: str, size: int) -> threading.BoundedSemaphore:
    with _lock:
        pid, slots = _waiting.get(name, (0, None))
        if slots is None or pid != os.getpid():
            slots = threading.BoundedSemaphore(max(1, size))
            _waiting[name] = (os.getpid(), slots)
        return slots


def _pool(name: str, processes: int) -> ProcessPoolExecutor:
    with _lock:
        pid, pool = _pools.get(name, (0, None))
        if pool is None or pid != os.getpid():
            pool = ProcessPoolExecutor(
                max_workers=max(1, processes),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_child_start,
            )
            _pools[name] = (os.getpid(), pool)
        return pool


def _call(name: str, processes: int, function: Callable[..., T], args: Any, kwargs: Any) -> T:
    pool = _pool(name, processes)
    try:
        return pool.submit(_child_call, translation.get_language(), function, args, kwargs).result()
    except BrokenProcessPool:
        # A child died (killed, out of memory, or stop() above): the next call starts another.
        with _lock:
            if _pools.get(name, (0, None))[1] is pool:
                del _pools[name]
        raise


def _child_start() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")
    django.setup()
    # Below the servers' priority: when the CPUs are all busy, the tables' frames and bots come
    # first and the replays and analyses take what is left.
    lower_priority(settings.OFFLOAD_NICE, settings.OFFLOAD_IDLE)


def lower_priority(nice: int, idle: bool) -> None:
    """This process below the servers: ``nice`` more niceness and, with ``idle`` on Linux, the
    idle scheduling class (it runs only when no other process wants the CPU). Its children
    inherit both (a Celery worker's pool)."""
    os.nice(nice)
    if idle and hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def _child_call(language: str | None, function: Callable[..., T], args: Any, kwargs: Any) -> T:
    from django.db import close_old_connections

    close_old_connections()
    try:
        with translation.override(language):
            return function(*args, **kwargs)
    finally:
        close_old_connections()
