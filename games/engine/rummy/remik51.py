"""Remik 51 (``docs/rules/remik51.md``): how it differs from the common rummy core.

>>> rules = variant("remik51")
>>> rules.meld_points("9S TS JS"), rules.meld_points("8H 8D 8C")   # R51-EX1
(29, 24)
>>> rules.hand_points("JK AD 7C")                                   # R51-EX8
48
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card
from ..melds import MeldPolicy
from ..notes import note
from ..rules import Option, register, variant
from ..scoring import RoundFacts, ScoreLine
from .rules import RummyRules

__all__ = ["Remik51", "variant"]


@register
class Remik51(RummyRules):
    name = "remik51"
    title = "Remik 51"
    summary = (
        "Polish rummy with two decks and jokers. 13 cards (the dealer 14, who starts without "
        "drawing). The first meld is worth at least 51 points and holds a run without jokers. "
        "Cards left in hand are penalty points; a player going out in one go doubles everyone "
        "else's. The match ends when someone passes the penalty limit; the lowest total wins."
    )
    OPTIONS = (
        Option("jokers_per_deck", 2, "Jokers per deck: 2 (4 in the pack) or 3 (6).", choices=(2, 3)),
        Option("joker_penalty", 30, "What a joker left in hand costs.", choices=(25, 30, 50)),
        Option(
            "penalty_limit",
            500,
            "The match ends when a total goes over this many penalty points.",
            minimum=50,
            maximum=10_000,
        ),
        Option(
            "lowest_tie",
            "shared",
            "When several players share the lowest total: they win together (shared), or play "
            "one more round (extra_round) until the tie is broken.",
            choices=("shared", "extra_round"),
            kind=str,
            synonyms=(("extraRound", "extra_round"),),
        ),
        Option("max_players", 5, "Seats at the table (2 to 6).", minimum=2, maximum=6),
    )

    policy = MeldPolicy(
        set_min=3,
        set_max=4,
        set_joker_limit=((3, 1), (4, 2)),
        adjacent_jokers=False,
        set_declaration_binding=True,
        rule_set="R51-19",
        rule_run="R51-20",
        rule_joker="R51-22/23",
    )
    opening_run = "pure"
    first_dealer = "high_card"  # R51-8
    take_before_opening_must_go_out = True
    joker_exchange = "remik"
    joker_layoff = True
    stock_out = "reshuffle"
    lower_wins = True

    @property
    def jokers(self) -> int:
        return 2 * int(self._options["jokers_per_deck"])

    @property
    def opening_minimum(self) -> int:
        return 51

    def hand_sizes(self, players: int, first: int) -> tuple[int, ...]:
        # R51-10: 13 to everyone, 14 to the dealer (who plays first).
        return tuple(14 if seat == first else 13 for seat in range(players))

    def card_value(self, represented: Card, kind: str, position: int) -> int:
        # R51-6 with the R51-Q2 decision: pips at face value, J Q K 10; ace 1 low / 11 high / 11 in a set.
        if represented.rank == "A":
            return 1 if (kind == "run" and position == 1) else 11
        return _pip_value(represented.rank)

    def hand_value(self, card: Card) -> int:
        # R51-7: the same scale, but an ace always 11 and a joker the table's joker penalty.
        if card.is_joker:
            return int(self._options["joker_penalty"])
        return 11 if card.rank == "A" else _pip_value(card.rank)

    def score_round(self, facts: RoundFacts) -> tuple[ScoreLine, ...]:
        lines = []
        for seat in range(facts.players):
            if facts.ended == "void" or seat == facts.winner:
                notes: tuple[str, ...] = (note("r51_void"),) if facts.ended == "void" else (note("went_out"),)
                lines.append(ScoreLine(seat, 0, notes=notes))
                continue
            hand = self.hand_points(facts.hands[seat])
            multiplier = 2 if facts.one_go else 1  # R51-45/48
            notes = (note("r51_doubled"),) if facts.one_go else ()
            lines.append(ScoreLine(seat, hand * multiplier, hand=hand, multiplier=multiplier, notes=notes))
        return tuple(lines)

    def match_over(self, totals: Sequence[int], rounds_played: int) -> bool:
        # R51-51 / R51-Q10: strictly over the limit, checked after a scored round.
        if not any(total > self._options["penalty_limit"] for total in totals):
            return False
        if self._options["lowest_tie"] == "extra_round":  # R51-Q11
            return list(totals).count(min(totals)) == 1
        return True

    def check_options(self, options: Mapping[str, Any]) -> None:
        return None


def _pip_value(rank: str) -> int:
    return 10 if rank in "TJQK" else int(rank)
