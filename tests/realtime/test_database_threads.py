"""The sockets' database threads keep their connection from one call to the next, and give up a
connection they cannot trust (games/consumers.py, ``KeptConnectionSyncToAsync``;
docs/benchmarks.md, "What each server choice is worth")."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection, connections
from django.db.backends.signals import connection_created

from games.consumers import KeptConnectionSyncToAsync

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def thread() -> Iterator[ThreadPoolExecutor]:
    """One database thread; whatever it keeps is closed at the end (the test database is dropped)."""
    executor = ThreadPoolExecutor(max_workers=1)
    yield executor
    executor.submit(connections.close_all).result()
    executor.shutdown()


@pytest.fixture
def opened() -> Iterator[list[object]]:
    """The connections opened while the test runs, in order (Django's ``connection_created``)."""
    seen: list[object] = []

    def note(sender: Any, connection: Any, **kwargs: Any) -> None:
        seen.append(connection.connection)

    connection_created.connect(note)
    yield seen
    connection_created.disconnect(note)


def _call(thread: ThreadPoolExecutor, func: Any) -> Any:
    async def run() -> Any:
        return await KeptConnectionSyncToAsync(func, thread_sensitive=False, executor=thread)()

    return asyncio.run(run())


def _query() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _is_open() -> bool:
    return connection.connection is not None


def test_a_database_thread_keeps_its_connection_between_calls(
    thread: ThreadPoolExecutor, opened: list[object]
) -> None:
    for _ in range(3):
        _call(thread, _query)
        assert _call(thread, _is_open)
    assert len(opened) == 1


def test_a_connection_left_in_a_transaction_is_given_up(thread: ThreadPoolExecutor) -> None:
    def leave_a_transaction_open() -> None:
        _query()
        connection.set_autocommit(False)

    _call(thread, leave_a_transaction_open)
    assert not _call(thread, _is_open)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite's connections are always usable")
def test_a_broken_connection_is_given_up_and_the_next_call_has_a_new_one(
    thread: ThreadPoolExecutor, opened: list[object]
) -> None:
    _call(thread, _query)

    def break_it() -> None:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            (pid,) = cursor.fetchone()
        other = connections.create_connection("default")  # another session ends this one
        try:
            with other.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        finally:
            other.close()
        with pytest.raises(Exception):  # noqa: B017, PT011 - the driver's error for a dead session
            _query()

    _call(thread, break_it)
    assert not _call(thread, _is_open)
    _call(thread, _query)
    assert len(opened) == 3  # the first, the other session's, and the new one
