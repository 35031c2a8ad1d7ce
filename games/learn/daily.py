"""Deal of the day: the deal of each day (UTC) and variant, its clock, and its boards (reads only).

Every day and variant has one deal. Its match secret is ``day_secret(day, variant)``:
HMAC-SHA256 of the server's ``DAILY_SECRET`` and ``remi-daily/1:<day>:<variant>``, so every try of
that deal (one solo ``Match`` per player, ``daily_services.daily_start``) is dealt the same cards from
the same secret: the first dealer from round 0's seed, the cards from round 1's
(``engine.deal_seed``). The deal's **commitment** (SHA-256 of round 1's seed) is on ``/daily/``
from the moment the day starts; the secret and the seed are revealed once the day is over
(``daily_services.daily_reveal``), and only then are the tries' records, replays and ``/verify/`` open.

The bots of a daily room are ``BOT_LEVEL`` at fixed seats; their luck is seeded from the deal's
seed and their own view (``bot_rng_key``), so two players who make the same moves meet the same
bot moves. One round is played: the engine's round limit ends the match with it.

Scoring is **duplicate**: a try's result is seat 0's points for the round, compared with the
field's on the same cards: the average, the rank (ties share it) and the difference to the
average, signed so that a positive ``gain`` is always better than the field (fewer points where
the lowest total wins). The month's board adds up each player's gains.

The clock is injectable: ``clock`` is read through ``now()``; tests replace it to move "today".
"""

from __future__ import annotations

import calendar
import hashlib
import hmac
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Protocol

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from games import engine
from games.learn.models import DailyTry
from games.play.models import Match, MoveRecord, ScoreLine
from games.play.services.moves import daily_bot_key


@dataclass(frozen=True)
class DailySetup:
    """How a variant's deal of the day is played: the seats (the player at 0, bots after) and
    options (the engine's; defaults for the rest)."""

    seats: int
    options: dict[str, Any] = field(default_factory=dict)


#: The variants with a deal of the day, in the page's order. Each ends after its one round by the
#: engine's round limit (``rounds``, docs/engine.md "Round limit"): no second round is dealt.
DAILY_VARIANTS: dict[str, DailySetup] = {
    "remik51": DailySetup(seats=3, options={"rounds": 1}),
    "remi": DailySetup(seats=3, options={"rounds": 1, "max_players": 3}),
    "remik40": DailySetup(seats=3, options={"rounds": 1}),
    "gin": DailySetup(seats=2, options={"rounds": 1}),
    "oklahoma": DailySetup(seats=2, options={"rounds": 1}),
    "rummy500": DailySetup(seats=3, options={"rounds": 1}),
    "knock108": DailySetup(seats=3, options={"rounds": 1}),
}

#: Every bot of a deal of the day plays at this level.
BOT_LEVEL = "hard"

#: A daily room's turn time (seconds); a turn that runs out is played by the stand-in as anywhere.
TURN_SECONDS = 120


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return timezone.now()


#: The clock the deals of the day read (tests put a fixed one here to move "today").
clock: Clock = SystemClock()


def now() -> datetime:
    return clock.now()


def today(at: datetime | None = None) -> date:
    """The day (UTC) of ``at`` (default: now)."""
    return (at or now()).astimezone(UTC).date()


def day_over(day: date, at: datetime | None = None) -> bool:
    """Is ``day`` (UTC) over at ``at`` (default: now)?"""
    return today(at) > day


def rules_for(variant: str) -> engine.Rules:
    return engine.variant(variant, **DAILY_VARIANTS[variant].options)


def day_secret(day: date, variant: str) -> bytes:
    """The match secret of the deal of ``day`` and ``variant`` (every try of it has this one)."""
    key = settings.DAILY_SECRET.encode()
    return hmac.new(key, f"remi-daily/1:{day.isoformat()}:{variant}".encode(), hashlib.sha256).digest()


def deal_commitment(day: date, variant: str) -> str:
    """The deal's commitment: SHA-256 (hex) of round 1's seed, public from the start of the day."""
    return engine.commitment(engine.deal_seed(day_secret(day, variant), 1))


def revealed(day: date, variant: str, at: datetime | None = None) -> dict[str, str] | None:
    """The deal's secret and round 1's seed (hex) once its day is over; None before."""
    if not day_over(day, at):
        return None
    secret = day_secret(day, variant)
    return {"secret": secret.hex(), "seed": engine.deal_seed(secret, 1).hex()}


#: What a daily bot's luck is seeded from, with its view: the round's seed, labelled (the bots
#: play in games.play, which keeps the function: play does not import the deal of the day).
bot_rng_key = daily_bot_key


# --- reads: tries and boards ------------------------------------------------------------------------


#: Why a try is not ranked (``BoardEntry.unranked``): the two of ``DailyTry.Unranked`` decided at
#: its start, and the stand-in's, read from its moves.
STANDIN = "standin"


@dataclass(frozen=True)
class BoardEntry:
    #: None for a try that is not ranked.
    rank: int | None
    user_id: int
    username: str
    points: int
    #: ``points`` minus the field's average (None: not ranked).
    diff: float | None
    #: How much better than the field's average (positive: better), whichever way the variant
    #: counts (None: not ranked).
    gain: float | None
    match_id: int
    #: Why the try is not ranked ("" when it is): ``STANDIN`` or a ``DailyTry.Unranked`` value.
    unranked: str = ""


@dataclass(frozen=True)
class Board:
    day: date
    variant: str
    lower_wins: bool
    #: The average of the ranked tries.
    average: float | None
    #: The ranked tries, best first.
    entries: list[BoardEntry]
    #: The tries that are finished but not ranked (docs/learn.md): listed with their reason.
    unranked: list[BoardEntry] = field(default_factory=list)

    def entry_of(self, user_id: int | None) -> BoardEntry | None:
        return next((entry for entry in [*self.entries, *self.unranked] if entry.user_id == user_id), None)

    @property
    def finished(self) -> int:
        """How many tries are finished, ranked or not."""
        return len(self.entries) + len(self.unranked)


@dataclass(frozen=True)
class _Try:
    day: date
    user_id: int
    username: str
    points: int
    match_id: int
    #: "" for a ranked try, else why not.
    unranked: str


def _points_subquery() -> Subquery:
    return Subquery(
        ScoreLine.objects.filter(round__match=OuterRef("match"), round__number=1, seat=0).values("points")[:1]
    )


def _standin_played() -> Exists:
    """Did the stand-in play any move of the try's player (seat 0)?"""
    return Exists(MoveRecord.objects.filter(match=OuterRef("match"), seat=0, actor=MoveRecord.Actor.STANDIN))


def _scored_tries(**filters: Any) -> list[_Try]:
    """The finished tries matching ``filters``, each with why it is not ranked ("" if it is)."""
    rows = (
        DailyTry.objects.filter(match__status=Match.Status.FINISHED, **filters)
        .annotate(points=_points_subquery(), standin=_standin_played())
        .filter(points__isnull=False)
        .values_list("day", "user_id", "user__username", "points", "match_id", "unranked", "standin")
        .order_by("day", "pk")
    )
    return [
        _Try(day, user_id, name, int(points), match_id, unranked or (STANDIN if standin else ""))
        for day, user_id, name, points, match_id, unranked, standin in rows
    ]


def _ranked(scores: list[tuple[Any, float]], *, higher_first: bool) -> list[tuple[int, Any, float]]:
    """(rank, key, value), best first; equal values share a rank (1, 1, 3)."""
    ordered = sorted(scores, key=lambda item: -item[1] if higher_first else item[1])
    out: list[tuple[int, Any, float]] = []
    for position, (key, value) in enumerate(ordered, start=1):
        rank = out[-1][0] if out and out[-1][2] == value else position
        out.append((rank, key, value))
    return out


def board(day: date, variant: str) -> Board:
    """The day's board of a variant: every finished ranked try, best first, against the average of
    the ranked tries; then the finished tries that are not ranked, with their reason."""
    lower_wins = rules_for(variant).lower_wins
    tries = _scored_tries(day=day, variant=variant)
    unranked = [
        BoardEntry(None, item.user_id, item.username, item.points, None, None, item.match_id, item.unranked)
        for item in tries
        if item.unranked
    ]
    ranked = {item.user_id: item for item in tries if not item.unranked}
    if not ranked:
        return Board(
            day=day, variant=variant, lower_wins=lower_wins, average=None, entries=[], unranked=unranked
        )
    average = sum(item.points for item in ranked.values()) / len(ranked)
    entries = []
    for rank, user_id, points in _ranked(
        [(user_id, float(item.points)) for user_id, item in ranked.items()], higher_first=not lower_wins
    ):
        item = ranked[user_id]
        diff = points - average
        entries.append(
            BoardEntry(
                rank=rank,
                user_id=user_id,
                username=item.username,
                points=int(points),
                diff=round(diff, 2),
                gain=round(-diff if lower_wins else diff, 2),
                match_id=item.match_id,
            )
        )
    return Board(
        day=day,
        variant=variant,
        lower_wins=lower_wins,
        average=round(average, 2),
        entries=entries,
        unranked=unranked,
    )


def board_open(
    day: date, variant: str, user: AbstractBaseUser | AnonymousUser | None, at: datetime | None = None
) -> bool:
    """May ``user`` see the day's board of ``variant``? Everyone once the day is over; before, only
    an account whose own try at that deal is finished: the board's points tell how the deal plays,
    so nobody sees them before playing it (docs/learn.md, "No preview of the deal")."""
    if day_over(day, at):
        return True
    if user is None or not user.is_authenticated:
        return False
    return DailyTry.objects.filter(
        day=day, variant=variant, user_id=user.pk, match__status=Match.Status.FINISHED
    ).exists()


@dataclass(frozen=True)
class MonthEntry:
    rank: int
    user_id: int
    username: str
    #: The sum of the player's daily gains (see ``BoardEntry.gain``) this month.
    gain: float
    days: int


def month_board(year: int, month: int, variant: str, *, at: datetime | None = None) -> list[MonthEntry]:
    """The month's board of a variant: each player's gains over the field, added up, best first.

    Only the days that are over (at ``at``, default now) and only ranked tries: a day still being
    played shows nothing of its results to anyone (docs/learn.md, "No preview of the deal")."""
    lower_wins = rules_for(variant).lower_wins
    first = date(year, month, 1)
    yesterday = date.fromordinal(today(at).toordinal() - 1)
    last = min(date(year, month, calendar.monthrange(year, month)[1]), yesterday)
    tries = _scored_tries(variant=variant, day__gte=first, day__lte=last, unranked="")
    by_day: dict[date, list[tuple[int, str, int]]] = {}
    for item in tries:
        if not item.unranked:
            by_day.setdefault(item.day, []).append((item.user_id, item.username, item.points))
    gains: dict[int, float] = {}
    days: dict[int, int] = {}
    names: dict[int, str] = {}
    for entries in by_day.values():
        average = sum(points for _u, _n, points in entries) / len(entries)
        for user_id, name, points in entries:
            diff = points - average
            gains[user_id] = gains.get(user_id, 0.0) + (-diff if lower_wins else diff)
            days[user_id] = days.get(user_id, 0) + 1
            names[user_id] = name
    ranked = _ranked([(user_id, round(gain, 2)) for user_id, gain in gains.items()], higher_first=True)
    return [
        MonthEntry(rank=rank, user_id=user_id, username=names[user_id], gain=gain, days=days[user_id])
        for rank, user_id, gain in ranked
    ]


@dataclass(frozen=True)
class DealOfTheDay:
    variant: str
    title: str
    day: date
    commitment: str
    seats: int
    #: The viewer's try (None: not played yet, or nobody logged in).
    match_id: int | None
    playing: bool
    points: int | None
    entry: BoardEntry | None
    field_size: int


def deals_of(day: date, user: AbstractBaseUser | AnonymousUser | None) -> list[DealOfTheDay]:
    """Each variant's deal of ``day`` with its commitment, and the viewer's try and place."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    tries = (
        {
            item.variant: item
            for item in DailyTry.objects.filter(day=day, user_id=user_id).select_related("match")
        }
        if user_id is not None
        else {}
    )
    out = []
    for variant, setup in DAILY_VARIANTS.items():
        day_board = board(day, variant)
        mine = tries.get(variant)
        entry = day_board.entry_of(user_id)
        out.append(
            DealOfTheDay(
                variant=variant,
                title=rules_for(variant).title,
                day=day,
                commitment=deal_commitment(day, variant),
                seats=setup.seats,
                match_id=mine.match_id if mine is not None else None,
                playing=mine is not None and mine.match.status == Match.Status.PLAYING,
                points=entry.points if entry is not None else None,
                entry=entry,
                field_size=len(day_board.entries),
            )
        )
    return out
