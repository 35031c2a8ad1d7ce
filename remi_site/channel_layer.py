"""The Redis channel layer of the site: channels_redis' pub/sub layer, one trip for many groups.

``RedisPubSubChannelLayer`` (channels_redis) publishes a group message with one ``PUBLISH`` to
the group's Redis channel; every process subscribes to the groups its sockets joined and hands
a message to those sockets itself. The Redis layer of ``channels_redis.core`` instead keeps
group members in sorted sets and pushes a copy into every member's list: several commands per
group, and a poll per process to read them back. What the site sends fits pub/sub: a frame is
a full state, so a frame lost while a process reconnects to Redis is made good by the next one
(or by the client's ``resync``); pub/sub keeps nothing for a process that is not listening.

``PubSubChannelLayer`` adds ``group_send_many``: the messages the server's outbox has queued
together (each the frames of one move, games/play/fanout.py, or a chat line) go to Redis in one
pipeline, one round trip, instead of one round trip per group. ``games.play.broadcast.send_batch``
uses it when the layer has it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]


class PubSubChannelLayer(RedisPubSubChannelLayer):
    async def group_send_many(self, messages: Iterable[tuple[str, dict[str, Any]]]) -> None:
        """``group_send`` for each (group, message), in order, pipelined per Redis host."""
        layer = self._get_layer()
        by_shard: dict[Any, list[tuple[str, bytes]]] = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            by_shard.setdefault(layer._get_shard(channel), []).append((channel, self.serialize(message)))
        for shard, published in by_shard.items():
            async with shard._lock:  # as the shard's own publish: one user of its client at a time
                shard._ensure_redis()
                if len(published) == 1:  # a move's frames, mostly: no pipeline to build
                    await shard._redis.publish(*published[0])
                    continue
                pipe = shard._redis.pipeline(transaction=False)
                for channel, data in published:
                    pipe.publish(channel, data)
                await pipe.execute()
