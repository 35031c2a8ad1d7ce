"""Rummy 500 (``docs/rules/rummy500.md``): points for the cards one puts on the table, a fanned
discard pile that may be taken from any depth, first past 500.

>>> rules = variant("rummy500")
>>> rules.meld_points("AH 2H 3H"), rules.meld_points("KS KH KD")       # R500-EX1, R500-EX2
(6, 30)
>>> rules.hand_points("QC 2D"), rules.hand_points("5C 5D 5S")           # R500-DX1: cards left in hand
(12, 15)
>>> try:                                                               # the ace is low only
...     rules.meld_points("QH KH AH")
... except InvalidMeldError as error:
...     print(error.code, error.rule)
wrap_around R500-3
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..cards import Card, build_pack
from ..errors import InvalidMeldError
from ..melds import MeldPolicy
from ..notes import note
from ..rules import MatchFacts, Option, register, variant
from ..scoring import RoundFacts, ScoreLine, table_points
from .rules import RummyRules

__all__ = ["InvalidMeldError", "Rummy500", "variant"]


@register
class Rummy500(RummyRules):
    name = "rummy500"
    title = "Rummy 500"
    summary = (
        "2 to 8 players, no jokers; one deck for up to four players, two from five. 13 cards each "
        "with two players, 7 with more; the stock's top card starts the discard pile, which is "
        "fanned: a card may be taken from any depth, with every card above it, if the card reached "
        "for is laid on the table at once with cards from the hand. Every card laid or laid off "
        "scores for whoever laid it; cards left in hand count against. First past 500 wins."
    )
    OPTIONS = (
        Option(
            "two_decks_for_four",
            False,
            "With exactly four players, play with two decks instead of one (R500-Q2).",
            kind=bool,
        ),
        Option(
            "target",
            500,
            "The match ends after the deal in which a total goes over this many points (R500-17).",
            minimum=50,
            maximum=10_000,
        ),
        Option("max_players", 8, "Seats at the table (2 to 8).", minimum=2, maximum=8),
    )

    # R500-Q1: sets of 3-4 cards of one rank in different suits; runs of 3+ with the ace low only.
    policy = MeldPolicy(
        set_min=3,
        set_max=4,
        set_joker_limit=None,
        run_min=3,
        adjacent_jokers=True,
        ace_low=True,
        ace_high=False,
        set_declaration_binding=False,
        jokers=False,  # R500-2, R500-19
        rule_set="R500-Q1",
        rule_run="R500-3",
        rule_joker="R500-2/19",
    )
    opening_required = False  # R500-19: lay down and lay off from the first turn
    first_player_draws = True  # R500-6: the player left of the dealer starts by taking a card
    up_card = True  # R500-6
    discard_take = "row"  # R500-9: any depth, with every card above
    taken_card_layoff = True  # R500-Q5 / Q6
    deep_take_from_hand = True  # R500-9 / Q6
    go_out_by_melding = True  # R500-Q4
    joker_layoff = False  # there are no jokers
    stock_out = "end"  # R500-Q7 (b)
    lower_wins = False  # R500-12
    rule_ids: ClassVar[Mapping[str, str]] = {
        "take_meld": "R500-8/Q5",
        "deep_take": "R500-9",
        "layoff": "R500-10",
        "take_top": "R500-9",
    }

    def end_condition(self) -> str:
        return (
            f"The match ends when a player's total goes over {self._options['target']} points "
            "after a deal; the highest total wins (a tie at the top plays one more deal)."
        )

    @property
    def decks(self) -> int:
        return 1

    def decks_for(self, players: int) -> int:
        """R500-2 with R500-Q2: one deck up to four players (two at four by option), two from five."""
        if players >= 5 or (players == 4 and self._options["two_decks_for_four"]):
            return 2
        return 1

    def pack_for(self, players: int) -> tuple[Card, ...]:
        return build_pack(self.decks_for(players), 0)

    def hand_sizes(self, players: int, first: int) -> tuple[int, ...]:
        # R500-5: 13 cards each for two players, 7 for three or more.
        return ((13 if players == 2 else 7),) * players

    def card_value(self, represented: Card, kind: str, position: int) -> int:
        return _value(represented.rank)  # R500-13

    def hand_value(self, card: Card) -> int:
        return 0 if card.is_joker else _value(card.rank)  # R500-15 (a pack without jokers, R500-2)

    def score_round(self, facts: RoundFacts) -> tuple[ScoreLine, ...]:
        # R500-12..16: every card laid scores for whoever laid it; cards left in hand are minus
        # points, even if they form melds; no bonus for going out. A stock-out deal (R500-Q7) is
        # scored the same way.
        lines = []
        for seat in range(facts.players):
            hand = self.hand_points(facts.hands[seat])
            table = facts.table_points[seat]
            notes: tuple[str, ...] = ()
            if seat == facts.winner:
                notes = (note("went_out"),)
            elif facts.ended == "stock_out":
                notes = (note("r500_stock_out"),)
            lines.append(ScoreLine(seat, table - hand, hand=hand, table=table, notes=notes))
        return tuple(lines)

    def match_over(self, totals: Sequence[int], rounds_played: int) -> bool:
        # R500-17/18 with R500-Q8: judged after the deal is scored; the highest total above the
        # target wins; a tie for it means one more deal.
        best = max(totals)
        return best > int(self._options["target"]) and list(totals).count(best) == 1

    def table_facts(self, state: MatchFacts) -> dict[str, Any]:
        # R500-14: the running tally: each seat's total plus what it has put on the table this deal.
        laid = table_points(state) if state.phase != "over" else (0,) * state.players
        return {
            "running_totals": [total + points for total, points in zip(state.totals, laid, strict=True)],
            "target": int(self._options["target"]),
        }

    def check_options(self, options: Mapping[str, Any]) -> None:
        return None


def _value(rank: str) -> int:
    """R500-13: J Q K 10, T 10, the ace 1, the rest their number."""
    if rank in "TJQK":
        return 10
    return 1 if rank == "A" else int(rank)
