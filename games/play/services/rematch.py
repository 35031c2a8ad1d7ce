""" "Play again" at a finished match (docs/protocol.md, "Rematch").

Each person seated in the room says yes or no (``rematch_vote``); bots agree at once. When every
person has agreed, the room's next match starts in the same transaction with ``rooms.match_start``:
the same room, so the same seats, options, turn time and ranking, and the deal passes as the
rules say (Remik 40's next dealer, R40-Q13, is ``match_start``'s). A "no" stops it until that
person changes their mind. Everyone watching the finished match gets a ``rematch`` frame after
each vote, with ``next_match`` once it has started.
"""

from __future__ import annotations

from functools import partial

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from games.play import broadcast, selectors
from games.play.models import Match, Room, Seat
from games.play.services.core import match_locked, on_commit
from games.play.services.rooms import match_start
from games.shared.errors import NotSeatedError, RematchUnavailableError


def rematch_vote(*, match_id: int, user: AbstractBaseUser, agree: bool = True) -> int | None:
    """Record ``user``'s answer; start the next match when everyone agrees. Its id, or None.

    Refused with ``rematch_unavailable`` unless the match is finished and is its room's latest
    (a room closed by staff takes no new match); a vote after the next match has started changes
    nothing and answers with it.
    """
    with transaction.atomic():
        match = match_locked(match_id)
        room = match.room
        next_match = (
            Match.objects.filter(room_id=room.pk, number=match.number + 1)
            .values_list("pk", flat=True)
            .first()
        )
        rows = selectors.seat_rows(room_id=room.pk)
        seat = next((row for row in rows if row.user_id == user.pk), None)
        if seat is None:
            raise NotSeatedError()
        if next_match is None:
            if (
                match.status != Match.Status.FINISHED
                or room.status != Room.Status.FINISHED
                or room.daily_day is not None  # a deal of the day is one try (games.learn.daily)
            ):
                raise RematchUnavailableError()
            votes = {**match.rematch_votes, str(seat.index): bool(agree)}
            match.rematch_votes = votes
            match.save(update_fields=["rematch_votes"])
            if agree and seat.state == Seat.State.AWAY:
                # Whoever asks to play again is at the table: the new match is theirs to play.
                Seat.objects.filter(pk=seat.pk).update(state=Seat.State.CONNECTED, timeouts=0)
            if all(votes.get(str(row.index)) is True for row in rows if not row.is_bot):
                next_match = match_start(room=room.pk).pk
        frame = selectors.rematch_frame_from(
            match_id=match.pk, room_id=room.pk, stored=match.rematch_votes, next_match=next_match
        )
        groups = broadcast.match_groups(match.pk, len(rows))
        on_commit(
            partial(
                broadcast.send_frames,
                match_id=match.pk,
                version=match.version,
                frames=[(group, frame) for group in groups],
                state=False,
            )
        )
    return next_match
