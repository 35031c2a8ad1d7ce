"""Do the analysis's verdicts hold on a 20x longer evaluation?
``python -m games.engine.tools.bench_analysis_agreement [--decisions 200] [--scale 20]``.

Records the decisions of seat 0 in the first rounds of two-seat normal-bot games (seeds 0, 1, ...)
of three variants, in turn, until ``--decisions`` are gathered (forced moves are not decisions).
Each is judged twice by :func:`games.engine.analysis.assess`: as the site does (its settings,
seed ``short/...``), and by an evaluation ``--scale`` times longer (``--scale`` times the
screening samples and the confirmation batch, the same looks; seed ``long/...``: other deals).
Prints, per variant and in all: how often the two verdicts are the same, how often the site's
verdict is contradicted (it said good, questionable or mistake and the long one said another of
the three), how often it said "unclear", the jokers thrown away called good, and the CPU seconds.
Figures only, no assertions (docs/benchmarks.md, "Analysis verdicts against a long evaluation").
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter

from ..analysis import CONFIRM_BATCH, ROUND_SAMPLES, ROUND_TOP, alternatives, assess, move_key, throws_joker
from ..bots import choose_move
from ..game import apply_move, new_game
from ..moves import Move
from ..perspective import view_for
from ..rules import variant
from ..state import GameState

VARIANTS = ("gin", "oklahoma", "knock108")


def decisions(name: str, wanted: int) -> list[tuple[GameState, Move, list[Move], int]]:
    """Seat 0's decisions (state, move played, alternatives, game seed) in normal-bot games."""
    found: list[tuple[GameState, Move, list[Move], int]] = []
    seed = 0
    while len(found) < wanted:
        state = new_game(variant(name), 2, seed=seed)
        while not state.results and state.phase != "over" and len(found) < wanted:
            seat = state.turn
            move = choose_move(view_for(state, seat))
            if seat == 0:
                moves = alternatives(state, 0, top=ROUND_TOP, every_discard=False)
                if move_key(move) not in {move_key(m) for m in moves}:
                    moves.append(move)
                if len(moves) >= 2:
                    found.append((state, move, moves, seed))
            state = apply_move(state, seat, move).state
        seed += 1
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--scale", type=int, default=20)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args(argv)
    names = args.variants.split(",")
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} CPUs")
    print(f"short: {ROUND_SAMPLES} screening samples, batches of {CONFIRM_BATCH}; long: {args.scale}x both")
    share = [args.decisions // len(names) + (i < args.decisions % len(names)) for i in range(len(names))]
    totals: Counter[str] = Counter()
    pairs: Counter[tuple[str, str]] = Counter()
    heads = ("decisions", "same", "contradicted", "unclear", "joker good", "CPU short", "CPU long")
    print(f"{'variant':<10} " + " ".join(f"{h:>12}" for h in heads))
    for name, wanted in zip(names, share, strict=True):
        row: Counter[str] = Counter()
        cpu_short = cpu_long = 0.0
        for number, (state, played, moves, game) in enumerate(decisions(name, wanted)):
            started = time.process_time()
            short = assess(state, 0, played, moves, seed=f"short/{name}/{game}/{number}")
            cpu_short += time.process_time() - started
            started = time.process_time()
            long = assess(
                state,
                0,
                played,
                moves,
                seed=f"long/{name}/{game}/{number}",
                samples=ROUND_SAMPLES * args.scale,
                batch=CONFIRM_BATCH * args.scale,
            )
            cpu_long += time.process_time() - started
            if short is None or long is None:
                continue
            row["decisions"] += 1
            pairs[(short.verdict, long.verdict)] += 1
            row["same"] += short.verdict == long.verdict
            row["contradicted"] += (
                short.verdict != "unclear" and long.verdict != "unclear" and short.verdict != long.verdict
            )
            row["unclear"] += short.verdict == "unclear"
            row["joker good"] += throws_joker(state, played) and short.verdict == "good"
            if row["decisions"] % 10 == 0:
                print(f"  {name}: {row['decisions']} decisions so far, {dict(pairs)}", flush=True)
        totals.update(row)
        n = max(1, row["decisions"])
        print(
            f"{name:<10} {row['decisions']:>12} {row['same'] / n:>12.1%} {row['contradicted'] / n:>12.1%}"
            f" {row['unclear'] / n:>12.1%} {row['joker good']:>12} {cpu_short:>12.1f} {cpu_long:>12.1f}"
        )
    n = max(1, totals["decisions"])
    print(
        f"{'all':<10} {totals['decisions']:>12} {totals['same'] / n:>12.1%}"
        f" {totals['contradicted'] / n:>12.1%}"
        f" {totals['unclear'] / n:>12.1%} {totals['joker good']:>12}"
    )
    print(f"agreement (the site's verdict not contradicted): {1 - totals['contradicted'] / n:.1%}")
    print(
        "site's verdict -> long verdict: "
        + ", ".join(f"{s}->{lg} {c}" for (s, lg), c in sorted(pairs.items()))
    )


if __name__ == "__main__":
    main()
