"""A socket that hears nothing for a while stays open (channels_redis with redis-py 8).

channels_redis waits for messages with a blocking ``BZPOPMIN`` of up to
``RedisChannelLayer.brpop_timeout`` (5 s). redis-py 8 gives every connection a 5 s
``socket_timeout`` by default, so an idle consumer's read times out first and the consumer dies
with 1011 (django/channels_redis#422, redis/redis-py#4091): a player waiting for the others
loses the socket. The channel layer's hosts need a ``socket_timeout`` above the blocking pop.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from redis.asyncio.connection import AbstractConnection

from tests.realtime.sockets import TIMEOUT, Table, joined

#: Longer than the layer's blocking pop, with a margin.
IDLE = RedisChannelLayer.brpop_timeout + 2


def _socket_timeouts() -> list[Any]:
    default = inspect.signature(AbstractConnection.__init__).parameters["socket_timeout"].default
    hosts = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts", [])
    return [host.get("socket_timeout", default) if isinstance(host, dict) else default for host in hosts]


def _layer_outwaits_its_blocking_pop() -> bool:
    return all(timeout is None or timeout > RedisChannelLayer.brpop_timeout for timeout in _socket_timeouts())


pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="only the Redis channel layer has a socket timeout"),
]


def test_the_layer_outwaits_its_blocking_pop() -> None:
    assert _layer_outwaits_its_blocking_pop(), _socket_timeouts()


async def test_a_socket_idle_longer_than_the_blocking_pop_stays_open(table: Table) -> None:
    async with joined(table.match_id, table.mover) as (socket, _):
        assert await socket.receive_nothing(timeout=IDLE)
        await socket.send_json_to({"type": "resync"})
        frame = await socket.receive_json_from(timeout=TIMEOUT)
        assert (frame["type"], frame["version"]) == ("state", 0)
