"""Rooms, seats and the start of matches (the lobby's writes).

A room is created with its variant's options (the engine validates them), seats are taken by
people or bots, and ``match_start`` deals the first round (its commitment published, its seed
kept). ``room_close`` ends the rooms' matches through ``core.match_close``.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from games import engine
from games.play import selectors
from games.play.models import Match, Room, Round, Seat
from games.play.services.core import commitment, due_at, match_close, publish_after_commit
from games.shared.errors import (
    AlreadySeatedError,
    BadOptionsError,
    NotOwnerError,
    NotSeatedError,
    RankedNoBotsError,
    RoomFullError,
    RoomNotFoundError,
    RoomNotOpenError,
    RoomNotReadyError,
    SeatTakenError,
)

_JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed

if TYPE_CHECKING:
    from accounts.models import User


TURN_SECONDS_RANGE = (5, 3600)


def room_create(
    *,
    owner: User,
    name: str,
    variant: str,
    options: Mapping[str, Any],
    seats: int,
    turn_seconds: int,
    ranked: bool = False,
    private: bool = False,
) -> Room:
    """Open a room with ``seats`` empty seats. The engine validates the variant and options."""
    if not isinstance(options, Mapping):
        raise BadOptionsError("options must be a JSON object")
    try:
        rules = engine.variant(variant, **dict(options))
    except ValueError as error:
        raise BadOptionsError(str(error)) from error
    if (
        isinstance(seats, bool)
        or not isinstance(seats, int)
        or not rules.min_players <= seats <= rules.max_players
    ):
        raise BadOptionsError(f"{rules.name} is played by {rules.min_players} to {rules.max_players} players")
    low, high = TURN_SECONDS_RANGE
    if isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int) or not low <= turn_seconds <= high:
        raise BadOptionsError(f"a turn lasts {low} to {high} seconds")
    with transaction.atomic():
        room = Room.objects.create(
            owner=owner,
            name=name,
            variant=rules.name,
            options=dict(rules.options),
            seat_count=seats,
            turn_seconds=turn_seconds,
            ranked=ranked,
            join_code=_new_join_code() if private else None,
        )
        Seat.objects.bulk_create(Seat(room=room, index=index) for index in range(seats))
    return room


def _new_join_code() -> str:
    while True:
        code = "".join(secrets.choice(_JOIN_CODE_ALPHABET) for _ in range(8))
        if not Room.objects.filter(join_code=code).exists():
            return code


def _room_locked(room: Room | int) -> Room:
    room_id = room if isinstance(room, int) else room.pk
    locked = Room.objects.select_for_update(no_key=True).filter(pk=room_id).first()
    if locked is None:
        raise RoomNotFoundError()
    return locked


def _require_owner(room: Room, user: AbstractBaseUser | AnonymousUser | None) -> None:
    if user is not None and room.owner_id != user.pk:
        raise NotOwnerError()


def seat_take(*, room: Room | int, user: User, index: int | None = None) -> Seat:
    """Sit ``user`` at seat ``index`` (or the first free one) of an open room."""
    with transaction.atomic():
        room = _room_locked(room)  # one seating change per room at a time
        if room.status != Room.Status.OPEN:
            raise RoomNotOpenError()
        seats = list(room.seats.all())
        if any(seat.user_id == user.pk for seat in seats):
            raise AlreadySeatedError()
        if index is None:
            seat = next((seat for seat in seats if seat.is_free), None)
            if seat is None:
                raise RoomFullError()
        else:
            seat = next((seat for seat in seats if seat.index == index and seat.is_free), None)
            if seat is None:
                raise SeatTakenError()
        seat.user = user
        _presence_clear(seat)
        seat.save(update_fields=["user", *_PRESENCE_FIELDS])
    return seat


#: A seat's presence: who takes or leaves a seat starts with a clean one.
_PRESENCE_FIELDS = ("state", "timeouts", "connections", "offline_since")


def _presence_clear(seat: Seat) -> None:
    seat.state = Seat.State.CONNECTED
    seat.timeouts = seat.connections = 0
    seat.offline_since = None


def seat_add_bot(
    *,
    room: Room | int,
    index: int,
    level: str = Seat.BotLevel.NORMAL,
    user: AbstractBaseUser | None = None,
) -> Seat:
    """Put a bot at a free seat. With ``user``, only the room's owner may do it."""
    if level not in Seat.BotLevel.values:
        raise BadOptionsError(f"bot level must be one of {', '.join(Seat.BotLevel.values)}")
    with transaction.atomic():
        room = _room_locked(room)
        _require_owner(room, user)
        if room.status != Room.Status.OPEN:
            raise RoomNotOpenError()
        if room.ranked:
            raise RankedNoBotsError()
        seat = room.seats.filter(index=index, user__isnull=True, is_bot=False).first()
        if seat is None:
            raise SeatTakenError()
        seat.is_bot = True
        seat.bot_level = level
        seat.save(update_fields=["is_bot", "bot_level"])
    return seat


def match_start(
    *, room: Room | int, user: AbstractBaseUser | None = None, secret: bytes | None = None
) -> Match:
    """Deal a new match in a room whose seats are all taken (by players or bots).

    The match secret comes from ``secrets``; round 1's commitment is stored (and shown in every
    view) before anyone has seen a card. ``secret``: the deal of the day's instead
    (``daily_services.daily_start``, the only caller that may start a match in a daily room, once).
    """
    with transaction.atomic():
        room = _room_locked(room)
        _require_owner(room, user)
        if room.status not in (Room.Status.OPEN, Room.Status.FINISHED):
            raise RoomNotOpenError()
        if (room.daily_day is not None) != (secret is not None) or (
            room.daily_day is not None and room.status != Room.Status.OPEN
        ):
            raise RoomNotOpenError("a deal of the day is played once, from its own secret")
        seats = list(room.seats.select_related("user").order_by("index"))
        if len(seats) != room.seat_count or any(seat.is_free for seat in seats):
            raise RoomNotReadyError()
        if room.ranked and any(seat.is_bot for seat in seats):
            raise RankedNoBotsError()
        names = [
            seat.user.get_username() if seat.user is not None else f"Bot {seat.index + 1}" for seat in seats
        ]
        if secret is None:
            secret = secrets.token_bytes(32)
        rules = room.rules()
        previous = room.matches.order_by("-number").first()
        first = None
        if previous is not None:  # R40-Q13: in Remik 40 the deal passes to the left each game
            last = previous.game_state()
            first = engine.next_match_first(rules, last) if last.players == len(names) else None
        state = engine.new_game(rules, names, secret, first=first)
        number = (previous.number if previous is not None else 0) + 1
        now = timezone.now()
        match = Match(room=room, number=number, version=0, secret=secret, turn_started=now)
        rows = selectors.seat_rows(room_id=room.pk)
        match.turn_deadline = due_at(match=match, state=state, rows=rows, now=now)
        match.set_game_state(state)
        match.save()
        Round.objects.create(
            match=match, number=state.round_no, commitment=commitment(secret, state.round_no)
        )
        room.status = Room.Status.PLAYING
        room.save(update_fields=["status"])
        publish_after_commit(match=match, state=state, events=(), rows=rows)
    return match


def room_open_seated(*, owner: User, **room: Any) -> Room:
    """``room_create`` and seat the owner at seat 0, in one transaction (the create-room page)."""
    with transaction.atomic():
        created = room_create(owner=owner, **room)
        seat_take(room=created, user=owner, index=0)
    return created


def match_start_from_room(*, room: Room | int, user: AbstractBaseUser) -> Match:
    """Start on behalf of ``user``: the owner, or any seated player when the owner has no seat.

    Rooms whose owner does not play (the demo rooms of ``seed_demo``) can then still be started by
    the people sitting in them.
    """
    room_id = room if isinstance(room, int) else room.pk
    owner_id = Room.objects.filter(pk=room_id).values_list("owner_id", flat=True).first()
    if owner_id is None:
        raise RoomNotFoundError()
    if owner_id == user.pk:
        return match_start(room=room_id, user=user)
    seated = Seat.objects.filter(room_id=room_id, user_id__in=(owner_id, user.pk)).values_list(
        "user_id", flat=True
    )
    if owner_id in seated or user.pk not in seated:
        raise NotOwnerError()
    return match_start(room=room_id)


def seat_leave(*, room: Room | int, user: AbstractBaseUser) -> Seat:
    """Free the user's seat in a room that is still open (no match started yet)."""
    with transaction.atomic():
        room = _room_locked(room)
        if room.status != Room.Status.OPEN:
            raise RoomNotOpenError("the match has started: you can no longer leave your seat")
        seat = room.seats.filter(user_id=user.pk).first()
        if seat is None:
            raise NotSeatedError()
        seat.user = None
        _presence_clear(seat)
        seat.save(update_fields=["user", *_PRESENCE_FIELDS])
    return seat


def seat_remove_player(*, seat_id: int) -> bool:
    """Free a seat (player or bot) if its room is still open; False when nothing was changed."""
    with transaction.atomic():
        room_id = Seat.objects.filter(pk=seat_id).values_list("room_id", flat=True).first()
        if room_id is None:
            return False
        room = _room_locked(room_id)
        if room.status != Room.Status.OPEN:
            return False
        seat = Seat.objects.get(pk=seat_id)
        if seat.is_free:
            return False
        seat.user = None
        seat.is_bot = False
        seat.bot_level = ""
        _presence_clear(seat)
        seat.save(update_fields=["user", "is_bot", "bot_level", *_PRESENCE_FIELDS])
    return True


def room_close(*, room_ids: list[int]) -> int:
    """Close rooms (staff action): they leave the lobby and take no seats or new matches.

    A match still being played in a closed room ends there (``match_close``).
    """
    with transaction.atomic():
        closing = list(
            Room.objects.filter(pk__in=room_ids)
            .exclude(status=Room.Status.CLOSED)
            .values_list("pk", flat=True)
        )
        playing = Match.objects.filter(room_id__in=closing, status=Match.Status.PLAYING)
        for match_id in playing.order_by("pk").values_list("pk", flat=True):
            match_close(match_id=match_id)
        return Room.objects.filter(pk__in=closing).update(status=Room.Status.CLOSED)
