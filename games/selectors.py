"""Read-only queries for views, consumers and tasks. Nothing here writes."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet

from games import engine, protocol
from games.errors import MatchNotFoundError
from games.models import Match, Room, ScoreLine, Seat


def seat_index_for(*, room_id: int, user: AbstractBaseUser | AnonymousUser | None) -> int | None:
    """The seat ``user`` holds in the room, or None (spectator)."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(room_id=room_id, user_id=user.pk).values_list("index", flat=True).first()


def match_frame_for(*, match_id: int, user: AbstractBaseUser | AnonymousUser | None) -> dict[str, Any]:
    """The state frame ``user`` may see now: their seat's view, or the spectators' view."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise MatchNotFoundError()
    seat = seat_index_for(room_id=match.room_id, user=user)
    return protocol.state_frame(engine.view_for(match.game_state(), seat), match.version, [])


def room_list_open() -> QuerySet[Room]:
    """Public rooms waiting for players, newest first, with their seats."""
    return (
        Room.objects.filter(status=Room.Status.OPEN, join_code__isnull=True)
        .select_related("owner")
        .prefetch_related("seats")
    )


def match_score_lines(*, match_id: int) -> QuerySet[ScoreLine]:
    """Every score line of the match, by round then seat."""
    return (
        ScoreLine.objects.filter(round__match_id=match_id)
        .select_related("round")
        .order_by("round__number", "seat")
    )
