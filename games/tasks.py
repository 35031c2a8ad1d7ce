"""Celery tasks. Thin: each one calls a service and turns the expected refusals into no-ops.

Every task is idempotent by version: a bot move or a turn timer names the match version it was
scheduled for, and the service refuses it once anyone has moved since. Duplicates (two sweeps,
a redelivery after a worker died, a late ETA) therefore do nothing. Tasks are acknowledged late
(``acks_late``, ``reject_on_worker_lost``): a task whose worker dies is run again.
"""

from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.db import InterfaceError, OperationalError

from games.learn.services import analysis as analysis_services
from games.play import offload, services
from games.shared.errors import MatchNotFoundError, NotBotTurnError, RoundPauseError, StaleVersionError

_TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(
    **_TASK_OPTIONS,
    # A busy or restarted database: try again (the version check keeps a late retry harmless).
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=0.5,
    max_retries=5,
)
def bot_move(match_id: int, version: int) -> str:
    """Play the bot's move at ``version`` of the match. Returns what happened (for logs and tests):

    ``played``; ``stale`` (someone moved since); ``not_bot_turn`` (a person's turn, or the match
    is over); ``gone`` (no such match); ``paused`` (the pause between rounds is not over: the
    move is scheduled again for its end, at the same version).
    """
    try:
        services.bot_move_play(match_id=match_id, expected_version=version)
    except StaleVersionError:
        return "stale"
    except NotBotTurnError:
        return "not_bot_turn"
    except MatchNotFoundError:
        return "gone"
    except RoundPauseError as pause:
        services.bot_move_schedule(match_id=match_id, version=version, resume_at=pause.resume_at)
        return "paused"
    return "played"


@shared_task(
    **_TASK_OPTIONS, autoretry_for=(OperationalError, InterfaceError), retry_backoff=0.5, max_retries=5
)
def turn_timeout(match_id: int, version: int, turn_started: str | None = None) -> str:
    """The turn timer of a person's turn at ``version``, or of the whole turn that began at
    ``turn_started`` (ISO 8601; ``services.turn_overdue``). Returns what happened:
    ``timeout``/``away`` (the stand-in played the rest of the turn), ``played``, ``stale``,
    ``over``, ``gone``; ``early`` or ``paused`` schedule it again for its deadline."""
    started = datetime.fromisoformat(turn_started) if turn_started else None
    result = services.turn_overdue(match_id=match_id, expected_version=version, turn_started=started)
    if result in ("early", "paused"):
        services.match_schedule(match_id=match_id, timers_only=True)
    return result


@shared_task(
    **_TASK_OPTIONS, autoretry_for=(OperationalError, InterfaceError), retry_backoff=0.5, max_retries=5
)
def seat_grace_end(seat_id: int) -> bool:
    """An offline seat's grace period is over: mark it away (unless its player came back)."""
    return services.seat_grace_end(seat_id=seat_id)


@shared_task(**_TASK_OPTIONS)
def sweep_overdue() -> dict[str, int]:
    """Fire the turn deadlines and grace periods whose task was lost (``services.sweep_overdue``).

    Every worker runs the sweep itself every ``TURN_SWEEP_SECONDS`` (``remi_site.celery``); this
    task is the same sweep for anyone who wants it queued (e.g. from ``celery beat``).
    """
    return services.sweep_overdue()


@shared_task(**_TASK_OPTIONS)
def resume_tables() -> int:
    """The start-up sweep: schedule the move of every table waiting for a bot and the timer of
    every table waiting for a person. Returns how many tables waited for a bot.
    """
    services.timers_resume()
    return services.resume_pending()


@shared_task(
    **_TASK_OPTIONS, autoretry_for=(OperationalError, InterfaceError), retry_backoff=0.5, max_retries=5
)
def round_analyse(analysis_id: int) -> str:
    """Compute the analysis of a finished round asked for on its replay (``analysis_services.analysis_run``):
    ``done``, ``already`` (a duplicate) or ``gone``. Under the embedded worker, in a child
    process of the server (``games.play.offload.background``)."""
    return offload.background(analysis_services.analysis_run, analysis_id=analysis_id)


@shared_task(**_TASK_OPTIONS)
def analyses_resume() -> int:
    """Queue again every analysis a stopped worker left unfinished (``analysis_services.analyses_unfinished``;
    a worker's start). Returns how many."""
    unfinished = analysis_services.analyses_unfinished()
    for analysis_id in unfinished:
        round_analyse.apply_async((analysis_id,))
    return len(unfinished)


@shared_task(
    **_TASK_OPTIONS, autoretry_for=(OperationalError, InterfaceError), retry_backoff=0.5, max_retries=5
)
def puzzles_step(batch_id: int, games: int) -> bool:
    """One step of a puzzle batch (``services.puzzles.puzzle_batch_step``: a few bot games, their
    puzzles stored), then the next step is queued; a stale step (another ran) does nothing."""
    from games.learn.services import puzzles

    more = offload.background(puzzles.puzzle_batch_step, batch_id=batch_id, games=games)
    if more:
        puzzles_step.apply_async((batch_id, games + puzzles.GAMES_PER_STEP))
    return more


@shared_task(**_TASK_OPTIONS)
def puzzles_resume() -> int:
    """Queue the next step of every unfinished puzzle batch (a worker's start: the start-up seed's
    batch, ``manage.py puzzles_seed``, and any batch a stopped worker left). Returns how many."""
    from games.learn.services import puzzles

    batches = puzzles.puzzle_batches_unfinished()
    for batch_id, games in batches:
        puzzles_step.apply_async((batch_id, games))
    return len(batches)


@shared_task(**_TASK_OPTIONS)
def puzzles_from_matches(limit: int = 50) -> int:
    """Store the puzzles of the last ``limit`` finished public matches (``manage.py
    puzzles_generate --from-matches``). Returns how many were new."""
    from games.learn.services import puzzles

    return puzzles.puzzles_from_matches(limit=limit)
