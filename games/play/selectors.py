"""Read-only queries for views, consumers and tasks. Nothing here writes."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from games import engine
from games.play import framing, protocol, statements
from games.play.models import Match, MoveRecord, Room, Round, ScoreLine, Seat
from games.shared.errors import MatchNotFoundError, RoomNotFoundError


def seat_index_for(*, room_id: int, user: AbstractBaseUser | AnonymousUser | None) -> int | None:
    """The seat ``user`` holds in the room, or None (spectator)."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(room_id=room_id, user_id=user.pk).values_list("index", flat=True).first()


def audience_for(*, match_id: int, user: AbstractBaseUser | AnonymousUser | None) -> int | None:
    """The seat ``user`` watches the match from (None: a spectator), as the match page decides.

    Raises ``MatchNotFoundError`` for a match that does not exist and, the same way, for a
    match of a private room (one with a join code) to anybody but its owner and its seated
    players: a stranger learns nothing of it, over HTTP or a socket.
    """
    row = (
        Match.objects.filter(pk=match_id).values_list("room_id", "room__join_code", "room__owner_id").first()
    )
    if row is None:
        raise MatchNotFoundError()
    room_id, join_code, owner_id = row
    seat = seat_index_for(room_id=room_id, user=user)
    if seat is None and join_code and (user is None or not user.is_authenticated or user.pk != owner_id):
        raise MatchNotFoundError()
    return seat


class SeatRow(NamedTuple):
    """What the table needs to know of one seat (``seat_rows``), as plain values."""

    index: int  # type: ignore[assignment]  # shadows tuple.index, which nothing here calls
    is_bot: bool
    state: str
    timeouts: int
    bot_level: str
    user_id: int | None
    pk: int

    @property
    def played_by_bot(self) -> bool:
        """A bot seat, or a person's away seat the normal bot plays for (RMI-NET-4)."""
        return self.is_bot or self.state == Seat.State.AWAY

    @property
    def frame_entry(self) -> tuple[int, bool, str, int]:
        return (self.index, self.is_bot, self.state, self.timeouts)


def seat_rows(*, room_id: int) -> list[SeatRow]:
    """The room's seats in index order."""
    return [SeatRow(*values) for values in statements.seat_rows(room_id=room_id)]


def seats_field(rows: list[SeatRow]) -> list[dict[str, Any]]:
    """The ``seats`` of a state frame (``protocol.seats``)."""
    return protocol.seats(row.frame_entry for row in rows)


def seat_for_move(
    *,
    match_id: int,
    room_id: int,
    user: AbstractBaseUser | AnonymousUser | None,
    command_id: str | None,
) -> tuple[int | None, bool, list[SeatRow]]:
    """For ``services.move_submit``, in one query over the room's seats: the user's seat (or
    None), whether that seat already has a move recorded with ``command_id`` in this match, and
    every seat's row (``seat_rows``)."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    seat, already, rows = None, False, []
    # One prepared statement (games/play/statements.py): the seats' rows and, per seat, whether it
    # has a move recorded with that command id (an EXISTS).
    for values in statements.seat_rows(room_id=room_id, match_id=match_id, command_id=command_id):
        row = SeatRow(*values[: len(SeatRow._fields)])
        rows.append(row)
        if user_id is not None and row.user_id == user_id:
            seat, already = row.index, command_id is not None and bool(values[-1])
    return seat, already, rows


def match_frame_for(
    *, match_id: int, user: AbstractBaseUser | AnonymousUser | None, with_log: bool = False
) -> dict[str, Any]:
    """The state frame ``user`` may see now: their seat's view, or the spectators' view.

    ``with_log``: the frame also carries ``log``, the round's moves so far as this audience saw
    them (``round_log``): the match page's first frame and a socket's first frame.
    """
    match = Match.objects.select_related("room").filter(pk=match_id).order_by("pk").first()
    if match is None:
        raise MatchNotFoundError()
    rows = seat_rows(room_id=match.room_id)
    user_id = user.pk if user is not None and user.is_authenticated else None
    seat = next((row.index for row in rows if user_id is not None and row.user_id == user_id), None)
    state = match.game_state()
    sealed = match.room.daily_day is not None
    frame = framing.frame_for(
        state,
        seat,
        version=match.version,
        clock=match_clock(match),
        seats=seats_field(rows),
        sealed=sealed,
    )
    if with_log:
        frame["log"] = round_log(match_id=match.pk, round_no=state.round_no, seat=seat, sealed=sealed)
    return frame


def round_log(
    *, match_id: int, round_no: int, seat: int | None, sealed: bool = False
) -> list[dict[str, Any]]:
    """The moves of round ``round_no`` so far, oldest first, as ``seat`` (None: a spectator)
    saw them in the live frames: ``{"version", "actor", "events"}`` each, the events filtered by
    ``framing.events_seen`` (as the live frames', ``sealed`` alike) from the stored ones
    (``MoveRecord.events``), so a card drawn from the stock is named to the seat that drew it only.

    A round with no move yet (a deal just made) gives the round before it, which the last move
    ended: what a page that saw that move shows until the next one.
    """
    moves = MoveRecord.objects.filter(match_id=match_id).order_by("seq")
    rows = list(moves.filter(round_number=round_no).values_list("seq", "actor", "events"))
    if not rows and round_no > 1:
        rows = list(moves.filter(round_number=round_no - 1).values_list("seq", "actor", "events"))
    return [
        {
            "version": seq,
            "actor": actor,
            "events": framing.events_seen(
                (engine.Event(e["kind"], dict(e["data"]), e["to"]) for e in events), seat, sealed=sealed
            ),
        }
        for seq, actor, events in rows
    ]


def match_version(*, match_id: int) -> int:
    """The match's current version (``MatchNotFoundError`` if there is no such match)."""
    version = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
    if version is None:
        raise MatchNotFoundError()
    return int(version)


def match_clock(match: Match) -> dict[str, Any]:
    """The ``clock`` of the match's frames: the room's turn time, when the turn began, the pause.

    The one place a frame's clock is built, for the frames sent after a move and on request.
    """
    return protocol.clock(
        turn_seconds=match.room.turn_seconds,
        turn_started=match.turn_started,
        resume_at=match.resume_at,
        now=timezone.now(),
    )


def matches_waiting_for_a_bot() -> list[tuple[int, int, datetime | None]]:
    """(match id, version, resume_at) of every match being played whose turn is a bot's, or an
    away seat's (the bot plays for it)."""
    waiting = []
    playing = Match.objects.filter(status=Match.Status.PLAYING).only(
        "pk", "room_id", "version", "state", "resume_at"
    )
    played_by_bot = set(
        Seat.objects.filter(room__matches__status=Match.Status.PLAYING)
        .filter(Q(is_bot=True) | Q(state=Seat.State.AWAY))
        .values_list("room_id", "index")
    )
    for match in playing:
        turn = match.state.get("turn")
        if (match.room_id, turn) in played_by_bot:
            waiting.append((match.pk, match.version, match.resume_at))
    return waiting


def matches_playing() -> list[tuple[int, int]]:
    """(match id, version) of every match being played (the start-up sweep)."""
    return list(Match.objects.filter(status=Match.Status.PLAYING).order_by("pk").values_list("pk", "version"))


def matches_overdue(*, before: datetime) -> list[tuple[int, int]]:
    """(match id, version) of the matches being played whose turn deadline is before ``before``."""
    return list(
        Match.objects.filter(status=Match.Status.PLAYING, turn_deadline__lt=before)
        .order_by("turn_deadline", "pk")
        .values_list("pk", "version")
    )


def seats_offline_since(*, before: datetime) -> list[tuple[int, datetime]]:
    """(seat id, offline_since) of the offline seats whose grace period began before ``before``."""
    rows = (
        Seat.objects.filter(state=Seat.State.OFFLINE, offline_since__lt=before)
        .order_by("offline_since", "pk")
        .values_list("pk", "offline_since")
    )
    return [(pk, since) for pk, since in rows if since is not None]


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


# --- site pages: lobby, room and match pages ---------------------------------------------------


def room_list_lobby() -> QuerySet[Room]:
    """The open public rooms with their seats' users, for the lobby."""
    return room_list_open().prefetch_related("seats__user")


def room_list_seated(*, user: AbstractBaseUser | AnonymousUser | None) -> QuerySet[Room]:
    """Rooms (not closed) where ``user`` holds a seat, with ``latest_match_id`` (or None)."""
    if user is None or not user.is_authenticated:
        return Room.objects.none()
    latest = Match.objects.filter(room=OuterRef("pk")).order_by("-number").values("pk")[:1]
    return (
        Room.objects.filter(seats__user_id=user.pk)
        .exclude(status=Room.Status.CLOSED)
        .annotate(latest_match_id=Subquery(latest))
        .prefetch_related("seats__user")
    )


def room_get(*, room_id: int | None = None, join_code: str | None = None) -> Room:
    """One room by id or by join code, with its seats and their users; RoomNotFoundError if none."""
    rooms = Room.objects.select_related("owner").prefetch_related("seats__user")
    if join_code is not None:
        room = rooms.filter(join_code=join_code.strip().upper()).first()
    else:
        room = rooms.filter(pk=room_id).first() if room_id is not None else None
    if room is None:
        raise RoomNotFoundError()
    return room


def room_latest_match_id(*, room_id: int) -> int | None:
    return Match.objects.filter(room_id=room_id).order_by("-number").values_list("pk", flat=True).first()


def match_get(*, match_id: int) -> Match:
    match = Match.objects.select_related("room").filter(pk=match_id).first()
    if match is None:
        raise MatchNotFoundError()
    return match


def match_rounds(*, match_id: int) -> QuerySet[Round]:
    """The match's rounds in order, each with its score lines (empty while it is played)."""
    return Round.objects.filter(match_id=match_id).order_by("number").prefetch_related("score_lines")


# --- match history: /matches/ and the profile pages -------------------------------------------


def match_list_played(*, user_id: int, public_only: bool = False) -> QuerySet[Match]:
    """Matches of the rooms where the user holds a seat, newest first, with ``my_seat``.

    ``public_only`` leaves out the matches of private rooms (what other people may see).
    """
    my_seat = Seat.objects.filter(room_id=OuterRef("room_id"), user_id=user_id).values("index")[:1]
    matches = (
        Match.objects.filter(room__seats__user_id=user_id)
        .select_related("room")
        .defer("secret")
        .annotate(my_seat=Subquery(my_seat))
        .order_by("-started", "-id")
    )
    if public_only:
        matches = matches.filter(room__join_code__isnull=True)
    return matches


def match_history(
    *, user_id: int, public_only: bool = False, limit: int | None = None
) -> list[dict[str, Any]]:
    """One summary per match of ``match_list_played``: players, totals, winners, the user's result.

    Names and totals come from the match's public state document (never its hands or secret).
    """
    matches = match_list_played(user_id=user_id, public_only=public_only)
    if limit is not None:
        matches = matches[:limit]
    return [match_summary(match) for match in matches]


def match_summary(match: Match) -> dict[str, Any]:
    names: list[str] = list(match.state.get("names", []))
    totals: list[int] = list(match.state.get("totals", [0] * len(names)))
    seat: int | None = getattr(match, "my_seat", None)
    finished = match.status == Match.Status.FINISHED
    rank = None
    if finished and seat is not None and seat < len(totals) and match.winners:
        # A match with no winner (every round void, docs/engine.md "No winner") places nobody.
        lower_wins = match.room.rules().lower_wins
        mine = totals[seat]
        better = sum(1 for total in totals if (total < mine if lower_wins else total > mine))
        rank = better + 1
    return {
        "match": match,
        "room": match.room,
        "title": engine.variant(match.room.variant).title,
        "players": [
            {"name": name, "total": totals[index] if index < len(totals) else 0, "you": index == seat}
            for index, name in enumerate(names)
        ],
        "seat": seat,
        "my_total": totals[seat] if seat is not None and seat < len(totals) else None,
        "winners": [names[index] for index in match.winners if index < len(names)],
        "won": seat is not None and seat in match.winners,
        "rank": rank,
        "finished": finished,
    }


# --- history: which matches a viewer may see, and what the match page adds for them ------------


def _member_q(user: AbstractBaseUser | AnonymousUser | None) -> Q:
    """The viewer sits in (or owns) the match's room."""
    if user is None or not user.is_authenticated:
        return Q(pk__in=[])
    seated = Seat.objects.filter(room_id=OuterRef("room_id"), user_id=user.pk)
    return Q(Exists(seated)) | Q(room__owner_id=user.pk)


def visible_matches(user: AbstractBaseUser | AnonymousUser | None) -> QuerySet[Match]:
    """Every match ``user`` may see (public rooms, and private rooms they belong to)."""
    return Match.objects.filter(Q(room__join_code__isnull=True) | _member_q(user))


def match_visible(*, match_id: int, user: AbstractBaseUser | AnonymousUser | None) -> Match | None:
    """The match with its room, if ``user`` may see it; else None."""
    return visible_matches(user).select_related("room").filter(pk=match_id).order_by().first()


def match_list_visible(*, user: AbstractBaseUser | AnonymousUser | None) -> QuerySet[Match]:
    """``visible_matches`` newest first, each with the viewer's seat as ``my_seat`` (or None)."""
    matches = visible_matches(user).select_related("room").defer("secret").order_by("-started", "-id")
    if user is not None and user.is_authenticated:
        my_seat = Seat.objects.filter(room_id=OuterRef("room_id"), user_id=user.pk).values("index")[:1]
        matches = matches.annotate(my_seat=Subquery(my_seat))
    return matches


def match_list_finished_visible(
    *, user: AbstractBaseUser | AnonymousUser | None, limit: int = 30
) -> QuerySet[Match]:
    """The ``limit`` matches ``user`` may see that are over, the latest first."""
    return (
        visible_matches(user)
        .exclude(status=Match.Status.PLAYING)
        .select_related("room")
        .defer("secret", "state")
        .order_by("-finished", "-id")[:limit]
    )


def match_has_finished_round(*, match_id: int) -> bool:
    """Has a round of the match ended (its seed revealed)?"""
    return Round.objects.filter(match_id=match_id, revealed_seed__isnull=False).exists()


def match_round(*, match_id: int, number: int) -> Round | None:
    return Round.objects.filter(match_id=match_id, number=number).first()


def match_last_finished_round(*, match_id: int) -> int | None:
    """The number of the match's latest round that is over, or None."""
    return (
        Round.objects.filter(match_id=match_id, revealed_seed__isnull=False)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


def match_commitments(*, match_id: int) -> dict[int, str]:
    """Each round's published commitment, by round number."""
    return dict(Round.objects.filter(match_id=match_id).values_list("number", "commitment"))


def rematch_frame_for(*, match_id: int) -> dict[str, Any] | None:
    """The ``rematch`` frame of a finished match once anyone voted (None before, or if not over).

    Bots agree at once; the people seated in the room must each agree.
    """
    match = (
        Match.objects.filter(pk=match_id).values_list("room_id", "number", "status", "rematch_votes").first()
    )
    if match is None:
        raise MatchNotFoundError()
    room_id, number, status, stored = match
    if status != Match.Status.FINISHED:
        return None
    next_match = Match.objects.filter(room_id=room_id, number=number + 1).values_list("pk", flat=True).first()
    if not stored and next_match is None:
        return None
    return rematch_frame_from(match_id=match_id, room_id=room_id, stored=stored, next_match=next_match)


def rematch_frame_from(
    *, match_id: int, room_id: int, stored: dict[str, bool], next_match: int | None
) -> dict[str, Any]:
    rows = seat_rows(room_id=room_id)
    votes = {row.index: True for row in rows if row.is_bot}
    votes.update({int(seat): bool(agree) for seat, agree in stored.items()})
    people = [row.index for row in rows if not row.is_bot]
    return protocol.rematch_frame(match_id=match_id, votes=votes, people=people, next_match=next_match)
