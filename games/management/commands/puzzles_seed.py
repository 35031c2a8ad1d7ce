"""The start-up seed of puzzles (``make run``): when the site has fewer than 500 puzzles, a batch
of the ``startup`` seed is created for the rest, and the Celery workers run it in the background,
a few bot games a step (``games.tasks.puzzles_resume``, queued when a worker starts, the
embedded one too); /puzzles/ shows its progress. Idempotent: a batch under way is left to run."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.learn.services import puzzles


class Command(BaseCommand):
    help = "Create the start-up batch of puzzles (the workers generate them in the background)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--target", type=int, default=puzzles.STARTUP_TARGET)

    def handle(self, *args: Any, **options: Any) -> None:
        batch = puzzles.puzzle_seed_startup(target=options["target"])
        if batch is None:
            self.stdout.write("puzzles: enough already")
        else:
            self.stdout.write(
                f"puzzles: batch {batch.pk} will generate {batch.target - batch.made} in the background"
            )
