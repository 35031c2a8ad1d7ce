"""The opening hint as a server process meets it: ``python -m games.engine.tools.bench_hint``.

A server process builds the opening hint (``rummy.moves.opening_progress``) of every new hand of
every table it serves, and those tables' moves interleave. This plays ``--tables`` Remik 51
tables of 4 in turn (each move a draw or a discard, chosen by a seeded generator), collects the
hand of every seat that moved, in the order a server would see them, and then times the hint of
those hands in that order, the hint's caches emptied first, once for each size of the kept
memo in ``--kept`` (``search.KEPT_POSITIONS``), the sizes alternating over ``--repeat`` rounds.

Prints, per size: the hint's CPU per hand (median of the rounds, and each round) and the memory
the memo holds at the end of a round (``tracemalloc``, in its own pass). Asserts nothing
(docs/benchmarks.md, "The opening hint's search").
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
import tracemalloc
from collections.abc import Sequence

from games.engine import apply_move, legal_moves, new_game, search, variant
from games.engine.cards import card_texts
from games.engine.moves import Discard, DrawStock
from games.engine.rules import Rules
from games.engine.rummy import moves as rummy_moves

Hand = tuple[Rules, tuple[str, ...]]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables played in turn (default 100)")
    parser.add_argument("--moves", type=int, default=60, help="moves per table (default 60)")
    parser.add_argument(
        "--kept", default="5000,50000", help="sizes of the kept memo to compare, comma-separated"
    )
    parser.add_argument("--repeat", type=int, default=3, help="rounds of alternation (default 3)")
    return parser.parse_args(argv)


def hands_in_server_order(tables: int, moves: int, seed: int = 7) -> list[Hand]:
    """The hand of each seat that moved, tables taking turns as a server's sockets do."""
    rules = variant("remik51")
    rng = random.Random(seed)
    states = [new_game(rules, 4, f"table {index}") for index in range(tables)]
    hands: list[Hand] = []
    for _ in range(moves):
        for index, state in enumerate(states):
            if state.is_over:
                continue
            legal = legal_moves(state, state.turn)
            simple = [move for move in legal if isinstance(move, DrawStock | Discard)]
            seat = state.turn
            state = states[index] = apply_move(state, seat, rng.choice(simple or legal)).state
            if not state.is_over:
                hands.append((state.rules, tuple(card_texts(state.hands[seat]))))
    return hands


def _fresh() -> None:
    rummy_moves._opening_progress.cache_clear()
    search._KEPT.clear()
    gc.collect()


def time_hints(hands: Sequence[Hand]) -> float:
    """CPU seconds per hand for the hints of ``hands`` in order, every cache empty at the start."""
    _fresh()
    started = time.process_time()
    for rules, hand in hands:
        rummy_moves._opening_progress(rules, hand)
    return (time.process_time() - started) / len(hands)


def memo_bytes(hands: Sequence[Hand]) -> int:
    """What the kept memo holds after the hints of ``hands`` (the hint's own cache emptied)."""
    _fresh()
    tracemalloc.start()
    try:
        for rules, hand in hands:
            rummy_moves._opening_progress(rules, hand)
        rummy_moves._opening_progress.cache_clear()
        gc.collect()
        return tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    sizes = [int(size) for size in args.kept.split(",")]
    hands = hands_in_server_order(args.tables, args.moves)
    print(f"{len(hands)} hands of {args.tables} Remik 51 tables of 4, {args.moves} moves each, in turn")
    kept = search.KEPT_POSITIONS
    timings: dict[int, list[float]] = {size: [] for size in sizes}
    try:
        for _ in range(args.repeat):
            for size in sizes:
                search.KEPT_POSITIONS = size
                timings[size].append(time_hints(hands))
        for size in sizes:
            search.KEPT_POSITIONS = size
            held = memo_bytes(hands) / 1e6
            rounds = ", ".join(f"{1000 * value:.3f}" for value in timings[size])
            print(
                f"kept memo of {size:>7,} positions: {1000 * statistics.median(timings[size]):.3f} ms a hand "
                f"(rounds: {rounds}); the memo holds {held:.1f} MB"
            )
    finally:
        search.KEPT_POSITIONS = kept
        _fresh()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
