"""Ratings of ranked matches: openskill's Plackett-Luce model, one rating per player and category.

**Model.** ``openskill.models.PlackettLuce`` with its defaults (mu 25, sigma 25/3, beta 25/6, tau
25/300). Plackett-Luce rates a full finishing order of any number of players (2 to 8 here), each
as a team of one, with ties; it is openskill's default and the cheapest of its full-ranking
models. The parameters never change: replaying the history (``category_replay``) must give the
numbers that were shown.

**Categories.** One rating per variant, and for Remi one per opening ("Remi by opening"):
``category_for`` gives ``remik51``, ``gin``, ``remi-45``, ... (``CATEGORIES`` lists them).

**What is shown.** ``display(mu, sigma)`` = openskill's ``ordinal(z=3, alpha=40, target=1000)`` =
``1000 + 40 * (mu - 3 sigma)``: the conservative estimate (the skill is 99.7% likely above it) on a
scale where a new player shows 1000. Next to it ``± 40 sigma`` (one standard deviation on the same
scale, 333 for a new player). A player is *provisional* while sigma is above
``settings.RATING_PROVISIONAL_SIGMA`` (6.5 by default: about nine two-player matches, fewer
with more players).

**When a match ends** (``on_match_over``, called by ``games.play.services`` under the match's row lock,
in the transaction that records the end):

- a room that is not ranked: nothing;
- no discard (or knock) in the first round and the first round not scored: the match is
  *aborted* for ratings (``RatingStatus.ABORTED``), nobody's rating moves;
- otherwise the standings come from the engine: the seats in ``state.winners`` share rank 1, the
  others follow by total (lower is better where ``rules.lower_wins``), equal totals sharing a
  rank. One ``RatingChange`` per player (unique on match and user) and ``Match.rating_status``
  = ``RATED`` make it happen once: a second call finds the flag and does nothing.
- a player whose seat was played by a stand-in bot (``MoveRecord`` actor ``standin``) in more than
  half of their turns cannot gain: their mu may only fall, and if their ordinal would still rise
  (sigma shrinks with every match) their sigma is left as it was. Everyone else is rated from
  the same standings as usual.

**Annul** (staff, ``match_annul``): the match's changes are deleted, it is marked ``ANNULLED``
and the whole category is replayed from its remaining rated matches, in the order they were
applied (the order of their first ``RatingChange`` id: matches sharing a player were applied one
after the other under that player's row lock, so their ids are in that order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext
from openskill.models import PlackettLuce

from games import engine
from games.play.models import Match, MoveRecord, RatingStatus, Room, Seat
from games.ranked.models import Rating, RatingChange

#: The model every rating is computed with (parameters fixed: see the module note).
MODEL = PlackettLuce()
DISPLAY_ALPHA = 40
DISPLAY_TARGET = 1000
DEFAULT_PROVISIONAL_SIGMA = 6.5
DEFAULT_LEADERBOARD_MIN_MATCHES = 5

_REMI_OPENINGS = ("classic", "45", "51")


def _category_list() -> list[tuple[str, str]]:
    categories = []
    for name in engine.variant_names():
        title = engine.variant(name).title
        if name == "remi":
            categories += [(f"remi-{opening}", f"{title} (opening {opening})") for opening in _REMI_OPENINGS]
        else:
            categories.append((name, title))
    return categories


#: (key, title) of every rating category, in the engine's variant order.
CATEGORIES: list[tuple[str, str]] = _category_list()
_TITLES = dict(CATEGORIES)


def category_for(variant: str, options: dict[str, Any]) -> str:
    """The rating category of a room: its variant, and for Remi its opening."""
    if variant == "remi":
        return f"remi-{options.get('opening', engine.variant('remi').options['opening'])}"
    return variant


def category_title(category: str) -> str:
    """The category's title in the active language (docs/i18n.md)."""
    if category not in _TITLES:
        return category
    name, _, opening = category.partition("-")
    title = gettext(engine.variant(name).title)
    if not opening:
        return title
    return gettext("%(title)s (opening %(opening)s)") % {"title": title, "opening": opening}


def provisional_sigma() -> float:
    return float(getattr(settings, "RATING_PROVISIONAL_SIGMA", DEFAULT_PROVISIONAL_SIGMA))


def leaderboard_min_matches() -> int:
    return int(getattr(settings, "LEADERBOARD_MIN_MATCHES", DEFAULT_LEADERBOARD_MIN_MATCHES))


def ordinal(mu: float, sigma: float) -> float:
    """openskill's ordinal, ``mu - 3 sigma``."""
    return float(MODEL.rating(mu=mu, sigma=sigma).ordinal())


def display(mu: float, sigma: float) -> int:
    """The rating people see: ``1000 + 40 * (mu - 3 sigma)``, rounded."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=DISPLAY_ALPHA, target=DISPLAY_TARGET))


def display_uncertainty(sigma: float) -> int:
    """The ``±`` shown next to a rating: one sigma on the display scale."""
    return round(DISPLAY_ALPHA * sigma)


def is_provisional(sigma: float) -> bool:
    return sigma > provisional_sigma()


# --- standings and the stand-in rule ------------------------------------------------------------


def standings(totals: Sequence[int], winners: Iterable[int], lower_wins: bool) -> list[int]:
    """Each seat's rank (1 = first; ties share a rank, the next rank follows densely).

    The engine's winners come first whatever their totals (a gin settlement, a Knock-108 last
    player standing); the others follow by total.
    """
    winners = set(winners)
    others = sorted(
        {total for seat, total in enumerate(totals) if seat not in winners}, reverse=not lower_wins
    )
    first = 1 if winners else 0
    return [1 if seat in winners else first + 1 + others.index(total) for seat, total in enumerate(totals)]


def standin_seats(match_id: int) -> set[int]:
    """Seats a stand-in bot played in more than half of their turns.

    A turn is a run of consecutive moves by one seat in one round; it counts as the stand-in's if
    any of its moves is logged with the ``standin`` actor (the player did not finish it).
    """
    turns: dict[int, int] = {}
    stood_in: dict[int, int] = {}
    previous: tuple[int, int] | None = None
    in_turn_standin = False
    moves = MoveRecord.objects.filter(match_id=match_id).order_by("seq")
    for round_number, seat, actor in moves.values_list("round_number", "seat", "actor"):
        if (round_number, seat) != previous:
            turns[seat] = turns.get(seat, 0) + 1
            in_turn_standin = False
            previous = (round_number, seat)
        if actor == MoveRecord.Actor.STANDIN and not in_turn_standin:
            stood_in[seat] = stood_in.get(seat, 0) + 1
            in_turn_standin = True
    return {seat for seat, count in stood_in.items() if 2 * count > turns[seat]}


def before_first_discard(match: Match, state: engine.GameState) -> bool:
    """True when the first round is unscored and nobody has discarded (or knocked) in it yet."""
    if state.results:
        return False
    return not MoveRecord.objects.filter(
        match_id=match.pk, round_number=1, move__kind__in=("discard", "knock")
    ).exists()


def a_leave_aborts(match: Match, state: engine.GameState) -> bool:
    """Whether a seat leaving now aborts the match for ratings: a ranked match before the first
    discard of its first round (play ends it, standings as dealt, nobody's rating moves)."""
    return match.room.ranked and before_first_discard(match, state)


# --- the computation ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One rated player of a match: the inputs of the update."""

    user_id: int
    seat: int
    rank: int
    won: bool
    standin: bool


def rate(
    befores: Sequence[tuple[float, float]], ranks: Sequence[int], standins: Sequence[bool]
) -> list[tuple[float, float]]:
    """(mu, sigma) after a match for each player, from (mu, sigma) before and the ranks.

    Exactly ``MODEL.rate`` on teams of one, then the stand-in clamp.
    """
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in befores]
    rated = MODEL.rate(teams, ranks=list(ranks))
    afters = []
    for (mu, sigma), team, standin in zip(befores, rated, standins, strict=True):
        new_mu, new_sigma = float(team[0].mu), float(team[0].sigma)
        if standin:
            new_mu = min(new_mu, mu)
            if new_mu - 3 * new_sigma > mu - 3 * sigma:
                new_sigma = sigma
        afters.append((new_mu, new_sigma))
    return afters


def _default() -> tuple[float, float]:
    return float(MODEL.mu), float(MODEL.sigma)


def _ratings_locked(user_ids: Iterable[int], category: str) -> dict[int, Rating]:
    """The players' ratings in ``category``, created at the defaults if missing, locked.

    Locked in user id order, as every writer does, so two matches sharing players cannot
    deadlock.
    """
    user_ids = sorted(set(user_ids))
    mu, sigma = _default()
    for user_id in user_ids:
        Rating.objects.get_or_create(
            user_id=user_id,
            category=category,
            defaults={"mu": mu, "sigma": sigma, "ordinal": ordinal(mu, sigma)},
        )
    locked = Rating.objects.select_for_update().filter(user_id__in=user_ids, category=category)
    return {rating.user_id: rating for rating in locked.order_by("user_id")}


def _entries(match: Match, state: engine.GameState, room: Room) -> list[Entry]:
    ranks = standings(state.totals, state.winners, room.rules().lower_wins)
    seats = Seat.objects.filter(room_id=room.pk, user__isnull=False, is_bot=False).values_list(
        "index", "user_id"
    )
    standin = standin_seats(match.pk)
    winners = set(state.winners)
    return [
        Entry(user_id=user_id, seat=seat, rank=ranks[seat], won=seat in winners, standin=seat in standin)
        for seat, user_id in sorted(seats)
        if seat < len(ranks)
    ]


def on_match_over(*, match: Match, state: engine.GameState) -> str:
    """Apply a finished match to ratings, once; returns its ``rating_status``.

    The caller holds the match's row lock and its transaction records the match's end; the
    match must be over (``state.is_over``).
    """
    if match.rating_status != RatingStatus.NONE or not state.is_over:
        return match.rating_status
    room = Room.objects.get(pk=match.room_id)
    if not room.ranked:
        return match.rating_status
    if before_first_discard(match, state):
        status = RatingStatus.ABORTED
    else:
        entries = _entries(match, state, room)
        if len(entries) < 2:
            return match.rating_status
        _apply(match, category_for(room.variant, room.options), entries)
        status = RatingStatus.RATED
    match.rating_status = status
    Match.objects.filter(pk=match.pk).update(rating_status=status)
    return status


def _apply(match: Match, category: str, entries: Sequence[Entry]) -> None:
    ratings = _ratings_locked((entry.user_id for entry in entries), category)
    befores = [(ratings[e.user_id].mu, ratings[e.user_id].sigma) for e in entries]
    afters = rate(befores, [e.rank for e in entries], [e.standin for e in entries])
    changes = []
    for entry, (mu0, sigma0), (mu1, sigma1) in zip(entries, befores, afters, strict=True):
        rating = ratings[entry.user_id]
        rating.mu, rating.sigma, rating.ordinal = mu1, sigma1, ordinal(mu1, sigma1)
        rating.matches += 1
        rating.wins += int(entry.won)
        rating.save(update_fields=["mu", "sigma", "ordinal", "matches", "wins", "updated"])
        changes.append(
            RatingChange(
                match=match,
                user_id=entry.user_id,
                category=category,
                seat=entry.seat,
                rank=entry.rank,
                won=entry.won,
                standin=entry.standin,
                mu_before=mu0,
                sigma_before=sigma0,
                ordinal_before=ordinal(mu0, sigma0),
                mu_after=mu1,
                sigma_after=sigma1,
                ordinal_after=ordinal(mu1, sigma1),
            )
        )
    RatingChange.objects.bulk_create(sorted(changes, key=lambda change: change.seat))


def match_rate(*, match_id: int) -> str:
    """Rate a match that is over if it has not been (a retry); its ``rating_status``.

    Under the match's row lock: two callers at once rate it once.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update(no_key=True).get(pk=match_id)
        if match.status == Match.Status.PLAYING:
            return match.rating_status
        return on_match_over(match=match, state=match.game_state())


# --- staff: annul and replay --------------------------------------------------------------------


def match_annul(*, match_id: int) -> list[int]:
    """Remove a rated match's changes and replay its category; the ids of the players it had.

    An empty list (and nothing changed) when the match was not rated.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update(no_key=True).get(pk=match_id)
        if match.rating_status != RatingStatus.RATED:
            return []
        changes = RatingChange.objects.filter(match=match)
        players = sorted(changes.values_list("user_id", flat=True))
        categories = set(changes.values_list("category", flat=True))
        changes.delete()
        match.rating_status = RatingStatus.ANNULLED
        match.save(update_fields=["rating_status"])
        for category in sorted(categories):
            category_replay(category=category)
    return players


def category_replay(*, category: str) -> int:
    """Rebuild every rating of ``category`` from its rated matches, in the order they were applied.

    Each ``RatingChange`` gets the before and after of the replay; a player with no rated match
    left loses the category's rating. Returns how many matches were replayed.
    """
    with transaction.atomic():
        ratings = {
            rating.user_id: rating
            for rating in Rating.objects.select_for_update().filter(category=category).order_by("user_id")
        }
        rows = list(
            RatingChange.objects.select_for_update()
            .filter(category=category, match__rating_status=RatingStatus.RATED)
            .order_by("id")
        )
        by_match: dict[int, list[RatingChange]] = {}
        for row in rows:  # dicts keep insertion order: matches by their first change's id
            by_match.setdefault(row.match_id, []).append(row)
        current: dict[int, tuple[float, float]] = {}
        counts: dict[int, list[int]] = {}
        for changes in by_match.values():
            changes.sort(key=lambda change: change.seat)
            befores = [current.get(change.user_id, _default()) for change in changes]
            afters = rate(befores, [c.rank for c in changes], [c.standin for c in changes])
            for change, (mu0, sigma0), (mu1, sigma1) in zip(changes, befores, afters, strict=True):
                change.mu_before, change.sigma_before = mu0, sigma0
                change.ordinal_before = ordinal(mu0, sigma0)
                change.mu_after, change.sigma_after = mu1, sigma1
                change.ordinal_after = ordinal(mu1, sigma1)
                current[change.user_id] = (mu1, sigma1)
                played = counts.setdefault(change.user_id, [0, 0])
                played[0] += 1
                played[1] += int(change.won)
        RatingChange.objects.bulk_update(
            rows,
            ["mu_before", "sigma_before", "ordinal_before", "mu_after", "sigma_after", "ordinal_after"],
        )
        for user_id, rating in ratings.items():
            if user_id not in current:
                rating.delete()
                continue
            rating.mu, rating.sigma = current[user_id]
            rating.ordinal = ordinal(rating.mu, rating.sigma)
            rating.matches, rating.wins = counts[user_id]
            rating.save(update_fields=["mu", "sigma", "ordinal", "matches", "wins", "updated"])
        for user_id in current.keys() - ratings.keys():  # a row lost by hand: recreate it
            mu, sigma = current[user_id]
            matches, wins = counts[user_id]
            Rating.objects.create(
                user_id=user_id,
                category=category,
                mu=mu,
                sigma=sigma,
                ordinal=ordinal(mu, sigma),
                matches=matches,
                wins=wins,
            )
    return len(by_match)


# --- reads: the leaderboard and a player's history ---------------------------------------------


def leaderboard(*, category: str, limit: int = 100) -> QuerySet[Rating]:
    """Active players with at least ``leaderboard_min_matches()`` rated matches, best first.

    Ordered by the shown rating (the ordinal), then more matches, then the name.
    """
    return (
        Rating.objects.filter(category=category, matches__gte=leaderboard_min_matches(), user__is_active=True)
        .select_related("user")
        .order_by("-ordinal", "-matches", "user__username")[:limit]
    )


def player_ratings(*, user_id: int) -> list[dict[str, Any]]:
    """Each category the player has a rating in: the rating and its history, oldest first."""
    ratings = {rating.category: rating for rating in Rating.objects.filter(user_id=user_id)}
    history: dict[str, list[RatingChange]] = {}
    changes = (
        RatingChange.objects.filter(user_id=user_id, match__rating_status=RatingStatus.RATED)
        .select_related("match")
        .order_by("id")
    )
    for change in changes:
        history.setdefault(change.category, []).append(change)
    order = [key for key, _ in CATEGORIES]
    result = []
    for category in sorted(ratings, key=lambda key: (order.index(key) if key in order else len(order), key)):
        rating = ratings[category]
        result.append(
            {
                "category": category,
                "title": category_title(category),
                "rating": rating,
                "display": display(rating.mu, rating.sigma),
                "uncertainty": display_uncertainty(rating.sigma),
                "provisional": is_provisional(rating.sigma),
                "matches": rating.matches,
                "wins": rating.wins,
                "win_rate": round(100 * rating.wins / rating.matches) if rating.matches else 0,
                "history": history.get(category, []),
            }
        )
    return result
