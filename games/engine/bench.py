"""Benchmarks of the rules engine: ``python -m games.engine.bench [--quick]``.

Prints figures only (no assertions):

* random legal play: rounds per second for each table below, where each move is picked uniformly
  from ``legal_moves`` (preferring a play or a take with some probability, so rounds end);
* bot against bot: rounds per second with :mod:`games.engine.bots.basic` in every seat;
* ``best_melds``: median and 99th percentile in milliseconds, for 13-, 14- and 15-card hands with
  0 to 4 jokers (Remik 51) or 0 to 2 (Remi), over random hands from the pack and over meld-dense
  hands (built from runs and sets plus jokers), and the 15-card, 4-joker p99 against the 5 ms target.

Every random choice comes from ``random.Random`` with a fixed seed, so two runs play the same
games (the timings differ, of course). The full run takes about a minute; ``--quick`` a few seconds.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from .bots.basic import BasicBot
from .cards import Card
from .legal import legal_moves
from .moves import Move, Play, TakeDiscard
from .perspective import view_for
from .rules import Rules, variant
from .state import GameState
from .turn import apply_move, new_game

TARGET_MS = 5.0
#: Moves after which a round is abandoned (counted apart; random play rarely needs it).
ROUND_MOVE_CAP = 4000
#: How often random play prefers a play or a take when one is offered.
PREFER_PLAY = 0.75


@dataclass(frozen=True, slots=True)
class Table:
    label: str
    rules: Rules
    players: int


def tables() -> list[Table]:
    return [
        Table("remik51 (default)", variant("remik51"), 3),
        Table("remik51 jokers_per_deck=3", variant("remik51", jokers_per_deck=3), 3),
        Table("remi 45", variant("remi", opening="45"), 3),
        Table("remi classic", variant("remi", opening="classic"), 3),
        Table("remi short game", variant("remi", short_game=True), 2),
    ]


Chooser = Callable[[GameState, int], Move]


def random_chooser(rng: random.Random) -> Chooser:
    def choose(state: GameState, seat: int) -> Move:
        moves = legal_moves(state, seat)
        composite = [m for m in moves if isinstance(m, (Play, TakeDiscard))]
        if composite and rng.random() < PREFER_PLAY:
            return rng.choice(composite)
        return rng.choice(moves)

    return choose


def bot_chooser() -> Chooser:
    bot = BasicBot()

    def choose(state: GameState, seat: int) -> Move:
        return bot.choose_move(view_for(state, seat))

    return choose


@dataclass(frozen=True, slots=True)
class PlayFigures:
    rounds: int
    moves: int
    seconds: float
    capped: int

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds else 0.0

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0


def play_rounds(table: Table, rounds: int, chooser: Chooser, seed: int) -> PlayFigures:
    """Play the first round of ``rounds`` matches (a fresh deal each) and time them."""
    moves = capped = 0
    start = time.perf_counter()
    for k in range(rounds):
        state = new_game(table.rules, table.players, seed=seed * 1000 + k)
        played = 0
        while not state.results and state.phase != "over":
            if played >= ROUND_MOVE_CAP:
                capped += 1
                break
            seat = state.turn
            state = apply_move(state, seat, chooser(state, seat)).state
            played += 1
        moves += played
    return PlayFigures(rounds, moves, time.perf_counter() - start, capped)


# --- best_melds ------------------------------------------------------------------------------------


def random_hand(rng: random.Random, pack: Sequence[Card], size: int, jokers: int) -> list[Card]:
    naturals = [c for c in pack if not c.is_joker]
    wild = [c for c in pack if c.is_joker]
    return rng.sample(naturals, size - jokers) + wild[:jokers]


def dense_hand(rng: random.Random, pack: Sequence[Card], size: int, jokers: int) -> list[Card]:
    """A hand made mostly of runs and sets (from the pack's free cards), topped up with jokers."""
    free: dict[str, list[Card]] = {}
    for card in pack:
        if not card.is_joker:
            free.setdefault(card.face, []).append(card)
    wild = [c for c in pack if c.is_joker]
    ranks = "A23456789TJQK"
    hand: list[Card] = []
    want = size - jokers
    while len(hand) < want:
        if rng.random() < 0.5:
            suit = rng.choice("SHDC")
            length = rng.randint(3, 5)
            start = rng.randint(0, len(ranks) - length)
            faces = [ranks[i] + suit for i in range(start, start + length)]
        else:
            rank = rng.choice(ranks)
            faces = [rank + s for s in rng.sample("SHDC", rng.randint(3, 4))]
        for face in faces:
            if len(hand) < want and free[face]:
                hand.append(free[face].pop())
    return hand + wild[:jokers]


@dataclass(frozen=True, slots=True)
class Timing:
    median_ms: float
    p99_ms: float


def time_best_melds(rules: Rules, hands: Sequence[Sequence[Card]], repeat: int = 1) -> Timing:
    """Each hand is timed ``repeat`` times and the fastest kept (with the garbage collector off),
    so the percentiles measure the hands, not the other programs sharing the machine."""
    samples = []
    collecting = gc.isenabled()
    gc.disable()
    try:
        for hand in hands:
            best = float("inf")
            for _ in range(repeat):
                start = time.perf_counter()
                rules.best_melds(hand)
                best = min(best, time.perf_counter() - start)
            samples.append(best * 1000)
    finally:
        if collecting:
            gc.enable()
    samples.sort()
    p99 = samples[min(len(samples) - 1, round(0.99 * (len(samples) - 1)))]
    return Timing(statistics.median(samples), p99)


# --- report ----------------------------------------------------------------------------------------


def _rows(out: TextIO, rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [cell.ljust(widths[0]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)]
        print("  " + "  ".join(cells), file=out)


def run(quick: bool, out: TextIO) -> None:
    random_rounds = 4 if quick else 24
    bot_rounds = 2 if quick else 12
    hands_each = 40 if quick else 300
    repeat = 1 if quick else 2
    began = time.perf_counter()
    print(
        f"Rules engine benchmark ({'quick' if quick else 'full'} run; Python {sys.version.split()[0]})",
        file=out,
    )

    print(
        f"\nRandom legal play ({random_rounds} rounds per table, first round of a fresh deal each):", file=out
    )
    rows = [["table", "players", "rounds/s", "moves/s", "moves/round", "capped"]]
    for table in tables():
        figures = play_rounds(table, random_rounds, random_chooser(random.Random(2026)), seed=1)
        rows.append(
            [
                table.label,
                str(table.players),
                f"{figures.rounds_per_second:.1f}",
                f"{figures.moves_per_second:.0f}",
                f"{figures.moves / figures.rounds:.0f}",
                str(figures.capped),
            ]
        )
    _rows(out, rows)

    print(f"\nBot against bot ({bot_rounds} rounds per table, every seat the basic bot):", file=out)
    rows = [["table", "players", "rounds/s", "moves/s", "moves/round", "capped"]]
    for table in tables():
        figures = play_rounds(table, bot_rounds, bot_chooser(), seed=2)
        rows.append(
            [
                table.label,
                str(table.players),
                f"{figures.rounds_per_second:.1f}",
                f"{figures.moves_per_second:.0f}",
                f"{figures.moves / figures.rounds:.0f}",
                str(figures.capped),
            ]
        )
    _rows(out, rows)

    how = f"the faster of {repeat} timings per hand, " if repeat > 1 else ""
    print(f"\nbest_melds, milliseconds ({hands_each} hands per cell, {how}GC off; median / p99):", file=out)
    headline: dict[str, Timing] = {}
    for name, max_jokers in (("remik51", 4), ("remi", 2)):
        rules = variant(name)
        pack = rules.pack()
        rows = [["hands", *[f"{j} JK" for j in range(max_jokers + 1)]]]
        for kind, maker in (("random", random_hand), ("meld-dense", dense_hand)):
            for size in (13, 14, 15):
                cells = []
                for jokers in range(max_jokers + 1):
                    rng = random.Random(f"{name}:{kind}:{size}:{jokers}")
                    hands = [maker(rng, pack, size, jokers) for _ in range(hands_each)]
                    timing = time_best_melds(rules, hands, repeat)
                    cells.append(f"{timing.median_ms:.2f} / {timing.p99_ms:.2f}")
                    if name == "remik51" and size == 15 and jokers == 4:
                        headline[kind] = timing
                rows.append([f"{name} {kind} {size} cards", *cells])
        _rows(out, rows)

    print("\nTarget: best_melds p99 under 5 ms for 15 cards with 4 jokers (remik51):", file=out)
    for kind, timing in headline.items():
        verdict = "within target" if timing.p99_ms <= TARGET_MS else "OVER TARGET"
        print(f"  {kind:<10} p99 {timing.p99_ms:.2f} ms vs {TARGET_MS:.0f} ms: {verdict}", file=out)
    print(f"\nTotal time {time.perf_counter() - began:.1f} s.", file=out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and hands: a few seconds")
    args = parser.parse_args(argv)
    run(args.quick, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
