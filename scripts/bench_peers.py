#!/usr/bin/env python
"""The rules engine beside OpenSpiel, measured in one run: ``make bench-peers``.

It prints figures and asserts nothing (docs/benchmarks.md, "Gin random play beside OpenSpiel"). OpenSpiel
(``open_spiel`` from PyPI, pinned in ``scripts/peers-requirements.txt``) lives in a virtual
environment of its own (``build/peers-venv``, made by the make target); it is never a dependency of
the site. This script runs under the site's environment and starts every measurement as a process
of its own, ours under this Python and OpenSpiel's under ``--peers-python``, one after the other
and in a rotating order, ``--rounds`` times. Each process counts only its own CPU time
(``time.process_time``) over its loop, so the figures hold when other programs share the machine;
the ratios are taken round by round (neighbouring processes) and their median printed.

* **Gin random play**, full deals (the deal, the up-card offer, the turns, the knock and the
  reply, or a void deal) with every move uniform over the legal ones: ours
  (``games.engine.tools.bench.play_gin_deals``: ``new_game``, ``legal_moves``, ``apply_move``),
  OpenSpiel's C++ loop (``pyspiel.evaluate_bots`` with two uniform random bots, chance outcomes
  sampled by it) and a Python loop over OpenSpiel's game (``legal_actions``, ``apply_action``,
  chance outcomes drawn uniformly in Python). Deals per CPU-second, and moves per deal (OpenSpiel's
  player actions, its chance outcomes apart).
* **Best deadwood after a discard of an 11-card hand** (the knock check): ours
  (``deadwood_after_discard``, from ``Card`` objects and on card masks) against OpenSpiel's
  ``min_deadwood`` of each of the 11 ten-card hands a discard leaves, its minimum taken (OpenSpiel's
  own 11-card ``min_deadwood`` discards the highest loose card of one best arrangement, which is not
  always the best discard), on the same hands (random hands of the pack, and meld-dense ones from a
  window of 5 ranks). Each hand is timed with ``perf_counter_ns``, the fastest of 3, the garbage
  collector off; both sides' answers are compared hand by hand and the disagreements counted.
* **Rummy, ours alone**: Remik 51 and Remi random play, 4 seats, rounds per CPU-second (the moves of
  ``games.engine.tools.bench.random_chooser``), and the opening hint of a new hand
  (``opening_progress``: its best arrangement and ``find_opening``) in milliseconds, over the hands
  of fresh 4-seat Remik 51 deals.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: OpenSpiel's card numbering (``gin_rummy_utils``): suit * 13 + rank, suits ``scdh``, ranks ace low.
SPIEL_SUITS = "SCDH"
RANKS = "A23456789TJQK"


# --- the hands both sides time -------------------------------------------------------------------


def deadwood_hands(kind: str, count: int, seed: int) -> list[list[int]]:
    """``count`` 11-card hands as OpenSpiel card numbers: random, or from a window of 5 ranks."""
    rng = random.Random(f"peers:{kind}:{seed}")
    hands = []
    for _ in range(count):
        if kind == "random":
            hands.append(rng.sample(range(52), 11))
        else:
            low = rng.randint(0, 8)
            window = [suit * 13 + rank for suit in range(4) for rank in range(low, low + 5)]
            hands.append(rng.sample(window, 11))
    return hands


def timed_per_item(
    function: Callable[[Any], int], items: Sequence[Any], repeat: int
) -> tuple[list[float], list[int]]:
    """Each item timed ``repeat`` times (``perf_counter_ns``, the fastest kept, GC off): the times
    in microseconds and the function's answers."""
    times: list[float] = []
    answers: list[int] = []
    clock = time.perf_counter_ns
    collecting = gc.isenabled()
    gc.disable()
    try:
        for item in items:
            best = 1 << 62
            answer = 0
            for _ in range(repeat):
                begin = clock()
                answer = function(item)
                best = min(best, clock() - begin)
            times.append(best / 1000)
            answers.append(answer)
    finally:
        if collecting:
            gc.enable()
    return times, answers


def summary(times: Sequence[float]) -> dict[str, float]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {"median": statistics.median(ordered), "p99": p99}


# --- workers: each runs in a process of its own and prints one JSON line --------------------------


def work_ours_gin(deals: int, seed: int, root: str) -> dict[str, Any]:
    sys.path.insert(0, root)
    from games.engine.rules import variant
    from games.engine.tools.bench import play_gin_deals

    figures, cpu = play_gin_deals(variant("gin"), deals, seed=seed)
    return {"deals": figures.rounds, "moves": figures.moves, "cpu": cpu, "wall": figures.seconds}


def work_spiel_cpp(deals: int, seed: int) -> dict[str, Any]:
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("gin_rummy")
    bots = [pyspiel.make_uniform_random_bot(player, seed + player) for player in range(2)]
    states = []
    start, cpu = time.perf_counter(), time.process_time()
    for k in range(deals):
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, bots, seed * 100_000 + k)
        states.append(state)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - start
    moves = chance = 0
    for state in states:  # counted after the clock: the deals as evaluate_bots left them
        for item in state.full_history():
            if item.player == pyspiel.PlayerId.CHANCE:
                chance += 1
            else:
                moves += 1
    return {"deals": deals, "moves": moves, "chance": chance, "cpu": cpu, "wall": wall}


def work_spiel_python(deals: int, seed: int) -> dict[str, Any]:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    choice = rng.choice
    moves = chance = 0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = choice(state.chance_outcomes())[0]  # gin's chance outcomes are equally likely
                chance += 1
            else:
                action = choice(state.legal_actions())
                moves += 1
            state.apply_action(action)
    cpu = time.process_time() - cpu
    return {"deals": deals, "moves": moves, "chance": chance, "cpu": cpu, "wall": time.perf_counter() - start}


def work_ours_deadwood(hands: list[list[int]], repeat: int) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from games.engine.cards import Card
    from games.engine.gin.deadwood import deadwood_after_discard, mask_of
    from games.engine.gin.rules import PACK

    by_face = {card.face: card for card in PACK}
    cards = [[by_face[RANKS[n % 13] + SPIEL_SUITS[n // 13]] for n in hand] for hand in hands]
    masks = [mask_of(hand) for hand in cards]

    def from_cards(hand: list[Card]) -> int:
        return deadwood_after_discard(mask_of(hand))

    times, answers = timed_per_item(from_cards, cards, repeat)
    on_masks, _ = timed_per_item(deadwood_after_discard, masks, repeat)
    return {"from_cards": summary(times), "on_masks": summary(on_masks), "answers": answers}


def work_spiel_deadwood(hands: list[list[int]], repeat: int) -> dict[str, Any]:
    import pyspiel

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    min_deadwood = utils.min_deadwood

    def best_after_discard(hand: list[int]) -> int:
        return min(min_deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))

    times, answers = timed_per_item(best_after_discard, hands, repeat)
    return {"after_discard": summary(times), "answers": answers}


def work_ours_rummy(rounds: int, hands: int, seed: int) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from games.engine.game import new_game
    from games.engine.rules import variant
    from games.engine.rummy.moves import opening_progress
    from games.engine.tools.bench import Table, play_rounds, random_chooser

    out: dict[str, Any] = {}
    for label, rules in (("remik51", variant("remik51")), ("remi", variant("remi"))):
        cpu = time.process_time()
        figures = play_rounds(Table(label, rules, 4), rounds, random_chooser(random.Random(seed)), seed=seed)
        cpu = time.process_time() - cpu
        out[label] = {"rounds": figures.rounds, "moves": figures.moves, "cpu": cpu, "capped": figures.capped}
    rules = variant("remik51")
    times: list[float] = []
    deal = 0
    while len(times) < hands:
        state = new_game(rules, 4, seed=f"peers-opening:{seed}:{deal}")
        deal += 1
        for seat in range(4):
            begin = time.process_time_ns()
            opening_progress(state, seat)  # a new hand: the memo has not seen it
            times.append((time.process_time_ns() - begin) / 1e6)
    out["opening"] = summary(times[:hands]) | {"hands": hands}
    return out


def worker(args: argparse.Namespace) -> None:
    task = json.loads(sys.stdin.read())
    kind = args.worker
    if kind == "ours-gin":
        result = work_ours_gin(task["deals"], task["seed"], task.get("root", str(ROOT)))
    elif kind == "spiel-cpp":
        result = work_spiel_cpp(task["deals"], task["seed"])
    elif kind == "spiel-python":
        result = work_spiel_python(task["deals"], task["seed"])
    elif kind == "ours-deadwood":
        result = work_ours_deadwood(task["hands"], task["repeat"])
    elif kind == "spiel-deadwood":
        result = work_spiel_deadwood(task["hands"], task["repeat"])
    elif kind == "ours-rummy":
        result = work_ours_rummy(task["rounds"], task["hands"], task["seed"])
    else:
        raise SystemExit(f"unknown worker {kind!r}")
    print(json.dumps(result))


# --- the run --------------------------------------------------------------------------------------


def run_worker(python: str, kind: str, task: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run(
        [python, str(Path(__file__).resolve()), "--worker", kind],
        input=json.dumps(task),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{kind} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _rows(rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [cell.ljust(widths[0]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)]
        print("  " + "  ".join(cells))


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def spread(values: Sequence[float], digits: int = 0) -> str:
    """The median and the range: ``1,234 (1,100-1,300)``."""
    return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f}-{max(values):,.{digits}f})"


def peers_version(python: str) -> str:
    done = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(m.version('open_spiel'))"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or "?"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument(
        "--peers-python", default=str(ROOT / "build/peers-venv/bin/python"), help="a Python with open_spiel"
    )
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="another checkout (its games/ package): its engine plays gin in the same rounds too",
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds of alternating processes")
    parser.add_argument(
        "--deals", type=int, default=1500, help="gin deals per process (ours, OpenSpiel's C++ loop)"
    )
    parser.add_argument(
        "--python-deals", type=int, default=300, help="gin deals per process of the Python loop"
    )
    parser.add_argument("--hands", type=int, default=2000, help="11-card hands per kind for the deadwood")
    parser.add_argument("--rummy-rounds", type=int, default=12, help="4-seat rounds per rummy variant")
    parser.add_argument(
        "--opening-hands", type=int, default=400, help="new Remik 51 hands for the opening hint"
    )
    parser.add_argument(
        "--quick", action="store_true", help="2 rounds, a fifth of the work: a check that it runs"
    )
    args = parser.parse_args(argv)
    if args.worker:
        worker(args)
        return 0
    if args.quick:
        args.rounds = 2
        args.deals //= 5
        args.python_deals //= 5
        args.hands //= 5
        args.rummy_rounds //= 4
        args.opening_hands //= 4
    ours, peers = sys.executable, args.peers_python
    if not Path(peers).exists():
        raise SystemExit(f"no {peers}: `make bench-peers` builds it (build/peers-venv, open_spiel from PyPI)")
    began = time.perf_counter()
    print(
        f"The engine beside OpenSpiel {peers_version(peers)} ({args.rounds} rounds of alternating processes; "
        f"Python {sys.version.split()[0]}; load average at the start {load()})"
    )

    kinds = [
        ("ours", ours, "ours-gin", args.deals, str(ROOT)),
        ("OpenSpiel C++ loop", peers, "spiel-cpp", args.deals, ""),
        ("OpenSpiel Python loop", peers, "spiel-python", args.python_deals, ""),
    ]
    if args.before:
        kinds.append(
            ("ours before (--before)", ours, "ours-gin", args.deals, str(Path(args.before).resolve()))
        )
    figures: dict[str, list[dict[str, Any]]] = {label: [] for label, *_ in kinds}
    for r in range(args.rounds):
        order = kinds[r % len(kinds) :] + kinds[: r % len(kinds)]
        for label, python, kind, deals, root in order:
            task = {"deals": deals, "seed": 2026 + r, "root": root}
            figures[label].append(run_worker(python, kind, task))
    rate = {label: [f["deals"] / f["cpu"] for f in runs] for label, runs in figures.items()}
    print(
        "\nGin random play, full deals, every move uniform over the legal ones "
        f"({args.deals:,} deals a process; the Python loop {args.python_deals:,}):"
    )
    rows = [["", "deals/CPU-s: median (range)", "moves/deal", "ours ÷ this, round by round: median (range)"]]
    for label, runs in figures.items():
        moves = sum(f["moves"] for f in runs) / sum(f["deals"] for f in runs)
        chance = sum(f.get("chance", 0) for f in runs) / sum(f["deals"] for f in runs)
        ratios = [a / b for a, b in zip(rate["ours"], rate[label], strict=True)]
        rows.append(
            [
                label,
                spread(rate[label]),
                f"{moves:.1f}" + (f" (+{chance:.0f} chance)" if chance else ""),
                "" if label == "ours" else spread(ratios, 2) + " x",
            ]
        )
    _rows(rows)

    print(
        f"\nBest deadwood after a discard, 11-card hands, µs ({args.hands:,} hands a kind, the fastest of 3 "
        "timings a hand, GC off; median / p99):"
    )
    rows = [
        [
            "hands",
            "ours from cards",
            "ours on masks",
            "OpenSpiel min_deadwood x 11",
            "OpenSpiel ÷ ours (cards)",
            "disagree",
        ]
    ]
    for kind in ("random", "meld-dense"):
        hands = deadwood_hands(kind, args.hands, 2026)
        task = {"hands": hands, "repeat": 3}
        mine = run_worker(ours, "ours-deadwood", task)
        theirs = run_worker(peers, "spiel-deadwood", task)
        mine2 = run_worker(ours, "ours-deadwood", task)  # ours again after theirs: the neighbours of one run
        cards = min(mine["from_cards"]["median"], mine2["from_cards"]["median"])
        masks = min(mine["on_masks"]["median"], mine2["on_masks"]["median"])
        cards_p99 = min(mine["from_cards"]["p99"], mine2["from_cards"]["p99"])
        masks_p99 = min(mine["on_masks"]["p99"], mine2["on_masks"]["p99"])
        other = theirs["after_discard"]
        disagree = sum(a != b for a, b in zip(mine["answers"], theirs["answers"], strict=True))
        rows.append(
            [
                kind,
                f"{cards:.2f} / {cards_p99:.2f}",
                f"{masks:.2f} / {masks_p99:.2f}",
                f"{other['median']:.2f} / {other['p99']:.2f}",
                f"{other['median'] / cards:.1f} x",
                str(disagree),
            ]
        )
    _rows(rows)

    rummy = run_worker(
        ours, "ours-rummy", {"rounds": args.rummy_rounds, "hands": args.opening_hands, "seed": 7}
    )
    print(
        f"\nRummy, ours ({args.rummy_rounds} first rounds of fresh 4-seat matches each, random legal play):"
    )
    rows = [["variant", "rounds/CPU-s", "moves/round", "capped"]]
    for label in ("remik51", "remi"):
        f = rummy[label]
        rows.append(
            [label, f"{f['rounds'] / f['cpu']:.1f}", f"{f['moves'] / f['rounds']:.0f}", str(f["capped"])]
        )
    _rows(rows)
    opening = rummy["opening"]
    print(
        f"  opening hint of a new Remik 51 hand (opening_progress: best arrangement + find_opening), "
        f"{opening['hands']} hands, CPU ms: median {opening['median']:.3f}, p99 {opening['p99']:.3f}"
    )

    ratio = statistics.median(a / b for a, b in zip(rate["ours"], rate["OpenSpiel C++ loop"], strict=True))
    print(
        f"\nPeer ratio (targets: ≥ 3x OpenSpiel's C++ loop in gin deals per CPU-second, deadwood ≥ 5x): "
        f"{ratio:.2f}x the C++ loop; load average at the end {load()}; "
        f"{time.perf_counter() - began:.0f} s."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
