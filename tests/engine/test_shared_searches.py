"""Searches that share their work give the answers of searches of their own (games/engine/search.py,
``shared_searches``), so a bot's decision, made with them, is the move it made without them.

A bot weighs many hands that differ by a card or two; inside ``shared_searches`` (every decision of
``games.engine.bots.levels``) their searches share one memo per rule set. Checked here: for
sequences of hands, each shared answer equals a fresh search's, melds and leftover card for card;
and for seeded positions of whole games, each level's move in every variant of the rummy family and
Knock-108 equals the move its candidates give outside any shared block.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    Card,
    GameState,
    IllegalMoveError,
    Move,
    apply_move,
    new_game,
    search,
    variant,
    view_for,
)
from games.engine.bots import LEVELS, candidate_moves, choose_move, registry
from games.engine.bots.levels import view_rng
from games.engine.rules import Rules
from games.engine.rummy.bots import normal
from games.engine.search import (
    _SHARED,
    EXACT_CARDS,
    STATE_LIMIT,
    best_arrangement,
    kept_searches,
    shared_searches,
)
from tests.engine.strategies import RULE_SETS, hands, make_rules


@st.composite
def hand_sequences(draw: st.DrawFn) -> tuple[Rules, list[tuple[tuple[Card, ...], bool]]]:
    """A rule set and hands of it, each with its ``cover``: some of them a card or two apart, as a
    bot's searches are (a hand, then the hand without each card)."""
    rules = make_rules(*draw(st.sampled_from(RULE_SETS)))
    base = draw(hands(rules, min_size=3, max_size=EXACT_CARDS))
    sequence: list[tuple[tuple[Card, ...], bool]] = [(base, draw(st.booleans()))]
    for i in range(len(base)):
        sequence.append(((*base[:i], *base[i + 1 :]), draw(st.booleans())))
    for _ in range(draw(st.integers(0, 3))):
        sequence.append((draw(hands(rules, min_size=1, max_size=EXACT_CARDS)), draw(st.booleans())))
    return rules, sequence


@settings(max_examples=60, deadline=None)
@given(hand_sequences())
def test_shared_searches_give_each_hand_the_answer_of_a_search_of_its_own(
    case: tuple[Rules, list[tuple[tuple[Card, ...], bool]]],
) -> None:
    rules, sequence = case
    alone = [best_arrangement(rules, hand, cover=cover) for hand, cover in sequence]
    with shared_searches():
        shared = [best_arrangement(rules, hand, cover=cover) for hand, cover in sequence]
    assert shared == alone


def test_shared_searches_last_one_decision_and_nest() -> None:
    rules = variant("remik51")
    hand = rules.pack()[:10]
    assert _SHARED.get() is None
    with shared_searches():
        best_arrangement(rules, hand)
        kept = _SHARED.get()
        assert kept is not None
        assert len(kept) == 1
        with shared_searches():
            assert _SHARED.get() is kept  # an inner block shares the outer one's
        assert _SHARED.get() is kept
    assert _SHARED.get() is None  # nothing kept after the decision


@settings(max_examples=40, deadline=None)
@given(hand_sequences())
def test_kept_searches_give_each_hand_the_answer_of_a_search_of_its_own(
    case: tuple[Rules, list[tuple[tuple[Card, ...], bool]]],
) -> None:
    """The opening hint's searches keep their memo from hand to hand (``kept_searches``): every
    answer, block after block, is a fresh search's
    (docs/benchmarks.md, "The opening hint's search")."""
    rules, sequence = case
    alone = [best_arrangement(rules, hand, cover=cover) for hand, cover in sequence]
    kept = []
    for hand, cover in sequence:
        with kept_searches():
            kept.append(best_arrangement(rules, hand, cover=cover))
    assert kept == alone


def test_kept_searches_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept memo past ``KEPT_POSITIONS`` is emptied before the next search, and past
    ``KEPT_RULE_SETS`` rule sets the searchers are dropped: a server's memory does not grow."""
    monkeypatch.setattr(search, "KEPT_POSITIONS", 20)
    monkeypatch.setattr(search, "_KEPT", {})
    rules = variant("remik51")
    pack = random.Random(7).sample(rules.pack(), 20)
    with kept_searches():
        best_arrangement(rules, pack[:15])
    ((_, searcher),) = search._KEPT.values()
    assert len(searcher.memo) > 20
    with kept_searches():
        best_arrangement(rules, pack[15:18])
    assert search._KEPT[(type(rules), rules, False)][1] is searcher
    assert len(searcher.memo) < 20  # emptied, then only the small hand's positions
    monkeypatch.setattr(search, "KEPT_RULE_SETS", 1)
    with kept_searches():
        best_arrangement(variant("remi"), variant("remi").pack()[:5])
    assert len(search._KEPT) == 1  # the Remik 51 searcher was dropped for Remi's
    with shared_searches(), kept_searches():
        assert isinstance(_SHARED.get(), dict)  # inside a bot's decision, its own block is used
    assert _SHARED.get() is None


def test_a_huge_hand_is_searched_on_its_own_with_its_state_limit() -> None:
    """Past ``EXACT_CARDS`` cards a hand never uses the shared memo: its ``STATE_LIMIT`` (and the
    split into parts it leads to) counts the positions of its own search, as before."""
    rules = variant("remi")
    hand = [card for card in rules.pack() if not card.is_joker][:56]
    alone = best_arrangement(rules, hand)
    with shared_searches():
        best_arrangement(rules, hand[:8])
        assert best_arrangement(rules, hand) == alone
        kept = _SHARED.get()
        assert kept is not None
        assert all(len(searcher.memo) < STATE_LIMIT for _, searcher in kept.values())


def unshared_move(view: Mapping[str, Any], level: str) -> Move:
    """The level's move from its candidates called directly, outside any shared block."""
    assert _SHARED.get() is None
    if level == "normal":
        return normal.choose_move(view)
    for move in registry.bot_for(str(view["variant"]), level)(view, view_rng(view)):
        return move
    return normal.choose_move(view)


def positions(name: str, players: int, count: int) -> Iterator[tuple[GameState, int]]:
    """Seeded positions of games the hard bot plays in every seat (a new deal when one ends)."""
    game = 0
    made = 0
    while made < count:
        secret = hashlib.sha256(f"shared-searches-{name}-{game}".encode()).digest()
        state = new_game(variant(name), [f"p{i}" for i in range(players)], secret)
        game += 1
        while not state.is_over and made < count:
            seat = state.turn
            yield state, seat
            made += 1
            state = hard_move(state, seat)


def hard_move(state: GameState, seat: int) -> GameState:
    """The state after the hard bot's move, down its candidates if the engine refuses one (as the
    site's services do)."""
    view = view_for(state, seat)
    for move in [choose_move(view, level="hard"), *candidate_moves(view, level="hard")]:
        try:
            return apply_move(state, seat, move).state
        except IllegalMoveError:
            continue
    raise AssertionError("no legal move among the candidates")


@pytest.mark.parametrize(
    ("name", "players", "count"),
    [("remik51", 4, 120), ("remik40", 2, 60), ("remi", 3, 60), ("rummy500", 2, 60), ("knock108", 3, 40)],
)
def test_every_level_decides_as_without_shared_searches(name: str, players: int, count: int) -> None:
    """The same move with and without shared searches, for each level, on seeded positions."""
    for state, seat in positions(name, players, count):
        view = view_for(state, seat)
        for level in LEVELS:
            assert repr(choose_move(view, level=level)) == repr(unshared_move(view, level)), (name, level)
