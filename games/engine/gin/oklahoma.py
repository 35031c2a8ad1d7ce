"""Oklahoma gin with three score columns (``docs/rules/oklahoma.md``): gin (OKL-1) where the
first up-card sets the knock limit, a spade up-card doubles the deal, and three parallel columns
are kept. The turn cycle is :mod:`games.engine.gin.cycle`; the family's rules, scoring and
columns are in :mod:`games.engine.gin.rules`.

>>> rules = variant("oklahoma")
>>> [rules.knock_limit(card) for card in parse_cards("4D KH 9C AS")]     # OKL-2, OKL-DX1
[4, 10, 9, 0]
>>> rules.deal_factor(parse_card("7S")), rules.deal_factor(parse_card("7H"))   # OKL-4
(2, 1)
"""

from __future__ import annotations

from ..cards import Card, parse_card, parse_cards
from ..rules import Option, register, variant
from .rules import GinRules

__all__ = ["Oklahoma", "parse_card", "parse_cards", "variant"]


@register
class Oklahoma(GinRules):
    name = "oklahoma"
    title = "Oklahoma gin (three columns)"
    summary = (
        "Gin rummy where the first up-card sets the most loose points a knock may keep (its pips, "
        "10 for a ten or a face card; an ace means gin only) and a spade up-card doubles the deal. "
        "A player's first win is scored in column 1, the second in columns 1 and 2, every later "
        "one in all three; a column ends when someone reaches the target, the game when all three "
        "have, and each column is settled as a gin game."
    )
    OPTIONS = (
        Option(
            "target",
            150,
            "A column is finished when a player's score in it reaches this (usually 150 or 200, OKL-7).",
            minimum=10,
            maximum=10_000,
        ),
    )
    hollywood = True

    def end_condition(self) -> str:
        return (
            f"Each of the three columns ends when a player's score in it reaches "
            f"{self._options['target']}; the match ends when all three have, and each column is "
            "settled as a gin game (game bonus and deals won); the higher settlement wins."
        )

    def knock_limit(self, upcard: Card) -> int:
        # OKL-2: T J Q K → 10, 2..9 their pips, an ace: no knocking (gin only).
        if upcard.rank == "A":
            return 0
        return 10 if upcard.rank in "TJQK" else int(upcard.rank)

    def deal_factor(self, upcard: Card) -> int:
        return 2 if upcard.suit == "S" else 1  # OKL-4 with OKL-Q5
