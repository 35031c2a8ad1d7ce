"""The three bot levels (``easy``, ``normal``, ``hard``) of every variant.

* every level plays whole matches of every variant to their end with legal moves only;
* a bot decides from its seat's view only (RMI-NET-2): two states that show a seat the same view
  but hide different cards (other hands, stock order) get the same move from every level;
* the same view always gives the same move (the levels' random choices are seeded from the view);
* the public API: ``choose_move(view)`` is the normal bot, an unknown level is refused.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from games.engine import GameState, apply_move, new_game, variant, view_for
from games.engine.bots import (
    LEVELS,
    LUCK_LEFT_OUT,
    SEED_FIELDS,
    candidate_moves,
    choose_move,
    view_rng,
)
from games.engine.rules import variant_names
from games.engine.rummy.bots import normal

#: Short matches: every variant's match ends within a few deals.
SHORT: dict[str, dict[str, Any]] = {
    "gin": {"target": 30},
    "oklahoma": {"target": 40},
    "remi": {"rounds": 1},
    "remik51": {"penalty_limit": 60},
    "rummy500": {"target": 100},
    "remik40": {},
    "knock108": {},
}
VARIANTS = variant_names()
MOVE_CAP = 5000


def test_every_variant_has_a_short_match() -> None:
    assert sorted(SHORT) == VARIANTS


def play_match(name: str, levels: tuple[str, ...], seed: int) -> GameState:
    """A whole match with ``levels[seat]`` in each seat; every move must be legal (apply_move raises)."""
    state = new_game(variant(name, **SHORT[name]), len(levels), seed=seed)
    moves = 0
    while state.phase != "over":
        seat = state.turn
        view = view_for(state, seat)
        move = choose_move(view, level=levels[seat])
        state = apply_move(state, seat, move).state  # an illegal move raises IllegalMoveError
        moves += 1
        assert moves < MOVE_CAP, f"{name} {levels}: no end after {MOVE_CAP} moves"
    return state


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", VARIANTS)
def test_each_level_plays_whole_matches(name: str, level: str) -> None:
    state = play_match(name, (level, level), seed=7)
    assert state.phase == "over"
    assert state.winners
    assert state.results


@pytest.mark.parametrize("name", ["remik51", "remi", "rummy500", "remik40", "knock108"])
def test_the_three_levels_at_one_table(name: str) -> None:
    state = play_match(name, LEVELS, seed=3)
    assert state.phase == "over"
    assert len(state.totals) == 3


# --- the view, and nothing else ----------------------------------------------------------------


def with_hidden_cards_shuffled(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same game with what ``seat`` cannot see dealt again: the other hands' cards and the
    stock pooled, shuffled and handed back out in the same sizes."""
    pool = [card for other, hand in enumerate(state.hands) if other != seat for card in hand]
    pool += state.stock
    rng.shuffle(pool)
    hands: list[tuple[Any, ...]] = []
    at = 0
    for other, hand in enumerate(state.hands):
        if other == seat:
            hands.append(hand)
        else:
            hands.append(tuple(pool[at : at + len(hand)]))
            at += len(hand)
    return dataclasses.replace(state, hands=tuple(hands), stock=tuple(pool[at:]))


def positions(name: str, seed: int, count: int) -> list[GameState]:
    """``count`` states along a normal-bot match of ``name`` (3 seats where the variant allows)."""
    rules = variant(name, **SHORT[name])
    players = 2 if rules.max_players == 2 else 3
    state = new_game(rules, players, seed=seed)
    found: list[GameState] = []
    step = 0
    pace = random.Random(seed)
    while state.phase != "over" and len(found) < count:
        if pace.random() < 0.2:
            found.append(state)
        seat = state.turn
        state = apply_move(state, seat, normal.choose_move(view_for(state, seat))).state
        step += 1
    return found


@pytest.mark.parametrize("name", VARIANTS)
def test_a_decision_does_not_depend_on_hidden_cards(name: str) -> None:
    rng = random.Random(name)
    checked = 0
    for state in positions(name, seed=11, count=6):
        seat = state.turn
        view = view_for(state, seat)
        other = with_hidden_cards_shuffled(state, seat, rng)
        assert (other.hands, other.stock) != (state.hands, state.stock) or not other.stock
        assert view_for(other, seat) == view  # the seat sees exactly the same thing
        for level in LEVELS:
            assert choose_move(view_for(other, seat), level) == choose_move(view, level), (name, level)
            checked += 1
    assert checked >= 3 * len(LEVELS)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_same_view_gives_the_same_move(name: str) -> None:
    states = positions(name, seed=5, count=4)
    first = {
        (i, level): choose_move(view_for(state, state.turn), level)
        for i, state in enumerate(states)
        for level in LEVELS
    }
    # Again, in another order: nothing is carried from one decision to the next.
    for i, state in reversed(list(enumerate(states))):
        for level in reversed(LEVELS):
            assert choose_move(view_for(state, state.turn), level) == first[(i, level)]


def test_the_view_seeds_the_levels_luck_but_not_the_commitment() -> None:
    state = new_game(variant("gin"), 2, seed=1)
    view = view_for(state, state.turn)
    same = view_rng({**view, "commitment": "0" * 64}).random()
    assert view_rng(view).random() == same
    assert view_rng({**view, "version": view["version"] + 1}).random() != same


@pytest.mark.parametrize("name", VARIANTS)
def test_the_players_names_are_not_in_any_levels_luck(name: str) -> None:
    # docs/engine.md, "Bots: levels and API" (on luck): the same moves meet the same bots,
    # whoever plays them (the deal of the day's fairness, docs/learn.md).
    for state in positions(name, seed=9, count=4):
        view = view_for(state, state.turn)
        renamed = {**view, "names": [f"player-{seat}-Żółć" for seat in range(len(view["names"]))]}
        assert renamed["names"] != view["names"]
        assert view_rng(renamed).random() == view_rng(view).random()
        assert view_rng(renamed, b"key").random() == view_rng(view, b"key").random()
        for level in LEVELS:
            assert choose_move(renamed, level) == choose_move(view, level), (name, level)


@pytest.mark.parametrize("name", VARIANTS)
def test_every_field_of_a_view_is_in_the_luck_or_left_out_for_a_reason(name: str) -> None:
    # A field a view gains must be placed on purpose: in SEED_FIELDS or in LUCK_LEFT_OUT.
    states = positions(name, seed=3, count=6)
    over = play_match(name, ("normal", "normal"), seed=3)
    fields = {
        key for state in [*states, over] for seat in range(state.players) for key in view_for(state, seat)
    }
    assert fields <= SEED_FIELDS | set(LUCK_LEFT_OUT), fields - SEED_FIELDS - set(LUCK_LEFT_OUT)
    assert not SEED_FIELDS & set(LUCK_LEFT_OUT)
    assert "names" in LUCK_LEFT_OUT


# --- the public API ------------------------------------------------------------------------------


def test_normal_is_the_default_level() -> None:
    for name in VARIANTS:
        for state in positions(name, seed=2, count=2):
            view = view_for(state, state.turn)
            assert choose_move(view) == choose_move(view, level="normal") == normal.choose_move(view)
            assert candidate_moves(view) == normal.candidate_moves(view)


def test_every_levels_candidates_start_with_its_choice_and_hold_the_simple_moves() -> None:
    state = new_game(variant("remik51"), 2, seed=4)
    view = view_for(state, state.turn)
    for level in LEVELS:
        moves = candidate_moves(view, level)
        assert moves[0] == choose_move(view, level)
        assert all(move in moves for move in normal.candidate_moves(view))


def test_an_unknown_level_is_refused() -> None:
    state = new_game(variant("remi"), 2, seed=1)
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_move(view_for(state, state.turn), level="expert")


def test_no_move_when_it_is_not_the_seats_turn() -> None:
    state = new_game(variant("remik51"), 2, seed=1)
    idle = 1 - state.turn
    for level in LEVELS:
        assert candidate_moves(view_for(state, idle), level) == []
        with pytest.raises(ValueError, match="not this seat's turn"):
            choose_move(view_for(state, idle), level)
