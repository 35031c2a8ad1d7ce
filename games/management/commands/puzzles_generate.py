"""Generate puzzles from bot games (docs/learn.md, "Puzzles").

``manage.py puzzles_generate --seed S --count N`` plays bot games of seed ``S`` and stores up to
``N`` new puzzles, here and now, printing its progress; with ``--queue`` it only creates the batch
and queues its first step on Celery (``games.tasks.puzzles_step``), for the workers to run.
``--from-matches N`` reads the last ``N`` finished matches of public rooms instead (replayed from
their records; ``--queue``: on Celery, ``games.tasks.puzzles_from_matches``). The same
seed gives the same games and so the same positions (each stored once).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.learn.services import puzzles


class Command(BaseCommand):
    help = "Generate puzzles from bot games: --seed, --count; --queue to run it on Celery."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", default="cli", help="the bot games' seed (same seed, same puzzles)")
        parser.add_argument("--count", type=int, default=100, help="how many new puzzles to store")
        parser.add_argument("--queue", action="store_true", help="queue the batch on Celery instead")
        parser.add_argument(
            "--from-matches",
            type=int,
            metavar="N",
            help="read the last N finished public matches of the site instead of bot games",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["from_matches"] is not None:
            if options["queue"]:
                from games.tasks import puzzles_from_matches

                puzzles_from_matches.apply_async((options["from_matches"],))
                self.stdout.write("queued: puzzles from finished matches")
            else:
                stored = puzzles.puzzles_from_matches(limit=options["from_matches"])
                self.stdout.write(self.style.SUCCESS(f"stored {stored} puzzles from finished matches"))
            return
        batch = puzzles.puzzle_batch_create(seed=options["seed"], target=options["count"])
        if options["queue"]:
            from games.tasks import puzzles_step

            puzzles_step.apply_async((batch.pk, 0))
            self.stdout.write(f"queued puzzle batch {batch.pk} (seed {batch.seed!r}, {batch.target} puzzles)")
            return

        def progress(step: Any) -> None:
            self.stdout.write(f"{step.made}/{step.target} puzzles from {step.games} games")

        done = puzzles.puzzle_batch_run(batch_id=batch.pk, on_step=progress)
        self.stdout.write(self.style.SUCCESS(f"stored {done.made} puzzles from {done.games} bot games"))
