"""Knock-108's loose points (``variants.knock108``) against an independent brute force.

The referee below is written from K108-10, K108-Q2, Q3 and Q5 alone (not from ``melds.py``): every
way to split a hand into melds and loose cards is tried. It checks the deadwood of hands of 3 to 10
cards and that a knock is legal exactly when some discard of eleven cards leaves five or fewer
(K108-14). The turn cycle's invariants are in ``test_properties.py``, for every variant.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

from hypothesis import given
from hypothesis import strategies as st

from games.engine import Card, parse_cards, variant
from games.engine.cards import build_pack
from games.engine.knock108.rules import best_declaration, deadwood, special_hand
from games.engine.rules import Rules

# --- loose points against an independent brute force -----------------------------------------------

_ORDER = "23456789TJQKA"


def _is_meld(cards: tuple[Card, ...], limits: bool) -> bool:
    """Written from K108-10, Q2, Q3 and Q5 alone (not from melds.py)."""
    size = len(cards)
    naturals = [c for c in cards if not c.is_joker]
    jokers = size - len(naturals)
    if size < 3 or not naturals:
        return False
    one_rank = len({c.rank for c in naturals}) == 1
    distinct_suits = len({c.suit for c in naturals}) == len(naturals)
    # A set: 3 or 4 cards of different suits, with the Polish joker limits (K108-Q3, K108-Q5).
    if one_rank and size <= 4 and distinct_suits and (not limits or jokers <= (1 if size == 3 else 2)):
        return True
    if len({c.suit for c in naturals}) != 1:
        return False
    for start in range(1, 16 - size):
        end = start + size - 1
        if start == 1 and end == 14:
            continue
        places = set()
        for card in naturals:
            place = (1 if start == 1 else 14) if card.rank == "A" else _ORDER.index(card.rank) + 2
            if not start <= place <= end or place in places:
                break
            places.add(place)
        else:
            holes = [p for p in range(start, end + 1) if p not in places]
            if limits and any(b - a == 1 for a, b in itertools.pairwise(holes)):
                continue
            return True
    return False


def brute_deadwood(rules: Rules, cards: tuple[Card, ...]) -> int:
    """The least loose value over every way to split ``cards`` into melds and loose cards."""
    limits = rules.options["joker_limits"] == "remik"
    values = [rules.hand_value(c) for c in cards]
    count = len(cards)

    @cache
    def best(mask: int) -> int:
        if mask == 0:
            return 0
        first = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << first)
        result = values[first] + best(rest)
        sub = rest
        while sub:
            if bin(sub).count("1") >= 2:
                group = tuple(cards[i] for i in range(count) if (sub | (1 << first)) >> i & 1)
                if _is_meld(group, limits):
                    result = min(result, best(rest & ~sub))
            sub = (sub - 1) & rest
        return result

    return best((1 << count) - 1)


@st.composite
def dense_hands(draw: st.DrawFn, size: int) -> tuple[Card, ...]:
    """Hands from a few neighbouring ranks and suits (both copies), with 0-4 jokers."""
    pack = build_pack(2, 4)
    start = draw(st.integers(0, 8))
    ranks = set(("A" + _ORDER)[start : start + 5])
    suits = set(draw(st.lists(st.sampled_from("SHDC"), min_size=1, max_size=4, unique=True)))
    pool = [c for c in pack if not c.is_joker and c.rank in ranks and c.suit in suits]
    jokers = draw(st.integers(0, min(4, size)))
    if draw(st.booleans()) or len(pool) < size - jokers:
        pool = [c for c in pack if not c.is_joker]
    naturals = draw(
        st.lists(st.sampled_from(pool), min_size=size - jokers, max_size=size - jokers, unique=True)
    )
    return tuple(draw(st.permutations([*naturals, *[c for c in pack if c.is_joker][:jokers]])))


@given(st.sampled_from(["remik", "none"]), st.integers(3, 10).flatmap(dense_hands))
def test_loose_points_are_the_minimum_over_every_arrangement(limits: str, hand: tuple[Card, ...]) -> None:
    rules = variant("knock108", joker_limits=limits)
    assert deadwood(rules, hand) == brute_deadwood(rules, hand)
    assert rules.hand_points(hand) == brute_deadwood(rules, hand)


@given(st.sampled_from(["remik", "none"]), dense_hands(11))
def test_a_knock_is_legal_exactly_when_some_discard_leaves_five_or_fewer(
    limits: str, hand: tuple[Card, ...]
) -> None:
    """Not from one best arrangement of the eleven cards: the minimum over the discards."""
    rules = variant("knock108", joker_limits=limits, full_sequence=True)
    by_discard = []
    for index in range(11):
        rest = hand[:index] + hand[index + 1 :]
        by_discard.append(0 if special_hand(rules, rest) else brute_deadwood(rules, rest))
    found = best_declaration(rules, hand)
    assert (found is not None) == (min(by_discard) <= 5)
    if found is not None:
        assert found[1].points == min(by_discard)


def test_the_brute_force_referee_agrees_with_the_rules_on_known_hands() -> None:
    rules = variant("knock108")
    assert brute_deadwood(rules, parse_cards("KH AH 2H")) == 22
    assert brute_deadwood(rules, parse_cards("QS KS AS AH 2H 3H")) == 0
    assert brute_deadwood(rules, parse_cards("AH JK JK")) == 50
    assert brute_deadwood(variant("knock108", joker_limits="none"), parse_cards("AH JK JK")) == 0
    assert Counter(c.face for c in parse_cards("7H 7H")) == Counter({"7H": 2})
