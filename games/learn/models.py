"""What learning keeps: a round's analysis, puzzles and their ratings, and the tries at a deal of
the day (docs/learn.md).

The tables belong to the one app ``games`` (docs/architecture.md): ``games.models`` gathers this
module.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class RoundAnalysis(models.Model):
    """One seat's decisions in a finished round, judged by the engine (``games.engine.analysis``).

    Asked for by the seat's player on the round's replay (``analysis_services.analysis_request``), computed
    by the Celery task ``games.tasks.round_analyse``; ``report`` is the engine's
    ``RoundReport.to_json()`` once ``status`` is done. ``done``/``total`` count the seat's moves
    looked at so far, for the progress shown while it runs.
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    round = models.ForeignKey("games.Round", on_delete=models.CASCADE, related_name="analyses")
    seat = models.PositiveSmallIntegerField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    report = models.JSONField(null=True, blank=True)
    #: CPU seconds the analysis took (the budget, docs/learn.md).
    cpu_seconds = models.FloatField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("round", "seat")
        constraints = (models.UniqueConstraint(fields=("round", "seat"), name="analysis_unique_seat"),)

    def __str__(self) -> str:
        return f"analysis of seat {self.seat} in {self.round}"


# --- puzzles (docs/learn.md, "Puzzles") -------------------------------------------------------------


class PuzzleKind(models.TextChoices):
    OPENING = "opening", _("Find the opening")
    JOKER = "joker", _("Open and buy back a joker")
    KNOCK = "knock", _("Knock or draw on")
    DISCARD = "discard", _("The best discard")


class Puzzle(models.Model):
    """A position from a bot game (or a match of the site) with an answer the engine checks
    (``games.learn.puzzles.check``). ``state`` is the engine's full state (``state_to_json``): it never
    leaves the server; the page gets ``view_for(state, seat)`` only. ``mu``/``sigma``: the
    puzzle's openskill rating in its kind (a player against the puzzle, a two-player match)."""

    kind = models.CharField(max_length=20, choices=PuzzleKind.choices, db_index=True)
    variant = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    state = models.JSONField()
    seat = models.PositiveSmallIntegerField()
    #: One right answer (the wire's move JSON); the engine accepts others too.
    answer = models.JSONField()
    #: The engine's facts about ``answer`` (``games.learn.puzzles.explain``): melds, points, minimum.
    explanation = models.JSONField(default=dict)
    #: Where it comes from: ``{"seed", "game", "moves", "players"}`` for a bot game.
    source = models.JSONField(default=dict)
    #: ``games.learn.puzzles.position_key``: a position is stored once.
    key = models.CharField(max_length=40, unique=True)
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    #: Withdrawn by staff (after a report): never offered again.
    withdrawn = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        indexes = (models.Index(fields=("kind", "mu"), name="puzzle_kind_mu"),)

    def __str__(self) -> str:
        return f"puzzle {self.pk} ({self.kind}, {self.variant})"


class PuzzleRating(models.Model):
    """A player's openskill rating in one kind of puzzle (mu 25, sigma 25/3 to start)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_ratings"
    )
    kind = models.CharField(max_length=20, choices=PuzzleKind.choices)
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    solved = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("user", "kind")
        constraints = (models.UniqueConstraint(fields=("user", "kind"), name="puzzlerating_unique_kind"),)

    def __str__(self) -> str:
        return f"{self.user_id} in {self.kind} puzzles: {self.mu:.2f} ± {self.sigma:.2f}"


class PuzzleAttempt(models.Model):
    """A logged-in player's first answer to a puzzle (the one that is rated)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts_made")
    solved = models.BooleanField()
    #: ``games.learn.puzzles.check``'s code: ``solved``, ``not_an_opening``, an engine refusal code, ...
    code = models.CharField(max_length=40)
    answer = models.JSONField()
    rating_before = models.IntegerField()
    rating_after = models.IntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created", "-id")
        constraints = (models.UniqueConstraint(fields=("user", "puzzle"), name="puzzleattempt_unique"),)

    def __str__(self) -> str:
        return f"{self.user_id} on puzzle {self.puzzle_id}: {'solved' if self.solved else 'failed'}"


class PuzzleReport(models.Model):
    """A player says a puzzle is wrong; staff see it in the admin and may withdraw the puzzle."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_reports"
    )
    reason = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True)
    resolved = models.BooleanField(default=False)

    class Meta:
        ordering = ("resolved", "-created")
        constraints = (models.UniqueConstraint(fields=("puzzle", "reporter"), name="puzzlereport_unique"),)

    def __str__(self) -> str:
        return f"report on puzzle {self.puzzle_id} by {self.reporter_id}"


class PuzzleBatch(models.Model):
    """A run of the generator (``manage.py puzzles_generate``, the Celery task, the start-up seed):
    its seed, how many it aims at and has stored so far (the progress /puzzles/ shows)."""

    seed = models.CharField(max_length=80)
    target = models.PositiveIntegerField()
    made = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ("-started", "-id")

    def __str__(self) -> str:
        return f"puzzle batch {self.seed}: {self.made}/{self.target}"


# --- deal of the day (games.learn.daily) ------------------------------------------------------------------


class DailyTry(models.Model):
    """One account's one try at the deal of one day (UTC) and variant: a solo match of its own room.

    At most one per account, day and variant (``daily_services.daily_start`` refuses a second). Its
    result is the round's score line of seat 0, where every player of the deal sits.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_tries")
    day = models.DateField()
    variant = models.CharField(max_length=32)
    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="daily_try")
    created = models.DateTimeField(auto_now_add=True)

    class Unranked(models.TextChoices):
        """Why a try is not ranked, decided when it starts (docs/learn.md, "One ranked try per
        person"). A try the stand-in played part of is not ranked either; that one is read from
        its moves (``games.learn.daily``), as it can happen at any time of the try."""

        RANKED = "", "ranked"
        SECOND_ACCOUNT = "second_account", "another account of the same browser or address played first"
        NEW_ACCOUNT = "new_account", "an account made on the day of the deal"

    unranked = models.CharField(max_length=16, choices=Unranked.choices, default="", blank=True)
    #: What the site could tell of the person at the start of the try (``accounts.signins``): the
    #: browser's id and the HMAC of the address; compared with other accounts' tries of the deal.
    browser = models.CharField(max_length=64, default="", blank=True)
    address = models.CharField(max_length=64, default="", blank=True)

    class Meta:
        ordering = ("day", "variant", "pk")
        constraints = (
            models.UniqueConstraint(fields=("user", "day", "variant"), name="dailytry_unique_user"),
        )
        indexes = (models.Index(fields=("variant", "day"), name="dailytry_variant_day"),)

    def __str__(self) -> str:
        return f"{self.user_id} on {self.day} ({self.variant})"
