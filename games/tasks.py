"""Celery tasks. Thin: each one calls a service and turns the expected refusals into no-ops.

Every task is idempotent by version: a bot move names the match version it was scheduled for,
and ``services.bot_move_play`` refuses it once anyone has moved since. Duplicates (two sweeps,
a redelivery after a worker died, a late ETA) therefore do nothing. Tasks are acknowledged late
(``acks_late``, ``reject_on_worker_lost``): a task whose worker dies is run again.
"""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from games import services
from games.errors import MatchNotFoundError, NotBotTurnError, RoundPauseError, StaleVersionError

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


@shared_task(**_TASK_OPTIONS)
def resume_tables() -> int:
    """The start-up sweep: schedule the move of every table waiting for a bot. Returns how many."""
    return services.resume_pending()
