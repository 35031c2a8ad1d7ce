"""Everything that writes game data: rooms, seats, matches and moves.

Each service is one transaction. A move locks its ``Match`` row
(``select_for_update(no_key=True)``), checks the version the client saw, lets the engine decide,
then writes the new state, the move log and, at the end of a round, the scores and the revealed
seed. Frames go out in ``transaction.on_commit``, so nobody hears of a move that was rolled back;
in the same callback, when the seat to move next is a bot, its move is queued as a Celery task
(``games.tasks.bot_move``) for the new version.

Between rounds there is a pause (``ROUND_PAUSE_SECONDS``): the move that ends a round deals the
next one and sets ``Match.resume_at``; no move is accepted before then (``RoundPauseError``).

Turn timers, away seats and stand-ins (RMI-NET-3, RMI-NET-4): every commit stores when the move
awaited is due (``Match.turn_deadline``) and, after commit, schedules what plays it: the bot's move
for a bot or an away seat (``games.tasks.bot_move``), or the turn timer for a person
(``games.tasks.turn_timeout``, at the deadline). Both carry the version, so a stale one does
nothing. A timer that fires plays the rest of the turn with the normal bot (``standin`` in the
log) and counts the timeout; ``AWAY_AFTER_TIMEOUTS`` in a row mark the seat away, and an away seat
is played without waiting. The ``away`` and ``back`` commands, the sockets (``seat_connect``,
``seat_disconnect``: offline, then away after ``AWAY_GRACE_SECONDS``) and any move change a seat's
presence; everyone gets a frame with the seats' states. Each worker runs ``sweep_overdue`` every
``TURN_SWEEP_SECONDS``: it fires deadlines and grace periods whose task was lost.
"""

from __future__ import annotations

import inspect
import logging
import secrets
from collections import Counter
from collections.abc import Mapping
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from games import broadcast, engine, ratings, selectors, servers
from games.engine.bots import candidate_moves, choose_move
from games.errors import (
    AlreadySeatedError,
    BadOptionsError,
    GameError,
    MatchNotFoundError,
    MatchOverError,
    NotBotTurnError,
    NotOwnerError,
    NotSeatedError,
    RankedNoBotsError,
    RoomFullError,
    RoomNotFoundError,
    RoomNotOpenError,
    RoomNotReadyError,
    RoundPauseError,
    SeatTakenError,
    StaleVersionError,
)
from games.models import (
    AccountSocket,
    Match,
    MoveRecord,
    Room,
    Round,
    ScoreLine,
    Seat,
    SeatSocket,
    ServerProcess,
)
from games.selectors import SeatRow

logger = logging.getLogger(__name__)

_JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed
TURN_SECONDS_RANGE = (5, 3600)


# --- rooms and seats ---------------------------------------------------------------------------


def room_create(
    *,
    owner: AbstractBaseUser,
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


def seat_take(*, room: Room | int, user: AbstractBaseUser, index: int | None = None) -> Seat:
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


# --- matches -----------------------------------------------------------------------------------


def match_start(*, room: Room | int, user: AbstractBaseUser | None = None) -> Match:
    """Deal a new match in a room whose seats are all taken (by players or bots).

    The match secret comes from ``secrets``; round 1's commitment is stored (and shown in every
    view) before anyone has seen a card.
    """
    with transaction.atomic():
        room = _room_locked(room)
        _require_owner(room, user)
        if room.status not in (Room.Status.OPEN, Room.Status.FINISHED):
            raise RoomNotOpenError()
        seats = list(room.seats.select_related("user").order_by("index"))
        if len(seats) != room.seat_count or any(seat.is_free for seat in seats):
            raise RoomNotReadyError()
        if room.ranked and any(seat.is_bot for seat in seats):
            raise RankedNoBotsError()
        names = [
            seat.user.get_username() if seat.user is not None else f"Bot {seat.index + 1}" for seat in seats
        ]
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
        match.turn_deadline = _deadline(match=match, state=state, rows=rows, now=now)
        match.set_game_state(state)
        match.save()
        Round.objects.create(
            match=match, number=state.round_no, commitment=_commitment(secret, state.round_no)
        )
        room.status = Room.Status.PLAYING
        room.save(update_fields=["status"])
        _publish_after_commit(match=match, state=state, events=(), rows=rows)
    return match


def _commitment(secret: bytes, round_no: int) -> str:
    return engine.commitment(engine.deal_seed(secret, round_no))


def _match_locked(match_id: int) -> Match:
    # The room comes in the same query (the frames' clock reads its turn time); only the
    # match row is locked.
    match = (
        Match.objects.select_for_update(no_key=True, of=("self",))
        .select_related("room")
        .filter(pk=match_id)
        .order_by("pk")  # not the model's ordering, which joins and sorts by the room
        .first()
    )
    if match is None:
        raise MatchNotFoundError()
    return match


def _check_version(match: Match, expected_version: int) -> None:
    if match.version != expected_version:
        raise StaleVersionError(current=match.version)


def _check_not_paused(match: Match) -> None:
    """Refuse a move while the pause between two rounds runs."""
    if match.resume_at is not None and timezone.now() < match.resume_at:
        raise RoundPauseError(resume_at=match.resume_at)


class AlreadyApplied(int):
    """What ``move_submit`` returns for a command id already recorded: the current version.

    It is an ``int`` like any other result; callers that care (the consumer) test for the type.
    """


def move_submit(
    *,
    match_id: int,
    user: AbstractBaseUser | AnonymousUser,
    move: engine.Move,
    expected_version: int,
    actor: str = MoveRecord.Actor.PLAYER,
    command_id: str | None = None,
) -> int:
    """Play ``move`` for the user's seat; returns the new version.

    ``command_id`` is the client's id for the command. If this seat already has a move recorded
    with that id in this match (a command resent after a reconnect), nothing is applied and the
    current version comes back as an ``AlreadyApplied``; the version is not checked then.

    Raises NotSeatedError, StaleVersionError, RoundPauseError (before the next round may start),
    or the engine's IllegalMoveError (nothing saved).

    Any move from a seat that is away (or offline, or has timed out) takes the seat back: it is
    ``connected`` again with no timeouts counted, even when the move itself is refused (the player
    is evidently at the table), and the stand-in stops (RMI-NET-4).
    """
    refused: Exception | None = None
    with transaction.atomic():
        match = _match_locked(match_id)
        # Under the row lock: a second copy sent concurrently waits here and then finds the first.
        seat, applied, rows = selectors.seat_for_move(
            match_id=match.pk, room_id=match.room_id, user=user, command_id=command_id
        )
        if seat is None:
            raise NotSeatedError()
        if applied:
            return AlreadyApplied(match.version)
        state = match.game_state()
        row = _row(rows, seat)
        reclaim = row.state != Seat.State.CONNECTED or row.timeouts > 0
        if reclaim:
            Seat.objects.filter(pk=row.pk).update(state=Seat.State.CONNECTED, timeouts=0, offline_since=None)
            rows = _with_row(rows, row._replace(state=Seat.State.CONNECTED, timeouts=0))
        try:
            _check_version(match, expected_version)
            _check_not_paused(match)
            transition = engine.apply_move(state, seat, move)
        except (GameError, engine.IllegalMoveError) as error:
            if not reclaim:
                raise
            # The seat is taken back all the same: commit that, then refuse the move.
            refused = error
            _seats_changed(match=match, state=state, before=row, rows=rows)
        else:
            _record(
                match=match,
                before=state,
                seat=seat,
                move=move,
                transition=transition,
                actor=actor,
                command_id=command_id,
                rows=rows,
            )
    if refused is not None:
        raise refused
    return match.version


def bot_move_play(*, match_id: int, expected_version: int) -> int:
    """Play the move of the bot whose turn it is; returns the new version.

    The seat to move is a bot's (its own level), or an away person's: the normal bot plays for
    them as a stand-in (RMI-NET-4). ``expected_version`` is the version the task was scheduled
    for: if anyone has moved since, StaleVersionError and nothing happens. NotBotTurnError when
    the seat to move is a person's who is not away (a stand-in cancelled by "back") or the match
    is over; RoundPauseError before the next round may start.
    """
    with transaction.atomic():
        match = _match_locked(match_id)
        _check_version(match, expected_version)
        state = match.game_state()
        rows = selectors.seat_rows(room_id=match.room_id)
        if state.is_over or match.status != Match.Status.PLAYING:
            raise NotBotTurnError()
        row = _row(rows, state.turn)
        if not row.played_by_bot:
            raise NotBotTurnError()
        _check_not_paused(match)
        _bot_play_one(match=match, state=state, row=row, rows=rows)
    return match.version


def _bot_play_one(*, match: Match, state: engine.GameState, row: SeatRow, rows: list[SeatRow]) -> None:
    """One move of a bot seat (at its level), or of the stand-in for an away person (normal)."""
    level = (row.bot_level or Seat.BotLevel.NORMAL) if row.is_bot else Seat.BotLevel.NORMAL
    move, transition = _bot_choice(state, row.index, level=level)
    actor = MoveRecord.Actor.BOT if row.is_bot else MoveRecord.Actor.STANDIN
    _record(
        match=match, before=state, seat=row.index, move=move, transition=transition, actor=actor, rows=rows
    )


#: A turn is a few moves (draw, plays, discard); a stand-in stops after this many in any case.
_MAX_MOVES_PER_TURN = 20


def turn_end_stuck(*, match_id: int) -> int:
    """Staff action: play the rest of the current seat's turn with the normal bot; the new version.

    The bot decides from that seat's view only (as ``bot_move_play``) and every move is logged
    with the ``standin`` actor. It plays until the turn passes to another seat, the round ends
    or the match is over. No version check (staff act on whatever is current), but under the row
    lock. Raises MatchOverError for a finished match and RoundPauseError during a pause.
    """
    with transaction.atomic():
        match = _match_locked(match_id)
        state = match.game_state()
        if match.status != Match.Status.PLAYING or state.is_over:
            raise MatchOverError()
        _check_not_paused(match)
        _standin_turn(match=match, state=state, rows=selectors.seat_rows(room_id=match.room_id))
    return match.version


def _standin_turn(*, match: Match, state: engine.GameState, rows: list[SeatRow]) -> None:
    """The normal bot plays the rest of the current seat's turn, each move logged as ``standin``.

    It stops when the turn passes to another seat, the round ends or the match is over.
    """
    seat, round_no = state.turn, state.round_no
    for played in range(1, _MAX_MOVES_PER_TURN + 1):
        move, transition = _bot_choice(state, seat, level=Seat.BotLevel.NORMAL)
        after = transition.state
        last = after.is_over or after.turn != seat or after.round_no != round_no
        _record(
            match=match,
            before=state,
            seat=seat,
            move=move,
            transition=transition,
            actor=MoveRecord.Actor.STANDIN,
            rows=rows,
            # Only the last move schedules what comes next (the others' would be stale at once).
            schedule=last or played == _MAX_MOVES_PER_TURN,
        )
        state = after
        if last:
            break


def _accepts_level(function: Any) -> bool:
    try:
        return "level" in inspect.signature(function).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return False


#: Whether the engine's bots take a ``level`` (easy, normal, hard); without it they play normal.
_LEVELS = _accepts_level(choose_move) and _accepts_level(candidate_moves)


def _bot_choice(
    state: engine.GameState, seat: int, *, level: str = Seat.BotLevel.NORMAL
) -> tuple[engine.Move, engine.Transition]:
    # The bot decides from its own seat's view, like a player (RMI-NET-2).
    view = engine.view_for(state, seat)
    options: dict[str, Any] = {"level": level} if _LEVELS else {}
    move = choose_move(view, **options)
    try:
        return move, engine.apply_move(state, seat, move)
    except engine.IllegalMoveError:
        pass
    # Its candidates end with simple moves (a draw, every discard), so one of them is legal.
    for move in candidate_moves(view, **options):
        try:
            return move, engine.apply_move(state, seat, move)
        except engine.IllegalMoveError:
            continue
    raise NotBotTurnError("the bot found no legal move")  # pragma: no cover


def _record(
    *,
    match: Match,
    before: engine.GameState,
    seat: int,
    move: engine.Move,
    transition: engine.Transition,
    actor: str,
    command_id: str | None = None,
    rows: list[SeatRow] | None = None,
    schedule: bool = True,
) -> None:
    """Store an accepted move: state, version, log row, finished rounds, the deadline of the next
    move; publish and schedule after commit.

    ``rows``: the room's seats (``selectors.seat_rows``) when the caller has read them already.
    """
    if rows is None:
        rows = selectors.seat_rows(room_id=match.room_id)
    after = transition.state
    match.set_game_state(after)
    match.version += 1
    MoveRecord.objects.create(
        match=match,
        seq=match.version,
        round_number=before.round_no,
        seat=seat,
        move=engine.move_to_json(move),
        actor=actor,
        command_id=command_id,
    )
    now = timezone.now()
    for result in after.results[len(before.results) :]:
        _round_close(match=match, result=result, now=now)
    update_fields = ["state", "version", "turn_started", "resume_at", "turn_deadline"]
    match.resume_at = None
    if after.is_over:
        match.status = Match.Status.FINISHED
        match.winners = list(after.winners)
        match.finished = now
        update_fields += ["status", "winners", "finished"]
        Room.objects.filter(pk=match.room_id).update(status=Room.Status.FINISHED)
    elif after.round_no != before.round_no:
        Round.objects.create(
            match=match, number=after.round_no, commitment=_commitment(match.secret_bytes, after.round_no)
        )
        # The next round is dealt; everyone gets a moment with the scores before it starts.
        if settings.ROUND_PAUSE_SECONDS > 0:
            match.resume_at = now + timedelta(seconds=settings.ROUND_PAUSE_SECONDS)
    new_turn = after.turn != before.turn or after.round_no != before.round_no
    if new_turn:
        match.turn_started = match.resume_at or now
    match.turn_deadline = _deadline(match=match, state=after, rows=rows, now=now)
    match.save(update_fields=update_fields)
    if after.is_over:
        ratings.on_match_over(match=match, state=after)  # once; in this transaction
    _publish_after_commit(
        match=match, state=after, events=transition.events, rows=rows, schedule=schedule, new_turn=new_turn
    )


def _round_close(*, match: Match, result: Any, now: Any) -> None:
    """Reveal a finished round's seed and write one score line per seat."""
    seed = engine.deal_seed(match.secret_bytes, result.round_no)
    Round.objects.filter(match=match, number=result.round_no).update(revealed_seed=seed.hex(), finished=now)
    round_id = Round.objects.values_list("pk", flat=True).get(match=match, number=result.round_no)
    ScoreLine.objects.bulk_create(
        ScoreLine(
            round_id=round_id,
            seat=line.seat,
            points=line.points,
            hand=line.hand,
            table=line.table,
            bonus=line.bonus,
            atu_bonus=line.atu_bonus,
            multiplier=line.multiplier,
            notes=list(line.notes),
            chips=line.chips,
            total=result.totals[line.seat],
        )
        for line in result.lines
    )


def _row(rows: list[SeatRow], index: int) -> SeatRow:
    row = rows[index] if index < len(rows) else None
    if row is None or row.index != index:  # pragma: no cover - the seats are 0..n-1
        row = next(row for row in rows if row.index == index)
    return row


def _with_row(rows: list[SeatRow], changed: SeatRow) -> list[SeatRow]:
    return [changed if row.index == changed.index else row for row in rows]


def _deadline(
    *, match: Match, state: engine.GameState, rows: list[SeatRow], now: datetime
) -> datetime | None:
    """When the move awaited now is due (``Match.turn_deadline``); None once the match is over.

    A bot or an away seat plays after ``BOT_MOVE_DELAY`` (or when the pause between rounds
    ends); a person has the room's turn time from the start of the turn.
    """
    if state.is_over or match.status != Match.Status.PLAYING:
        return None
    if _row(rows, state.turn).played_by_bot:
        due = now + timedelta(seconds=settings.BOT_MOVE_DELAY)
        return max(due, match.resume_at) if match.resume_at is not None else due
    return (match.turn_started or now) + timedelta(seconds=match.room.turn_seconds)


def _publish_after_commit(
    *,
    match: Match,
    state: engine.GameState,
    events: Any,
    rows: list[SeatRow] | None = None,
    schedule: bool = True,
    new_turn: bool = True,
    except_channel: str | None = None,
) -> None:
    """After commit: every audience gets its frame, then what plays the next move is scheduled.

    That is the bot's move for a bot or an away seat, or the turn timer for a person (unless
    ``schedule`` is False: a change that left the awaited move as it was). A person's timer is
    queued once per turn (``new_turn``: the move began a turn; any other change that may have lost
    it schedules it again): it carries the turn's start, and a later move of the same turn does
    not make it stale (``turn_overdue``). One task per turn, not per move: under load the broker
    round trip of every move's timer was a tenth of the server's time.
    """
    if rows is None:
        rows = selectors.seat_rows(room_id=match.room_id)
    playing = not state.is_over and match.status == Match.Status.PLAYING
    bot_to_move = playing and _row(rows, state.turn).played_by_bot
    timer_at = match.turn_deadline if playing and not bot_to_move and new_turn else None
    # Plain values only (the state is immutable): never close over a model instance. One
    # callback per change, which publishes and then schedules.
    callback = partial(
        _after_commit,
        match_id=match.pk,
        state=state,
        version=match.version,
        events=tuple(events),
        clock=selectors.match_clock(match),
        seats=selectors.seats_field(rows),
        bot_to_move=schedule and bot_to_move,
        timer_at=timer_at if schedule else None,
        turn_started=match.turn_started,
        resume_at=match.resume_at,
        except_channel=except_channel,
    )
    _on_commit(callback)


def _on_commit(callback: partial[None]) -> None:
    """``transaction.on_commit(callback, robust=True)`` for a ``functools.partial``.

    A robust hook that raises is logged by Django under the callable's ``__qualname__``, which a
    partial lacks: the logging itself then raised AttributeError and the hook was not robust at
    all (the task that committed failed). The wrapper has the wrapped function's name.
    """

    def run() -> None:
        callback()

    run.__qualname__ = run.__name__ = getattr(callback.func, "__qualname__", repr(callback.func))
    transaction.on_commit(run, robust=True)


def _after_commit(
    *,
    match_id: int,
    state: engine.GameState,
    version: int,
    events: tuple[engine.Event, ...],
    clock: dict[str, Any],
    seats: list[dict[str, Any]],
    bot_to_move: bool,
    timer_at: datetime | None,
    turn_started: datetime | None,
    resume_at: datetime | None,
    except_channel: str | None = None,
) -> None:
    try:
        broadcast.publish(
            match_id=match_id,
            state=state,
            version=version,
            events=events,
            clock=clock,
            seats=seats,
            except_channel=except_channel,
        )
    finally:
        if bot_to_move:
            bot_move_schedule(match_id=match_id, version=version, resume_at=resume_at)
        elif timer_at is not None:
            turn_timer_schedule(
                match_id=match_id, version=version, deadline=timer_at, turn_started=turn_started
            )


# --- bots and timers on Celery: scheduling, firing and the sweeps ------------------------------


def bot_move_schedule(*, match_id: int, version: int, resume_at: datetime | None = None) -> None:
    """Queue the bot's move at ``version``: after ``BOT_MOVE_DELAY``, or when the pause ends.

    Call it only once the version is committed (a worker must find it). Scheduling twice is
    harmless: the second task finds the version moved on, and does nothing.
    """
    from games import tasks  # games.tasks imports this module

    delay = settings.BOT_MOVE_DELAY
    if resume_at is not None:
        delay = max(delay, (resume_at - timezone.now()).total_seconds())
    if delay > 0:
        tasks.bot_move.apply_async((match_id, version), countdown=delay)
    else:
        tasks.bot_move.apply_async((match_id, version))


def turn_timer_schedule(
    *, match_id: int, version: int, deadline: datetime, turn_started: datetime | None = None
) -> None:
    """Queue the turn timer of a person's turn at ``version``, to fire at ``deadline``.

    With ``turn_started`` (the turn's start, ``Match.turn_started``) the timer holds for the whole
    turn: moves of the same turn (a draw, a meld) do not make it stale. Without it, only for
    ``version``.
    """
    from games import tasks

    started = turn_started.isoformat() if turn_started is not None else None
    tasks.turn_timeout.apply_async((match_id, version, started), eta=deadline)


#: A timer may fire this much before its deadline (clocks of different processes) and still count.
_TIMER_TOLERANCE = timedelta(seconds=0.1)


def turn_overdue(*, match_id: int, expected_version: int, turn_started: datetime | None = None) -> str:
    """Play the move awaited at ``expected_version`` whose deadline has passed; what happened.

    The turn timer's task and the sweep both call it; under the match's row lock and the version
    check, so duplicates and late runs do nothing; with ``turn_started`` (a turn's timer), a later
    version of that same turn is still the awaited move. Results:

    * ``timeout``: a person's turn ran out: the normal bot played the rest of the turn as a
      stand-in, and the seat's count of timeouts in a row went up; ``away`` when that count
      reached ``AWAY_AFTER_TIMEOUTS`` and the seat was marked away (RMI-NET-3);
    * ``played``: the move of a bot or of an away seat's stand-in (a task that was lost);
    * ``stale`` (someone moved since), ``over``, ``gone`` (no such match), ``paused`` (the pause
      between rounds runs), ``early`` (the deadline is still ahead): nothing was done.
    """
    with transaction.atomic():
        try:
            match = _match_locked(match_id)
        except MatchNotFoundError:
            return "gone"
        same_turn = turn_started is not None and match.turn_started == turn_started
        if match.version != expected_version and not same_turn:
            return "stale"
        state = match.game_state()
        if match.status != Match.Status.PLAYING or state.is_over:
            return "over"
        now = timezone.now()
        if match.resume_at is not None and now < match.resume_at:
            return "paused"
        if match.turn_deadline is None or now < match.turn_deadline - _TIMER_TOLERANCE:
            return "early"
        rows = selectors.seat_rows(room_id=match.room_id)
        row = _row(rows, state.turn)
        if row.played_by_bot:
            _bot_play_one(match=match, state=state, row=row, rows=rows)
            return "played"
        timeouts = row.timeouts + 1
        away = timeouts >= settings.AWAY_AFTER_TIMEOUTS
        changed = row._replace(timeouts=timeouts, state=Seat.State.AWAY if away else row.state)
        if away:
            Seat.objects.filter(pk=row.pk).update(
                timeouts=timeouts, state=Seat.State.AWAY, offline_since=None
            )
        else:
            Seat.objects.filter(pk=row.pk).update(timeouts=timeouts)
        _standin_turn(match=match, state=state, rows=_with_row(rows, changed))
        logger.info("match %s: seat %s timed out (%d in a row)", match_id, row.index, timeouts)
        return "away" if away else "timeout"


def match_schedule(*, match_id: int, timers_only: bool = False) -> str:
    """Schedule again whatever the match waits for at its current version (its task was lost).

    The bot's move of a bot or away seat (unless ``timers_only``), or a person's turn timer (at
    the stored deadline; a match from before deadlines were stored gets one from its turn's
    start). Returns ``bot``, ``timer`` or ``none``.
    """
    match = Match.objects.select_related("room").filter(pk=match_id).order_by("pk").first()
    if match is None or match.status != Match.Status.PLAYING:
        return "none"
    state = match.game_state()
    if state.is_over:
        return "none"
    rows = selectors.seat_rows(room_id=match.room_id)
    if _row(rows, state.turn).played_by_bot:
        if timers_only:
            return "none"
        bot_move_schedule(match_id=match.pk, version=match.version, resume_at=match.resume_at)
        return "bot"
    deadline = match.turn_deadline
    if deadline is None:
        deadline = _deadline(match=match, state=state, rows=rows, now=timezone.now())
        Match.objects.filter(pk=match.pk, version=match.version, turn_deadline__isnull=True).update(
            turn_deadline=deadline
        )
    if deadline is None:  # pragma: no cover - a match being played has a deadline
        return "none"
    turn_timer_schedule(
        match_id=match.pk, version=match.version, deadline=deadline, turn_started=match.turn_started
    )
    return "timer"


def resume_pending() -> int:
    """Schedule the bot's move of every match waiting for one (the worker start-up sweep).

    A restarted server has lost the tasks it queued in memory, and a worker killed hard holds its
    tasks until the broker's visibility timeout: this sets every such table moving again, from
    the database. Away seats count as waiting for the bot. Returns how many matches were scheduled.
    """
    waiting = selectors.matches_waiting_for_a_bot()
    for match_id, version, resume_at in waiting:
        bot_move_schedule(match_id=match_id, version=version, resume_at=resume_at)
    if waiting:
        logger.info("resumed %d table(s) waiting for a bot", len(waiting))
    return len(waiting)


def timers_resume() -> int:
    """Schedule the turn timer of every match waiting for a person (the start-up sweep).

    Returns how many were scheduled. A timer still queued from before is a harmless twin: one
    fires, the other finds the version moved on.
    """
    scheduled = [
        match_schedule(match_id=match_id, timers_only=True) for match_id, _ in selectors.matches_playing()
    ]
    return scheduled.count("timer")


def presence_reset() -> int:
    """A server process started: no socket of before survives it, so no seat has one.

    Only for a single server process (the embedded mode): with several, another process's
    sockets are still open. Connected seats that had sockets become ``offline`` from now (a
    client that reconnects within the grace period is connected again). Returns how many seats
    changed.
    """
    now = timezone.now()
    with transaction.atomic():
        changed = Seat.objects.filter(
            state=Seat.State.CONNECTED, connections__gt=0, room__status=Room.Status.PLAYING
        ).update(state=Seat.State.OFFLINE, offline_since=now)
        Seat.objects.filter(connections__gt=0).update(connections=0)
        SeatSocket.objects.all().delete()
        AccountSocket.objects.all().delete()
        ServerProcess.objects.all().delete()
    return changed


#: The sweep fires a deadline only this late, so the task scheduled for it normally wins.
SWEEP_LATE_SECONDS = 2.0


def sweep_overdue(*, late: float = SWEEP_LATE_SECONDS) -> dict[str, int]:
    """Fire what is overdue and whose task was lost: turn deadlines and offline grace periods.

    Run every ``TURN_SWEEP_SECONDS`` by each worker (``remi_site.celery``). A worker killed hard
    holds the tasks it had fetched until the broker's visibility timeout (an hour); this plays
    them anyway. Several sweeps at once are safe: each move is applied under the match's row
    lock for the version read here, so a second sweep (or the late task) finds it stale.
    Returns how many of each it fired.
    """
    now = timezone.now()
    fired = {"turns": 0, "away": 0, "servers": 0}
    try:
        fired["servers"] = servers_gone(now=now)
    except Exception:
        logger.exception("sweep: closing the sockets of servers that are gone failed")
    for match_id, version in selectors.matches_overdue(before=now - timedelta(seconds=late)):
        try:
            result = turn_overdue(match_id=match_id, expected_version=version)
        except Exception:  # one broken match must not stop the sweep of the others
            logger.exception("sweep: match %s at version %s failed", match_id, version)
            continue
        if result in ("played", "timeout", "away"):
            fired["turns"] += 1
    grace = timedelta(seconds=settings.AWAY_GRACE_SECONDS)
    for seat_id, _since in selectors.seats_offline_since(before=now - grace):
        try:
            fired["away"] += seat_grace_end(seat_id=seat_id)
        except Exception:
            logger.exception("sweep: seat %s failed", seat_id)
    if any(fired.values()):
        logger.info(
            "sweep fired %(turns)d overdue turn(s) and %(away)d grace period(s);"
            " %(servers)d seat(s) offline with a server gone",
            fired,
        )
    return fired


# --- seats: away, back, sockets ------------------------------------------------------------------


def _seats_changed(*, match: Match, state: engine.GameState, before: SeatRow, rows: list[SeatRow]) -> None:
    """A seat's presence changed (``before`` is its old row; ``rows`` the new ones), under the
    match's row lock: publish the seats to everyone after commit, at the same version.

    When the seat is the one to move and the bot now plays for it (away) or no longer does
    (back), the awaited move changes: an away seat's deadline is the bot's, and its move is
    scheduled; a seat taken back gets a fresh turn clock and its timer. Any task scheduled
    before is refused then (``bot_move_play`` checks the seat; a timer, its deadline).
    """
    after = _row(rows, before.index)
    playing = match.status == Match.Status.PLAYING and not state.is_over
    if (
        playing
        and after.state == Seat.State.AWAY
        and before.state != Seat.State.AWAY
        and match.room.ranked
        and ratings.before_first_discard(match, state)
    ):
        # Leaving a ranked match before the first discard of its first round aborts it for
        # ratings: it ends here (standings as dealt, nobody's rating moves), and everyone gets
        # the final frame.
        logger.info("match %s: seat %s left before the first discard: aborted", match.pk, before.index)
        match_close(match_id=match.pk)
        return
    turn_changed = playing and state.turn == before.index and before.played_by_bot != after.played_by_bot
    if turn_changed:
        now = timezone.now()
        if not after.played_by_bot and (match.resume_at is None or match.resume_at <= now):
            match.turn_started = now  # taken back: a whole turn from now
        match.turn_deadline = _deadline(match=match, state=state, rows=rows, now=now)
        match.save(update_fields=["turn_started", "turn_deadline"])
    _publish_after_commit(match=match, state=state, events=(), rows=rows, schedule=turn_changed)


def _seat_of(rows: list[SeatRow], user: AbstractBaseUser | AnonymousUser) -> SeatRow:
    row = next((row for row in rows if user.is_authenticated and row.user_id == user.pk), None)
    if row is None:
        raise NotSeatedError()
    return row


def _seat_presence_set(*, match_id: int, user: AbstractBaseUser | AnonymousUser, state: str) -> bool:
    with transaction.atomic():
        match = _match_locked(match_id)
        rows = selectors.seat_rows(room_id=match.room_id)
        row = _seat_of(rows, user)
        timeouts = 0 if state == Seat.State.CONNECTED else row.timeouts
        if row.state == state and row.timeouts == timeouts:
            return False
        Seat.objects.filter(pk=row.pk).update(state=state, timeouts=timeouts, offline_since=None)
        rows = _with_row(rows, row._replace(state=state, timeouts=timeouts))
        _seats_changed(match=match, state=match.game_state(), before=row, rows=rows)
    return True


def seat_away(*, match_id: int, user: AbstractBaseUser | AnonymousUser) -> bool:
    """The player leaves the table (the ``away`` command): the bot plays their turns until they
    are back; their seat, score and position wait for them (RMI-NET-4). NotSeatedError for a
    spectator. Returns whether the seat changed (False: it was away already)."""
    return _seat_presence_set(match_id=match_id, user=user, state=Seat.State.AWAY)


def seat_back(*, match_id: int, user: AbstractBaseUser | AnonymousUser) -> bool:
    """Back at the table ("I'm back", the ``back`` command): the seat is the player's again, with
    its score and position; the stand-in stops and the count of timeouts starts again from 0. If
    it is their turn, they get a whole turn from now. NotSeatedError for a spectator. Returns whether the
    seat changed (False: it was connected already, with no timeouts counted)."""
    return _seat_presence_set(match_id=match_id, user=user, state=Seat.State.CONNECTED)


def _seat_id_for(*, match_id: int, user: AbstractBaseUser | AnonymousUser) -> tuple[int, int] | None:
    """(seat id, room id) of the user's seat at the match's table, or None (a spectator)."""
    if not user.is_authenticated:
        return None
    room_id = Match.objects.filter(pk=match_id).values_list("room_id", flat=True).first()
    if room_id is None:
        return None
    seat_id = Seat.objects.filter(room_id=room_id, user_id=user.pk).values_list("pk", flat=True).first()
    return None if seat_id is None else (seat_id, room_id)


def _presence_publish(*, match_id: int, except_channel: str | None = None) -> None:
    """After commit: everyone gets a frame with the seats as they are now (same version)."""
    match = Match.objects.select_related("room").filter(pk=match_id).order_by("pk").first()
    if match is not None:
        _publish_after_commit(
            match=match, state=match.game_state(), events=(), schedule=False, except_channel=except_channel
        )


def seat_connect(
    *,
    match_id: int,
    user: AbstractBaseUser | AnonymousUser,
    except_channel: str | None = None,
    channel: str | None = None,
) -> bool:
    """A socket of the seat's player opened: an offline seat is ``connected`` again.

    An away seat stays away until "back" or a move. Nothing for a spectator. Returns whether
    the seat's state changed. ``except_channel``: the new socket, which reads its own fresh
    frame after this and need not be sent the broadcast too. ``channel``: the socket's channel
    name, recorded with this server process's name (``SeatSocket``), so that the sweep can close
    it if this process dies without closing it (``servers_gone``).
    """
    found = _seat_id_for(match_id=match_id, user=user)
    if found is None:
        return False
    seat_id, _room_id = found
    with transaction.atomic():
        if channel is not None:
            now = timezone.now()
            if not ServerProcess.objects.filter(name=servers.server_name()).exists():
                ServerProcess.objects.get_or_create(
                    name=servers.server_name(), defaults={"started": now, "beat": now}
                )
            SeatSocket.objects.create(
                seat_id=seat_id, server=servers.server_name(), channel=channel, opened=now
            )
        Seat.objects.filter(pk=seat_id).update(connections=F("connections") + 1)
        changed = Seat.objects.filter(pk=seat_id, state=Seat.State.OFFLINE).update(
            state=Seat.State.CONNECTED, offline_since=None
        )
        if changed:
            _presence_publish(match_id=match_id, except_channel=except_channel)
    return bool(changed)


def seat_disconnect(
    *, match_id: int, user: AbstractBaseUser | AnonymousUser, channel: str | None = None
) -> bool:
    """A socket of the seat's player closed. When it was the last one, a connected seat goes
    ``offline``, and ``away`` after ``AWAY_GRACE_SECONDS`` unless a socket opens again. Returns
    whether the seat's state changed. ``channel``: the socket's channel name, as given to
    ``seat_connect``; if the sweep has closed it already (its server was taken for gone), it
    is not counted twice."""
    found = _seat_id_for(match_id=match_id, user=user)
    if found is None:
        return False
    seat_id, _room_id = found
    with transaction.atomic():
        if channel is not None:
            deleted, _ = SeatSocket.objects.filter(seat_id=seat_id, channel=channel).delete()
            if not deleted:
                return False
        return _sockets_closed(seat_id=seat_id, match_id=match_id, count=1)


def account_socket_open(*, user: AbstractBaseUser, channel: str) -> bool:
    """Record a game socket of ``user`` on this server process; False (nothing recorded) if the
    account already has ``WS_MAX_SOCKETS_PER_ACCOUNT`` open, on any server process.

    Under the user's row lock, so two sockets opening at once cannot both take the last place.
    """
    limit = settings.WS_MAX_SOCKETS_PER_ACCOUNT
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
        if AccountSocket.objects.filter(user_id=user.pk).count() >= limit:
            return False
        AccountSocket.objects.create(
            user_id=user.pk, server=servers.server_name(), channel=channel, opened=timezone.now()
        )
    return True


def account_socket_close(*, channel: str) -> None:
    """A socket recorded by ``account_socket_open`` closed."""
    AccountSocket.objects.filter(channel=channel).delete()


def _sockets_closed(*, seat_id: int, match_id: int | None, count: int) -> bool:
    """``count`` sockets of a seat closed (in a transaction): when none is left, a connected
    seat goes ``offline`` (everyone hears it) and its grace period starts. Whether it changed."""
    now = timezone.now()
    Seat.objects.filter(pk=seat_id).update(connections=Greatest(F("connections") - count, 0))
    changed = Seat.objects.filter(pk=seat_id, connections=0, state=Seat.State.CONNECTED).update(
        state=Seat.State.OFFLINE, offline_since=now
    )
    if changed:
        if match_id is not None:
            _presence_publish(match_id=match_id)
        _on_commit(partial(seat_grace_schedule, seat_id=seat_id))
    return bool(changed)


def servers_gone(*, now: datetime | None = None) -> int:
    """Close the sockets held by server processes that stopped beating (killed hard, lost).

    A process that has not written its heartbeat for ``SERVER_GONE_AFTER_SECONDS`` is gone:
    each seat loses the sockets it had there, and a seat left with none goes ``offline`` (then
    ``away`` after its grace period, unless the player reconnects to another server). The
    process's row goes too. Run by the sweep; several sweeps at once are safe (the rows are
    deleted under lock, and only what one deleted is counted). Returns how many seats went
    offline.
    """
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.SERVER_GONE_AFTER_SECONDS)
    offline = 0
    for name in ServerProcess.objects.filter(beat__lt=limit).values_list("name", flat=True):
        with transaction.atomic():
            gone = ServerProcess.objects.select_for_update(skip_locked=True).filter(name=name, beat__lt=limit)
            if not gone.exists():
                continue
            counts = Counter(
                SeatSocket.objects.select_for_update().filter(server=name).values_list("seat_id", flat=True)
            )
            SeatSocket.objects.filter(server=name).delete()
            AccountSocket.objects.filter(server=name).delete()
            gone.delete()
            for seat_id, count in sorted(counts.items()):
                offline += _sockets_closed(seat_id=seat_id, match_id=_latest_match_id(seat_id), count=count)
            logger.info("server %s is gone: %d socket(s) closed", name, sum(counts.values()))
    return offline


def _latest_match_id(seat_id: int) -> int | None:
    room_id = Seat.objects.filter(pk=seat_id).values_list("room_id", flat=True).first()
    if room_id is None:
        return None
    return Match.objects.filter(room_id=room_id).order_by("-number").values_list("pk", flat=True).first()


def seat_grace_schedule(*, seat_id: int) -> None:
    """Queue the end of an offline seat's grace period (``AWAY_GRACE_SECONDS`` from now)."""
    from games import tasks

    tasks.seat_grace_end.apply_async((seat_id,), countdown=settings.AWAY_GRACE_SECONDS)


def seat_grace_end(*, seat_id: int) -> bool:
    """Mark an offline seat away once its grace period is over; whether it was marked.

    Nothing if a socket opened again meanwhile, or if it went offline again later (that time's
    own task will come). The room's latest match is locked first, as for any seat change.
    """
    room_id = Seat.objects.filter(pk=seat_id).values_list("room_id", flat=True).first()
    if room_id is None:
        return False
    match_id = Match.objects.filter(room_id=room_id).order_by("-number").values_list("pk", flat=True).first()
    limit = timezone.now() - timedelta(seconds=settings.AWAY_GRACE_SECONDS) + _TIMER_TOLERANCE
    with transaction.atomic():
        match = _match_locked(match_id) if match_id is not None else None
        changed = Seat.objects.filter(pk=seat_id, state=Seat.State.OFFLINE, offline_since__lte=limit).update(
            state=Seat.State.AWAY, offline_since=None
        )
        if not changed:
            return False
        if match is not None:
            rows = selectors.seat_rows(room_id=room_id)
            after = next(row for row in rows if row.pk == seat_id)
            before = after._replace(state=Seat.State.OFFLINE)
            _seats_changed(match=match, state=match.game_state(), before=before, rows=rows)
    logger.info("seat %s is away: its grace period ended", seat_id)
    return True


# --- site pages: opening a room seated, starting from the room page ----------------------------


def room_open_seated(*, owner: AbstractBaseUser, **room: Any) -> Room:
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


# --- site pages: leaving a seat; admin actions -------------------------------------------------


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


def match_close(*, match_id: int) -> bool:
    """End a match being played now, as when its room is closed; False if it was over already.

    The engine's ``end_match`` makes the standings final (the round in progress is dropped); the
    match is ``ABANDONED`` and, in a ranked room, rated from those standings, or aborted for
    ratings when nobody had discarded yet in the first round (``games.ratings``). The version
    goes up (the state changed) without a move in the log.
    """
    with transaction.atomic():
        match = _match_locked(match_id)
        state = match.game_state()
        if match.status != Match.Status.PLAYING or state.is_over:
            return False
        transition = engine.end_match(state)
        after = transition.state
        match.set_game_state(after)
        match.version += 1
        match.status = Match.Status.ABANDONED
        match.winners = list(after.winners)
        match.finished = match.turn_started = timezone.now()
        match.resume_at = match.turn_deadline = None
        match.save(
            update_fields=[
                "state",
                "version",
                "status",
                "winners",
                "finished",
                "turn_started",
                "resume_at",
                "turn_deadline",
            ]
        )
        Room.objects.filter(pk=match.room_id, status=Room.Status.PLAYING).update(status=Room.Status.FINISHED)
        ratings.on_match_over(match=match, state=after)
        _publish_after_commit(match=match, state=after, events=transition.events)
    return True
