"""Helpers for WebSocket tests: the players of a table, sockets that always close, frame checks.

Every frame a socket of these tests receives is checked against the published protocol schema
(``tests/schema.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from remi_site.asgi import application
from tests.schema import assert_frame

#: An Origin that AllowedHostsOriginValidator accepts (``testserver`` is in ALLOWED_HOSTS).
ORIGIN = b"http://testserver"
#: Generous: a CI machine on PostgreSQL can be slow, and a timed-out receive cancels the app.
TIMEOUT = 5


@dataclass(frozen=True)
class Player:
    user: Any
    cookie: str
    seat: int | None
    hand: tuple[str, ...]  # card ids, as the engine's view writes them


@dataclass(frozen=True)
class Table:
    match_id: int
    room_id: int
    mover: Player  # the seat to move (the dealer in remik51, who starts by discarding)
    other: Player
    spectator: Player  # logged in, not seated

    @property
    def a_discard(self) -> dict[str, Any]:
        """A legal first move for ``mover`` at version 0."""
        return {"kind": "discard", "card": self.mover.hand[0]}


class CheckedCommunicator(WebsocketCommunicator):
    """A communicator that checks every JSON frame it receives against the published schema."""

    async def receive_json_from(self, timeout: float = 1) -> Any:
        frame = await super().receive_json_from(timeout)
        assert_frame(frame)
        return frame


@asynccontextmanager
async def open_socket(
    match_id: int, cookie: str | None = None, origin: bytes = ORIGIN, *, path: str | None = None
) -> AsyncIterator[WebsocketCommunicator]:
    """A connected-or-refused communicator that is always disconnected at the end.

    It opens ``/ws/match/<match_id>/`` unless given another ``path`` (e.g. ``room_path(...)``).
    """
    headers = [(b"origin", origin)]
    if cookie is not None:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    path = path or f"/ws/match/{match_id}/"
    # ws/echo/ sends back whatever it is sent: no frame of the game's protocol.
    kind = WebsocketCommunicator if path.startswith("/ws/echo/") else CheckedCommunicator
    communicator = kind(application, path, headers=headers)
    try:
        yield communicator
    finally:
        await communicator.disconnect()


@asynccontextmanager
async def joined(
    match_id: int, player: Player, *, path: str | None = None
) -> AsyncIterator[tuple[WebsocketCommunicator, dict[str, Any]]]:
    """A socket for ``player``, connected, with its first frame already read."""
    async with open_socket(match_id, player.cookie, path=path) as communicator:
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert connected
        first = await communicator.receive_json_from(timeout=TIMEOUT)
        yield communicator, first


def session_cookie(user: Any) -> str:
    """The session cookie of ``user``, logged in (needs the database)."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def room_path(room_id: int) -> str:
    """The room's socket: it attaches to the room's current match."""
    return f"/ws/rooms/{room_id}/"


def strings_in(value: Any) -> set[str]:
    """Every string anywhere in a JSON value (keys included): where a card id could hide."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(k) | strings_in(v) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return set().union(*(strings_in(v) for v in value))
    return set()
