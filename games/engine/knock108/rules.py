"""Knock-108 (``docs/rules/knock108.md``): a knock rummy for several players with 108 cards.

Two decks and four jokers; 10 cards each, the dealer 11 (K108-5). Melds stay in the hand; a player
ends the deal after drawing and discarding by knocking with at most 5 points in loose cards, by
gin, or by a special hand (flush, figures, and the optional full sequence). After a knock the
others get one extra exchange. Each player keeps a record of minus points; over 100 they drop out
and may buy back in; the last one left takes the pool. The turn cycle lives in
:mod:`games.engine.knock108.cycle`; what a hand is worth (loose points, special hands, the best
declaration) is here.

>>> rules = variant("knock108")
>>> rules.hand_points("7C QD JK"), rules.hand_points("AS 2S")          # K108-DX3
(37, 12)
>>> rules.hand_points("9S TS JS 8H 8D 8C 2C 3C 4C KD")               # melds count 0
10
>>> rules.hand_points("QS KS AS AH 2H 3H")                              # K108-Q2: A high and low
0
>>> rules.hand_points("KH AH 2H")                                        # but no K-A-2
22
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .. import errors
from ..cards import RANK_NUMBER, Card, parse_card, parse_cards
from ..melds import Meld, MeldPolicy, read_meld
from ..rules import Option, Rules, register, variant
from ..scoring import RoundFacts, ScoreLine
from ..search import best_arrangement

__all__ = [
    "CREDITS",
    "KNOCK_LIMIT",
    "RULE_LIMIT",
    "Declaration",
    "Knock108",
    "best_declaration",
    "deadwood",
    "declaration",
    "full_sequence",
    "loose_at_showdown",
    "special_hand",
    "variant",
]

#: K108-24/25 with K108-Q13: a record strictly over this drops the player out.
RULE_LIMIT = 100
#: K108-14: the most loose points one may knock with.
KNOCK_LIMIT = 5
#: K108-21: what each result takes off the declarer's record.
CREDITS = {"gin": 10, "flush": 25, "figures": 25, "full_sequence": 40}
#: K108-Q7: which result wins when the ten cards qualify for several.
_RANK = {"knock": 1, "gin": 2, "flush": 3, "figures": 3, "full_sequence": 4}
_FIGURES = "JQKA"


# --- hands: loose points, special hands, what a declaration is worth ----------------------------


@lru_cache(maxsize=1 << 16)
def _deadwood_of_faces(rules: Rules, faces: tuple[str, ...]) -> int:
    cards = [parse_card(face) for face in faces]
    _, loose = best_arrangement(rules, cards)
    return sum(rules.hand_value(card) for card in loose)


def deadwood(rules: Rules, cards: Iterable[Card]) -> int:
    """The loose points of ``cards`` after their best arrangement into ordinary melds (K108-18).

    Memoised on the cards' faces (copies of a card behave alike).
    """
    return _deadwood_of_faces(rules, tuple(sorted(card.face for card in cards)))


def full_sequence(rules: Rules, cards: Sequence[Card]) -> Meld | None:
    """The ten cards as one run of one suit (K108-13, K108-Q7), jokers declared, or None."""
    naturals = [card for card in cards if not card.is_joker]
    jokers = [card.bare() for card in cards if card.is_joker]
    if not naturals or len({card.suit for card in naturals}) != 1:
        return None
    suit = naturals[0].suit
    size = len(cards)
    for start in range(1, 16 - size):
        places: dict[int, Card] = {}
        for card in naturals:
            position = RANK_NUMBER[card.rank] if card.rank != "A" else (1 if start == 1 else 14)
            if not start <= position < start + size or position in places:
                break
            places[position] = card
        else:
            spare = iter(jokers)
            ordered = [places.get(p) or next(spare) for p in range(start, start + size)]
            try:
                meld = read_meld(ordered, rules.policy)
            except errors.InvalidMeldError:
                continue
            if meld.kind == "run" and meld.suit == suit:
                return meld
    return None


def special_hand(rules: Rules, cards: Sequence[Card]) -> str | None:
    """``"full_sequence"``, ``"flush"``, ``"figures"`` or None for a ten-card hand (K108-12/13).

    A joker stands for any card (K108-Q6); the full sequence counts only where the table plays it.
    """
    naturals = [card for card in cards if not card.is_joker]
    if len(cards) != 10 or not naturals:
        return None
    one_suit = len({card.suit for card in naturals}) == 1
    if one_suit and rules.options.get("full_sequence") and full_sequence(rules, cards) is not None:
        return "full_sequence"
    if one_suit:
        return "flush"
    if all(card.rank in _FIGURES for card in naturals):
        return "figures"
    return None


@dataclass(frozen=True, slots=True)
class Declaration:
    """What a hand of ten is worth when laid: its kind, loose points, melds and loose cards."""

    kind: str
    #: Loose points (0 for every kind but ``knock``).
    points: int
    melds: tuple[Meld, ...]
    loose: tuple[Card, ...]

    @property
    def credit(self) -> int:
        return CREDITS.get(self.kind, 0)

    @property
    def rank(self) -> int:
        return _RANK[self.kind]


def declaration(rules: Rules, cards: Sequence[Card]) -> Declaration | None:
    """The best result ten cards allow (K108-Q7), or None when they cannot end the deal."""
    special = special_hand(rules, cards)
    if special == "full_sequence":
        meld = full_sequence(rules, cards)
        assert meld is not None
        return Declaration(special, 0, (meld,), ())
    if special is not None:
        return Declaration(special, 0, (), ())
    if deadwood(rules, cards) > KNOCK_LIMIT:
        return None
    melds, loose = best_arrangement(rules, cards)
    points = sum(rules.hand_value(card) for card in loose)
    return Declaration("gin" if points == 0 else "knock", points, melds, loose)


def best_declaration(
    rules: Rules, hand: Sequence[Card], taken: Card | str | None = None
) -> tuple[Card, Declaration] | None:
    """The discard that leaves the best result (K108-Q7), and that result; None if none can end.

    ``taken`` (a card, or its id) was just taken from the pile: its face may not be discarded
    (K108-Q18). Ties go to discarding the highest card, then the first such card in the hand.
    """
    best: tuple[tuple[int, int, int], Card, Declaration] | None = None
    seen: set[str] = set()
    taken_face = None if taken is None else taken.face if isinstance(taken, Card) else card_face(taken)
    for card in hand:
        if card.face in seen or card.face == taken_face:
            continue
        seen.add(card.face)
        rest = without(hand, card)
        found = declaration(rules, rest)
        if found is None:
            continue
        key = (found.rank, -found.points, rules.hand_value(card))
        if best is None or key > best[0]:
            best = (key, card, found)
    return None if best is None else (best[1], best[2])


def loose_at_showdown(
    rules: Rules, cards: Sequence[Card]
) -> tuple[str | None, tuple[Meld, ...], tuple[Card, ...]]:
    """A player's cards when the deal is scored: (special hand, melds, loose cards).

    A special hand is a meld made of the whole hand (K108-12), so it leaves nothing loose, though
    only the declarer is credited for it.
    """
    special = special_hand(rules, cards)
    if special is not None:
        return special, (), ()
    melds, loose = best_arrangement(rules, cards)
    return None, melds, loose


def card_face(card_id: str) -> str:
    return parse_card(card_id).face


def without(cards: Sequence[Card], card: Card) -> list[Card]:
    out = list(cards)
    out.remove(card)
    return out


#: K108-Q5 (b): the Polish joker limits of Remik 51 (R51-22/23).
_REMIK_LIMITS = MeldPolicy(
    set_min=3,
    set_max=4,
    set_joker_limit=((3, 1), (4, 2)),
    run_min=3,
    adjacent_jokers=False,
    ace_low=True,
    ace_high=True,
    set_declaration_binding=False,
    rule_set="K108-10/Q3",
    rule_run="K108-10/Q2",
    rule_joker="K108-Q5",
)
#: K108-Q5 (a): no limit beyond "a meld holds a natural card".
_NO_LIMITS = replace(_REMIK_LIMITS, set_joker_limit=None, adjacent_jokers=True)


@register
class Knock108(Rules):
    name = "knock108"
    title = "Knock-108"
    summary = (
        "Knock rummy for 2 to 6 players with two decks and four jokers (108 cards). 10 cards each, "
        "the dealer 11 and the first discard. Knock with at most 5 points in loose cards, or end "
        "the deal with gin, a flush or figures (and, if agreed, a full sequence); after a knock "
        "everyone else may exchange one more card. Loose cards are minus points on each player's "
        "record; over 100 a player drops out and may buy back in for three stakes. The last "
        "player left takes the pool of chips."
    )
    OPTIONS = (
        Option(
            "stake",
            10,
            "The stake in site chips (even: a knock is paid in half stakes). Each player pays one "
            "into the pool before the first deal.",
            minimum=2,
            maximum=10_000,
        ),
        Option(
            "full_sequence",
            False,
            "Also play the full sequence: ten cards of one suit in a row (40 off the record, four "
            "stakes from each opponent).",
            kind=bool,
        ),
        Option(
            "joker_limits",
            "remik",
            "Jokers in melds: remik (a set of 3 holds one joker, a set of 4 two, no two jokers side "
            "by side in a run) or none (no limit).",
            choices=("remik", "none"),
            kind=str,
        ),
        Option(
            "special_hand_stakes",
            1,
            "Stakes each opponent pays for a flush or figures.",
            minimum=0,
            maximum=4,
        ),
        Option("max_players", 6, "Seats at the table (2 to 6).", minimum=2, maximum=6),
    )

    lower_wins = True
    family = "knock108"

    def end_condition(self) -> str:
        return (
            "A player whose minus points go over 100 drops out (and may buy back in for three "
            "stakes); the last player left wins and takes the pool."
        )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.policy = _REMIK_LIMITS if self._options["joker_limits"] == "remik" else _NO_LIMITS

    def check_options(self, options: Mapping[str, Any]) -> None:
        if options["stake"] % 2:
            raise ValueError("knock108: option stake must be even (a knock pays half stakes, K108-Q19)")

    @property
    def jokers(self) -> int:
        return 4  # K108-2

    @property
    def stake(self) -> int:
        return int(self._options["stake"])

    @property
    def limit(self) -> int:
        return RULE_LIMIT

    def hand_sizes(self, players: int, first: int) -> tuple[int, ...]:
        # K108-5: 10 each, 11 to the dealer (who makes the first discard).
        return tuple(11 if seat == first else 10 for seat in range(players))

    def card_value(self, represented: Card, kind: str, position: int) -> int:
        # K108-18: cards in melds count 0. (The meld search then keeps, among arrangements of
        # equal table points, the one leaving the fewest loose points: the minimal deadwood.)
        return 0

    def hand_value(self, card: Card) -> int:
        # K108-18 with K108-Q4: figures 10, the ace 10, pips their number, a joker 20.
        if card.is_joker:
            return 20
        if card.rank in "TJQKA":
            return 10
        return int(card.rank)

    def hand_points(self, cards: Iterable[Card] | str) -> int:
        """The loose points of ``cards`` after their best arrangement into melds (K108-18)."""
        seq = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        _, loose = best_arrangement(self, seq)
        return sum(self.hand_value(card) for card in loose)

    def score_round(self, facts: RoundFacts) -> tuple[ScoreLine, ...]:
        raise NotImplementedError("knock108 scores its deals in its own cycle (games.engine.knock108.cycle)")

    def match_over(self, totals: Sequence[int], rounds_played: int) -> bool:
        raise NotImplementedError("knock108 ends its match in its own cycle (games.engine.knock108.cycle)")
