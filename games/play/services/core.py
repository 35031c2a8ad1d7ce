"""The live-match core every service of this package writes through.

A move (or any change of a match being played) locks its ``Match`` row (``match_locked``:
``select_for_update(no_key=True)``), checks the version the client saw (``check_version``) and the
pause between rounds (``check_not_paused``), lets the engine decide, then ``record_move`` writes the
new state, the move log and, at the end of a round, the scores and the revealed seed
(``round_close``). ``due_at`` says when the move awaited is due. ``publish_after_commit`` builds
the committed change as one value (``games.play.commits.Committed``) and, after commit (``on_commit``),
``after_commit`` sends every audience its frame of it and schedules what plays next: the bot's
move for a bot or an away seat (``bot_move_schedule``), or the turn timer of a person
(``turn_timer_schedule``). ``seats_changed`` is the one place a seat's presence change lands
(publish, and a taken-back turn's clock). ``match_close`` ends a match being played.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any, Literal

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from games import engine
from games.play import broadcast, selectors, statements
from games.play.commits import Committed
from games.play.models import Match, Room, Round, ScoreLine, Seat
from games.play.selectors import SeatRow
from games.shared import enqueue
from games.shared.errors import (
    MatchNotFoundError,
    NotSeatedError,
    RoundPauseError,
    StaleVersionError,
)

logger = logging.getLogger(__name__)


#: A timer may fire this much before its deadline (clocks of different processes) and still count.
TIMER_TOLERANCE = timedelta(seconds=0.1)


def commitment(secret: bytes, round_no: int) -> str:
    return engine.commitment(engine.deal_seed(secret, round_no))


#: What happens when a match ends, and whether a seat that leaves aborts it, as the domains above
#: play decide (registered by ``games/apps.py`` when Django starts: ranked settles the ratings,
#: and a ranked match left before its first discard is aborted). Play calls them under the
#: match's row lock, in the move's transaction, and does not import them (docs/architecture.md,
#: "The house by domain").
_match_over_hooks: list[Callable[..., object]] = []
_leave_ends: list[Callable[[Match, engine.GameState], bool]] = []


def on_match_over(hook: Callable[..., object]) -> None:
    """Call ``hook(match=..., state=...)`` once when a match ends (in the ending transaction)."""
    if hook not in _match_over_hooks:
        _match_over_hooks.append(hook)


def on_leave_ends_match(predicate: Callable[[Match, engine.GameState], bool]) -> None:
    """A seat going away ends the match (standings as dealt) when ``predicate(match, state)``."""
    if predicate not in _leave_ends:
        _leave_ends.append(predicate)


def _match_over(match: Match, state: engine.GameState) -> None:
    for hook in _match_over_hooks:
        hook(match=match, state=state)


def match_locked(match_id: int) -> Match:
    # The room comes in the same query (the frames' clock reads its turn time); only the
    # match row is locked. One prepared statement (games/play/statements.py): the ORM's
    # ``select_for_update(no_key=True, of=("self",)).select_related("room")`` without compiling it.
    match = statements.locked_match(match_id)
    if match is None:
        raise MatchNotFoundError()
    return match


def check_version(match: Match, expected_version: int) -> None:
    if match.version != expected_version:
        raise StaleVersionError(current=match.version)


def check_not_paused(match: Match) -> None:
    """Refuse a move while the pause between two rounds runs."""
    if match.resume_at is not None and timezone.now() < match.resume_at:
        raise RoundPauseError(resume_at=match.resume_at)


def record_move(
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
    statements.insert_move(
        match_id=match.pk,
        seq=match.version,
        round_number=before.round_no,
        seat=seat,
        move=engine.move_to_json(move),
        actor=actor,
        command_id=command_id,
        events=[{"kind": e.kind, "to": e.to, "data": e.data} for e in transition.events],
    )
    now = timezone.now()
    for result in after.results[len(before.results) :]:
        round_close(match=match, result=result, now=now)
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
            match=match, number=after.round_no, commitment=commitment(match.secret_bytes, after.round_no)
        )
        # The next round is dealt; everyone gets a moment with the scores before it starts.
        if settings.ROUND_PAUSE_SECONDS > 0:
            match.resume_at = now + timedelta(seconds=settings.ROUND_PAUSE_SECONDS)
    new_turn = after.turn != before.turn or after.round_no != before.round_no
    if new_turn:
        match.turn_started = match.resume_at or now
    match.turn_deadline = due_at(match=match, state=after, rows=rows, now=now)
    timer = _turn_timer(match=match, state=after, rows=rows, now=now) if schedule and new_turn else None
    if timer is not None:
        match.timer_at = timer
        update_fields.append("timer_at")
    statements.update_match(match, update_fields)
    if after.is_over:
        _match_over(match, after)  # once; in this transaction
    publish_after_commit(
        match=match,
        state=after,
        events=transition.events,
        rows=rows,
        schedule=schedule,
        new_turn=new_turn,
        actor=actor,
        timer=timer,
    )


def timer_covered(match: Match, deadline: datetime, now: datetime) -> bool:
    """Whether the turn timer queued last for the match (``Match.timer_at``) fires before
    ``deadline`` (and not within ``TIMER_TOLERANCE`` of ``now``): that timer, when it fires and
    finds a later turn being played, queues that turn's timer (``services.turn_overdue``), so the
    turn needs none of its own."""
    queued = match.timer_at
    return queued is not None and now < queued - TIMER_TOLERANCE and queued <= deadline


def _turn_timer(
    *, match: Match, state: engine.GameState, rows: list[SeatRow], now: datetime
) -> datetime | None:
    """The deadline of the turn timer a change that began a turn queues, or None: a person's
    turn gets one, unless the timer queued last fires before its deadline (``timer_covered``)."""
    deadline = match.turn_deadline
    if deadline is None or state.is_over or match.status != Match.Status.PLAYING:
        return None
    if row_of(rows, state.turn).played_by_bot or timer_covered(match, deadline, now):
        return None
    return deadline


def round_close(*, match: Match, result: Any, now: Any) -> None:
    """Reveal a finished round's seed and write one score line per seat.

    A deal of the day's seed stays sealed until its day is over (``daily_services.daily_reveal``).
    """
    seed = engine.deal_seed(match.secret_bytes, result.round_no)
    revealed = None if match.room.daily_day is not None else seed.hex()
    Round.objects.filter(match=match, number=result.round_no).update(revealed_seed=revealed, finished=now)
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


def row_of(rows: list[SeatRow], index: int) -> SeatRow:
    row = rows[index] if index < len(rows) else None
    if row is None or row.index != index:  # pragma: no cover - the seats are 0..n-1
        row = next(row for row in rows if row.index == index)
    return row


def with_row(rows: list[SeatRow], changed: SeatRow) -> list[SeatRow]:
    return [changed if row.index == changed.index else row for row in rows]


def due_at(*, match: Match, state: engine.GameState, rows: list[SeatRow], now: datetime) -> datetime | None:
    """When the move awaited now is due (``Match.turn_deadline``); None once the match is over.

    A bot or an away seat plays after ``BOT_MOVE_DELAY`` (or when the pause between rounds
    ends); a person has the room's turn time from the start of the turn.
    """
    if state.is_over or match.status != Match.Status.PLAYING:
        return None
    if row_of(rows, state.turn).played_by_bot:
        due = now + timedelta(seconds=settings.BOT_MOVE_DELAY)
        return max(due, match.resume_at) if match.resume_at is not None else due
    return (match.turn_started or now) + timedelta(seconds=match.room.turn_seconds)


def publish_after_commit(
    *,
    match: Match,
    state: engine.GameState,
    events: Any,
    rows: list[SeatRow] | None = None,
    schedule: bool = True,
    new_turn: bool = True,
    except_channel: str | None = None,
    actor: str | None = None,
    timer: datetime | Literal["turn"] | None = "turn",
) -> None:
    """After commit: every audience gets its frame, then what plays the next move is scheduled.

    ``actor``: who made the move the frames follow (``MoveRecord.Actor``), sent as the frame's
    ``actor`` so that a table can say "bot for Ala" (docs/protocol.md); None for other changes.

    That is the bot's move for a bot or an away seat, or the turn timer for a person (unless
    ``schedule`` is False: a change that left the awaited move as it was). A person's timer is
    queued once per turn (``new_turn``: the move began a turn; any other change that may have lost
    it schedules it again): it carries the turn's start, and a later move of the same turn does
    not make it stale (``turn_overdue``). One task per turn, not per move: under load the broker
    round trip of every move's timer was a tenth of the server's time. A move goes further
    (``record_move`` passes ``timer``: the deadline to queue a timer for, or None): a turn that
    begins while the timer queued last still has to fire before the turn's deadline queues none
    (``timer_covered``); that timer, stale when it fires, queues the timer of the turn then being
    played (``services.turn_overdue``). So a table has about one timer task per turn time, not
    one per turn: the worker received and held every one of them, and the server sent each.
    """
    if rows is None:
        rows = selectors.seat_rows(room_id=match.room_id)
    playing = not state.is_over and match.status == Match.Status.PLAYING
    bot_to_move = playing and row_of(rows, state.turn).played_by_bot
    if timer == "turn":
        timer_at = match.turn_deadline if playing and not bot_to_move and new_turn else None
    else:
        timer_at = timer if playing and not bot_to_move else None
    # One value, built here from the row just written (plain values: never a model instance),
    # for the one callback after commit, which publishes and then schedules.
    committed = Committed(
        match_id=match.pk,
        state=state,
        version=match.version,
        events=tuple(events),
        clock=selectors.match_clock(match),
        seats=selectors.seats_field(rows),
        actor=actor,
        sealed=match.room.daily_day is not None,
        except_channel=except_channel,
        bot_to_move=schedule and bot_to_move,
        timer_at=timer_at if schedule else None,
        turn_started=match.turn_started,
        resume_at=match.resume_at,
    )
    on_commit(partial(after_commit, committed))


def on_commit(callback: partial[None]) -> None:
    """``transaction.on_commit(callback, robust=True)`` for a ``functools.partial``.

    A robust hook that raises is logged by Django under the callable's ``__qualname__``, which a
    partial lacks: the logging itself then raised AttributeError and the hook was not robust at
    all (the task that committed failed). The wrapper has the wrapped function's name.
    """

    def run() -> None:
        callback()

    run.__qualname__ = run.__name__ = getattr(callback.func, "__qualname__", repr(callback.func))
    transaction.on_commit(run, robust=True)


def after_commit(committed: Committed) -> None:
    """Every audience gets its frame of the committed change, then what plays next is queued: the
    bot's move, or the person's turn timer (``Committed``: ``bot_to_move``, ``timer_at``)."""
    try:
        broadcast.publish(committed)
    finally:
        if committed.bot_to_move:
            bot_move_schedule(
                match_id=committed.match_id, version=committed.version, resume_at=committed.resume_at
            )
        elif committed.timer_at is not None:
            turn_timer_schedule(
                match_id=committed.match_id,
                version=committed.version,
                deadline=committed.timer_at,
                turn_started=committed.turn_started,
            )


def bot_move_schedule(*, match_id: int, version: int, resume_at: datetime | None = None) -> None:
    """Queue the bot's move at ``version``: after ``BOT_MOVE_DELAY``, or when the pause ends.

    Call it only once the version is committed (a worker must find it). Scheduling twice is
    harmless: the second task finds the version moved on, and does nothing.
    """
    delay = settings.BOT_MOVE_DELAY
    if resume_at is not None:
        delay = max(delay, (resume_at - timezone.now()).total_seconds())
    if delay > 0:
        enqueue.send(enqueue.BOT_MOVE, match_id, version, countdown=delay)
    else:
        enqueue.send(enqueue.BOT_MOVE, match_id, version)


def turn_timer_schedule(
    *, match_id: int, version: int, deadline: datetime, turn_started: datetime | None = None
) -> None:
    """Queue the turn timer of a person's turn at ``version``, to fire at ``deadline``.

    With ``turn_started`` (the turn's start, ``Match.turn_started``) the timer holds for the whole
    turn: moves of the same turn (a draw, a meld) do not make it stale. Without it, only for
    ``version``.
    """
    started = turn_started.isoformat() if turn_started is not None else None
    enqueue.send(enqueue.TURN_TIMEOUT, match_id, version, started, eta=deadline)


def seats_changed(*, match: Match, state: engine.GameState, before: SeatRow, rows: list[SeatRow]) -> None:
    """A seat's presence changed (``before`` is its old row; ``rows`` the new ones), under the
    match's row lock: publish the seats to everyone after commit, at the same version.

    When the seat is the one to move and the bot now plays for it (away) or no longer does
    (back), the awaited move changes: an away seat's deadline is the bot's, and its move is
    scheduled; a seat taken back gets a fresh turn clock and its timer. Any task scheduled
    before is refused then (``bot_move_play`` checks the seat; a timer, its deadline).
    """
    after = row_of(rows, before.index)
    playing = match.status == Match.Status.PLAYING and not state.is_over
    if (
        playing
        and after.state == Seat.State.AWAY
        and before.state != Seat.State.AWAY
        and any(ends(match, state) for ends in _leave_ends)
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
        match.turn_deadline = due_at(match=match, state=state, rows=rows, now=now)
        match.save(update_fields=["turn_started", "turn_deadline"])
    publish_after_commit(match=match, state=state, events=(), rows=rows, schedule=turn_changed)


def seat_of(rows: list[SeatRow], user: AbstractBaseUser | AnonymousUser) -> SeatRow:
    row = next((row for row in rows if user.is_authenticated and row.user_id == user.pk), None)
    if row is None:
        raise NotSeatedError()
    return row


def match_close(*, match_id: int) -> bool:
    """End a match being played now, as when its room is closed; False if it was over already.

    The engine's ``end_match`` makes the standings final (the round in progress is dropped); the
    match is ``ABANDONED`` and, in a ranked room, rated from those standings, or aborted for
    ratings when nobody had discarded yet in the first round (``games.ranked.ratings``). The version
    goes up (the state changed) without a move in the log.
    """
    with transaction.atomic():
        match = match_locked(match_id)
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
        _match_over(match, after)
        publish_after_commit(match=match, state=after, events=transition.events)
    return True
