"""The per-socket message budget (``rate_limited`` frames, close code 4429) and ``ws/echo/``.

The budget's clock is ``games.consumers.monotonic``; the tests stop it, so what is refused does
not depend on how fast the machine runs them.
"""

from __future__ import annotations

import doctest
from typing import Any

import pytest
from channels.db import database_sync_to_async
from pytest_django.fixtures import Settings

from games import consumers
from games.play import limits
from games.play.models import Match
from tests.realtime.sockets import TIMEOUT, Table, joined, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

QUIET = 0.3


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    stopped = Clock()
    monkeypatch.setattr(consumers, "monotonic", stopped)
    return stopped


@pytest.fixture
def small_budget(settings: Settings) -> None:
    settings.WS_RATE_LIMIT_BURST = 3
    settings.WS_RATE_LIMIT_PER_SECOND = 1
    settings.WS_RATE_LIMIT_CLOSE_FACTOR = 4  # 12 messages at once are the most; the 13th closes


def _version(match_id: int) -> int:
    return Match.objects.values_list("version", flat=True).get(pk=match_id)


def test_the_bucket_examples_hold() -> None:
    assert doctest.testmod(limits, raise_on_error=False).attempted > 0
    assert doctest.testmod(limits, raise_on_error=False).failed == 0
    assert doctest.testmod(consumers, raise_on_error=False).failed == 0


def test_the_defaults_are_a_burst_of_20_then_10_a_second_and_close_at_5_times() -> None:
    limiter = consumers.MessageLimiter.from_settings(now=0.0)
    verdicts = [limiter.check(0.0) for _ in range(101)]
    assert verdicts[:20] == ["ok"] * 20
    assert verdicts[20:100] == ["limited"] * 80
    assert verdicts[100] == "close"
    # Sustained: 10 a second are read; 50 a second (5x) keep the socket open, barely.
    steady = consumers.MessageLimiter.from_settings(now=0.0)
    for _ in range(20):
        steady.check(0.0)
    read = [steady.check(1 + i / 10) for i in range(100)]
    assert read.count("ok") == 100


async def test_messages_over_the_budget_are_refused_and_not_read(
    table: Table, clock: Clock, small_budget: None
) -> None:
    async with joined(table.match_id, table.mover) as (socket, first):
        for _ in range(3):
            await socket.send_json_to({"type": "resync"})
            assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "state"

        # Over budget: a move is answered with rate_limited, with its id, and not applied.
        await socket.send_json_to({"type": "move", "id": "m1", "version": 0, "move": table.a_discard})
        error: dict[str, Any] = await socket.receive_json_from(timeout=TIMEOUT)
        assert error == {
            "type": "error",
            "id": "m1",
            "code": "rate_limited",
            "message": "too many messages: at most 1 a second (bursts of 3)",
            "retry_after": 1.0,
        }
        await socket.send_to(text_data="{not json")
        assert (await socket.receive_json_from(timeout=TIMEOUT))["code"] == "rate_limited"
        assert await socket.receive_nothing(timeout=QUIET)
        assert await database_sync_to_async(_version)(table.match_id) == 0

        # A second later there is a token again: the same move is read and applied.
        clock.now += 1
        await socket.send_json_to({"type": "move", "id": "m1", "version": 0, "move": table.a_discard})
        frame = await socket.receive_json_from(timeout=TIMEOUT)
        assert (frame["type"], frame["version"]) == ("state", 1)
    assert first["version"] == 0
    assert await database_sync_to_async(_version)(table.match_id) == 1


async def test_a_flood_closes_the_socket_with_4429(table: Table, clock: Clock, small_budget: None) -> None:
    async with joined(table.match_id, table.mover) as (socket, _):
        for _ in range(13):
            await socket.send_json_to({"type": "resync"})
        codes = []
        for _ in range(12):
            frame = await socket.receive_json_from(timeout=TIMEOUT)
            codes.append(frame.get("code", frame["type"]))
        assert codes == ["state"] * 3 + ["rate_limited"] * 9
        assert await socket.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4429}


async def test_other_sockets_keep_their_own_budget(table: Table, clock: Clock, small_budget: None) -> None:
    async with (
        joined(table.match_id, table.mover) as (greedy, _),
        joined(table.match_id, table.other) as (calm, _),
    ):
        for _ in range(4):
            await greedy.send_json_to({"type": "resync"})
        for _ in range(4):
            await greedy.receive_json_from(timeout=TIMEOUT)
        await calm.send_json_to({"type": "resync"})
        assert (await calm.receive_json_from(timeout=TIMEOUT))["type"] == "state"


# --- ws/echo/ -----------------------------------------------------------------------------------


async def test_the_echo_endpoint_sends_each_message_back(table: Table) -> None:
    async with open_socket(0, table.mover.cookie, path="/ws/echo/") as socket:
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        await socket.send_to(text_data='{"ping": 1}')
        assert await socket.receive_from(timeout=TIMEOUT) == '{"ping": 1}'
        await socket.send_to(bytes_data=b"\x00\x01")
        assert await socket.receive_from(timeout=TIMEOUT) == b"\x00\x01"


async def test_the_echo_endpoint_needs_a_login_and_our_origin(table: Table) -> None:
    async with open_socket(0, path="/ws/echo/") as socket:
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        assert await socket.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4401}
    async with open_socket(0, table.mover.cookie, origin=b"https://evil.example", path="/ws/echo/") as socket:
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert not connected


async def test_the_echo_endpoint_has_the_same_budget(table: Table, clock: Clock, small_budget: None) -> None:
    async with open_socket(0, table.mover.cookie, path="/ws/echo/") as socket:
        await socket.connect(timeout=TIMEOUT)
        for n in range(4):
            await socket.send_to(text_data=f'{{"id": "e{n}"}}')
        replies = [await socket.receive_json_from(timeout=TIMEOUT) for _ in range(4)]
        # The refusal is sent straight back; echoes come round through the layer, maybe later.
        refused = [reply for reply in replies if reply.get("code") == "rate_limited"]
        assert [reply["id"] for reply in refused] == ["e3"]
        echoed = [reply for reply in replies if reply not in refused]
        assert echoed == [{"id": "e0"}, {"id": "e1"}, {"id": "e2"}]
