"""What the puzzle pages read (docs/learn.md, "Puzzles"): the frame of a puzzle, the next one for a
player, their ratings, history and the progress of the set."""

from __future__ import annotations

from typing import Any

from django.db.models import Value

from games import engine
from games.play import framing
from games.play.models import Match, RatingStatus
from games.play.selectors import match_has_finished_round
from games.ranked import ratings
from games.ranked.models import RatingChange


def puzzle_frame(puzzle: Any, state: engine.GameState | None = None, events: Any = ()) -> dict[str, Any]:
    """The table's frame of a puzzle for its seat: the seat's view (``view_for``, nothing else of
    the stored state) with the engine's suggested opening taken out (it is the answer): ``you.opening``
    keeps what an opening needs and says ``hidden``."""
    if state is None:
        state = engine.state_from_json(puzzle.state)
    frame = framing.frame_for(state, puzzle.seat, version=1 if not events else 2, events=events)
    you = frame["view"].get("you") or {}
    opening = you.get("opening")
    if isinstance(opening, dict):
        you["opening"] = {
            "required_points": opening.get("required_points"),
            "required_run": opening.get("required_run"),
            "best_points": None,
            "has_run": None,
            "ready": False,
            "missing": [],
            "melds": [],
            "hidden": True,
        }
    return frame


def puzzle_kind_ratings(*, user: Any) -> dict[str, Any]:
    """The player's rating per puzzle kind (None for a kind never tried), as shown."""
    from games.learn.models import PuzzleRating

    out: dict[str, Any] = {}
    if user is None or not user.is_authenticated:
        return out
    for row in PuzzleRating.objects.filter(user=user):
        out[row.kind] = {
            "rating": ratings.display(row.mu, row.sigma),
            "uncertainty": ratings.display_uncertainty(row.sigma),
            "solved": row.solved,
            "failed": row.failed,
        }
    return out


#: How many of the untried puzzles nearest one's rating the next puzzle is chosen among
#: (``puzzle_next``): a throwaway account at the same rating is given another of them.
PUZZLE_CHOICES = 12


def puzzle_next(*, user: Any, kind: str, seen: Any = (), chooser: str = "") -> Any:
    """The next puzzle of ``kind`` for ``user``: one of the :data:`PUZZLE_CHOICES` not tried yet
    (by a visitor: not in ``seen``) whose mu is nearest the player's (25 for a new player or a
    visitor), picked by an HMAC of the server's secret, ``chooser`` (who asks: ``user:<id>``,
    ``session:<key>``) and how many they have tried. The same person is given the same puzzle
    until they answer it; another account (or visitor) at the same rating is most likely given
    another, and cannot tell which one this person was given (docs/learn.md, "Fair puzzles")."""
    import hashlib
    import hmac

    from django.conf import settings
    from django.db.models import F
    from django.db.models.functions import Abs

    from games.learn.models import Puzzle, PuzzleAttempt, PuzzleRating

    mu = 25.0
    queryset = Puzzle.objects.filter(kind=kind, withdrawn=False)
    if user is not None and user.is_authenticated:
        row = PuzzleRating.objects.filter(user=user, kind=kind).first()
        if row is not None:
            mu = row.mu
        tried = PuzzleAttempt.objects.filter(user=user)
        count = tried.count()
        queryset = queryset.exclude(pk__in=tried.values("puzzle_id"))
        chooser = chooser or f"user:{user.pk}"
    else:
        count = len(list(seen))
        queryset = queryset.exclude(pk__in=list(seen))
    by_distance = queryset.annotate(distance=Abs(F("mu") - Value(mu))).order_by("distance", "id")
    nearest = list(by_distance[:PUZZLE_CHOICES])
    if not nearest:
        return None
    digest = hmac.new(
        settings.SECRET_KEY.encode(), f"puzzle-next/{chooser}/{kind}/{count}".encode(), hashlib.sha256
    ).digest()
    return nearest[int.from_bytes(digest[:8], "big") % len(nearest)]


def puzzle_history(*, user: Any, limit: int = 20) -> list[Any]:
    from games.learn.models import PuzzleAttempt

    return list(PuzzleAttempt.objects.filter(user=user).select_related("puzzle")[:limit])


def puzzle_progress() -> dict[str, Any]:
    """How many puzzles there are per kind, and the generator's batches under way."""
    from django.db.models import Count, Sum

    from games.learn.models import Puzzle, PuzzleBatch

    counts = dict(
        Puzzle.objects.filter(withdrawn=False)
        .values_list("kind")
        .annotate(n=Count("id"))
        .values_list("kind", "n")
    )
    running = PuzzleBatch.objects.filter(finished__isnull=True).aggregate(
        made=Sum("made"), target=Sum("target")
    )
    return {
        "counts": counts,
        "total": sum(counts.values()),
        "running": running["target"] is not None,
        "made": running["made"] or 0,
        "target": running["target"] or 0,
    }


def match_history_part(match: Match) -> dict[str, Any]:
    """What the match page adds for history: rating changes, finished rounds, export links."""
    changes = []
    for change in RatingChange.objects.filter(match=match).select_related("user").order_by("seat"):
        before = ratings.display(change.mu_before, change.sigma_before)
        after = ratings.display(change.mu_after, change.sigma_after)
        changes.append(
            {
                "name": change.user.get_username(),
                "seat": change.seat,
                "rank": change.rank,
                "won": change.won,
                "standin": change.standin,
                "before": before,
                "after": after,
                "delta": after - before,
                "uncertainty": ratings.display_uncertainty(change.sigma_after),
                "provisional": ratings.is_provisional(change.sigma_after),
            }
        )
    return {
        "rating_changes": changes,
        "rating_status": match.rating_status,
        "rating_status_label": RatingStatus(match.rating_status).label if match.rating_status else "",
        "match_over": match.status != Match.Status.PLAYING,
        "final_totals": list(match.state.get("totals", [])),
        "round_finished": match_has_finished_round(match_id=match.pk),
    }


# --- rematch (docs/protocol.md, "Rematch") --------------------------------------------------------
