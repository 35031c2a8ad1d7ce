"""Pushing game frames to sockets: group names, the frames of each audience, and the send.

Each seat has its own audience group and gets a frame built with ``engine.view_for(state,
seat)``, so a seat's hand only ever reaches that seat's sockets; spectators get
``view_for(state, None)``. Every frame is built by ``games.play.framing.frame_for``, the function
practice runs in the browser, from one committed change (``games.play.commits.Committed``), and
encoded once; a move's frames travel together as one message
to the match's group, and each process hands every socket its own audience's text
(games/play/fanout.py). Called from ``transaction.on_commit`` only, never inside a transaction.

``send_many`` is the one way game code pushes to sockets, from any thread. In the server process
a send from another thread (a database thread of ``database_sync_to_async``, or the embedded
Celery worker's) is handed to the server's loop (``call_soon_threadsafe``) and sent there by its
``Outbox``, in order, without the sending thread waiting: the in-memory layer's queues belong to
that loop and are not thread-safe (a plain ``async_to_sync`` from the worker thread is never
delivered), and for channels_redis the wait would hold up every other database call of the
process. Without a server loop (a ``celery worker`` process, a command, a test) the send goes
through ``async_to_sync``. Once the server process has begun to stop (``servers.stopping``)
nothing is sent: its sockets are closing, and a send through ``async_to_sync`` would wait for a
loop that has stopped (that wait once hung daphne on SIGTERM until it was killed).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

import orjson
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.play import fanout, framing, servers
from games.play.commits import Committed

logger = logging.getLogger(__name__)

#: The layer message of a match's frames (``fanout.frames_message``); a socket gets its share in
#: ``GameConsumer.match_frame``.
FRAME_MESSAGE = fanout.MESSAGE


def match_group(match_id: int) -> str:
    """The layer group of a match's frames, every audience's in one message (games/play/fanout.py)."""
    return fanout.group_of_match(match_id)


def seat_group(match_id: int, seat: int) -> str:
    return f"match-{match_id}.seat-{seat}"


def spectators_group(match_id: int) -> str:
    return f"match-{match_id}.spectators"


#: The layer message of a frame that is not a state frame (chat, rematch): forwarded as it is.
ROOM_MESSAGE = "room.frame"


def chat_group(room_id: int) -> str:
    """Every socket watching any match of the room: its chat (a room outlives its matches)."""
    return f"room-{room_id}.chat"


def account_group(user_id: int) -> str:
    """Every game socket of one account (its chat mutes follow it from tab to tab)."""
    return f"account-{user_id}"


def match_groups(match_id: int, players: int) -> list[str]:
    """Every audience group of a match: each seat's and the spectators'."""
    return [*(seat_group(match_id, seat) for seat in range(players)), spectators_group(match_id)]


def frames(committed: Committed) -> list[tuple[str, dict[str, object]]]:
    """(group, frame) for every seat and for the spectators, each built for that audience only
    by ``framing.frame_for`` from the committed change (``games.play.commits.Committed``: its state,
    version, events, clock, seats, actor; ``sealed``: no frame carries the deal's seed).

    A bot's seat gets no frame: no socket is ever in its group (a socket joins its user's seat's
    group, and a bot seat has no user), and its view, with the opening hint of a hand that changes
    on each of its moves, was the costliest part of building a bot move's frames.
    """
    match_id = committed.match_id
    bots = {entry["seat"] for entry in committed.seats or () if entry.get("kind") == "bot"}
    audiences: list[tuple[str, int | None]] = [
        (seat_group(match_id, seat), seat) for seat in range(committed.state.players) if seat not in bots
    ]
    audiences.append((spectators_group(match_id), None))
    return [
        (
            group,
            framing.frame_for(
                committed.state,
                seat,
                version=committed.version,
                events=committed.events,
                clock=committed.clock,
                seats=committed.seats,
                actor=committed.actor,
                sealed=committed.sealed,
            ),
        )
        for group, seat in audiences
    ]


def publish(committed: Committed) -> None:
    """Send each audience its frame (``frames``). Run after commit, so a reader never sees an
    older row.

    A seat's presence changing (away, back, offline, connected) sends everyone a frame too, at
    the same ``version`` with the new ``seats``. ``committed.except_channel``: a socket that does
    not forward this frame (it reads a fresh one itself: a socket that has just connected).
    """
    send_frames(
        match_id=committed.match_id,
        version=committed.version,
        frames=frames(committed),
        except_channel=committed.except_channel,
    )


def send_frames(
    *,
    match_id: int,
    version: int,
    frames: Iterable[tuple[str, Mapping[str, Any]]],
    state: bool = True,
    except_channel: str | None = None,
) -> None:
    """Send each (audience group, frame) of a match to its sockets, in one message.

    Each frame is encoded here, once (``encode``), and the sockets of the audience get that
    text (games/play/fanout.py). ``state``: state frames (a socket keeps the newest for ``resync``);
    False for others (rematch votes).
    """
    encoded = [(group, encode(frame)) for group, frame in frames]
    message = fanout.frames_message(
        match_id=match_id, version=version, frames=encoded, state=state, except_channel=except_channel
    )
    send_many([(match_group(match_id), message)])


def encode(frame: Mapping[str, Any]) -> str:
    """A frame's text on the wire: the JSON ``AsyncJsonWebsocketConsumer.send_json`` writes, by
    orjson (about a seventh of the CPU of ``json.dumps`` for a seat's frame:
    docs/benchmarks.md, "What each server choice is worth"), compact and in UTF-8 rather than
    ASCII escapes; keys that are not strings become strings, as ``json.dumps`` makes them."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


# --- the send ------------------------------------------------------------------------------------

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def remember_loop() -> None:
    """Note the running event loop (the server's): sends from other threads are run on it."""
    global _loop
    _loop = asyncio.get_running_loop()


def send_many(messages: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """Send each (group, message) in order, from any synchronous code in any thread.

    In the server process (its loop is known and running) the messages are handed to the loop's
    ``Outbox`` and this returns at once: the thread that runs the database work does not wait
    for the loop, which serves every socket, to get round to the send. The outbox sends batches
    in the order they were handed over (each right after its commit; a client keeps the newest
    version it has seen in any case).
    Elsewhere (a ``celery worker`` process, a management command, a test without a running loop)
    the sends run through ``async_to_sync`` and are done when this returns.
    """
    pending = list(messages)
    if not pending:
        return
    if servers.stopping():
        logger.info("server stopping: %d message(s) to %s not sent", len(pending), pending[0][0])
        return
    layer = get_channel_layer()
    if layer is None:
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
    """Every (group, message) through ``layer``: in one call when it has ``group_send_many``.

    A match's frames go to this loop's own sockets first, directly (games/play/fanout.py), and are
    marked as this loop's, so that their copy coming back through Redis is not sent again.
    """
    here = fanout.existing()
    if here is not None:
        for index, (group, message) in enumerate(pending):
            if fanout.is_frames(message):
                await here.deliver(message)
                pending[index] = (group, {**message, "origin": here.name})
    send_many = getattr(type(layer), "group_send_many", None)
    if send_many is not None:
        await layer.group_send_many(pending)
        return
    for group, message in pending:
        await layer.group_send(group, message)


class Outbox:
    """The sends handed to one event loop by ``send_many``, sent one batch after another.

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
