"""Gin deadwood (``games.engine.gin.deadwood``) against an independent brute force.

The referee below knows nothing of the bitmask tables: it lists every meld of a hand from the
cards themselves (runs of 3+ consecutive ranks of one suit, ace low only, no K-A-2; sets of 3 or 4
of one rank, GIN-10/11), tries every subset of pairwise disjoint melds, and counts the rest (faces
10, ace 1, GIN-13/Q1). It checks ``deadwood``, ``deadwood_after_discard`` (the knock check: the
minimum over *every* discard), ``arrangement`` and the defender's lay-offs (``with_layoffs``) on
thousands of hands: hypothesis-drawn, seeded random, and meld-dense (cards from a window of 5 ranks
x 4 suits). How many of each: ``tests.effort`` (a few hundred in ``make test``, thousands under
``TEST_THOROUGH=1`` and tens of thousands in ``make soak``).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Card, parse_cards, variant
from games.engine.errors import InvalidMeldError
from games.engine.gin.deadwood import (
    arrangement,
    cards_of,
    deadwood,
    deadwood_after_discard,
    discard_deadwoods,
    mask_of,
    with_layoffs,
)
from games.engine.melds import Meld, extend_meld, read_meld
from tests.effort import effort

GIN = variant("gin")
RANKS = "A23456789TJQK"  # ace low (GIN-3)
SUITS = "SHDC"
DECK = [Card(rank, suit) for suit in SUITS for rank in RANKS]
RANDOM_HANDS = effort(300, 2_000, soak=20_000)
#: Deals tried for the lay-offs check: about two random deals in five, and nearly every dense one,
#: give the knocker a meld to lay onto (the check counts them and wants more than one in eight).
LAYOFF_DEALS = effort(120, 400, soak=4_000)


# --- the referee ---------------------------------------------------------------------------------


def value(card: Card) -> int:
    return min(RANKS.index(card.rank) + 1, 10)


def all_melds(cards: Sequence[Card]) -> list[frozenset[Card]]:
    held = set(cards)
    melds: list[frozenset[Card]] = []
    for suit in SUITS:
        for start in range(13):
            for end in range(start + 3, 14):
                run = [Card(RANKS[i], suit) for i in range(start, end)]
                if all(card in held for card in run):
                    melds.append(frozenset(run))
    for rank in RANKS:
        same = [card for card in cards if card.rank == rank]
        for size in (3, 4):
            melds += [frozenset(group) for group in itertools.combinations(same, size)]
    return melds


def brute_deadwood(cards: Sequence[Card]) -> int:
    return _brute_deadwood(frozenset(Card(c.rank, c.suit) for c in cards))


@functools.cache
def _brute_deadwood(cards: frozenset[Card]) -> int:
    """The least deadwood over every set of disjoint melds (a hand's cards are distinct)."""
    melds = all_melds(sorted(cards, key=str))
    total = sum(value(c) for c in cards)
    best = total

    def walk(start: int, used: frozenset[Card], saved: int) -> None:
        nonlocal best
        best = min(best, total - saved)
        for i in range(start, len(melds)):
            if not melds[i] & used:
                walk(i + 1, used | melds[i], saved + sum(value(c) for c in melds[i]))

    walk(0, frozenset(), 0)
    return best


def brute_after_discard(cards: Sequence[Card]) -> int:
    return min(brute_deadwood([c for c in cards if c != card]) for card in cards)


def brute_with_layoffs(cards: Sequence[Card], targets: Sequence[str]) -> int:
    """Least deadwood when cards may also be laid off onto the ``targets`` melds: every set of cards
    that can be laid on each target with ``extend_meld`` (chains included) is found by trying it,
    and every way to lay such sets on different targets is counted."""
    policy = GIN.policy
    metas = [read_meld(parse_cards(text), policy) for text in targets]
    cards = [Card(c.rank, c.suit) for c in cards]
    candidates = [
        c for c in cards if any(c.rank == m.rank or (m.kind == "run" and c.suit == m.suit) for m in metas)
    ]
    subsets = range(1, 1 << len(candidates))

    def fits(meld: Meld, group: list[Card]) -> bool:
        current, pending = meld, list(group)
        while pending:
            for card in list(pending):
                try:
                    current = extend_meld(current, card, policy)
                except InvalidMeldError:
                    continue
                pending.remove(card)
                break
            else:
                return False
        return True

    # The sets of candidates (bit masks) laid off together, target by target, then on every target.
    laid = {0}
    for meld in metas:
        near = sum(1 << i for i, c in enumerate(candidates) if c.rank == meld.rank or c.suit == meld.suit)
        group = [mask for mask in subsets if not mask & ~near]
        onto = [mask for mask in group if fits(meld, [c for i, c in enumerate(candidates) if mask >> i & 1])]
        laid |= {done | mask for done in laid for mask in onto if not done & mask}
    kept = [c for c in cards if c not in candidates]
    return min(
        brute_deadwood(kept + [c for i, c in enumerate(candidates) if not mask >> i & 1]) for mask in laid
    )


# --- hands ---------------------------------------------------------------------------------------


def random_hand(rng: random.Random, size: int) -> list[Card]:
    return rng.sample(DECK, size)


def dense_hand(rng: random.Random, size: int) -> list[Card]:
    """Cards from a window of 5 consecutive ranks x 4 suits: full of sets, runs and overlaps."""
    start = rng.randint(0, 8)
    window = [Card(RANKS[r], s) for s in SUITS for r in range(start, start + 5)]
    return rng.sample(window, size)


cards_st = st.sampled_from(DECK)


@st.composite
def dense_st(draw: st.DrawFn, size: int) -> list[Card]:
    start = draw(st.integers(0, 8))
    window = [Card(RANKS[r], s) for s in SUITS for r in range(start, start + 5)]
    return draw(st.lists(st.sampled_from(window), min_size=size, max_size=size, unique=True))


def hands_st(size: int) -> st.SearchStrategy[list[Card]]:
    return st.one_of(st.lists(cards_st, min_size=size, max_size=size, unique=True), dense_st(size))


def text(cards: Iterable[Card]) -> str:
    return " ".join(c.face for c in cards)


# --- the rules of counting ---------------------------------------------------------------------------


def test_faces_count_ten_the_ace_one_and_pips_their_number() -> None:
    # GIN-13 with GIN-Q1: loose cards only.
    assert GIN.hand_points("KS QH JD TC") == 40
    assert GIN.hand_points("AS") == 1
    assert GIN.hand_points("2S 9H") == 11
    assert GIN.hand_points("") == 0


def test_the_ace_is_low_only_so_queen_king_ace_and_king_ace_two_stay_loose() -> None:
    # GIN-3, GIN-11, GIN-EX1: A-K-Q and 2-A-K are not runs; A-2-3 is.
    assert GIN.hand_points("QH KH AH") == 21
    assert GIN.hand_points("KH AH 2H") == 13
    assert GIN.hand_points("AD 2D 3D") == 0
    assert GIN.hand_points("QH KH JH") == 0


def test_a_set_has_at_most_four_cards_and_a_card_is_in_one_meld() -> None:
    # GIN-10, GIN-12: 7S is in the run or the set, not both.
    assert GIN.hand_points("7S 7H 7D 7C") == 0
    assert GIN.hand_points("5S 6S 7S 7H 7D") == 11  # 5S 6S loose, or 7H 7D loose (14)
    melds, loose = GIN.best_melds("5S 6S 7S 7H 7D")
    assert [str(m) for m in melds] == ["7S 7H 7D"]
    assert text(loose) == "5S 6S"
    assert GIN.hand_points("5S 6S 7S 7H 7D 7C") == 0  # 5S 6S 7S and 7H 7D 7C


def test_knock_legality_is_the_minimum_over_every_discard_not_one_eleven_card_arrangement() -> None:
    # The classic bug. The best arrangement of these 11 cards melds 4C 5C 6C 7C and 6S 6H 6D and
    # leaves 5H 2D 4D 5D (16): discarding its highest loose card leaves 11, too many to knock.
    # But discarding 7C, a card of that arrangement's melds, regroups the rest as 5H 5D 5C and
    # 6S 6H 6D 6C with 2D 4D 4C loose: 10, a legal knock (GIN-15).
    hand = parse_cards("6S 5H 6H 2D 4D 5D 6D 4C 5C 6C 7C")
    eleven, melds = arrangement(mask_of(hand))
    assert (eleven, sorted(text(cards_of(m)) for m in melds)) == (16, ["4C 5C 6C 7C", "6S 6H 6D"])
    assert deadwood(mask_of(hand) ^ mask_of("5H")) == 11
    assert deadwood(mask_of(hand) ^ mask_of("7C")) == 10
    assert deadwood_after_discard(mask_of(hand)) == brute_after_discard(hand) == 10
    assert min(discard_deadwoods(mask_of(hand)).values()) == 10


# --- the fast search against the referee -------------------------------------------------------------


@settings(max_examples=effort(60, 300, soak=3000))
@given(hands_st(10))
def test_deadwood_of_ten_cards_matches_the_brute_force(hand: list[Card]) -> None:
    assert deadwood(mask_of(hand)) == brute_deadwood(hand), text(hand)


@settings(max_examples=effort(30, 150, soak=2000))
@given(hands_st(11))
def test_deadwood_after_discard_of_eleven_cards_matches_the_brute_force(hand: list[Card]) -> None:
    assert deadwood_after_discard(mask_of(hand)) == brute_after_discard(hand), text(hand)


@pytest.mark.parametrize("kind", ["random", "dense"])
def test_thousands_of_seeded_hands_match_the_brute_force(kind: str) -> None:
    rng = random.Random(f"gin-deadwood-{kind}")
    maker = random_hand if kind == "random" else dense_hand
    for _ in range(RANDOM_HANDS):
        size = rng.choice((7, 10, 10, 11))
        hand = maker(rng, size)
        mask = mask_of(hand)
        expected = brute_deadwood(hand)
        assert deadwood(mask) == expected, text(hand)
        found, melds = arrangement(mask)
        assert found == expected, text(hand)
        # The arrangement is real: disjoint melds of the hand, and the rest counts `expected`.
        used = 0
        for meld in melds:
            assert meld & mask == meld
            assert not meld & used
            read_meld(cards_of(meld), GIN.policy)  # a valid gin meld, written low to high
            used |= meld
        assert sum(value(c) for c in cards_of(mask & ~used)) == expected
        if size == 11:
            assert deadwood_after_discard(mask) == brute_after_discard(hand), text(hand)


@pytest.mark.parametrize("kind", ["random", "dense"])
def test_the_defenders_lay_offs_match_a_brute_force_over_every_assignment(kind: str) -> None:
    rng = random.Random(f"gin-layoffs-{kind}")
    maker = random_hand if kind == "random" else dense_hand
    checked = 0
    for _ in range(LAYOFF_DEALS):
        cards = maker(rng, 20 if kind == "random" else 17)
        knocker, defender = cards[:10], cards[10:]
        _, melds = arrangement(mask_of(knocker))
        if not melds:
            continue
        targets = [text(cards_of(m)) for m in melds]
        found, _, _ = with_layoffs(mask_of(defender), [mask_of(t) for t in targets])
        assert found == brute_with_layoffs(defender, targets), (text(knocker), text(defender))
        assert found <= brute_deadwood(defender)
        checked += 1
    assert checked > LAYOFF_DEALS // 8


def test_lay_offs_chain_along_a_run_and_complete_a_set() -> None:
    # GIN-EX2: 6S then 7S onto 3S 4S 5S; JC onto JS JH JD.
    found, laid, own = with_layoffs(mask_of("6S 7S JC 9D"), [mask_of("3S 4S 5S"), mask_of("JS JH JD")])
    assert found == 9
    assert [text(cards_of(m)) for m in laid] == ["6S 7S", "JC"]
    assert own == []


def test_a_card_two_runs_reach_for_is_laid_on_one_only() -> None:
    # 4S-5S-6S between 2S-3S... : A-2-3 spades and 7-8-9 spades both want 4S..6S.
    targets = [mask_of("AS 2S 3S"), mask_of("7S 8S 9S")]
    found, laid, _ = with_layoffs(mask_of("4S 5S 6S KD"), targets)
    assert found == 10
    assert laid[0] & laid[1] == 0
