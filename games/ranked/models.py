"""Ratings of ranked rooms: a player's rating per category and what each rated match changed.

Written by ``games.ranked.ratings`` alone, when a match ends (``Match.rating_status``). The tables
belong to the one app ``games`` (docs/architecture.md): ``games.models`` gathers this module.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Rating(models.Model):
    """A player's current openskill rating in one category (a variant; Remi by its opening).

    ``mu`` and ``sigma`` are openskill's (PlackettLuce, defaults 25 and 25/3); ``ordinal`` is
    ``mu - 3 sigma``, kept for ordering. The site shows ``games.ranked.ratings.display``. Derived from the
    ``RatingChange`` rows: ``games.ranked.ratings.category_replay`` rebuilds it from them.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    #: ``games.ranked.ratings.category_for``: ``remik51``, ``gin``, ``remi-45``, ...
    category = models.CharField(max_length=40)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    #: Rated matches played, and won (alone or tied first).
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("category", "-ordinal", "user")
        constraints = (models.UniqueConstraint(fields=("user", "category"), name="rating_unique_category"),)

    def __str__(self) -> str:
        return f"{self.user_id} in {self.category}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """What one ranked match did to one player's rating: before and after, and why.

    One row per (match, user), written in the transaction that records the match's end.
    ``rank`` (1 = first; ties share a rank) and ``standin`` are the inputs a replay needs.
    """

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    category = models.CharField(max_length=40, db_index=True)
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    won = models.BooleanField(default=False)
    #: A stand-in bot played more than half of this player's turns: the change is clamped to <= 0.
    standin = models.BooleanField(default=False)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    ordinal_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_after = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("match", "seat")
        constraints = (models.UniqueConstraint(fields=("match", "user"), name="ratingchange_unique_user"),)

    def __str__(self) -> str:
        return f"{self.user_id} in {self.match}: {self.ordinal_before:.2f} -> {self.ordinal_after:.2f}"
