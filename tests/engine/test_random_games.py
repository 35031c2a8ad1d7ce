"""Random games: a Hypothesis state machine per variant, fixed-seed random rounds, and a soak run.

Each step plays moves chosen from ``legal_moves`` (sometimes preferring plays and takes), and the
invariants are checked after every step: card conservation, sane hand sizes, a valid phase, and
totals that are the running sum of the round lines.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import resource
import signal
from collections import Counter
from typing import Any

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.engine import GameState, apply_move, legal_moves, new_game, position, variant
from games.engine.rules import Rules
from tests.engine.strategies import (
    RULE_SETS,
    assert_conserved,
    choose_move,
    is_composite,
    make_rules,
    too_big,
)

# --- invariants --------------------------------------------------------------------------------


def check_hand_sizes(state: GameState) -> None:
    rules = state.rules
    dealt = max(rules.hand_sizes(state.players, 0))  # the first player's hand: one more than the rest
    if state.phase == "over":
        last = state.results[-1]
        assert all(len(hand) > 0 for seat, hand in enumerate(state.hands) if seat != last.winner)
        return
    for seat, hand in enumerate(state.hands):
        assert len(hand) >= 1, f"seat {seat} holds no card during play"
        if rules.name == "remik51":
            # R51: a turn never ends with more cards than dealt (13); the seat to move holds at most
            # 14 after drawing, and 13 before.
            limit = dealt if seat == state.turn and state.phase == "play" else dealt - 1
            assert len(hand) <= limit, f"seat {seat} holds {len(hand)} cards"
        elif rules.name == "remik40":
            # R40-9/12: 13 dealt; only the seat to move may hold a 14th card, once it has drawn.
            limit = dealt + 1 if seat == state.turn and state.phase == "play" else dealt
            assert len(hand) <= limit, f"seat {seat} holds {len(hand)} cards"
        else:
            # Remi, Rummy 500: a deep take (RMI-31, R500-9) can bring many cards, never more than the pack.
            assert len(hand) <= len(rules.pack_for(state.players))
    if state.phase == "draw":
        assert state.turns_started[state.turn] >= 1


def check_phase(state: GameState, first_of_round_1: int) -> None:
    assert state.phase in ("draw", "play", "over")
    assert 0 <= state.turn < state.players
    assert 0 <= state.first < state.players
    assert [r.round_no for r in state.results] == list(range(1, len(state.results) + 1))
    if state.phase == "over":
        assert state.round_no == len(state.results)
        if all(result.ended == "void" for result in state.results):
            # R40-Q15, R51-Q9, GIN-22, K108-Q16: a match whose every round ended void has no
            # winner (docs/engine.md, "No winner").
            assert state.winners == ()
            return
        assert state.winners
        best = min(state.totals) if state.rules.lower_wins else max(state.totals)
        assert state.winners == tuple(s for s, t in enumerate(state.totals) if t == best)
        return
    assert state.winners == ()
    assert state.round_no == len(state.results) + 1
    # R51-14, RMI-Q1: the first player moves on one seat each round.
    assert state.first == (first_of_round_1 + state.round_no - 1) % state.players
    assert state.turns_started[state.turn] >= 1
    if state.rules.has_atu:
        assert state.cycle.atu is not None
    else:
        assert state.cycle.atu is None
    assert all(0 <= m.owner < state.players for m in state.melds)
    assert len({m.id for m in state.melds}) == len(state.melds)


def check_totals(state: GameState) -> None:
    running = [0] * state.players
    for result in state.results:
        assert len(result.lines) == state.players
        for line in result.lines:
            running[line.seat] += line.points
        assert list(result.totals) == running
    assert list(state.totals) == running
    for result in state.results:
        if state.rules.name in ("remik51", "remik40"):
            assert all(line.points >= 0 for line in result.lines)  # penalty points only
            if result.winner is not None:
                assert result.lines[result.winner].points == 0


def check_all(state: GameState, first_of_round_1: int) -> None:
    assert_conserved(state)
    check_hand_sizes(state)
    check_phase(state, first_of_round_1)
    check_totals(state)


# --- the state machine -------------------------------------------------------------------------


@st.composite
def game_configs(draw: st.DrawFn, name: str) -> tuple[Rules, int, int, int]:
    pairs = [pair for pair in RULE_SETS if pair[0] == name]
    rules = make_rules(*draw(st.sampled_from(pairs)))
    players = draw(st.integers(rules.min_players, rules.max_players))
    return rules, players, draw(st.integers(0, 2**64)), draw(st.integers(0, 2**32))


def game_machine(name: str) -> type[RuleBasedStateMachine]:
    class RandomGame(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.state: GameState
            self.rng = random.Random(0)
            self.first = 0
            self.seed = 0

        def _start(self, rules: Rules, players: int, seed: int) -> None:
            self.state = new_game(rules, players, seed)
            self.first = self.state.first
            self.seed = seed

        def _apply(self, move: Any) -> None:
            self.state = apply_move(self.state, self.state.turn, move).state
            if too_big(self.state):  # see strategies.HUGE_HAND (a huge hand is slow)
                self._start(self.state.rules, self.state.players, self.seed + 1)

        @initialize(config=game_configs(name))
        def deal(self, config: tuple[Rules, int, int, int]) -> None:
            rules, players, seed, choice_seed = config
            self._start(rules, players, seed)
            self.rng = random.Random(choice_seed)

        @precondition(lambda self: self.state.phase != "over")
        @rule(pick=st.integers(0, 2**16))
        def any_legal_move(self, pick: int) -> None:
            moves = legal_moves(self.state, self.state.turn)
            self._apply(moves[pick % len(moves)])

        @precondition(lambda self: self.state.phase != "over")
        @rule(pick=st.integers(0, 2**16))
        def a_play_or_take_when_there_is_one(self, pick: int) -> None:
            moves = legal_moves(self.state, self.state.turn)
            composite = [m for m in moves if is_composite(m)] or moves
            self._apply(composite[pick % len(composite)])

        @precondition(lambda self: self.state.phase != "over")
        @rule(prefer_play=st.sampled_from([0.0, 0.7, 1.0]))
        def a_whole_turn(self, prefer_play: float) -> None:
            seat, rounds = self.state.turn, len(self.state.results)
            while (
                self.state.turn == seat and len(self.state.results) == rounds and self.state.phase != "over"
            ):
                self._apply(choose_move(legal_moves(self.state, seat), self.rng, prefer_play))

        @precondition(lambda self: self.state.phase != "over")
        @rule(moves=st.integers(1, 40))
        def many_moves_preferring_plays(self, moves: int) -> None:
            for _ in range(moves):
                if self.state.phase == "over":
                    break
                self._apply(choose_move(legal_moves(self.state, self.state.turn), self.rng, 0.9))
                assert_conserved(self.state)

        @precondition(lambda self: self.state.phase == "over")
        @rule()
        def a_new_match(self) -> None:
            self._start(self.state.rules, self.state.players, self.seed + 1)

        @invariant()
        def cards_are_conserved(self) -> None:
            assert_conserved(self.state)

        @invariant()
        def hand_sizes_are_sane(self) -> None:
            check_hand_sizes(self.state)

        @invariant()
        def phase_is_valid(self) -> None:
            check_phase(self.state, self.first)

        @invariant()
        def totals_are_consistent(self) -> None:
            check_totals(self.state)

    RandomGame.__name__ = RandomGame.__qualname__ = f"RandomGame_{name}"
    return RandomGame


TestRandomRemik51Games = game_machine("remik51").TestCase
TestRandomRemiGames = game_machine("remi").TestCase
TestRandomRummy500Games = game_machine("rummy500").TestCase
TestRandomRemik40Games = game_machine("remik40").TestCase


# --- fixed seeds, to a scored end --------------------------------------------------------------

#: A round that random play has not finished after this many moves is a bug (R51 keeps reshuffling
#: but random players go out long before; a Remi round always ends when the stock runs out).
MOVE_CAP = 5000


def play_rounds(rules: Rules, players: int, seed: int, rounds: int, prefer_play: float) -> GameState:
    """Play ``rounds`` random rounds (or until the match ends), checking the invariants after every
    move. A game that reaches a huge hand (see ``strategies.HUGE_HAND``) is abandoned for another seed.
    """
    for attempt in range(20):
        state = _play_rounds_once(rules, players, seed + 7919 * attempt, rounds, prefer_play)
        if state is not None:
            return state
    raise AssertionError("every game reached a huge hand")


def _play_rounds_once(
    rules: Rules, players: int, seed: int, rounds: int, prefer_play: float
) -> GameState | None:
    state = new_game(rules, players, seed)
    first = state.first
    rng = random.Random(seed)
    moves = 0
    done = len(state.results)
    while len(state.results) < rounds and state.phase != "over":
        move = choose_move(legal_moves(state, state.turn), rng, prefer_play)
        state = apply_move(state, state.turn, move).state
        moves += 1
        assert_conserved(state)
        if too_big(state):  # see strategies.HUGE_HAND (a huge hand is slow)
            return None
        if len(state.results) > done:
            done = len(state.results)
            moves = 0
            check_all(state, first)
        assert moves < MOVE_CAP, f"round {state.round_no} not over after {MOVE_CAP} random moves"
    check_all(state, first)
    return state


FIXED = [
    pytest.param(
        name,
        options,
        seed,
        id=f"{name}-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'default'}-{seed}",
    )
    for name, options in RULE_SETS
    for seed in (1, 2)
]


@pytest.mark.parametrize(("name", "options", "seed"), FIXED)
def test_random_rounds_with_fixed_seeds_play_to_a_scored_end(
    name: str, options: dict[str, Any], seed: int
) -> None:
    rules = make_rules(name, options)
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    state = play_rounds(rules, players, seed, rounds=2, prefer_play=0.5 + 0.4 * (seed % 2))
    assert state.results, "no round was scored"
    ends = Counter(r.ended for r in state.results)
    assert set(ends) <= {"went_out", "stock_out", "void"}


# --- a reachable huge hand ---------------------------------------------------------------------

#: Seat 0's hand in the state reached by
#: ``play(Recipe(variant='remi', options=(('opening', '51'),), players=2, seed=2086601678041635348,
#: first=None, choice_seed=1448322140, prefer_play=0.6, max_moves=155, until_rounds=2))``: after a deep
#: take of 21 pieces from the row (RMI-31: every piece above the chosen one comes along) the seat that
#: has opened holds 59 cards and is in its play phase.
HUGE_REMI_HAND = (
    "JK#2 3C#2 5C#2 7C#1 9C#2 9C#1 AC#1 JC#2 JC#1 KC#1 KC#2 QC#1 QC#2 TC#2 TC#1 2D#2 3D#1 3D#2 4D#1 6D#2 "
    "7D#2 7D#1 8D#1 8D#2 AD#2 KD#1 2H#1 2H#2 3H#1 4H#2 4H#1 6H#2 6H#1 7H#1 8H#1 9H#2 AH#1 AH#2 KH#1 KH#2 "
    "TH#2 TH#1 2S#2 3S#2 4S#2 4S#1 6S#2 6S#1 7S#2 7S#1 8S#2 9S#2 9S#1 AS#1 KS#2 KS#1 QS#2 TS#1 TS#2"
)
LEGAL_MOVES_BUDGET = 5  # CPU seconds; a turn timer is in this range, and the search should take far less


def _legal_moves_within_cpu_budget(state: GameState) -> None:
    # The kernel stops the child (SIGXCPU) once it has used the budget of CPU time: a bound on the
    # work done, which a crowded machine does not change (wall time would: docs/testing.md).
    resource.setrlimit(resource.RLIMIT_CPU, (LEGAL_MOVES_BUDGET, LEGAL_MOVES_BUDGET + 1))
    legal_moves(state, 0)


def test_legal_moves_answers_in_seconds_for_a_59_card_remi_hand() -> None:
    """``legal_moves`` must answer for every reachable state; bots and hints call it every turn.

    It runs in a child process limited to LEGAL_MOVES_BUDGET seconds of CPU time, so that a slow
    search is stopped instead of hanging the suite (before commit 6ea7c46 it took minutes and
    gigabytes on this hand).
    """
    state = position(
        variant("remi", opening="51"),
        hands=[HUGE_REMI_HAND, "6C#1 5C#1 2S#1 9H#1 JS#1 AS#2 4D#2 QD#1 8C#2 8C#1 AC#2 6D#1 JK#1 9D#1"],
        melds=[(0, "JD#1 QD#2 KD#2 AD#1"), (0, "2C#2 3C#1 4C#1"), (0, "5S#2 5H#2 5D#1")],
        atu="2D#1",
        turn=0,
        phase="play",
    )
    assert len(state.hands[0]) == 59
    assert_conserved(state)
    worker = multiprocessing.get_context("fork").Process(target=_legal_moves_within_cpu_budget, args=(state,))
    worker.start()
    worker.join(600)  # a hang guard only: the CPU limit is what the test checks
    if worker.is_alive():
        worker.kill()
        worker.join()
    assert worker.exitcode == 0, (
        f"legal_moves did not answer within {LEGAL_MOVES_BUDGET} CPU seconds for a 59-card hand "
        f"(exit code {worker.exitcode}; -{int(signal.SIGXCPU)} is the CPU limit)"
    )


# --- soak --------------------------------------------------------------------------------------

SOAK_ROUNDS = int(os.environ.get("SOAK_ROUNDS", "2000"))


@pytest.mark.soak
@pytest.mark.skipif(os.environ.get("SOAK") != "1", reason="soak run: set SOAK=1 (make soak)")
@pytest.mark.parametrize(
    ("name", "options"),
    [
        pytest.param(n, o, id=f"{n}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}")
        for n, o in RULE_SETS
    ],
)
def test_soak_thousands_of_random_rounds(name: str, options: dict[str, Any]) -> None:
    rules = make_rules(name, options)
    rounds = 0
    seed = 10_000
    while rounds < SOAK_ROUNDS:
        seed += 1
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        state = play_rounds(
            rules,
            players,
            seed,
            rounds=min(5, SOAK_ROUNDS - rounds),
            prefer_play=0.2 + (seed % 8) / 10,
        )
        rounds += len(state.results)
