"""Melds: reading a row of cards as a set or a run, with jokers, under a variant's limits.

A meld is read from its cards *in the order written*: runs low to high, each joker standing for the
card of its place (docs/rules/README.md, notation). A set's joker stands for a missing suit, declared
as ``JK(QD)`` where more than one suit is missing.

The limits that differ between variants (set sizes, jokers per set, adjacent jokers, where the ace
stands) come in a :class:`MeldPolicy`; everything else is common to the rummy family.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from . import errors
from .cards import JOKER, RANK_NUMBER, RANKS, SUITS, Card, format_cards

MeldKind = Literal["set", "run"]


@dataclass(frozen=True, slots=True)
class MeldPolicy:
    """What a variant allows in a meld."""

    set_min: int = 3
    set_max: int = 4
    #: ``set_joker_limit[size]`` is the most jokers a set of that size may hold; ``None``: no limit.
    set_joker_limit: tuple[tuple[int, int], ...] | None = None
    run_min: int = 3
    #: The most jokers a run may hold; ``None``: no limit (R40-Q7 sets one).
    run_joker_limit: int | None = None
    adjacent_jokers: bool = True
    ace_low: bool = True
    ace_high: bool = True
    #: Remik 51 (R51-Q4): a set joker stands for the declared card only, so it must be declared when
    #: several suits are missing. Remi (RMI-Q10): any missing suit; the engine picks one if undeclared.
    set_declaration_binding: bool = False
    #: False: the variant has no jokers (gin GIN-2, Rummy 500 R500-2): a joker is never a meld card.
    jokers: bool = True
    #: Rule ids cited in error messages.
    rule_set: str = ""
    rule_run: str = ""
    rule_joker: str = ""

    def jokers_allowed_in_set(self, size: int) -> int:
        if self.set_joker_limit is None:
            return size - 1
        return dict(self.set_joker_limit).get(size, 0)


def position_rank(position: int) -> str:
    """Rank at a run position: 1 and 14 are the ace, 2..13 the ranks 2..K."""
    return "A" if position in (1, 14) else RANKS[position - 2]


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid meld: its physical cards in order (jokers declared) and how it reads."""

    kind: MeldKind
    cards: tuple[Card, ...]
    #: Runs: the position (1..14) of the first card. Sets: 0.
    start: int = 0
    #: Runs: the suit. Sets: "".
    suit: str = ""
    #: Sets: the rank. Runs: "".
    rank: str = ""

    @property
    def represented(self) -> tuple[Card, ...]:
        """The natural card each place stands for (jokers resolved), without copy ids."""
        if self.kind == "run":
            return tuple(Card(position_rank(self.start + i), self.suit) for i in range(len(self.cards)))
        return tuple(
            Card(card.stands_for.rank, card.stands_for.suit)
            if card.is_joker and card.stands_for is not None
            else Card(card.rank, card.suit)
            for card in self.cards
        )

    @property
    def positions(self) -> tuple[int, ...]:
        """Run positions of each card (sets: all zero)."""
        if self.kind == "run":
            return tuple(range(self.start, self.start + len(self.cards)))
        return (0,) * len(self.cards)

    @property
    def end(self) -> int:
        return self.start + len(self.cards) - 1

    @property
    def is_pure(self) -> bool:
        return not any(card.is_joker for card in self.cards)

    @property
    def jokers(self) -> int:
        return sum(card.is_joker for card in self.cards)

    def __str__(self) -> str:
        return format_cards(self.cards)


def meld_readings(cards: Sequence[Card], policy: MeldPolicy) -> list[Meld]:
    """Every way ``cards`` (in this order) form a valid meld; raises InvalidMeldError if none.

    Set jokers that are not declared are left undeclared here (see :func:`read_meld`).
    """
    if not policy.jokers and any(card.is_joker for card in cards):
        raise errors.NoJokersError(format_cards(cards), rule=policy.rule_joker or None)
    if len(cards) < min(policy.set_min, policy.run_min):
        raise errors.TooFewCardsError(
            format_cards(cards), f"a meld needs at least {min(policy.set_min, policy.run_min)} cards"
        )
    naturals = [card for card in cards if not card.is_joker]
    if not naturals:
        raise errors.NoNaturalCardError(format_cards(cards), "a meld needs at least one natural card")
    readings: list[Meld] = []
    set_error: errors.InvalidMeldError | None = None
    run_error: errors.InvalidMeldError | None = None
    if len({card.rank for card in naturals}) == 1:
        try:
            readings.append(_read_set(cards, naturals, policy))
        except errors.InvalidMeldError as error:
            set_error = error
    if len({card.suit for card in naturals}) == 1:
        try:
            readings.append(_read_run(cards, policy))
        except errors.InvalidMeldError as error:
            run_error = error
    if readings:
        return readings
    if set_error is not None and run_error is not None:
        # One natural card: the jokers' declarations say which was meant; undeclared, a joker
        # written before the natural card only makes sense in a run (``JK JK 5H``), else a set.
        natural = naturals[0]
        declared = [c.stands_for for c in cards if c.is_joker and c.stands_for is not None]
        meant_run = any(d.rank != natural.rank for d in declared) if declared else cards[0].is_joker
        raise run_error if meant_run else set_error
    if set_error is not None:
        raise set_error
    if run_error is not None:
        raise run_error
    raise errors.NotAMeldError(format_cards(cards), "the cards are neither of one rank nor of one suit")


def read_meld(cards: Sequence[Card], policy: MeldPolicy) -> Meld:
    """The one reading of ``cards`` as a meld about to be laid; every joker ends up declared.

    When undeclared jokers let the cards read both as a set and as a run (``JK 5H JK``), the order
    decides: it is the run 4H-5H-6H (RMI-Q12); a set is chosen by declaring its jokers
    (``5H JK(5S) JK(5D)``). Where set declarations bind (R51-Q4), a set joker that could stand for
    several suits raises ``JokerUndeclaredError``.
    """
    readings = meld_readings(cards, policy)
    meld = next((m for m in readings if m.kind == "run"), readings[0])
    if meld.kind == "set":
        return _declare_set_jokers(meld, policy, keep=True)
    return _declare_run_jokers(meld)


def value_reading(cards: Sequence[Card], policy: MeldPolicy) -> Meld:
    """The reading used to value ``cards`` (as :func:`read_meld`, but a set joker need not be declared)."""
    readings = meld_readings(cards, policy)
    meld = next((m for m in readings if m.kind == "run"), readings[0])
    if meld.kind == "set":
        return settle_set(meld.cards, meld.rank)
    return _declare_run_jokers(meld)


def _read_set(cards: Sequence[Card], naturals: list[Card], policy: MeldPolicy) -> Meld:
    rank = naturals[0].rank
    size = len(cards)
    if size < policy.set_min:
        raise errors.TooFewCardsError(format_cards(cards), f"a set needs at least {policy.set_min} cards")
    if size > policy.set_max:
        raise errors.SetTooLargeError(
            format_cards(cards), f"a set has at most {policy.set_max} cards", rule=policy.rule_set or None
        )
    suits = [card.suit for card in naturals]
    if len(set(suits)) != len(suits):
        raise errors.RepeatedSuitError(
            format_cards(cards), "a set may not hold two cards of the same suit", rule=policy.rule_set or None
        )
    jokers = size - len(naturals)
    if jokers > policy.jokers_allowed_in_set(size):
        raise errors.TooManyJokersError(
            format_cards(cards),
            f"a set of {size} may hold at most {policy.jokers_allowed_in_set(size)} joker(s)",
            rule=policy.rule_joker or None,
        )
    missing = [suit for suit in SUITS if suit not in suits]
    declared: list[str] = []
    for card in cards:
        if card.is_joker and card.stands_for is not None:
            wanted = card.stands_for
            if wanted.rank != rank or wanted.suit not in missing or wanted.suit in declared:
                raise errors.JokerDeclarationError(
                    format_cards(cards),
                    f"a joker in this set can only stand for a missing {rank} "
                    f"({' '.join(rank + s for s in missing if s not in declared)})",
                    rule=policy.rule_joker or None,
                )
            declared.append(wanted.suit)
    return Meld("set", tuple(cards), rank=rank)


def _declare_set_jokers(meld: Meld, policy: MeldPolicy, *, keep: bool) -> Meld:
    """Give every undeclared set joker a missing suit (or refuse where declarations bind)."""
    present = {card.suit for card in meld.cards if not card.is_joker}
    taken = {
        card.stands_for.suit for card in meld.cards if card.is_joker and card.stands_for is not None and keep
    }
    free = [suit for suit in SUITS if suit not in present and suit not in taken]
    undeclared = [c for c in meld.cards if c.is_joker and (c.stands_for is None or not keep)]
    if not undeclared:
        return meld
    if policy.set_declaration_binding and len(free) > len(undeclared):
        raise errors.JokerUndeclaredError(
            format_cards(meld.cards),
            "say which card the joker stands for, e.g. "
            + " or ".join(f"JK({meld.rank}{suit})" for suit in free),
            rule=policy.rule_joker or None,
        )
    suits = iter(free)
    out = []
    for card in meld.cards:
        if card.is_joker and (card.stands_for is None or not keep):
            card = card.declared(Card(meld.rank, next(suits)))
        out.append(card)
    return Meld("set", tuple(out), rank=meld.rank)


def _declare_run_jokers(meld: Meld) -> Meld:
    out = tuple(
        card.declared(rep) if card.is_joker else card
        for card, rep in zip(meld.cards, meld.represented, strict=True)
    )
    return Meld("run", out, start=meld.start, suit=meld.suit)


def _run_starts(cards: Sequence[Card], policy: MeldPolicy) -> list[int]:
    index, first = next((i, c) for i, c in enumerate(cards) if not c.is_joker)
    if first.rank == "A":
        starts = []
        if policy.ace_low:
            starts.append(1 - index)
        if policy.ace_high:
            starts.append(14 - index)
        return starts
    return [RANK_NUMBER[first.rank] - index]


def _fits(card: Card, position: int, policy: MeldPolicy) -> bool:
    if card.rank == "A":
        return (position == 1 and policy.ace_low) or (position == 14 and policy.ace_high)
    return 2 <= position <= 13 and RANK_NUMBER[card.rank] == position


def _read_run(cards: Sequence[Card], policy: MeldPolicy) -> Meld:
    suit = next(card.suit for card in cards if not card.is_joker)
    size = len(cards)
    if size < policy.run_min:
        raise errors.TooFewCardsError(format_cards(cards), f"a run needs at least {policy.run_min} cards")
    rule = policy.rule_run or None
    low = 1 if policy.ace_low else 2
    high = 14 if policy.ace_high else 13
    for start in _run_starts(cards, policy):
        end = start + size - 1
        if not all(_fits(c, start + i, policy) for i, c in enumerate(cards) if not c.is_joker):
            continue
        if start < low or end > high:
            raise errors.WrapAroundError(
                format_cards(cards), "a run may not go round the corner through the ace (K-A-2)", rule=rule
            )
        if start == 1 and end == 14:
            raise errors.AceBothEndsError(
                format_cards(cards), "a run may not have an ace at both ends", rule=rule
            )
        for i, card in enumerate(cards):
            if card.is_joker and card.stands_for is not None:
                wanted = card.stands_for
                if wanted.suit != suit or not _fits(wanted, start + i, policy):
                    raise errors.JokerDeclarationError(
                        format_cards(cards),
                        f"the joker in place {i + 1} stands for {position_rank(start + i)}{suit}, "
                        f"not {wanted.face}",
                        rule=policy.rule_joker or None,
                    )
        jokers = sum(card.is_joker for card in cards)
        if policy.run_joker_limit is not None and jokers > policy.run_joker_limit:
            raise errors.TooManyJokersError(
                format_cards(cards),
                f"a run may hold at most {policy.run_joker_limit} joker(s)",
                rule=policy.rule_joker or None,
            )
        if not policy.adjacent_jokers and any(
            a.is_joker and b.is_joker for a, b in itertools.pairwise(cards)
        ):
            raise errors.AdjacentJokersError(
                format_cards(cards),
                "two jokers may not lie next to each other in a run",
                rule=policy.rule_joker or None,
            )
        return Meld("run", tuple(cards), start=start, suit=suit)
    if _cyclic_run(cards):
        raise errors.WrapAroundError(
            format_cards(cards), "a run may not go round the corner through the ace (K-A-2)", rule=rule
        )
    naturals = [c for c in cards if not c.is_joker]
    if size > 13 and all(c.rank == "A" for c in (naturals[0], naturals[-1])):
        raise errors.AceBothEndsError(
            format_cards(cards), "a run may not have an ace at both ends", rule=rule
        )
    raise errors.NotConsecutiveError(
        format_cards(cards), "a run is consecutive cards of one suit, written low to high", rule=rule
    )


def _cyclic_run(cards: Sequence[Card]) -> bool:
    """True if the cards would be consecutive were K-A-2 allowed."""
    index, first = next((i, c) for i, c in enumerate(cards) if not c.is_joker)
    base = (RANK_NUMBER[first.rank] - 2 - index) % 13
    return (
        all((RANK_NUMBER[c.rank] - 2) % 13 == (base + i) % 13 for i, c in enumerate(cards) if not c.is_joker)
        and len(cards) <= 13
    )


def extend_meld(
    meld: Meld, card: Card, policy: MeldPolicy, *, at: Literal["low", "high"] | None = None
) -> Meld:
    """The meld with ``card`` added: a run at one end, a set anywhere. Raises InvalidMeldError."""
    if meld.kind == "set":
        combined = [*meld.cards, card]
        if policy.set_declaration_binding:
            readings = [m for m in meld_readings(combined, policy) if m.kind == "set"]
            if not readings:
                raise errors.NotAMeldError(format_cards(combined), "the card does not fit this set")
            return _declare_set_jokers(readings[0], policy, keep=True)
        # Remi (RMI-Q23): a set joker's place moves to whatever suit is still missing, so the
        # set is checked without the jokers' declarations and then settled.
        stripped = [c.bare() if c.is_joker else c for c in combined]
        readings = [m for m in meld_readings(stripped, policy) if m.kind == "set"]
        if not readings:
            raise errors.NotAMeldError(format_cards(combined), "the card does not fit this set")
        return settle_set(tuple(combined), readings[0].rank)
    options: list[Meld] = []
    failure: errors.InvalidMeldError | None = None
    for side in ("low", "high"):
        if at is not None and side != at:
            continue
        combined = [card, *meld.cards] if side == "low" else [*meld.cards, card]
        try:
            readings = [m for m in meld_readings(combined, policy) if m.kind == "run"]
        except errors.InvalidMeldError as error:
            failure = error
            continue
        options.extend(_declare_run_jokers(m) for m in readings)
    if not options:
        if failure is not None:
            raise failure
        raise errors.NotConsecutiveError(format_cards([*meld.cards, card]), "the card does not fit")
    if len(options) > 1:
        if card.is_joker and card.stands_for is not None:
            options = [m for m in options if card.stands_for in m.represented] or options
        if len(options) > 1:
            raise errors.JokerUndeclaredError(
                format_cards(meld.cards),
                "the joker fits at either end: declare the card it stands for",
                rule=policy.rule_joker or None,
            )
    return options[0]


def may_extend(meld: Meld, card: Card) -> bool:
    """False only where :func:`extend_meld` certainly refuses ``card``: a natural card of another
    rank than a set's, or not of a run's suit at a place just beyond either end. True otherwise
    (a joker, a card that may fit): only ``extend_meld`` says whether it does.

    A check without a reading or an error, for the searches that try every card of a hand against
    every meld on the table (``legal_moves``), where most pairs cannot fit.

    >>> from games.engine import parse_cards
    >>> run = Meld("run", parse_cards("5H 6H 7H"), start=5, suit="H")
    >>> [may_extend(run, c) for c in parse_cards("4H 8H 9H 8S JK")]
    [True, True, False, False, True]
    """
    if card.is_joker:
        return True
    if meld.kind == "set":
        return card.rank == meld.rank
    if card.suit != meld.suit:
        return False
    low, high = meld.start - 1, meld.start + len(meld.cards)
    if card.rank == "A":
        return low == 1 or high == 14
    position = RANK_NUMBER[card.rank]
    return position in (low, high)


def settle_set(cards: tuple[Card, ...], rank: str) -> Meld:
    """A set whose jokers keep their declared suits where still free, else take a free one."""
    present = {c.suit for c in cards if not c.is_joker}
    kept: set[str] = set()
    for card in cards:
        if card.is_joker and card.stands_for is not None:
            suit = card.stands_for.suit
            if suit not in present and suit not in kept:
                kept.add(suit)
    free = iter(s for s in SUITS if s not in present and s not in kept)
    out = []
    for card in cards:
        if card.is_joker:
            declared = card.stands_for.suit if card.stands_for is not None else None
            if declared is not None and declared in kept:
                kept.discard(declared)
                present.add(declared)
            else:
                card = card.bare().declared(Card(rank, next(free)))
        out.append(card)
    return Meld("set", tuple(out), rank=rank)


def set_recovery_cards(meld: Meld, hand: Sequence[Card]) -> list[Card]:
    """Two cards of ``hand`` that take a three-card set's joker back: its two missing suits
    (Remik 40, R40-22); none if the hand lacks them or the set has four cards (R40-23)."""
    if meld.kind != "set" or len(meld.cards) != 3 or not meld.jokers:
        return []
    present = {c.suit for c in meld.cards if not c.is_joker}
    found: dict[str, Card] = {}
    for card in hand:
        if not card.is_joker and card.rank == meld.rank and card.suit not in present:
            found.setdefault(card.suit, card)
    return list(found.values()) if len(found) == 2 else []


def joker_free_suits(meld: Meld) -> list[str]:
    """Suits missing from a set (what its jokers may stand for)."""
    present = {c.suit for c in meld.cards if not c.is_joker}
    return [s for s in SUITS if s not in present]


__all__ = [
    "JOKER",
    "Meld",
    "MeldKind",
    "MeldPolicy",
    "extend_meld",
    "joker_free_suits",
    "may_extend",
    "meld_readings",
    "position_rank",
    "read_meld",
    "set_recovery_cards",
    "settle_set",
    "value_reading",
]


def reading_orders(group: list[Card]) -> list[list[Card]]:
    """Plausible orders of a small group as a set or a run (jokers declared to fill gaps): how a
    group of cards put together on a rack may read (``Rules.meld_reading``).

    >>> from games.engine import parse_cards
    >>> " ".join(map(str, reading_orders(list(parse_cards("7H JK 5H")))[0]))
    '5H JK(6H) 7H'
    """
    naturals = [c for c in group if not c.is_joker]
    jokers = [c for c in group if c.is_joker]
    out: list[list[Card]] = []
    if len({c.rank for c in naturals}) == 1:
        present = {c.suit for c in naturals}
        free = [s for s in SUITS if s not in present]
        if len(free) >= len(jokers):
            out.append(naturals + [j.declared(Card(naturals[0].rank, free[i])) for i, j in enumerate(jokers)])
    if len({c.suit for c in naturals}) == 1:
        suit = naturals[0].suit
        for ace_high in (False, True):

            def number(c: Card, ace_high: bool = ace_high) -> int:
                if c.rank == "A":
                    return 14 if ace_high else 1
                return RANK_NUMBER[c.rank]

            ordered = sorted(naturals, key=number)
            positions = [number(c) for c in ordered]
            if len(set(positions)) != len(positions):
                continue
            span = positions[-1] - positions[0] + 1
            gaps = span - len(ordered)
            if gaps > len(jokers):
                continue
            spare = len(jokers) - gaps
            row: list[Card] = []
            spare_jokers = list(jokers)
            for p in range(positions[0], positions[-1] + 1):
                card = next((c for c in ordered if number(c) == p), None)
                row.append(
                    card if card is not None else spare_jokers.pop().declared(Card(position_rank(p), suit))
                )
            top, bottom = positions[-1], positions[0]
            for _ in range(spare):
                if top < 14 and not (bottom == 1 and top == 13):
                    top += 1
                    row.append(spare_jokers.pop().declared(Card(position_rank(top), suit)))
                elif bottom > 1:
                    bottom -= 1
                    row.insert(0, spare_jokers.pop().declared(Card(position_rank(bottom), suit)))
            if not spare_jokers:
                out.append(row)
    return out
