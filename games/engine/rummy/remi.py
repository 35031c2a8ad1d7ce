"""Remi (``docs/rules/remi.md``): Romanian rummy with the atu, plus points, and the discard row.

>>> rules = variant("remi")
>>> rules.meld_points("AS AH AD"), rules.meld_points("QH KH AH"), rules.meld_points("7H JK(8H) 9H")
(75, 30, 15)
>>> rules.hand_points("QS 5D JK")                                    # RMI-DX5
65
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..cards import Card
from ..melds import MeldPolicy
from ..notes import note
from ..rules import ROUNDS, Option, register, variant
from ..scoring import RoundFacts, ScoreLine
from .rules import RummyRules

__all__ = ["Remi", "variant"]

_OPENING_SYNONYMS = ((0, "classic"), ("0", "classic"), (45, "45"), (51, "51"))


@register
class Remi(RummyRules):
    name = "remi"
    title = "Remi"
    summary = (
        "Romanian rummy with 106 pieces (two decks and two jokers) and an atu turned up beside the "
        "stock. 14 pieces each, 15 for the first player. Nothing is laid in a player's first turn; "
        "the opening must hold a run. The discard row may be broken at any depth after opening. "
        "Everything laid scores for whoever laid it, everything left in hand is subtracted, going "
        "out earns 50 (100 with a joker); the highest total wins."
    )
    OPTIONS = (
        Option(
            "opening",
            "45",
            "Opening requirement: classic (a run, no minimum), 45 or 51 points including a run.",
            choices=("classic", "45", "51"),
            kind=str,
            synonyms=_OPENING_SYNONYMS,
        ),
        Option(
            "short_game",
            False,
            "Short game for two players: one deck, ten pieces (eleven for the first player).",
            kind=bool,
        ),
        Option(
            "row_visible_depth",
            None,
            "How many of the newest discards can be reached when breaking the row (empty: all).",
            minimum=1,
            nullable=True,
        ),
        ROUNDS,
        Option(
            "target",
            None,
            "End the match when a total reaches this score (empty: no target).",
            minimum=1,
            maximum=100_000,
            nullable=True,
        ),
        Option(
            "max_players",
            4,
            "Seats at the table (2 to 4; the short game seats exactly 2).",
            minimum=2,
            maximum=4,
        ),
    )

    policy = MeldPolicy(
        set_min=3,
        set_max=4,
        set_joker_limit=None,  # RMI-Q12: no limit (a round has only two jokers)
        adjacent_jokers=True,
        set_declaration_binding=False,  # RMI-Q10: either missing suit buys a set-of-three joker
        rule_set="RMI-20",
        rule_run="RMI-21/Q13",
        rule_joker="RMI-Q12",
    )
    opening_run = "any"  # RMI-25 with RMI-Q5: a run with a joker will do
    first_turn_locked = True  # RMI-19
    discard_take = "row"  # RMI-31
    take_before_opening_must_go_out = False
    joker_exchange = "buyback"  # RMI-40..42
    joker_layoff = False  # RMI-37
    has_atu = True  # RMI-14
    stock_out = "end"  # RMI-49/50
    lower_wins = False
    rule_ids: ClassVar[Mapping[str, str]] = {
        "not_opened": "RMI-27",
        "exchange": "RMI-40",
        "keep_discard": "RMI-51",
        "opening": "RMI-24",
        "layoff": "RMI-37",
        "take_meld": "RMI-30",
    }

    def check_options(self, options: Mapping[str, Any]) -> None:
        if options["rounds"] is not None and options["target"] is not None:
            raise ValueError("remi: choose either rounds or target to end the match, not both")
        if options["short_game"] and options["max_players"] != 2:
            self._options["max_players"] = 2

    @property
    def decks(self) -> int:
        return 1 if self._options["short_game"] else 2  # RMI-6/7

    @property
    def jokers(self) -> int:
        return 2

    @property
    def opening_minimum(self) -> int:
        opening = self._options["opening"]
        return 0 if opening == "classic" else int(opening)

    @property
    def row_depth(self) -> int | None:
        depth = self._options["row_visible_depth"]
        return None if depth is None else int(depth)

    def hand_sizes(self, players: int, first: int) -> tuple[int, ...]:
        # RMI-13 / RMI-Q3: 14 and 15 for the first player; the short game 10 and 11.
        base = 10 if self._options["short_game"] else 14
        return tuple(base + 1 if seat == first else base for seat in range(players))

    def card_value(self, represented: Card, kind: str, position: int) -> int:
        # RMI-10/11: 2-9 are 5, T-K 10; the ace 25 in a set, 5 low and 10 high in a run.
        if represented.rank == "A":
            if kind == "set":
                return 25
            return 5 if position == 1 else 10
        return 10 if represented.rank in "TJQK" else 5

    def hand_value(self, card: Card) -> int:
        if card.is_joker:
            return 50  # RMI-12
        if card.rank == "A":
            return 25  # RMI-Q4
        return 10 if card.rank in "TJQK" else 5

    def score_round(self, facts: RoundFacts) -> tuple[ScoreLine, ...]:
        doubled = facts.atu is not None and (facts.atu.is_joker or facts.atu.rank == "A")
        multiplier = 2 if doubled else 1  # RMI-48
        lines = []
        for seat in range(facts.players):
            notes: list[str] = []
            if not facts.opened[seat] and seat != facts.winner:
                # RMI-58 / RMI-Q16: a fixed -100, doubled in a doubled round, no atu bonus.
                notes.append(note("rmi_never_laid", points=-100))
                lines.append(ScoreLine(seat, -100 * multiplier, multiplier=multiplier, notes=tuple(notes)))
                continue
            hand = self.hand_points(facts.hands[seat])
            table = facts.table_points[seat]
            bonus = 0
            if seat == facts.winner:
                bonus = 100 if facts.joker_going_out else 50  # RMI-55
                notes.append(note("went_out_joker") if facts.joker_going_out else note("went_out"))
            atu_bonus = 50 * facts.atu_pair_seats.count(seat)  # RMI-47
            if atu_bonus:
                notes.append(note("rmi_atu_twin"))
            if doubled:
                notes.append(note("rmi_doubled"))
            points = (table - hand + bonus + atu_bonus) * multiplier
            lines.append(
                ScoreLine(
                    seat,
                    points,
                    hand=hand,
                    table=table,
                    bonus=bonus,
                    atu_bonus=atu_bonus,
                    multiplier=multiplier,
                    notes=tuple(notes),
                )
            )
        return tuple(lines)

    def match_over(self, totals: Sequence[int], rounds_played: int) -> bool:
        # RMI-61/62 with RMI-Q19: endless unless a round count (``Rules.round_limit_reached``, which
        # the families ask first) or a target was chosen.
        # (The round limit, the ``rounds`` option, is every variant's: ``Rules.round_limit_reached``.)
        if self._options["target"] is not None:
            return max(totals) >= int(self._options["target"])
        return False
