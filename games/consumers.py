"""The game's WebSocket: translates between the wire and the services, and decides nothing else.

One socket watches one match, at ``ws/match/<match_id>/``, or at ``ws/rooms/<room_id>/`` for the
room's current (latest) match, fixed when the socket connects (see docs/protocol.md):

* On connect the socket joins exactly one audience group (its user's seat, or the spectators)
  and gets a full state frame. What a frame may show was decided by ``engine.view_for`` when it
  was built (in ``selectors`` or ``broadcast``); this consumer only forwards frames.
* A command (``protocol.decode_command``) goes to ``services.move_submit``. An accepted move gets
  no direct answer: the broadcast after commit brings every audience, the sender included, its
  new frame. A refused one is answered to the sender only with an error frame
  (``protocol.error_frame``); a stale version also gets a fresh full frame so the client resyncs.
* A command whose ``id`` this seat already had applied (resent after a reconnect) is not applied
  again: the sender gets ``protocol.ack_frame(..., duplicate=True)`` and a fresh full frame.
* ``{"type": "resync"}`` asks for a fresh full frame.

Close codes (the socket is accepted first, so a browser can read them):
4401 not logged in, 4404 no such match (or the room has no match yet).
"""

from __future__ import annotations

import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from games import broadcast, protocol, selectors, services
from games.engine import IllegalMoveError
from games.errors import GameError, MatchNotFoundError, StaleVersionError
from games.models import Match

logger = logging.getLogger(__name__)

CLOSE_NOT_AUTHENTICATED = 4401
CLOSE_MATCH_NOT_FOUND = 4404

#: Errors a client can cause; they are answered with their own code, to the sender only.
CLIENT_ERRORS = (protocol.MalformedMessageError, IllegalMoveError, GameError)


def _match_id_for_room(room_id: int) -> int:
    match_id = selectors.room_latest_match_id(room_id=room_id)
    if match_id is None:
        raise MatchNotFoundError()
    return match_id


def _audience_group(*, match_id: int, user: AbstractBaseUser | AnonymousUser) -> str:
    """The one group this user's socket listens to: their seat's, or the spectators'."""
    room_id = Match.objects.filter(pk=match_id).values_list("room_id", flat=True).first()
    if room_id is None:
        raise MatchNotFoundError()
    seat = selectors.seat_index_for(room_id=room_id, user=user)
    if seat is None:
        return broadcast.spectators_group(match_id)
    return broadcast.seat_group(match_id, seat)


class GameConsumer(AsyncJsonWebsocketConsumer):
    match_id: int
    group: str | None = None

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.match_id = 0
        self.group = None
        user = self.scope.get("user")
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
        # Join before reading the first frame: a move committed in between then arrives as a
        # newer frame after it, never lost (the client drops frames it has already seen).
        await self.channel_layer.group_add(group, self.channel_name)
        self.group = group
        await self.accept()
        await self._send_fresh_frame()

    async def _refuse(self, code: int) -> None:
        # Accept, then close: a handshake refused outright reaches the browser as code 1006,
        # while a close after accept carries our code (so the client knows not to retry).
        await self.accept()
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        # The base class lets a JSON decoding error escape and kill the socket; answer it instead.
        try:
            content = await self.decode_json(text_data if text_data is not None else bytes_data)
        except (ValueError, TypeError) as error:
            await self.send_json(protocol.error_frame(protocol.MalformedMessageError("not JSON")))
            logger.debug("match %s: undecodable message: %s", self.match_id, error)
            return
        await self.receive_json(content, **kwargs)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        request_id = content.get("id") if isinstance(content, dict) else None
        if isinstance(content, dict) and content.get("type") == "resync":
            await self._send_fresh_frame()
            return
        try:
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

    async def match_frame(self, message: dict[str, Any]) -> None:
        """Layer message ``broadcast.FRAME_MESSAGE``: a frame already built for this audience."""
        await self.send_json(message["frame"])

    async def _send_fresh_frame(self) -> None:
        frame = await database_sync_to_async(selectors.match_frame_for)(
            match_id=self.match_id, user=self.scope["user"]
        )
        await self.send_json(frame)
