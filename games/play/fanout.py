"""A match's frames to this process's sockets: one message per move, one send per socket.

``games.play.broadcast.publish`` builds one frame per audience of a move (each seat with a person,
the spectators), encodes each once, and sends them together as **one** channel-layer message
to the match's group (``broadcast.match_group``). Sockets do not join their audience's group in
the channel layer: each game socket is registered here, in its process, under its match and its
audience group (``join`` / ``leave``), and a message is handed out here, each socket getting the
text of its own audience only, as it was encoded (``deliver``). So a move costs one publish
instead of one per audience, each server process receives and decodes it once instead of once
per socket, and no socket's task is woken to forward a frame: the send is made here.

Where the message is published from a server's loop (a move, a presence change: the database
thread hands its sends to the loop, ``broadcast.send_many``), that loop's sockets get their
frames at once, before the message goes to the layer; the copy that comes back from Redis is
recognised by its ``origin`` and dropped. Other processes (another daphne behind the same
proxy) hear it through the layer: with a cross-process layer (channels_redis), a process that
has sockets of a match listens on the match's group with a channel of its own, subscribed while
it has at least one socket of that match, and a reader task hands what arrives to ``deliver``.
The in-memory layer (one process: ``make run``, the tests) needs no reader.

The message holds every audience's frame, so the seats' hands travel together inside the server
(Redis, the processes' memory); what leaves for a socket is only its audience's text, and a seat
group's text is built by ``engine.view_for`` for that seat alone (``broadcast.frames``).
The picture: docs/architecture.md, "The frames' way out"; the figures before and after:
docs/benchmarks.md, "What each server choice is worth".
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Iterable
from typing import Any, Protocol

from autobahn.exception import Disconnected
from channels.layers import InMemoryChannelLayer, get_channel_layer

logger = logging.getLogger(__name__)

#: The layer message of a match's frames; each socket's share reaches ``Receiver.match_frame``.
MESSAGE = "match.frame"


class Receiver(Protocol):
    """A socket that takes frames from the fanout (``consumers.GameConsumer``)."""

    channel_name: str

    async def match_frame(self, text: str, version: int, state: bool) -> None: ...


def group_of_match(match_id: int) -> str:
    """The channel-layer group of a match's frames: server processes join it, sockets do not."""
    return f"match-{match_id}"


class Fanout:
    """The game sockets of one event loop by match and audience group, and what they listen on."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        #: The name this loop's messages carry as their ``origin``, to drop their copy from Redis.
        self.name = uuid.uuid4().hex
        self.sockets: dict[int, dict[str, dict[Receiver, None]]] = {}
        self.listening: set[int] = set()
        self.lock = asyncio.Lock()
        self.channel: str | None = None
        self.reader: asyncio.Task[None] | None = None

    # --- sockets ---------------------------------------------------------------------------------

    async def join(self, match_id: int, group: str, socket: Receiver) -> None:
        """Register ``socket`` for ``group``'s frames of ``match_id``; when this returns, every
        frame of the match published from now on reaches it (the process listens)."""
        self.sockets.setdefault(match_id, {}).setdefault(group, {})[socket] = None
        layer = get_channel_layer()
        if match_id in self.listening or layer is None or isinstance(layer, InMemoryChannelLayer):
            return
        try:
            async with self.lock:
                if match_id in self.sockets and match_id not in self.listening:
                    channel = await self._reading(layer)
                    await layer.group_add(group_of_match(match_id), channel)
                    self.listening.add(match_id)
        except BaseException:  # not listening (Redis away, or cancelled): not registered either
            self._forget(match_id, group, socket)
            raise

    async def leave(self, match_id: int, group: str, socket: Receiver) -> None:
        """Forget ``socket``; the process stops listening on the match with its last socket."""
        if not self._forget(match_id, group, socket) or match_id in self.sockets:
            return  # others of this process still watch the match
        layer = get_channel_layer()
        async with self.lock:  # after a join of this match that is still subscribing
            if match_id in self.listening and match_id not in self.sockets:
                self.listening.discard(match_id)
                if self.channel is not None:
                    try:
                        await layer.group_discard(group_of_match(match_id), self.channel)
                    except Exception:  # the socket is gone all the same; its frames are dropped here
                        logger.exception("match %s: this process still hears its frames", match_id)
                if not self.listening and self.reader is not None:
                    self.reader.cancel()  # its receive unsubscribes the channel as it ends
                    self.reader, self.channel = None, None

    def _forget(self, match_id: int, group: str, socket: Receiver) -> bool:
        groups = self.sockets.get(match_id)
        if groups is None or socket not in groups.get(group, {}):
            return False
        del groups[group][socket]
        if not groups[group]:
            del groups[group]
            if not groups:
                del self.sockets[match_id]
        return True

    def count(self) -> int:
        """How many sockets are registered (for the tests and a debugger)."""
        return sum(len(sockets) for groups in self.sockets.values() for sockets in groups.values())

    # --- frames ----------------------------------------------------------------------------------

    async def deliver(self, message: dict[str, Any]) -> None:
        """Send each registered socket of the message's match its own audience's frame."""
        groups = self.sockets.get(message["match"])
        if not groups:
            return
        skip = message.get("except")
        version, state = int(message["version"]), bool(message.get("state", True))
        for group, text in message["frames"]:
            for socket in list(groups.get(group, ())):
                if socket.channel_name == skip:
                    continue  # it read the same seats in its own first frame
                try:
                    await socket.match_frame(text, version, state)
                except Disconnected:
                    # The socket closed between the move and its frame (a tab shut, a phone
                    # asleep): nothing is lost (its reconnect reads the whole state), so no error.
                    logger.debug("a frame of match %s came after its socket closed", message["match"])
                except Exception:  # one socket's fault never stops the others' frames
                    logger.exception("a frame of match %s was not sent to %s", message["match"], group)

    async def _reading(self, layer: Any) -> str:
        if self.channel is None or self.reader is None:
            self.channel = await layer.new_channel("fanout.")
            self.reader = self.loop.create_task(self._read(layer, self.channel))
        return self.channel

    async def _read(self, layer: Any, channel: str) -> None:
        while True:
            try:
                message = await layer.receive(channel)
                if message.get("origin") != self.name:
                    await self.deliver(message)
            except asyncio.CancelledError:
                raise
            except Exception:  # a lost message is made good by the next frame or a resync
                logger.exception("the frames of this process's matches were not read")
                await asyncio.sleep(1)


_fanouts: dict[asyncio.AbstractEventLoop, Fanout] = {}


def here() -> Fanout:
    """The running loop's fanout (created on first use); call on the loop only."""
    loop = asyncio.get_running_loop()
    fanout = _fanouts.get(loop)
    if fanout is None:
        for old in [known for known in _fanouts if known.is_closed()]:
            del _fanouts[old]
        fanout = _fanouts[loop] = Fanout(loop)
    return fanout


def existing() -> Fanout | None:
    """The running loop's fanout if it has one (no socket ever joined on this loop: None)."""
    try:
        return _fanouts.get(asyncio.get_running_loop())
    except RuntimeError:
        return None


def is_frames(message: dict[str, Any]) -> bool:
    return "frames" in message and "match" in message


def frames_message(
    *,
    match_id: int,
    version: int,
    frames: Iterable[tuple[str, str]],
    state: bool = True,
    except_channel: str | None = None,
) -> dict[str, Any]:
    """The one layer message of a match's frames: (audience group, encoded frame) pairs."""
    message: dict[str, Any] = {
        "type": MESSAGE,
        "match": match_id,
        "version": version,
        "frames": [[group, text] for group, text in frames],
        "state": state,
    }
    if except_channel is not None:
        message["except"] = except_channel
    return message
