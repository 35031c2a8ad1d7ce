"""Gin rummy (``docs/rules/gin.md``): the classic two-player game, knock at 10, game to 100.

Everything it shares with Oklahoma (the turn cycle, deadwood, scoring, the settlement) is in
:mod:`games.engine.gin`; this module states only the table options.

>>> rules = variant("gin")
>>> rules.hand_points("AD 2D 3D 6C 7C 8C 9C KS KH 5H")   # GIN-EX1's melds; K K 5 loose
25
>>> melds, loose = rules.best_melds("7S 8S 9S 9H 9D 2C")   # the set leaves 17, the run 20
>>> [str(meld) for meld in melds], [str(card) for card in loose]
(['9S 9H 9D'], ['7S', '8S', '2C'])
>>> rules.meld_points("AD 2D 3D"), rules.meld_points("KS KH KD")
(6, 30)
"""

from __future__ import annotations

from ..gin import GinFamily
from ..rules import Option, register, variant

__all__ = ["Gin", "variant"]


@register
class Gin(GinFamily):
    name = "gin"
    title = "Gin rummy"
    summary = (
        "Two players, one deck, ten cards each; the 21st card is offered face up. Melds stay in the "
        "hand: knock with at most 10 loose points, or go gin with none. The opponent lays off onto "
        "a knocker's melds; an undercut and gin earn 25. The game goes to 100, with a 100 game "
        "bonus and 25 for each deal won more than the opponent."
    )
    OPTIONS = (
        Option(
            "target",
            100,
            "The game ends when a player's score reaches this many points (GIN-23).",
            minimum=10,
            maximum=10_000,
        ),
    )
