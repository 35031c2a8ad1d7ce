"""How much one socket, one account and one address may ask of a server (docs/protocol.md, "Limits").

* ``MessageLimiter``: one socket's budget of messages (a token bucket), and a second, larger one
  past which the socket is closed (4429).
* ``AccountBudgets``: one account's budget over all its sockets on this server process; a
  message must fit both, so opening more sockets does not buy more messages.
* The number of sockets an account has open, over every server process, is kept in the database
  (``services.account_socket_open``, 4409 past ``WS_MAX_SOCKETS_PER_ACCOUNT``).
* ``HandshakeLimit``: an ASGI middleware in front of the WebSocket routes that refuses an
  address's handshakes past a burst and a rate (4409), before its session is looked up.
* ``replay_budget`` and ``replay_slot``: records sent to /verify/ and replay pages per address and
  per account, one at a time (docs/record.md, "Limits"), counted in the cache.

The settings of the same names (``WS_...``, remi_site/settings/base.py) give the figures.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from math import ceil
from time import monotonic, time
from typing import Any, Literal

from django.conf import settings
from django.core.cache import cache

from games.shared.errors import ChatRateLimitedError, GameError, ReplayBusyError, ReplayRateLimitedError

logger = logging.getLogger(__name__)

#: Close codes (docs/protocol.md): too many messages; too many sockets or handshakes.
CLOSE_RATE_LIMITED = 4429
CLOSE_TOO_MANY_SOCKETS = 4409


class RateLimitedError(GameError):
    """The socket (or the account's sockets together) sent more messages than its budget; this one
    was not read."""

    code = "rate_limited"

    def __init__(self, *, per_second: float, burst: int, retry_after: float, account: bool = False) -> None:
        whose = " from your sockets together" if account else ""
        super().__init__(
            f"too many messages{whose}: at most {per_second:g} a second (bursts of {burst})",
            retry_after=round(retry_after, 3),
        )
        self.retry_after = retry_after


class TokenBucket:
    """``capacity`` tokens, refilled at ``rate`` a second; a message spends one.

    >>> bucket = TokenBucket(capacity=2, rate=1.0, now=0.0)
    >>> [bucket.take(0.0) for _ in range(3)], bucket.take(0.5), bucket.take(1.0)
    ([True, True, False], False, True)
    >>> bucket.wait()
    1.0
    """

    __slots__ = ("capacity", "rate", "stamp", "tokens")

    def __init__(self, *, capacity: float, rate: float, now: float) -> None:
        self.capacity = float(capacity)
        self.rate = float(rate)
        self.tokens = float(capacity)
        self.stamp = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.capacity, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token (0 if there is one)."""
        return max(0.0, (1.0 - self.tokens) / self.rate) if self.rate > 0 else float("inf")


class MessageLimiter:
    """One socket's budget: two token buckets over the same messages.

    ``messages`` (``burst`` tokens, ``per_second`` refill) decides whether a message is read;
    ``abuse`` (``factor`` times both) is spent by every message, read or refused, and when it is
    empty the socket is closed.

    >>> limiter = MessageLimiter(burst=2, per_second=1, factor=3, now=0.0)
    >>> [limiter.check(0.0) for _ in range(7)]
    ['ok', 'ok', 'limited', 'limited', 'limited', 'limited', 'close']
    """

    def __init__(self, *, burst: int, per_second: float, factor: float, now: float) -> None:
        self.burst = burst
        self.per_second = per_second
        self.messages = TokenBucket(capacity=burst, rate=per_second, now=now)
        self.abuse = TokenBucket(capacity=burst * factor, rate=per_second * factor, now=now)

    @classmethod
    def from_settings(cls, now: float) -> MessageLimiter:
        return cls(
            burst=settings.WS_RATE_LIMIT_BURST,
            per_second=settings.WS_RATE_LIMIT_PER_SECOND,
            factor=settings.WS_RATE_LIMIT_CLOSE_FACTOR,
            now=now,
        )

    def check(self, now: float) -> Literal["ok", "limited", "close"]:
        if not self.abuse.take(now):
            return "close"
        if not self.messages.take(now):
            return "limited"
        return "ok"

    def error(self) -> RateLimitedError:
        return RateLimitedError(
            per_second=self.per_second, burst=self.burst, retry_after=self.messages.wait()
        )


class AccountBudgets:
    """Each account's message budget over all its sockets on this server process.

    A socket holds its account's bucket from connect to disconnect (``acquire`` / ``release``);
    the bucket is dropped with the account's last socket, so the registry holds only accounts
    with an open socket here. The figures are ``WS_ACCOUNT_RATE_LIMIT_BURST`` and
    ``..._PER_SECOND`` unless given.

    >>> budgets = AccountBudgets(burst=2, per_second=1.0)
    >>> budgets.acquire(7, now=0.0); budgets.acquire(7, now=0.0)
    >>> [budgets.take(7, now=0.0) for _ in range(3)]  # two sockets, one budget
    [True, True, False]
    >>> budgets.release(7); budgets.release(7); len(budgets)
    0
    """

    def __init__(self, *, burst: int | None = None, per_second: float | None = None) -> None:
        self._burst = burst
        self._per_second = per_second
        self._buckets: dict[int, tuple[int, TokenBucket]] = {}

    @property
    def burst(self) -> int:
        return self._burst if self._burst is not None else settings.WS_ACCOUNT_RATE_LIMIT_BURST

    @property
    def per_second(self) -> float:
        return self._per_second if self._per_second is not None else settings.WS_ACCOUNT_RATE_LIMIT_PER_SECOND

    def __len__(self) -> int:
        return len(self._buckets)

    def acquire(self, account: int, *, now: float) -> None:
        entry = self._buckets.get(account)
        if entry is None:
            self._buckets[account] = (1, TokenBucket(capacity=self.burst, rate=self.per_second, now=now))
        else:
            self._buckets[account] = (entry[0] + 1, entry[1])

    def release(self, account: int) -> None:
        entry = self._buckets.get(account)
        if entry is None:
            return
        if entry[0] <= 1:
            del self._buckets[account]
        else:
            self._buckets[account] = (entry[0] - 1, entry[1])

    def take(self, account: int, *, now: float) -> bool:
        """Spend one of the account's messages; False when its budget is spent."""
        entry = self._buckets.get(account)
        return entry is None or entry[1].take(now)

    def error(self, account: int) -> RateLimitedError:
        entry = self._buckets.get(account)
        wait = entry[1].wait() if entry is not None else 0.0
        return RateLimitedError(per_second=self.per_second, burst=self.burst, retry_after=wait, account=True)


#: This server process's account budgets (one registry for every consumer).
ACCOUNTS = AccountBudgets()


class ChatBudgets:
    """Each account's chat budget on this server process, inside its socket's message budget.

    A chat line spends one of the socket's messages (and its account's) like any message, and one
    of these: ``WS_CHAT_BURST`` lines at once, then ``WS_CHAT_PER_MINUTE`` a minute, whatever the
    number of sockets or rooms. Over it the line is refused with ``chat_rate_limited`` (the
    socket stays open). The last ``ACCOUNTS`` accounts that chatted are remembered.

    >>> budgets = ChatBudgets(burst=2, per_minute=60.0)
    >>> [budgets.take(7, now=0.0) for _ in range(3)], budgets.take(7, now=1.0)
    ([True, True, False], True)
    >>> budgets.error(7).code
    'chat_rate_limited'
    """

    ACCOUNTS = 10_000

    def __init__(self, *, burst: int | None = None, per_minute: float | None = None) -> None:
        self._burst = burst
        self._per_minute = per_minute
        self._buckets: OrderedDict[int, TokenBucket] = OrderedDict()

    @property
    def burst(self) -> int:
        return self._burst if self._burst is not None else int(settings.WS_CHAT_BURST)

    @property
    def per_minute(self) -> float:
        return self._per_minute if self._per_minute is not None else float(settings.WS_CHAT_PER_MINUTE)

    def take(self, account: int, *, now: float) -> bool:
        bucket = self._buckets.pop(account, None)
        if bucket is None:
            bucket = TokenBucket(capacity=self.burst, rate=self.per_minute / 60.0, now=now)
        self._buckets[account] = bucket  # the newest last
        while len(self._buckets) > self.ACCOUNTS:
            self._buckets.popitem(last=False)
        return bucket.take(now)

    def error(self, account: int) -> ChatRateLimitedError:
        bucket = self._buckets.get(account)
        return ChatRateLimitedError(
            per_minute=self.per_minute, burst=self.burst, retry_after=bucket.wait() if bucket else 0.0
        )

    def clear(self) -> None:
        self._buckets.clear()


#: This server process's chat budgets (one registry for every consumer).
CHAT = ChatBudgets()


class HandshakeLimit:
    """ASGI middleware: at most ``WS_HANDSHAKE_BURST`` WebSocket handshakes from one address at
    once, then ``WS_HANDSHAKES_PER_MINUTE``; past that the socket is accepted and closed with 4409
    (so that a browser can read the code) before anything else is done for it.

    Per server process, for the last ``ADDRESSES`` addresses seen (the oldest is forgotten).
    The address is the ASGI scope's ``client``: behind a proxy, daphne needs ``--proxy-headers``.
    """

    ADDRESSES = 10_000

    def __init__(self, app: Any) -> None:
        self.app = app
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def allow(self, address: str, now: float) -> bool:
        bucket = self._buckets.pop(address, None)
        if bucket is None:
            bucket = TokenBucket(
                capacity=settings.WS_HANDSHAKE_BURST, rate=settings.WS_HANDSHAKES_PER_MINUTE / 60.0, now=now
            )
        self._buckets[address] = bucket  # the newest last
        while len(self._buckets) > self.ADDRESSES:
            self._buckets.popitem(last=False)
        return bucket.take(now)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        client = scope.get("client")
        if scope["type"] == "websocket" and client and not self.allow(str(client[0]), monotonic()):
            logger.info("too many socket handshakes from %s", client[0])
            await refuse_handshake(receive, send, CLOSE_TOO_MANY_SOCKETS)
            return
        await self.app(scope, receive, send)


async def refuse_handshake(receive: Any, send: Any, code: int) -> None:
    """Answer a WebSocket handshake refused before the site sees it: accepted, then closed with
    ``code``, so that a client can read why (a refusal before accepting reads as 1006)."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": code})


# --- replays and checks of records, per address and per account (docs/record.md, "Limits") ---------


def replay_budget(kind: str, *, address: str, account: int | None) -> None:
    """Count one request of ``kind`` for the address and, when signed in, the account; past the
    budget raise ``ReplayRateLimitedError`` (refused requests count too: a client looping on
    them stays refused). ``upload``: a record sent to /verify/ (``REPLAY_UPLOADS_PER_HOUR``);
    ``page``: a replay page (``REPLAY_PAGES_PER_MINUTE``). Counted in the cache (Redis, shared
    by every process, in production), in a window that starts with the first request counted
    and lasts the hour (or the minute)."""
    if kind == "upload":
        limit, window = settings.REPLAY_UPLOADS_PER_HOUR, 3600
    else:
        limit, window = settings.REPLAY_PAGES_PER_MINUTE, 60
    now = time()
    keys = [f"replay:{kind}:address:{address}"]
    if account is not None:
        keys.append(f"replay:{kind}:account:{account}")
    waits = []
    for key in keys:
        if cache.add(key, 0, window):  # a new window: its count expires with it
            cache.set(f"{key}:start", now, window)
        try:
            count = cache.incr(key)
        except ValueError:  # the window ended between add and incr
            cache.set(key, 1, window)
            cache.set(f"{key}:start", now, window)
            count = 1
        if count > limit:
            start = float(cache.get(f"{key}:start", now))
            waits.append(max(1, ceil(start + window - now)))
    if waits:
        wait = max(waits)
        if wait >= 120:  # an hour's budget: said in minutes
            minutes = ceil(wait / 60)
            message = f"too many replays from this address: try again in {minutes} min"
            raise ReplayRateLimitedError(message, retry_after=wait, minutes=minutes, limit=limit)
        message = f"too many replays from this address: try again in {wait} s"
        raise ReplayRateLimitedError(message, retry_after=wait, seconds=wait, limit=limit)


#: Seconds a replay's slot is held at most (a request that died without giving it back).
REPLAY_SLOT_SECONDS = 120


@contextmanager
def replay_slot(*, address: str, account: int | None) -> Iterator[None]:
    """One replay or check at a time per address and per account: ``ReplayBusyError`` while
    another request of theirs is being answered."""
    keys = [f"replay:slot:address:{address}"]
    if account is not None:
        keys.append(f"replay:slot:account:{account}")
    taken: list[str] = []
    try:
        for key in keys:
            if not cache.add(key, 1, REPLAY_SLOT_SECONDS):
                raise ReplayBusyError()
            taken.append(key)
        yield
    finally:
        for key in taken:
            cache.delete(key)
