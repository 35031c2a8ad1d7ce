"""Bot tournaments: ``python -m games.engine.tools.tournament [--games N] [--variants NAME ...]``.

Plays seeded heads-up matches between bot levels (:mod:`games.engine.bots.levels`) and prints, for
each variant and pairing, the first level's win rate with a 95% confidence interval, each level's
decision time (median / p99), and whether the targets of the bench are reached. It asserts nothing:
``make bench-bots`` runs it and a person reads the figures (docs/benchmarks.md, "The bots").

* **Matches, seats alternating.** Games ``2k`` and ``2k+1`` are dealt from the same match seed with
  the two levels in swapped seats, so both levels play the same cards from both seats (fewer lucky
  deals). A match is played to its end under :data:`BENCH_OPTIONS` (shorter than the defaults where
  a default match is long); a shared win counts half, and so does a match abandoned after
  :data:`MATCH_MOVE_CAP` moves (reported as "capped"; bots end far sooner).
* **Bots decide from their view only** (``view_for(state, seat)``), with the level's own choices
  seeded from that view, so a run replays exactly.
* **The interval** is Wilson's score interval at 95% over the matches played (:func:`wilson`).
* **Decision time** is measured around each ``choose_move`` call: the thread's CPU time
  (``thread_time``: the bot's own work, which the 50 ms target is checked against) and the wall
  clock (``perf_counter``: what a player waits for, which on a busy machine also counts the wait
  for a free core; the load average is printed beside it).

>>> low, high = wilson(50, 100)
>>> round(low, 4), round(high, 4)
(0.4038, 0.5962)
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..bots.levels import LEVELS, choose_move
from ..game import apply_move, new_game
from ..perspective import view_for
from ..rules import Rules, variant, variant_names

__all__ = [
    "BENCH_OPTIONS",
    "DECISION_TARGET_MS",
    "PAIRINGS",
    "TARGETS",
    "Score",
    "Timings",
    "default_games",
    "main",
    "percentile",
    "play_game",
    "play_pairing",
    "report",
    "wilson",
]

#: The options each variant's matches are played with in the bench (the defaults otherwise):
#: Remik 51 to 300 penalty points instead of 500, Remi over 6 deals instead of 8, so that a
#: match takes about a second and the bench a few minutes.
BENCH_OPTIONS: dict[str, dict[str, Any]] = {
    "remik51": {"penalty_limit": 300},
    "remi": {"rounds": 6},
}
#: The pairings played; the first level's wins are counted.
PAIRINGS: tuple[tuple[str, str], ...] = (("hard", "normal"), ("normal", "easy"))
#: The targets: (first level, second level, variants, least win rate of the first level).
TARGETS: tuple[tuple[str, str, tuple[str, ...], float], ...] = (
    ("hard", "normal", ("remik51", "remi", "gin"), 0.60),
    ("normal", "easy", tuple(variant_names()), 0.80),
)
DECISION_TARGET_MS = 50.0
#: Moves after which a match is abandoned and counted as shared.
MATCH_MOVE_CAP = 20_000
#: Matches per pairing by default: enough for an interval a few points wide where a target is set
#: or hard must show it is stronger (a gin match takes about half a second, a Remik 51 or Remi
#: match two, a Remik 40 match a tenth), so that ``make bench-bots`` takes about a quarter of an
#: hour on a free 2-core machine (``--jobs``, one process per core).
_GAMES: dict[tuple[str, str], Mapping[str, int]] = {
    ("hard", "normal"): {
        "gin": 400,
        "oklahoma": 400,
        "remi": 400,
        "remik51": 200,
        "remik40": 1000,
        "knock108": 400,
        "rummy500": 200,
    },
    ("normal", "easy"): {"gin": 100, "oklahoma": 100, "remik40": 200},
}
_DEFAULT_GAMES = 40


def default_games(name: str, first: str, second: str) -> int:
    """How many matches ``make bench-bots`` plays of ``first`` against ``second`` in ``name``."""
    games = _GAMES.get((first, second), {}).get(name, _DEFAULT_GAMES)
    return games + games % 2  # an even number: both seats for every deal


def bench_rules(name: str) -> Rules:
    return variant(name, **BENCH_OPTIONS.get(name, {}))


@dataclass
class Timings:
    """Decision times of one level, in seconds."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def add(self, other: Timings) -> None:
        self.wall.extend(other.wall)
        self.cpu.extend(other.cpu)


@dataclass
class Score:
    """One pairing's results: the first level's points (a win 1, a shared win 1/2) over matches."""

    first: str
    second: str
    points: float = 0.0
    wins: int = 0
    losses: int = 0
    shared: int = 0
    games: int = 0
    rounds: int = 0
    capped: int = 0
    timings: dict[str, Timings] = field(default_factory=dict)

    def rate(self) -> float:
        return self.points / self.games if self.games else 0.0


def percentile(samples: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``samples`` (nearest rank)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def wilson(points: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a proportion (``points`` successes out of ``games``)."""
    if games == 0:
        return 0.0, 1.0
    p = points / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


#: What one match gives: winners, deals played, moves, decision times by level.
_Played = tuple[tuple[int, ...], int, int, dict[str, Timings]]


def play_game(rules: Rules, levels: Sequence[str], seed: int) -> _Played:
    """One match with ``levels[seat]`` in each seat.

    Returns (winners, deals played, moves, decision times by level); no winners if capped.
    """
    state = new_game(rules, len(levels), seed=seed)
    timings = {level: Timings() for level in levels}
    moves = 0
    while state.phase != "over" and moves < MATCH_MOVE_CAP:
        seat = state.turn
        view = view_for(state, seat)
        wall, cpu = time.perf_counter(), time.thread_time()
        move = choose_move(view, levels[seat])
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        timings[levels[seat]].wall.append(wall)
        timings[levels[seat]].cpu.append(cpu)
        state = apply_move(state, seat, move).state
        moves += 1
    winners = state.winners if state.phase == "over" else ()
    return winners, len(state.results), moves, timings


def _play_planned(plan: tuple[str, tuple[str, ...], int]) -> _Played:
    """``play_game`` for one planned match (name, levels, seed): what a worker process runs."""
    name, levels, match_seed = plan
    return play_game(bench_rules(name), levels, match_seed)


def play_pairing(name: str, first: str, second: str, games: int, seed: int = 0, jobs: int = 1) -> Score:
    """``games`` matches of ``first`` against ``second``, seats alternating (see the module note).

    ``jobs`` > 1 plays the matches in that many worker processes; every match is seeded on its
    own and the results are read back in order, so the figures are the same for any ``jobs``
    (the decision times aside: processes sharing the cores wait for them).
    """
    score = Score(first, second, timings={first: Timings(), second: Timings()})
    plans = [
        (name, (second, first) if game % 2 else (first, second), seed * 1_000_000 + game // 2)
        for game in range(games)
    ]
    if jobs > 1 and games > 1:
        with ProcessPoolExecutor(max_workers=min(jobs, games)) as pool:
            played = list(pool.map(_play_planned, plans, chunksize=max(1, games // (jobs * 8))))
    else:
        played = [_play_planned(plan) for plan in plans]
    for (_, levels, _), (winners, rounds, _, timings) in zip(plans, played, strict=True):
        mine = levels.index(first)
        if not winners:
            score.points += 0.5
            score.shared += 1
            score.capped += 1
        elif mine in winners and len(winners) > 1:
            score.points += 1 / len(winners)
            score.shared += 1
        elif mine in winners:
            score.points += 1
            score.wins += 1
        else:
            score.losses += 1
        score.games += 1
        score.rounds += rounds
        for level, timing in timings.items():
            score.timings[level].add(timing)
    return score


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:  # pragma: no cover - not every platform has it
        return "unknown"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def _timing_line(label: str, timing: Timings) -> str:
    return (
        f"{label} {len(timing.wall):7d} decisions: wall median {_ms(statistics.median(timing.wall))}"
        f" / p99 {_ms(percentile(timing.wall, 0.99))} ms; CPU median {_ms(statistics.median(timing.cpu))}"
        f" / p99 {_ms(percentile(timing.cpu, 0.99))} ms"
    )


def report(
    out: TextIO,
    names: Sequence[str],
    games: int | None = None,
    pairings: Sequence[tuple[str, str]] = PAIRINGS,
    seed: int = 0,
    jobs: int = 1,
) -> dict[tuple[str, str, str], Score]:
    """Play the pairings in each variant and print the figures; ``games`` None: the default plan.

    ``jobs``: worker processes playing the matches (see :func:`play_pairing`)."""
    began = time.perf_counter()
    results: dict[tuple[str, str, str], Score] = {}
    per_level: dict[tuple[str, str], Timings] = {}
    plan = f"{games} matches per pairing" if games else "matches per pairing as planned (--games to set)"
    print(
        f"Bot tournaments, heads-up, seats alternating: {plan}; Python {sys.version.split()[0]}, seed {seed},"
        f" {jobs} worker process{'es' if jobs > 1 else ''}",
        file=out,
    )
    for name in names:
        options = BENCH_OPTIONS.get(name, {})
        shown = ", ".join(f"{k}={v}" for k, v in options.items()) or "default options"
        print(f"\n{name} ({shown}):", file=out)
        for first, second in pairings:
            t0 = time.perf_counter()
            count = games or default_games(name, first, second)
            score = play_pairing(name, first, second, count, seed, jobs)
            results[(name, first, second)] = score
            low, high = wilson(score.points, score.games)
            capped = f", {score.capped} capped" if score.capped else ""
            tally = f"{score.wins} won, {score.losses} lost, {score.shared} shared"
            print(
                f"  {first:>6} vs {second:<6} {first} wins {score.rate():6.1%}"
                f" [95% CI {low:5.1%} - {high:5.1%}]  ({tally}; {score.rounds} deals{capped};"
                f" {time.perf_counter() - t0:.0f} s)",
                file=out,
            )
            for level, times in score.timings.items():
                per_level.setdefault((name, level), Timings()).add(times)
                per_level.setdefault(("", level), Timings()).add(times)
        for level in LEVELS:
            timing = per_level.get((name, level))
            if timing is not None and timing.wall:
                print(_timing_line(f"  {level:>6}", timing), file=out)
    print("\nDecision times, all variants:", file=out)
    for level in LEVELS:
        timing = per_level.get(("", level))
        if timing is not None and timing.wall:
            print(_timing_line(f"  {level:>6}", timing), file=out)
    print("\nTargets:", file=out)
    for first, second, variants, least in TARGETS:
        for name in variants:
            got = results.get((name, first, second))
            if got is None:
                continue
            low, high = wilson(got.points, got.games)
            verdict = "met" if got.rate() >= least else "NOT MET"
            print(
                f"  {name:<9} {first} beats {second} >= {least:.0%}: {got.rate():.1%}"
                f" [{low:.1%} - {high:.1%}] {verdict}",
                file=out,
            )
    for name in [*names, ""]:
        timing = per_level.get((name, "hard"))
        if timing is None or not timing.wall:
            continue
        wall, cpu = percentile(timing.wall, 0.99) * 1000, percentile(timing.cpu, 0.99) * 1000
        verdict = "met" if cpu < DECISION_TARGET_MS else "NOT MET"
        print(
            f"  {name or 'all':<9} hard decides in p99 < {DECISION_TARGET_MS:.0f} ms of CPU:"
            f" {cpu:.1f} ms {verdict} (wall clock p99 {wall:.1f} ms, load average {_load()})",
            file=out,
        )
    print(f"\nTotal time {time.perf_counter() - began:.0f} s.", file=out)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.tools.tournament",
        description="Seeded heads-up tournaments between the bot levels: win rates with 95% (Wilson) "
        "intervals and decision times. Prints figures; asserts nothing.",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="matches per pairing and variant (default: a plan per variant)",
    )
    parser.add_argument(
        "--variants",
        nargs="+",
        choices=variant_names(),
        metavar="NAME",
        help="only these variants (default: all)",
    )
    parser.add_argument(
        "--pairings",
        nargs="+",
        choices=[f"{a}-{b}" for a in LEVELS for b in LEVELS if a != b],
        metavar="A-B",
        help="only these pairings, e.g. hard-normal normal-easy hard-easy (default: hard-normal normal-easy)",
    )
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes playing the matches (default: one per CPU); the figures do not depend on it",
    )
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    pairings: list[tuple[str, str]] = []
    for text in args.pairings or [f"{a}-{b}" for a, b in PAIRINGS]:
        first, second = text.split("-")
        pairings.append((first, second))
    report(sys.stdout, args.variants or variant_names(), args.games, pairings, args.seed, args.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
