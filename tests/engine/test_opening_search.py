"""``find_opening`` stops early when the hand's best arrangement is below the opening minimum.

Every opening the search can return is a set of disjoint melds of the hand, so it is worth no more
than ``best_arrangement`` (which ``test_best_melds.py`` proves optimal against a brute-force
referee); below the minimum (R51-24: 51 points; RMI-33: 45 or 51) there is nothing to find. These
tests check that the shortcut never changes an answer: the same hands searched in full (the
shortcut switched off) give the same opening, with and without a card that must be included.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Card, parse_cards, search, variant
from games.engine.rules import Rules
from games.engine.search import arrangement_value, best_arrangement, find_opening
from tests.effort import effort
from tests.engine.strategies import hands, rule_sets


def _texts(melds: object) -> object:
    return None if melds is None else [str(m.cards) for m in melds]  # type: ignore[attr-defined]


@st.composite
def openable_cases(draw: st.DrawFn) -> tuple[Rules, tuple[Card, ...]]:
    rules = draw(rule_sets())
    return rules, draw(hands(rules, min_size=10, max_size=15))


@settings(max_examples=effort(40, 150), deadline=None)
@given(openable_cases(), st.booleans())
def test_find_opening_with_the_shortcut_answers_as_the_full_search(
    case: tuple[Rules, tuple[Card, ...]], with_include: bool
) -> None:
    rules, hand = case
    include = hand[-1] if with_include else None
    quick = find_opening(rules, hand, include=include, keep=1)
    saved, search.EXACT_CARDS = search.EXACT_CARDS, 0  # never stop early
    try:
        full = find_opening(rules, hand, include=include, keep=1)
    finally:
        search.EXACT_CARDS = saved
    assert _texts(quick) == _texts(full)
    if quick is not None:
        assert arrangement_value(rules, quick) <= arrangement_value(rules, best_arrangement(rules, hand)[0])


def test_find_opening_returns_nothing_below_the_minimum_and_finds_a_51_opening() -> None:
    rules = variant("remik51")
    # 9S TS JS (29) + 5H 5D 5C (15): a pure run, 44 points, below 51 (R51-24).
    low = parse_cards("9S TS JS 5H 5D 5C 2D 7H 3C KD 4S 8H QC")
    assert arrangement_value(rules, best_arrangement(rules, low)[0]) == 44
    assert find_opening(rules, low, keep=1) is None
    # The same with a king set instead of the fives: 29 + 30 = 59.
    high = parse_cards("9S TS JS KH KD KC 2D 7C 3H 5D 4S 8H 6C")
    found = find_opening(rules, high, keep=1)
    assert found is not None
    assert arrangement_value(rules, found) == 59


def test_find_opening_takes_the_callers_arrangement() -> None:
    rules = variant("remik51")
    hand = parse_cards("9S TS JS KH KD KC 2D 7C 3H 5D 4S 8H 6C")
    melds, _ = best_arrangement(rules, hand)
    assert _texts(find_opening(rules, hand, keep=1, arranged=melds)) == _texts(
        find_opening(rules, hand, keep=1)
    )
