"""``rules.best_melds`` is optimal: checked against an independent brute-force referee.

The referee is written from the rules, not from the engine: a group of cards is a meld if it can be
read as a set (R51-19/22, RMI-20/Q12) or a run (R51-18/20/23, RMI-21/Q13) with the jokers standing
anywhere the rules allow; its points are the best reading's points (R51-6, RMI-10..12). It tries
every subset of the hand as a meld and every collection of disjoint melds, and keeps the most
points, then the fewest points left in hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Card, Meld, parse_cards, variant
from games.engine.melds import read_meld
from games.engine.rules import Rules
from tests.engine.strategies import hands, ids, make_rules, meldy_hands

_NUMBER = {rank: n for n, rank in enumerate("23456789TJQK", start=2)}
_POSITION_RANK = {p: r for p, r in enumerate("A23456789TJQKA", start=1)}


# --- the referee -------------------------------------------------------------------------------


def set_value(rules: Rules, rank: str) -> int:
    if rules.name == "remik51":
        return 11 if rank == "A" else (10 if rank in "TJQK" else int(rank))  # R51-6, R51-Q2
    return 25 if rank == "A" else (10 if rank in "TJQK" else 5)  # RMI-10/11


def run_value(rules: Rules, position: int) -> int:
    """Points of the place ``position`` (1 = low ace, 2..13 = 2..K, 14 = high ace) of a run."""
    if rules.name == "remik51":
        return {1: 1, 14: 11}.get(position, min(position, 10))  # R51-6, R51-32
    return {1: 5, 14: 10}.get(position, 10 if position >= 10 else 5)  # RMI-10/11


def hand_value(rules: Rules, card: Card) -> int:
    if rules.name == "remik51":  # R51-7
        if card.is_joker:
            return int(rules.options["joker_penalty"])
        return 11 if card.rank == "A" else (10 if card.rank in "TJQK" else int(card.rank))
    if card.is_joker:  # RMI-12, RMI-Q4
        return 50
    return 25 if card.rank == "A" else (10 if card.rank in "TJQK" else 5)


def best_meld_value(rules: Rules, cards: Sequence[Card]) -> int | None:
    """The most points ``cards`` (in any order) are worth as one meld, or None if they are no meld."""
    r51 = rules.name == "remik51"
    naturals = [c for c in cards if not c.is_joker]
    size, jokers = len(cards), len(cards) - len(naturals)
    if size < 3 or not naturals:
        return None
    best: int | None = None
    # A set: one rank, different suits, three or four cards; R51 allows 1 joker in 3, 2 in 4.
    suits = [c.suit for c in naturals]
    if len({c.rank for c in naturals}) == 1 and size <= 4 and len(set(suits)) == len(suits):
        limit = {3: 1, 4: 2}[size] if r51 else size - 1
        if jokers <= limit:
            best = size * set_value(rules, naturals[0].rank)
    # A run: one suit, consecutive places 1..14, no K-A-2, not an ace at both ends; R51: jokers
    # never side by side.
    if len(set(suits)) == 1:
        for ace_place in (1, 14):
            places = [ace_place if c.rank == "A" else _NUMBER[c.rank] for c in naturals]
            if len(set(places)) != len(places):
                continue
            for start in range(max(1, max(places) - size + 1), min(places) + 1):
                end = start + size - 1
                if end > 14 or (start == 1 and end == 14):
                    continue
                joker_places = sorted(set(range(start, end + 1)) - set(places))
                assert len(joker_places) == jokers
                if r51 and any(b - a == 1 for a, b in pairwise(joker_places)):
                    continue
                value = sum(run_value(rules, p) for p in range(start, end + 1))
                best = value if best is None else max(best, value)
    return best


def referee(rules: Rules, cards: Sequence[Card]) -> tuple[int, int]:
    """(most points laid, fewest hand points left among the arrangements laying that many)."""
    n = len(cards)
    melds_by_lowest: dict[int, list[tuple[int, int]]] = {i: [] for i in range(n)}
    for mask in range(1, 1 << n):
        if mask.bit_count() < 3:
            continue
        value = best_meld_value(rules, [cards[i] for i in range(n) if mask >> i & 1])
        if value is not None:
            lowest = (mask & -mask).bit_length() - 1
            melds_by_lowest[lowest].append((mask, value))

    @cache
    def solve(rest: int) -> tuple[int, int]:  # (points, -leftover)
        if rest == 0:
            return (0, 0)
        low = rest & -rest
        i = low.bit_length() - 1
        points, negative_left = solve(rest ^ low)
        best = (points, negative_left - hand_value(rules, cards[i]))
        for mask, value in melds_by_lowest[i]:
            if mask & rest == mask:
                points, negative_left = solve(rest ^ mask)
                best = max(best, (points + value, negative_left))
        return best

    points, negative_left = solve((1 << n) - 1)
    return points, -negative_left


# --- checks on what best_melds returns -----------------------------------------------------------


def reading_value(rules: Rules, meld: Meld) -> int:
    """Points of this exact reading, checking that it is consistent with its cards."""
    cards = meld.cards
    assert all(c.stands_for is not None for c in cards if c.is_joker), f"undeclared joker in {meld}"
    if meld.kind == "set":
        represented = [c.stands_for if c.is_joker else c for c in cards]
        assert all(r is not None and r.rank == meld.rank for r in represented), str(meld)
        assert len({r.suit for r in represented if r is not None}) == len(cards), str(meld)
        return len(cards) * set_value(rules, meld.rank)
    for offset, card in enumerate(cards):
        wanted = _POSITION_RANK[meld.start + offset] + meld.suit
        shown = card.stands_for if card.is_joker else card
        assert shown is not None
        assert shown.rank + shown.suit == wanted, f"{meld}: place {offset + 1} is not {wanted}"
    return sum(run_value(rules, meld.start + i) for i in range(len(cards)))


def check_arrangement(
    rules: Rules, hand: Sequence[Card], melds: Sequence[Meld], leftover: Sequence[Card]
) -> int:
    """The melds + leftover are the hand; every meld is valid; returns the points laid."""
    laid = [c for m in melds for c in m.cards]
    assert Counter(ids(laid)) + Counter(ids(leftover)) == Counter(ids(hand))
    assert all(c.stands_for is None for c in leftover)
    total = 0
    for meld in melds:
        reread = read_meld(meld.cards, rules.policy)
        assert reread.kind == meld.kind
        assert [str(c) for c in reread.cards] == [str(c) for c in meld.cards]
        value = reading_value(rules, meld)
        assert rules.meld_points(meld.cards) == value == rules.meld_value(meld)
        assert best_meld_value(rules, meld.cards) is not None
        total += value
    return total


# --- properties --------------------------------------------------------------------------------

_MORE = settings(max_examples=8 * settings.default.max_examples)


@st.composite
def small_hands(draw: st.DrawFn) -> tuple[Rules, tuple[Card, ...]]:
    name, options = draw(
        st.sampled_from(
            [
                ("remik51", {}),
                ("remik51", {"joker_penalty": 50}),
                ("remi", {}),
                ("remi", {"short_game": True}),
            ]
        )
    )
    rules = make_rules(name, options)
    return rules, draw(meldy_hands(rules, min_size=5, max_size=9, max_jokers=2))


@_MORE
@given(small_hands())
def test_best_melds_lays_the_most_points_then_leaves_the_fewest_in_hand(
    case: tuple[Rules, tuple[Card, ...]],
) -> None:
    rules, hand = case
    melds, leftover = rules.best_melds(hand)
    points = check_arrangement(rules, hand, melds, leftover)
    best_points, least_left = referee(rules, hand)
    assert points == best_points, f"best_melds lays {points}, the referee finds {best_points}"
    left = sum(hand_value(rules, c) for c in leftover)
    assert left == least_left, f"best_melds leaves {left} in hand, the referee {least_left}"
    assert rules.hand_points(leftover) == left


@_MORE
@given(small_hands())
def test_best_melds_does_not_depend_on_the_order_of_the_hand(case: tuple[Rules, tuple[Card, ...]]) -> None:
    rules, hand = case
    forward = rules.best_melds(hand)
    backward = rules.best_melds(tuple(reversed(hand)))
    values = [check_arrangement(rules, hand, *forward), check_arrangement(rules, hand, *backward)]
    assert values[0] == values[1]
    assert rules.hand_points(forward[1]) == rules.hand_points(backward[1])


@st.composite
def big_hands(draw: st.DrawFn) -> tuple[Rules, tuple[Card, ...]]:
    name, options, jokers = draw(
        st.sampled_from(
            [
                ("remik51", {}, 4),
                ("remik51", {"jokers_per_deck": 3}, 4),
                ("remi", {}, 2),
                ("remi", {"short_game": True}, 2),
            ]
        )
    )
    rules = make_rules(name, options)
    pack = rules.pack()
    jokers_in_hand = [c for c in pack if c.is_joker][:jokers]
    if draw(st.booleans()):
        naturals = draw(meldy_hands(rules, min_size=15 - jokers, max_size=15 - jokers, max_jokers=0))
        naturals = tuple(c for c in naturals if not c.is_joker)
    else:
        naturals = draw(hands(rules, 15 - jokers, 15 - jokers, max_jokers=0))
    return rules, draw(st.permutations([*naturals, *jokers_in_hand]))


@given(big_hands())
def test_best_melds_on_a_15_card_hand_with_every_joker_gives_a_valid_arrangement(
    case: tuple[Rules, tuple[Card, ...]],
) -> None:
    rules, hand = case
    melds, leftover = rules.best_melds(hand)
    points = check_arrangement(rules, hand, melds, leftover)
    assert points >= 0
    if sum(c.is_joker for c in hand) >= 2:
        assert melds, "two jokers and a natural card always make a meld"


# --- hand-written cases ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "hand", "points", "left"),
    [
        pytest.param("remik51", "9S TS JS 8H 8D 8C 2C", 53, 2, id="R51-EX1 opening 53, 2C left"),
        pytest.param("remik51", "7H#1 7H#2 8H#1 8H#2 9H#1 9H#2", 48, 0, id="two decks: two runs 7-8-9 (48)"),
        pytest.param("remik51", "9H#1 9H#2 9S 9D", 27, 9, id="R51-EX4 two 9H never in one group"),
        pytest.param("remik51", "9H#1 9H#2 9S", 0, 27, id="R51-EX4 9H 9H 9S is no meld"),
        pytest.param("remik51", "QS KS JK", 31, 0, id="R51 joker as the high ace: Q K JK = 31"),
        pytest.param("remik51", "JK QS KS", 31, 0, id="R51 joker placed high, not low (J Q K = 30)"),
        pytest.param("remik51", "AS 2S 3S", 6, 0, id="R51-DX2 A 2 3 = 6"),
        pytest.param("remik51", "AS AH AD", 33, 0, id="R51-DX2 A A A = 33"),
        pytest.param("remik51", "KS AS 2S", 0, 23, id="R51-EX5 K A 2 is no meld"),
        pytest.param("remik51", "5H JK JK 8H", 24, 5, id="R51-DX3 5H JK JK 8H no run, JK 8H JK is (24)"),
        pytest.param("remik51", "JK JK AH", 0, 71, id="R51-22/23 two jokers and an ace: no meld"),
        pytest.param("remik51", "QS QH JK JK", 40, 0, id="R51-DX3 group of four with two jokers"),
        pytest.param("remi", "AS AH AD", 75, 0, id="RMI-DX1 ace set 75"),
        pytest.param("remi", "AS AH JK", 75, 0, id="RMI-DX1 joker as an ace in a set 75"),
        pytest.param("remi", "QH KH AH", 30, 0, id="RMI-DX1 Q K A = 30"),
        pytest.param("remi", "AH 2H 3H", 15, 0, id="RMI-DX1 A 2 3 = 15"),
        pytest.param("remi", "7H JK 9H", 15, 0, id="RMI-DX1 7H JK(8H) 9H = 15"),
        pytest.param("remi", "3H 4H 5H KS KH KD", 45, 0, id="RMI-DX2 45"),
        pytest.param("remi", "JK JK 5H", 15, 0, id="RMI-Q12 two jokers and a 5: 15 every way"),
        pytest.param("remi", "JK JK AH", 75, 0, id="RMI-Q12 two jokers and an ace: a set of aces 75"),
    ],
)
def test_best_melds_hand_written_cases(name: str, hand: str, points: int, left: int) -> None:
    rules = variant(name)
    cards = _physical(rules, hand)
    melds, leftover = rules.best_melds(cards)
    assert check_arrangement(rules, cards, melds, leftover) == points
    assert rules.hand_points(leftover) == left
    assert referee(rules, cards) == (points, left)


def _physical(rules: Rules, text: str) -> tuple[Card, ...]:
    """The cards of ``text`` as physical cards of the pack (first free copy where none is given)."""
    free = list(rules.pack())
    out = []
    for wanted in parse_cards(text):
        card = next(c for c in free if wanted.matches(c))
        free.remove(card)
        out.append(card)
    return tuple(out)


@pytest.mark.parametrize(
    ("name", "options", "hand"),
    [
        ("remik51", {}, "JK JK JK JK 2S 5H 9D KC AS 3C 7H TD QS 4D 8C"),
        ("remik51", {"jokers_per_deck": 3}, "JK JK JK JK AS AH AD AC KS KH KD KC QS QH 2C"),
        ("remik51", {}, "JK JK JK JK 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"),
        ("remi", {}, "JK JK AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"),
        ("remi", {"short_game": True}, "JK JK 2S 2H 2D 2C 9S TS JS QS KS AS 5H 7D 4C"),
    ],
)
def test_best_melds_on_15_card_hands_with_all_jokers_does_not_crash(
    name: str, options: dict[str, object], hand: str
) -> None:
    rules = variant(name, **options)
    cards = _physical(rules, hand)
    melds, leftover = rules.best_melds(cards)
    check_arrangement(rules, cards, melds, leftover)
    assert melds
