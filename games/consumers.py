"""The game's WebSocket: translates between the wire and the services, and decides nothing else.

One socket watches one match, at ``ws/match/<match_id>/``, or at ``ws/rooms/<room_id>/`` for the
room's current (latest) match, fixed when the socket connects (see docs/protocol.md):

* On connect the socket joins exactly one audience group (its user's seat, or the spectators),
  in its process's fanout (games/play/fanout.py), and gets a full state frame. What a frame may show
  was decided by ``engine.view_for`` when it was built (in ``selectors`` or ``broadcast``); this
  consumer only forwards frames.
* A command (``protocol.decode_command``) goes to ``services.move_submit``. An accepted move gets
  no direct answer: the broadcast after commit brings every audience, the sender included, its
  new frame. A refused one is answered to the sender only with an error frame
  (``protocol.error_frame``); a stale version also gets a fresh full frame so the client resyncs.
* A command whose ``id`` this seat already had applied (resent after a reconnect) is not applied
  again: the sender gets ``protocol.ack_frame(..., duplicate=True)`` and a fresh full frame.
* ``{"type": "resync"}`` asks for a fresh full frame.
* ``{"type": "away"}`` (the player leaves the table: the bot plays for them) and
  ``{"type": "back"}`` ("I'm back") go to ``services.seat_away`` / ``seat_back``; everyone gets a
  frame with the new ``seats``. A seated player's socket opening and closing goes to
  ``services.seat_connect`` / ``seat_disconnect`` (offline, then away after the grace period).
* Every socket has a message budget (``MessageLimiter``, a token bucket per connection): a
  message over it is answered with a ``rate_limited`` error frame and not read any further, and
  a socket sending far more than its budget is closed with 4429.

Close codes (the socket is accepted first, so a browser can read them):
4401 not logged in, 4404 no such match (or the room has no match yet), 4429 too many messages.

``EchoConsumer`` (``ws/echo/``) is a diagnostics endpoint: it sends every message back through
the channel layer, so a client can time a bare round trip through Channels (the load test does).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache, lru_cache
from time import monotonic
from typing import Any, ClassVar

from asgiref.sync import SyncToAsync
from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import close_old_connections, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from games.chat import selectors as chat_selectors
from games.chat import services as chat_services
from games.engine import IllegalMoveError
from games.play import broadcast, fanout, limits, protocol, selectors, servers, services
from games.play.limits import MessageLimiter, RateLimitedError, TokenBucket
from games.shared.errors import GameError, MatchNotFoundError, StaleVersionError
from games.shared.i18n_errors import language_for_scope, localize_error_frame

__all__ = [
    "EchoConsumer",
    "GameConsumer",
    "MessageLimiter",
    "NowhereConsumer",
    "RateLimitedError",
    "TokenBucket",
]

logger = logging.getLogger(__name__)

CLOSE_NOT_AUTHENTICATED = 4401
CLOSE_MATCH_NOT_FOUND = 4404
CLOSE_RATE_LIMITED = limits.CLOSE_RATE_LIMITED
CLOSE_TOO_MANY_SOCKETS = limits.CLOSE_TOO_MANY_SOCKETS
#: WebSocket's own codes: the server is restarting (reconnect in a moment), and a fault of ours.
CLOSE_SERVER_STOPPING = 1012
CLOSE_SERVER_FAULT = 1011

#: Errors a client can cause; they are answered with their own code, to the sender only.
CLIENT_ERRORS = (protocol.MalformedMessageError, IllegalMoveError, GameError)


def _readable_id(content: Any) -> protocol.RequestId:
    """The message's ``id`` if it is a valid one (echoed in answers), else None."""
    request_id = content.get("id") if isinstance(content, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, str | int):
        return None
    return request_id if 0 < len(str(request_id)) <= protocol.MAX_ID_LENGTH else None


def _request_id(text_data: str | None) -> protocol.RequestId:
    """The ``id`` of a message that will not be read any further, if it has a valid one."""
    try:
        return _readable_id(protocol.read_json(text_data)) if text_data is not None else None
    except protocol.MalformedMessageError:
        return None


class DirectDispatchMixin:
    """``dispatch`` without Channels' connection sweep before every message.

    Since Channels 4.2, ``AsyncConsumer.dispatch`` awaits ``aclose_old_connections()`` before
    each message: a hop to the one thread-sensitive worker thread of the process, for every frame
    sent to every socket and every message received, each waiting behind any database work
    queued there. These consumers touch the database only through ``database_sync_to_async``,
    which closes stale connections itself, in the thread that uses them, before and after each
    call; the sweep before a frame or an echo has nothing to do.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class AccountLimitsMixin:
    """The limits of games/play/limits.py for a consumer (docs/protocol.md, "Limits").

    ``_open_for_account`` when a logged-in user's socket connects: at most
    ``WS_MAX_SOCKETS_PER_ACCOUNT`` open over every server process (False: refuse it with 4409),
    and the account's shared message budget is taken up; ``_close_for_account`` when it goes.
    ``_within_budget`` for ``receive``: a message must fit the socket's budget and its account's;
    otherwise it is answered ``rate_limited`` (or, far over the socket's, the socket is closed).
    """

    limiter: MessageLimiter | None = None
    closing: bool = False
    account_id: int | None = None

    async def _open_for_account(self, user: AbstractBaseUser) -> bool:
        channel = self.channel_name  # type: ignore[attr-defined]
        if not await database_sync_to_async(services.account_socket_open)(user=user, channel=channel):
            logger.info("account %s: too many sockets open", user.pk)
            return False
        self.account_id = int(user.pk)
        limits.ACCOUNTS.acquire(self.account_id, now=monotonic())
        return True

    async def _close_for_account(self) -> None:
        if self.account_id is None:
            return
        limits.ACCOUNTS.release(self.account_id)
        self.account_id = None
        channel = self.channel_name  # type: ignore[attr-defined]
        try:
            await database_sync_to_async(services.account_socket_close)(channel=channel)
        except Exception:  # never lose the close over it: the sweep removes what a server left
            logger.exception("the account socket %s was not removed", channel)

    async def _within_budget(self, text_data: str | None) -> bool:
        """True if the message may be read; otherwise it has been answered (or the socket closed)."""
        if self.closing:
            return False
        now = monotonic()
        if self.limiter is None:
            self.limiter = MessageLimiter.from_settings(now)
        verdict = self.limiter.check(now)
        if verdict == "close":
            self.closing = True
            logger.info("%s: closing a socket over its message budget", type(self).__name__)
            await self.close(code=CLOSE_RATE_LIMITED)  # type: ignore[attr-defined]
            return False
        if verdict == "ok":
            if self.account_id is None or limits.ACCOUNTS.take(self.account_id, now=now):
                return True
            error = limits.ACCOUNTS.error(self.account_id)
        else:
            error = self.limiter.error()
        frame = protocol.error_frame(error, request_id=_request_id(text_data))
        frame = localize_error_frame(frame, language_for_scope(self.scope))  # type: ignore[attr-defined]
        await self.send(text_data=json.dumps(frame))  # type: ignore[attr-defined]
        return False


def database_sync_to_async(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """``channels.db.database_sync_to_async`` for this module's calls, on any worker thread.

    Channels runs database code in one thread per process by default (thread-sensitive), so
    every move of every table waits for the one before it, including its round trips to the
    database and the switches back to that thread. Each call here is a transaction of its own
    (a move, a read) with nothing bound to a thread, so on PostgreSQL it runs on any thread of
    the process's database threads (``DATABASE_THREADS``), several moves at once; the row lock
    keeps two moves of one match in turn. With ``DB_POOL`` those threads keep the connection
    they took from the pool from one call to the next (``KeptConnectionSyncToAsync``). SQLite
    keeps the single thread: one writer at a time in any case.

    One wrapper per function, made on its first call: a move's message does not build one.
    """
    return _wrapper(func)


@lru_cache(maxsize=128)  # the functions are this module's few (tests' mocks add some)
def _wrapper(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    connection = connections["default"]
    if connection.vendor == "sqlite":
        return DatabaseSyncToAsync(func)
    if connection.settings_dict["OPTIONS"].get("pool"):
        return KeptConnectionSyncToAsync(func, thread_sensitive=False, executor=_database_threads())
    return AnyThreadDatabaseSyncToAsync(func, thread_sensitive=False, executor=_database_threads())


#: Threads that run this module's database calls on PostgreSQL, per process. With ``DB_POOL``
#: each keeps one of the pool's connections (``remi_site/settings``: the pool holds more).
DATABASE_THREADS = 4


@cache
def _database_threads() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=DATABASE_THREADS, thread_name_prefix="database")


class AnyThreadDatabaseSyncToAsync(DatabaseSyncToAsync):
    """``DatabaseSyncToAsync`` on a worker thread that closes its connection at the end for sure.

    ``channels.testing`` swaps ``channels.db.close_old_connections`` for a no-op while a test
    talks to a consumer (keeping the one shared thread's connection for the test); on a pool
    thread that would leave one connection open per thread, past the test database's teardown.
    Outside tests this second sweep finds the connection closed already.
    """

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            close_old_connections()


class KeptConnectionSyncToAsync(SyncToAsync):
    """A database call on one of the process's database threads that keeps its pooled connection.

    With ``DB_POOL`` every call of ``DatabaseSyncToAsync`` hands its connection back to the pool
    at the end (``CONN_MAX_AGE`` is 0 with a pool) and the next call takes one out again: about
    65 µs of CPU a call in Django's ``connect`` and ``close``
    (docs/benchmarks.md, "What each server choice is worth"). A database thread is one of a
    fixed few (``DATABASE_THREADS``) that live as long as the process, so here it keeps the connection for
    its next call, as ``CONN_MAX_AGE=None`` would: the connection is closed (back to the pool)
    only when Django's end-of-request check finds it unusable (an error it cannot recover from,
    a transaction left open).
    """

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            keep_or_close(connections["default"])


def keep_or_close(connection: BaseDatabaseWrapper) -> None:
    """After a call: keep ``connection`` open for the thread's next call unless it is unusable."""
    if connection.connection is not None:
        connection.close_at = None  # never too old: the connection is the thread's
    connection.close_if_unusable_or_obsolete()


def _match_id_for_room(room_id: int) -> int:
    match_id = selectors.room_latest_match_id(room_id=room_id)
    if match_id is None:
        raise MatchNotFoundError()
    return match_id


def _chat_history(*, room_id: int, user_id: int) -> tuple[list[dict[str, Any]], dict[int, str]]:
    return (
        chat_selectors.chat_history(room_id=room_id, user_id=user_id, limit=settings.CHAT_HISTORY),
        chat_selectors.chat_muted(user_id=user_id),
    )


def _audience_group(*, match_id: int, user: AbstractBaseUser | AnonymousUser) -> str:
    """The one group this user's socket listens to: their seat's, or the spectators'.

    A private room's match is refused to strangers as if it did not exist (``audience_for``).
    """
    seat = selectors.audience_for(match_id=match_id, user=user)
    if seat is None:
        return broadcast.spectators_group(match_id)
    return broadcast.seat_group(match_id, seat)


class GameConsumer(DirectDispatchMixin, AccountLimitsMixin, AsyncJsonWebsocketConsumer):
    match_id: int
    group: str | None = None
    #: Whether this socket counts as one of a seat's connections (``services.seat_connect``).
    seated: bool = False
    #: The newest state frame sent on this socket, (version, text): a resync at the same version
    #: sends it again.
    last_frame: tuple[int, str] | None = None
    #: Frames the fanout brought before this socket's first frame was sent (they follow it).
    early: list[tuple[str, int, bool]] | None = None
    #: The room's chat group and the account's group, once joined; the accounts the user mutes.
    extra_groups: tuple[str, ...] = ()
    chat_muted: frozenset[int] = frozenset()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            # The application ended without ``websocket.disconnect``: an exception on our side
            # (daphne then closes the socket with 1011), or a cancellation. The seat's socket is
            # gone all the same; presence must not keep counting it. A server that is stopping
            # leaves that to the sweep (its heartbeat is dated back) or to its next start.
            if (
                self.seated or self.group is not None or self.account_id is not None
            ) and not servers.stopping():
                await asyncio.shield(self.disconnect(CLOSE_SERVER_FAULT))

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.match_id = 0
        self.group = None
        self.seated = False
        user = self.scope.get("user")
        if servers.stopping():
            await self._refuse(CLOSE_SERVER_STOPPING)
            return
        if user is None or not user.is_authenticated:
            await self._refuse(CLOSE_NOT_AUTHENTICATED)
            return
        try:
            if "room_id" in kwargs:
                self.match_id = await database_sync_to_async(_match_id_for_room)(int(kwargs["room_id"]))
            else:
                self.match_id = int(kwargs["match_id"])
            group = await database_sync_to_async(_audience_group)(match_id=self.match_id, user=user)
        except MatchNotFoundError:
            await self._refuse(CLOSE_MATCH_NOT_FOUND)
            return
        if not await self._open_for_account(user):
            await self._refuse(CLOSE_TOO_MANY_SOCKETS)
            return
        # Join before reading the first frame: a move committed in between then arrives as a
        # newer frame after it, never lost (the client drops frames it has already seen).
        self.early = []
        await fanout.here().join(self.match_id, group, self)
        self.group = group
        room_id, muted, rematch = await database_sync_to_async(chat_selectors.socket_context)(
            match_id=self.match_id, user_id=int(user.pk)
        )
        self.chat_muted = frozenset(muted)
        self.extra_groups = (broadcast.chat_group(room_id), broadcast.account_group(int(user.pk)))
        for extra in self.extra_groups:
            await self.channel_layer.group_add(extra, self.channel_name)
        await self.accept()
        if group != broadcast.spectators_group(self.match_id):
            # A seat that was offline is connected again: the others hear of it; this socket
            # reads it in its first frame.
            self.seated = True
            channel = self.channel_name
            await self._presence(services.seat_connect, except_channel=channel, channel=channel)
        await self._send_fresh_frame()
        while self.early:
            await self._forward(*self.early.pop(0))
        self.early = None
        if rematch is not None:
            await self.send_json(rematch)

    async def _presence(self, service: Callable[..., Any], **options: Any) -> None:
        """A seated socket opened or closed (``seat_connect`` / ``seat_disconnect``)."""
        try:
            await database_sync_to_async(service)(match_id=self.match_id, user=self.scope["user"], **options)
        except Exception:  # never lose the socket over it: the sweep and the timers still run
            logger.exception("match %s: %s failed", self.match_id, service.__name__)

    async def _refuse(self, code: int) -> None:
        # Accept, then close: a handshake refused outright reaches the browser as code 1006,
        # while a close after accept carries our code (so the client knows not to retry).
        await self.accept()
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            group, self.group = self.group, None
            await fanout.here().leave(self.match_id, group, self)
        extra, self.extra_groups = self.extra_groups, ()
        for group in extra:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.seated:
            self.seated = False
            await self._presence(services.seat_disconnect, channel=self.channel_name)
        await self._close_for_account()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if not await self._within_budget(text_data):
            return
        # The base class lets a decoding error (a RecursionError for deep nesting) escape and
        # kill the socket; every unreadable message is answered instead (protocol.read_json).
        try:
            content = protocol.read_json(text_data if text_data is not None else bytes_data or b"")
        except protocol.MalformedMessageError as error:
            await self.send_json(protocol.error_frame(error))
            logger.debug("match %s: unreadable message: %s", self.match_id, error)
            return
        await self.receive_json(content, **kwargs)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        request_id = _readable_id(content)
        if isinstance(content, dict) and content.get("type") == "resync":
            await self._resync()
            return
        if isinstance(content, dict) and content.get("type") in (*protocol.ROOM_COMMANDS, "chat_history"):
            await self._room_command(content, request_id)
            return
        try:
            if isinstance(content, dict) and content.get("type") in protocol.SEAT_COMMANDS:
                # Everyone, the sender included, gets a frame with the seats; if nothing changed
                # (``away`` while another socket of the seat is open, say), the sender alone gets
                # a fresh one.
                user = self.scope["user"]
                if content["type"] == "away":
                    changed = await database_sync_to_async(services.seat_away)(
                        match_id=self.match_id, user=user, channel=self.channel_name if self.seated else None
                    )
                else:
                    changed = await database_sync_to_async(services.seat_back)(
                        match_id=self.match_id, user=user
                    )
                if not changed:
                    await self._send_fresh_frame()
                return
            command = protocol.decode_command(content)
            version = await database_sync_to_async(services.move_submit)(
                match_id=self.match_id,
                user=self.scope["user"],
                move=command.move,
                expected_version=command.version,
                command_id=command.command_id,
            )
            if isinstance(version, services.AlreadyApplied):
                await self.send_json(protocol.ack_frame(command.id, version=int(version), duplicate=True))
                await self._send_fresh_frame()
        except CLIENT_ERRORS as error:
            await self.send_json(protocol.error_frame(error, request_id=request_id))
            if isinstance(error, StaleVersionError):
                await self._send_fresh_frame()
        except Exception as error:
            logger.exception("match %s: command %r failed", self.match_id, request_id)
            await self.send_json(protocol.error_frame(error, request_id=request_id))
            await self._send_fresh_frame()

    async def _room_command(self, content: dict[str, Any], request_id: protocol.RequestId) -> None:
        """Chat and rematch (docs/protocol.md): answered only when refused, or as documented."""
        user = self.scope["user"]
        try:
            if content["type"] == "chat_history":
                await self._send_chat_history()
                return
            command = protocol.decode_room_command(content)
            if command.type == "chat":
                if self.account_id is not None and not limits.CHAT.take(self.account_id, now=monotonic()):
                    raise limits.CHAT.error(self.account_id)
                await database_sync_to_async(chat_services.chat_post)(
                    match_id=self.match_id, user=user, text=command.text
                )
            elif command.type == "chat_delete":
                await database_sync_to_async(chat_services.chat_delete)(
                    message_ids=[command.message], user=user, match_id=self.match_id
                )
            elif command.type == "chat_mute":
                await database_sync_to_async(chat_services.chat_mute)(
                    user=user, name=command.name, mute=command.on
                )
            elif command.type == "chat_report":
                await database_sync_to_async(chat_services.chat_report)(
                    match_id=self.match_id, user=user, message_id=command.message, reason=command.reason
                )
                await self.send_json(protocol.chat_reported_frame(command.message, request_id))
            else:
                await database_sync_to_async(services.rematch_vote)(
                    match_id=self.match_id, user=user, agree=command.on
                )
        except CLIENT_ERRORS as error:
            await self.send_json(protocol.error_frame(error, request_id=request_id))
        except Exception as error:
            logger.exception("match %s: %s %r failed", self.match_id, content.get("type"), request_id)
            await self.send_json(protocol.error_frame(error, request_id=request_id))

    async def _send_chat_history(self) -> None:
        user_id = int(self.scope["user"].pk)
        room_id = await database_sync_to_async(chat_selectors.chat_room_for)(
            match_id=self.match_id, user=self.scope["user"]
        )
        messages, muted = await database_sync_to_async(_chat_history)(room_id=room_id, user_id=user_id)
        self.chat_muted = frozenset(muted)
        user = self.scope["user"]
        frame = protocol.chat_history_frame(
            messages, muted.values(), name=user.get_username(), staff=bool(user.is_staff)
        )
        await self.send_json(frame)

    async def room_frame(self, message: dict[str, Any]) -> None:
        """Layer message ``broadcast.ROOM_MESSAGE``: a chat or rematch frame, forwarded as it is
        (a chat line of an author this user mutes is dropped)."""
        if message.get("author") in self.chat_muted:
            return
        await self.send_json(message["frame"])

    async def chat_mutes(self, message: dict[str, Any]) -> None:
        """The account muted or unmuted someone (on any of its sockets): ``chat_muted``."""
        self.chat_muted = frozenset(message["ids"])
        await self.send_json(protocol.chat_muted_frame(message["names"]))

    async def send_json(self, content: Any, close: bool = False) -> None:
        # An error frame's message in the socket user's language (games/shared/i18n_errors.py).
        if isinstance(content, dict) and content.get("type") == "error":
            content = localize_error_frame(content, language_for_scope(self.scope))
        await super().send_json(content, close)

    async def match_frame(self, text: str, version: int, state: bool) -> None:
        """This socket's share of a ``broadcast.FRAME_MESSAGE``, from the fanout: a frame built
        and encoded for its audience (``state``: a state frame, kept for ``resync``)."""
        if self.early is not None:
            self.early.append((text, version, state))  # after the first frame, in order
            return
        await self._forward(text, version, state)

    async def _forward(self, text: str, version: int, state: bool) -> None:
        if state and (self.last_frame is None or version >= self.last_frame[0]):
            self.last_frame = (version, text)
        await self.send(text_data=text)

    async def _resync(self) -> None:
        """A fresh full frame: the newest this socket has had, if the match is still at its
        version (one indexed read instead of building the view again), else a new one."""
        last = self.last_frame
        if last is not None:
            version = await database_sync_to_async(selectors.match_version)(match_id=self.match_id)
            if version == last[0]:
                await self.send_json({**json.loads(last[1]), "events": []})
                return
        await self._send_fresh_frame()

    async def _send_fresh_frame(self) -> None:
        frame = await database_sync_to_async(selectors.match_frame_for)(
            match_id=self.match_id, user=self.scope["user"], with_log=True
        )
        text = broadcast.encode(frame)
        self.last_frame = (int(frame["version"]), text)
        await self.send(text_data=text)


class NowhereConsumer(AsyncWebsocketConsumer):
    """A socket on a path that leads nowhere: accepted, then closed with 4404 (docs/protocol.md)."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_MATCH_NOT_FOUND)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # closed already; anything still in flight is dropped


class EchoConsumer(DirectDispatchMixin, AccountLimitsMixin, AsyncWebsocketConsumer):
    """Diagnostics: ``ws/echo/`` sends each message back, by way of the channel layer.

    The message goes to this socket's own channel and comes back from it, so a round trip
    crosses the same path as a game frame (daphne, the consumer, the layer: Redis in production)
    without the database or the engine. Logged-in users only, with the same limits as games (it
    counts as one of the account's sockets).
    """

    MESSAGE: ClassVar[str] = "echo.reply"

    async def connect(self) -> None:
        user = self.scope.get("user")
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_NOT_AUTHENTICATED)
        elif not await self._open_for_account(user):
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)

    async def disconnect(self, code: int) -> None:
        await self._close_for_account()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not await self._within_budget(text_data):
            return
        await self.channel_layer.send(
            self.channel_name, {"type": self.MESSAGE, "text": text_data, "bytes": bytes_data}
        )

    async def echo_reply(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"], bytes_data=message["bytes"])
