"""Knock-108 (``docs/rules/knock108.md``): a knock rummy for several players with 108 cards.

Two decks and four jokers; 10 cards each, the dealer 11 (K108-5). Melds stay in the hand; a player
ends the deal after drawing and discarding by knocking with at most 5 points in loose cards, by
gin, or by a special hand (flush, figures, and the optional full sequence). After a knock the
others get one extra exchange. Each player keeps a record of minus points; over 100 they drop out
and may buy back in; the last one left takes the pool. The turn cycle lives in
:mod:`games.engine.knock108`.

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
from typing import Any

from ..cards import Card, parse_cards
from ..knock108 import FLOW, RULE_LIMIT
from ..melds import MeldPolicy
from ..rules import Option, Rules, register, variant
from ..scoring import RoundFacts, ScoreLine
from ..search import best_arrangement

__all__ = ["Knock108", "variant"]

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
_NO_LIMITS = MeldPolicy(
    set_min=3,
    set_max=4,
    set_joker_limit=None,
    run_min=3,
    adjacent_jokers=True,
    ace_low=True,
    ace_high=True,
    set_declaration_binding=False,
    rule_set="K108-10/Q3",
    rule_run="K108-10/Q2",
    rule_joker="K108-Q5",
)


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
    flow = FLOW
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
    def max_players(self) -> int:
        return int(self._options["max_players"])

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
        raise NotImplementedError("knock108 scores its deals in its own cycle (games.engine.knock108)")

    def match_over(self, totals: Sequence[int], rounds_played: int) -> bool:
        raise NotImplementedError("knock108 ends its match in its own cycle (games.engine.knock108)")
