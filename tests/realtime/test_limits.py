"""Limits per account and per address (issue 19, defect 4; games/play/limits.py, docs/protocol.md
"Limits"): an account's sockets over every server process, its message budget over all of them,
an address's handshakes, and resyncs answered without building the view again.

``scripts/flood.py`` measures what a flood inside these limits does to another table (figures
only); these tests assert the refusals.
"""

from __future__ import annotations

import os
from contextlib import AsyncExitStack
from datetime import timedelta
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from django.utils import timezone
from pytest_django.fixtures import Settings

from games import consumers
from games.play import selectors, servers, services
from games.play.models import AccountSocket, ServerProcess
from remi_site.asgi import application
from tests.realtime.sockets import ORIGIN, TIMEOUT, Table, joined, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    stopped = Clock()
    monkeypatch.setattr(consumers, "monotonic", stopped)
    return stopped


async def _closed_with(socket: Any) -> int:
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    output = await socket.receive_output(timeout=TIMEOUT)
    assert output["type"] == "websocket.close", output
    return int(output["code"])


async def test_an_account_opening_more_sockets_than_allowed_is_refused_with_4409(
    table: Table, settings: Settings
) -> None:
    settings.WS_MAX_SOCKETS_PER_ACCOUNT = 3
    async with AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(joined(table.match_id, table.spectator)) for _ in range(3)]
        async with open_socket(table.match_id, table.spectator.cookie) as fourth:
            assert await _closed_with(fourth) == consumers.CLOSE_TOO_MANY_SOCKETS
        # Another account is not affected.
        async with joined(table.match_id, table.other) as (_socket, frame):
            assert frame["type"] == "state"
        # One closes: its place is free again.
        await sockets[0][0].disconnect()
        async with joined(table.match_id, table.spectator) as (_socket, frame):
            assert frame["type"] == "state"
    assert await database_sync_to_async(AccountSocket.objects.count)() == 0


def _open_elsewhere(user: Any, count: int) -> None:
    """Sockets of ``user`` held by another server process of the site."""
    saved = servers._name
    servers._name = (os.getpid(), "other-server")
    try:
        for number in range(count):
            assert services.account_socket_open(user=user, channel=f"elsewhere-{number}")
    finally:
        servers._name = saved


async def test_the_cap_counts_the_accounts_sockets_on_every_server(table: Table, settings: Settings) -> None:
    settings.WS_MAX_SOCKETS_PER_ACCOUNT = 2
    await database_sync_to_async(_open_elsewhere)(table.spectator.user, 2)
    async with open_socket(table.match_id, table.spectator.cookie) as third:
        assert await _closed_with(third) == consumers.CLOSE_TOO_MANY_SOCKETS


def test_a_server_gone_frees_its_accounts_sockets(table: Table, settings: Settings) -> None:
    settings.WS_MAX_SOCKETS_PER_ACCOUNT = 2
    settings.SERVER_GONE_AFTER_SECONDS = 0
    _open_elsewhere(table.spectator.user, 2)
    assert not services.account_socket_open(user=table.spectator.user, channel="here")

    ServerProcess.objects.update_or_create(
        name="other-server",
        defaults={"started": timezone.now(), "beat": timezone.now() - timedelta(minutes=5)},
    )
    services.servers_gone()
    assert services.account_socket_open(user=table.spectator.user, channel="here")


async def test_an_accounts_sockets_share_one_message_budget(
    table: Table, settings: Settings, clock: Clock
) -> None:
    settings.WS_ACCOUNT_RATE_LIMIT_BURST = 4
    settings.WS_ACCOUNT_RATE_LIMIT_PER_SECOND = 1
    async with (
        joined(table.match_id, table.spectator) as (first, _),
        joined(table.match_id, table.spectator) as (second, _),
        joined(table.match_id, table.other) as (someone_else, _),
    ):
        for socket in (first, second, first, second):  # four resyncs: the account's burst
            await socket.send_json_to({"type": "resync"})
            assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "state"
        # Each socket alone is far within its own budget (a burst of 20); together they are not.
        await second.send_json_to({"type": "resync", "id": "r5"})
        refused = await second.receive_json_from(timeout=TIMEOUT)
        assert (refused["type"], refused["code"], refused["id"]) == ("error", "rate_limited", "r5")
        assert refused["retry_after"] == 1.0
        assert "from your sockets together" in refused["message"]
        # Another account has its own budget.
        await someone_else.send_json_to({"type": "resync"})
        assert (await someone_else.receive_json_from(timeout=TIMEOUT))["type"] == "state"
        # A second later the account may send one more.
        clock.now += 1.0
        await first.send_json_to({"type": "resync"})
        assert (await first.receive_json_from(timeout=TIMEOUT))["type"] == "state"


def _handshake(address: str, cookie: str | None = None) -> ApplicationCommunicator:
    headers = [(b"origin", ORIGIN)]
    if cookie is not None:
        headers.append((b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    scope = {
        "type": "websocket",
        "path": "/ws/echo/",
        "raw_path": b"/ws/echo/",
        "query_string": b"",
        "headers": headers,
        "subprotocols": [],
        "client": (address, 40000),
        "server": ("127.0.0.1", 8000),
    }
    return ApplicationCommunicator(application, scope)


async def _answer(communicator: ApplicationCommunicator) -> list[tuple[str, int | None]]:
    """What the server answered a handshake: (message type, close code) in order."""
    await communicator.send_input({"type": "websocket.connect"})
    answer = [await communicator.receive_output(timeout=TIMEOUT)]
    if answer[0]["type"] == "websocket.accept" and not await communicator.receive_nothing(timeout=0.2):
        answer.append(await communicator.receive_output(timeout=TIMEOUT))
    await communicator.send_input({"type": "websocket.disconnect", "code": 1000})
    await communicator.wait(timeout=TIMEOUT)
    return [(message["type"], message.get("code")) for message in answer]


async def test_an_address_making_too_many_handshakes_is_refused_before_its_session_is_read(
    table: Table, settings: Settings
) -> None:
    settings.WS_HANDSHAKE_BURST = 3
    settings.WS_HANDSHAKES_PER_MINUTE = 0.001
    address = "203.0.113.7"
    for _ in range(3):
        assert await _answer(_handshake(address, table.spectator.cookie)) == [("websocket.accept", None)]
    refused = await _answer(_handshake(address, table.spectator.cookie))
    assert refused == [("websocket.accept", None), ("websocket.close", 4409)]
    # Another address is let in.
    assert await _answer(_handshake("203.0.113.8", table.spectator.cookie)) == [("websocket.accept", None)]


async def test_a_resync_at_the_same_version_does_not_build_the_frame_again(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []
    real = selectors.match_frame_for

    def counting(**kwargs: Any) -> dict[str, Any]:
        built.append(kwargs["match_id"])
        return real(**kwargs)

    monkeypatch.setattr(selectors, "match_frame_for", counting)
    async with joined(table.match_id, table.mover) as (socket, first):
        assert len(built) == 1
        for _ in range(5):
            await socket.send_json_to({"type": "resync"})
            again = await socket.receive_json_from(timeout=TIMEOUT)
            assert again == {**first, "events": []}
        assert len(built) == 1
        # After a move the socket holds the move's frame: a resync sends that one.
        await socket.send_json_to({"type": "move", "id": "m1", "version": 0, "move": table.a_discard})
        moved = await socket.receive_json_from(timeout=TIMEOUT)
        await socket.send_json_to({"type": "resync"})
        assert await socket.receive_json_from(timeout=TIMEOUT) == {**moved, "events": []}
        assert len(built) == 1
