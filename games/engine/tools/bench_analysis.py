"""The cost of analysing a round: ``python -m games.engine.tools.bench_analysis [--rounds N]``.

For each variant where the analysis is offered, plays ``--rounds`` first rounds of two-seat
matches between normal bots (seeds 0, 1, ...), then analyses seat 0's decisions with the site's
settings (:func:`games.engine.analysis.analyse_round`: ``ROUND_SAMPLES`` samples, the hard bot's
``ROUND_TOP`` moves and the one played, at most ``ROUND_PLAYOUTS`` playouts). Prints, per variant,
the CPU and wall time per round, the decisions analysed, the playouts run and how many decisions
the budget left out. Figures only, no assertions; the machine's load is printed first, because
wall times on a busy machine say little (CPU seconds are the figure to compare).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from ..analysis import ROUND_PLAYOUTS, ROUND_SAMPLES, ROUND_TOP, analyse_round
from ..bots import choose_move
from ..game import apply_move, new_game
from ..moves import Move
from ..perspective import view_for
from ..rules import variant
from ..state import GameState

#: The variants of issue 16: the opening variants, gin and its cousin, Rummy 500.
VARIANTS = ("remik51", "remi", "remik40", "gin", "oklahoma", "rummy500")


def first_round(name: str, seed: int) -> list[tuple[GameState, int | None, Move | None]]:
    """The first round of a two-seat normal-bot match: the deal, then each move's state."""
    state = new_game(variant(name), 2, seed=seed)
    steps: list[tuple[GameState, int | None, Move | None]] = [(state, None, None)]
    while not state.results and state.phase != "over":
        seat = state.turn
        move = choose_move(view_for(state, seat))
        state = apply_move(state, seat, move).state
        steps.append((state, seat, move))
    return steps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args(argv)
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} CPUs")
    print(
        f"settings: {ROUND_SAMPLES} samples, the hard bot's top {ROUND_TOP} and the move played,"
        f" at most {ROUND_PLAYOUTS} playouts a round"
    )
    heads = ("CPU s/round", "max", "wall s", "decisions", "playouts", "over budget")
    print(f"{'variant':<10} " + " ".join(f"{head:>{max(len(head), 6)}}" for head in heads))
    for name in args.variants.split(","):
        cpu: list[float] = []
        wall: list[float] = []
        decided = playouts = left = 0
        for seed in range(args.rounds):
            steps = first_round(name, seed)
            started, started_cpu = time.perf_counter(), time.process_time()
            report = analyse_round(steps, 0, seed=seed)
            cpu.append(time.process_time() - started_cpu)
            wall.append(time.perf_counter() - started)
            decided += len(report.decisions)
            playouts += report.playouts
            left += len(report.unanalysed)
        n = args.rounds
        print(
            f"{name:<10} {statistics.mean(cpu):>11.1f} {max(cpu):>6.1f} {statistics.mean(wall):>6.1f}"
            f" {decided / n:>9.1f} {playouts / n:>8.0f} {left / n:>11.1f}"
        )


if __name__ == "__main__":
    main()
