"""Turn timers and the sweeps: what fires when a deadline passes, and what resumes tables.

``turn_overdue`` plays the move awaited at a version whose deadline has passed (the stand-in's
turn, counting the timeout; ``AWAY_AFTER_TIMEOUTS`` in a row mark the seat away).
``match_schedule`` queues again what a match waits for; ``resume_pending`` and ``timers_resume``
are the start-up sweep of a worker, ``sweep_overdue`` the periodic one (every
``TURN_SWEEP_SECONDS``): deadlines, grace periods and gone servers whose task was lost.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.play import selectors
from games.play.models import Match, Seat
from games.play.services.core import (
    TIMER_TOLERANCE,
    bot_move_schedule,
    due_at,
    match_locked,
    on_commit,
    row_of,
    timer_covered,
    turn_timer_schedule,
    with_row,
)
from games.play.services.moves import bot_play_one, standin_turn
from games.play.services.presence import seat_grace_end, servers_gone
from games.shared.errors import (
    MatchNotFoundError,
)

logger = logging.getLogger(__name__)

#: What else each sweep does, registered by the domains above play when Django starts
#: (``games/apps.py``: the deal of the day reveals the days that are over): what it is, for the
#: log, and the job. Play does not import them (docs/architecture.md, "The house by domain").
_sweep_jobs: dict[str, Callable[[], object]] = {}


def sweep_also(what: str, job: Callable[[], object]) -> None:
    """Have every sweep run ``job`` after the turns (once per ``what``; a failure is logged)."""
    _sweep_jobs[what] = job


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
      between rounds runs), ``early`` (the deadline is still ahead): nothing was played. A stale
      timer queues the timer of the person's turn being played when no other timer covers it
      (``timer_pass_on``): turns that begin while a timer is queued queue none of their own.
    """
    with transaction.atomic():
        try:
            match = match_locked(match_id)
        except MatchNotFoundError:
            return "gone"
        same_turn = turn_started is not None and match.turn_started == turn_started
        if match.version != expected_version and not same_turn:
            timer_pass_on(match)
            return "stale"
        state = match.game_state()
        if match.status != Match.Status.PLAYING or state.is_over:
            return "over"
        now = timezone.now()
        if match.resume_at is not None and now < match.resume_at:
            return "paused"
        if match.turn_deadline is None or now < match.turn_deadline - TIMER_TOLERANCE:
            return "early"
        rows = selectors.seat_rows(room_id=match.room_id)
        row = row_of(rows, state.turn)
        if row.played_by_bot:
            bot_play_one(match=match, state=state, row=row, rows=rows)
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
        standin_turn(match=match, state=state, rows=with_row(rows, changed))
        logger.info("match %s: seat %s timed out (%d in a row)", match_id, row.index, timeouts)
        return "away" if away else "timeout"


def timer_pass_on(match: Match) -> None:
    """A timer that found a later turn being played (under the match's row lock): queue that
    turn's timer, if it is a person's and no timer queued since fires before its deadline.

    A turn that begins while the timer queued last still has to fire before the turn's deadline
    queues none of its own (``core.timer_covered``, ``Match.timer_at``): the earlier timer
    carries it on from here. A turn whose deadline is already due is left to the sweep.
    """
    deadline, now = match.turn_deadline, timezone.now()
    if match.status != Match.Status.PLAYING or deadline is None or deadline <= now + TIMER_TOLERANCE:
        return
    if timer_covered(match, deadline, now):
        return
    state = match.game_state()
    if state.is_over or row_of(selectors.seat_rows(room_id=match.room_id), state.turn).played_by_bot:
        return
    Match.objects.filter(pk=match.pk).update(timer_at=deadline)
    on_commit(
        partial(
            turn_timer_schedule,
            match_id=match.pk,
            version=match.version,
            deadline=deadline,
            turn_started=match.turn_started,
        )
    )


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
    if row_of(rows, state.turn).played_by_bot:
        if timers_only:
            return "none"
        bot_move_schedule(match_id=match.pk, version=match.version, resume_at=match.resume_at)
        return "bot"
    deadline = match.turn_deadline
    if deadline is None:
        deadline = due_at(match=match, state=state, rows=rows, now=timezone.now())
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
    for what, job in list(_sweep_jobs.items()):
        try:
            job()
        except Exception:
            logger.exception("sweep: %s failed", what)
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
