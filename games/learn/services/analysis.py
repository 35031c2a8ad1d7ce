"""The analysis of a round (docs/learn.md, "Analysis of a round"): asked for on a finished round's
replay by one of the match's players, computed by a Celery task with the engine's evaluator
(``games.engine.analysis``), stored with the round (``RoundAnalysis``).

* Only a finished round: a round still being played is refused with ``round_in_play`` (its
  analysis would be computed from hidden cards the table has not shown).
* A deal of the day's try only once its day is over (``daily_analysis_sealed`` before): its seed
  is sealed until then, and the analysis must not preview the deal (docs/learn.md).
* Only a player of the match (a seat of its room), for their own seat: ``not_seated`` otherwise.
* Asking again is harmless: one analysis per round and seat; a failed one is queued again.
* Limits: an account asks for at most ``ANALYSES_PER_ACCOUNT_PER_HOUR`` new analyses an hour
  (``analysis_rate_limited``), and none is queued while ``ANALYSES_WAITING`` wait or run on the
  site (``analysis_queue_full``). The requests that may add one are taken one at a time (a lock
  for the transaction), so two asked at once cannot both count the same room under a limit.
* Seeded by the round's revealed seed and the seat, so the same round gives the same analysis.
"""

from __future__ import annotations

import time
from datetime import timedelta
from functools import partial
from math import ceil

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import connection, transaction
from django.utils import timezone

from games import engine
from games.engine.analysis import analyse_round
from games.learn import records
from games.learn.models import RoundAnalysis
from games.play import selectors
from games.play.models import Match, MoveRecord
from games.play.services.core import on_commit
from games.shared import enqueue
from games.shared.errors import (
    AnalysisQueueFullError,
    AnalysisRateLimitedError,
    DailyAnalysisSealedError,
    NotSeatedError,
    RoundInPlayError,
    RoundNotFoundError,
)


def analysis_request(
    *, match_id: int, number: int, user: AbstractBaseUser | AnonymousUser | None
) -> RoundAnalysis:
    """Queue the analysis of ``user``'s decisions in round ``number`` (or return the one there is)."""
    match = selectors.match_visible(match_id=match_id, user=user)
    if match is None:
        raise RoundNotFoundError()
    round_ = selectors.match_round(match_id=match.pk, number=number)
    if round_ is None:
        raise RoundNotFoundError()
    if match.room.daily_sealed:
        raise DailyAnalysisSealedError()
    if not round_.revealed_seed:
        raise RoundInPlayError(round=number)
    seat = selectors.seat_index_for(room_id=match.room_id, user=user)
    if seat is None:
        raise NotSeatedError("only the match's players may ask for an analysis of their round")
    with transaction.atomic():
        existing = RoundAnalysis.objects.select_for_update().filter(round=round_, seat=seat).first()
        if existing is not None and existing.status != RoundAnalysis.Status.FAILED:
            return existing  # asking again costs nothing
        _one_request_at_a_time()
        _check_analysis_limits(user)
        analysis, created = RoundAnalysis.objects.select_for_update().get_or_create(
            round=round_,
            seat=seat,
            defaults={"requested_by": user if user and user.is_authenticated else None},
        )
        if not created and analysis.status != RoundAnalysis.Status.FAILED:
            return analysis
        if not created:
            analysis.status = RoundAnalysis.Status.PENDING
            analysis.done = 0
            analysis.save(update_fields=["status", "done"])
        on_commit(partial(_queue, analysis.pk))
    return analysis


#: The key of the PostgreSQL lock that takes the requests adding an analysis one at a time.
_REQUEST_LOCK = 0x52454D49_414E41  # "REMI", "ANA"


def _one_request_at_a_time() -> None:
    """Hold, until the transaction ends, the lock that the requests which may add an analysis take
    before counting the limits (two at once, from two tabs or two accounts, would both count one
    short of a limit and both add). SQLite's transactions already take the write lock at their
    start (``transaction_mode`` IMMEDIATE in the settings)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_REQUEST_LOCK])


def _check_analysis_limits(user: AbstractBaseUser | AnonymousUser | None) -> None:
    """Refuse a new analysis past the account's hour (``ANALYSES_PER_ACCOUNT_PER_HOUR``: the
    analyses it asked for in the last hour, whatever became of them) or when the site has
    ``ANALYSES_WAITING`` analyses waiting or running (docs/learn.md, "Analysis of a round")."""
    waiting = RoundAnalysis.objects.filter(
        status__in=(RoundAnalysis.Status.PENDING, RoundAnalysis.Status.RUNNING)
    ).count()
    if waiting >= settings.ANALYSES_WAITING:
        raise AnalysisQueueFullError(waiting=waiting)
    if user is None or not user.is_authenticated:
        return
    limit = settings.ANALYSES_PER_ACCOUNT_PER_HOUR
    since = timezone.now() - timedelta(hours=1)
    asked = list(
        RoundAnalysis.objects.filter(requested_by_id=user.pk, created__gte=since)
        .order_by("-created")
        .values_list("created", flat=True)[:limit]
    )
    if len(asked) >= limit:
        # The oldest of the last ``limit`` stops counting an hour after it was asked for.
        wait = max(1, int((asked[-1] + timedelta(hours=1) - timezone.now()).total_seconds()))
        raise AnalysisRateLimitedError(
            f"you have asked for {limit} analyses in the last hour: try again in {ceil(wait / 60)} min",
            limit=limit,
            minutes=ceil(wait / 60),
            retry_after=wait,
        )


def analyses_unfinished() -> list[int]:
    """The analyses asked for and not finished: still queued, or running when their worker stopped
    (an embedded worker's queue ends with its process). A worker's start queues them again
    (``games.tasks.analyses_resume``); a duplicate run computes the same report."""
    unfinished = (RoundAnalysis.Status.PENDING, RoundAnalysis.Status.RUNNING)
    return list(
        RoundAnalysis.objects.filter(status__in=unfinished).order_by("pk").values_list("pk", flat=True)
    )


def _queue(analysis_id: int) -> None:
    enqueue.send(enqueue.ROUND_ANALYSE, analysis_id)


def analysis_run(*, analysis_id: int) -> str:
    """Compute a queued analysis. Returns ``done``, ``already`` (done before: a duplicate task)
    or ``gone``. The progress is written after each of the seat's moves."""
    analysis = RoundAnalysis.objects.select_related("round__match__room").filter(pk=analysis_id).first()
    if analysis is None:
        return "gone"
    if analysis.status == RoundAnalysis.Status.DONE:
        return "already"
    round_ = analysis.round
    match: Match = round_.match
    number = round_.number
    record = records.match_record(match)
    steps = engine.round_steps(record, number)
    moves = MoveRecord.objects.filter(match=match, round_number=number).order_by("seq")
    # Step i is the round's i-th move; a stand-in's move for the seat is not the player's decision.
    skip = {
        index
        for index, actor in enumerate(moves.values_list("actor", flat=True), start=1)
        if actor != MoveRecord.Actor.PLAYER
    }
    RoundAnalysis.objects.filter(pk=analysis.pk).update(status=RoundAnalysis.Status.RUNNING)

    def progress(done: int, total: int) -> None:
        RoundAnalysis.objects.filter(pk=analysis.pk).update(done=done, total=total)

    started = time.process_time()
    try:
        report = analyse_round(
            [(step.state, step.seat, step.move) for step in steps],
            analysis.seat,
            seed=f"{round_.revealed_seed}/{analysis.seat}",
            skip=skip,
            progress=progress,
        )
    except Exception:
        RoundAnalysis.objects.filter(pk=analysis.pk).update(status=RoundAnalysis.Status.FAILED)
        raise
    RoundAnalysis.objects.filter(pk=analysis.pk).update(
        status=RoundAnalysis.Status.DONE,
        report=report.to_json(),
        cpu_seconds=round(time.process_time() - started, 2),
        finished=timezone.now(),
    )
    return "done"
