"""The Celery tasks the services queue, named here: the services never import ``games.tasks``.

The tasks call the services (``games/tasks.py``) and the services queue tasks (a bot's move, a
turn timer, the end of a seat's grace period, a round's analysis): were the services to import
the tasks' module, the two would import each other. So they queue through ``send`` here, by the
task's name, and ``games.tasks`` stays above them (docs/architecture.md, "The layers").

``send`` looks the task up in the Celery application's registry by that name: the very task
object ``games.tasks`` registered (``@shared_task``), whose ``apply_async`` runs as it did when the
services called it directly (its options; the routes by name, ``CELERY_TASK_ROUTES``; the
embedded worker's ``memory://`` broker; eager mode where a test sets it). Every process that
queues has it registered: Django's start imports ``games.tasks`` (``games.apps.GamesConfig``),
and so does a worker's. A name that is no task's raises ``celery.exceptions.NotRegistered``.
"""

from __future__ import annotations

from typing import Any

from celery import current_app

#: ``games.tasks.bot_move(match_id, version)``: the bot's move at a version.
BOT_MOVE = "games.tasks.bot_move"
#: ``games.tasks.turn_timeout(match_id, version, turn_started)``: a person's turn timer.
TURN_TIMEOUT = "games.tasks.turn_timeout"
#: ``games.tasks.seat_grace_end(seat_id)``: an offline seat's grace period is over.
SEAT_GRACE_END = "games.tasks.seat_grace_end"
#: ``games.tasks.round_analyse(analysis_id)``: a round's analysis, on the background queue.
ROUND_ANALYSE = "games.tasks.round_analyse"

#: Every task the services queue.
NAMES = (BOT_MOVE, TURN_TIMEOUT, SEAT_GRACE_END, ROUND_ANALYSE)


def send(name: str, *args: Any, **options: Any) -> None:
    """Queue the task ``name`` with ``args`` (``apply_async``'s ``options``: ``countdown``,
    ``eta``). Call it only once what the task reads is committed (``services.core.on_commit``)."""
    current_app.tasks[name].apply_async(args, **options)


__all__ = ["BOT_MOVE", "NAMES", "ROUND_ANALYSE", "SEAT_GRACE_END", "TURN_TIMEOUT", "send"]
