"""``may_extend``, the check ``legal_moves`` makes before trying a lay-off (docs/engine.md, "Legal
moves"): it may let through a card that does not fit, never hold back one that does.

Every run of one suit (every start and length the variant allows, with jokers in any one or two
places) and every set of one rank (three or four cards, jokers among them), against every card of
two suits and the joker, under each rummy variant's meld policy: where ``may_extend`` says no,
``extend_meld`` refuses too. And along random rounds of every rummy rule set, ``legal_moves`` is
the same list with the check as with every pair tried.
"""

from __future__ import annotations

import itertools
import random

import pytest

from games.engine import apply_move, legal_moves, new_game
from games.engine.cards import JOKER, SUITS, Card
from games.engine.errors import InvalidMeldError
from games.engine.melds import Meld, MeldPolicy, extend_meld, may_extend, meld_readings, position_rank
from games.engine.rummy import moves as rummy_moves
from tests.effort import THOROUGH, effort
from tests.engine.strategies import RULE_SETS, choose_move, make_rules

RANKS_HIGH_LOW = [position_rank(p) for p in range(1, 14)]  # A 2 .. K
POLICIES = {name: make_rules(name, {}).policy for name in ("remik51", "remi", "rummy500", "remik40")}


def _runs(policy: MeldPolicy) -> list[Meld]:
    melds = []
    for start, size in itertools.product(range(1, 14), range(3, 7)):
        naturals = [Card(position_rank(start + i), "H") for i in range(size) if start + i <= 14]
        if len(naturals) < size:
            continue
        for jokers in [(), *itertools.combinations(range(size), 1), *itertools.combinations(range(size), 2)]:
            cards = [Card(JOKER, "") if i in jokers else card for i, card in enumerate(naturals)]
            try:
                melds += [m for m in meld_readings(cards, policy) if m.kind == "run"]
            except InvalidMeldError:
                continue
    return melds


def _sets(policy: MeldPolicy) -> list[Meld]:
    melds = []
    for rank, size in itertools.product(RANKS_HIGH_LOW, (3, 4)):
        for suits in itertools.combinations(SUITS, size):
            for jokers in range(size - 1):
                cards = [Card(rank, s) for s in suits[jokers:]] + [Card(JOKER, "")] * jokers
                try:
                    readings = [m for m in meld_readings(cards, policy) if m.kind == "set"]
                except InvalidMeldError:
                    continue
                melds += readings[:1]
    return melds


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_a_card_held_back_by_may_extend_is_one_extend_meld_refuses(name: str) -> None:
    policy = POLICIES[name]
    cards = [Card(r, s) for r in RANKS_HIGH_LOW for s in "HS"] + [Card(JOKER, "")]
    melds = _runs(policy) + _sets(policy)
    assert len(melds) > 100  # Rummy 500 has no jokers: its 103 natural melds
    held_back = 0
    for meld, card in itertools.product(melds, cards):
        if may_extend(meld, card):
            continue
        held_back += 1
        with pytest.raises(InvalidMeldError):
            extend_meld(meld, card, policy)
    assert held_back > len(melds) * len(cards) // 2  # the check holds back most pairs


#: Every rule set in CI; a spread of them (each variant) in ``make test`` (tests/effort.py).
COMPARED = [(f"{name}-{number}", name, options) for number, (name, options) in enumerate(RULE_SETS)]
COMPARED = COMPARED if THOROUGH else COMPARED[:: len(COMPARED) // 6]


@pytest.mark.parametrize(("name", "options"), [c[1:] for c in COMPARED], ids=[c[0] for c in COMPARED])
def test_legal_moves_are_the_same_with_and_without_the_check(
    name: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = make_rules(name, options)
    rng = random.Random(f"may-extend:{name}:{sorted(options.items())}")
    state = new_game(rules, min(3, rules.max_players), seed=rng.randrange(10**9))
    compared = 0
    for _ in range(effort(150, 400)):
        if state.phase == "over" or sum(map(len, state.hands)) > 60:
            break
        seat = state.turn
        moves = legal_moves(state, seat)
        with monkeypatch.context() as every_pair:
            every_pair.setattr(rummy_moves, "may_extend", lambda meld, card: True)
            assert [repr(m) for m in legal_moves(state, seat)] == [repr(m) for m in moves]
        compared += bool(state.melds)
        state = apply_move(state, seat, choose_move(moves, rng, prefer_play=0.75)).state
    assert compared > 10  # positions with melds on the table were compared
