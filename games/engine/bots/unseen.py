"""What a seat has not seen, from its view alone: card counting and consistent samples of it.

Every physical card of the pack is either visible to the seat (its hand, the table, the discard
pile or row, the atu, the loose cards a gin knocker shows) or unseen (in another hand or the stock).
The view also reveals some cards that sit in an opponent's hand: gin's first up-card, once the
opponent has taken it (it is neither in the pile, nor on the table, nor in our hand). A
*determinization* deals the unseen cards into the opponents' hands (their sizes are in the view, the
cards known to be there first) and the stock.

>>> from games.engine import variant, new_game, view_for
>>> state = new_game(variant("remik51"), players=2, seed=1)
>>> known = Unseen.from_view(view_for(state, 1))
>>> known.total, len(state.hands[0]) + len(state.stock)
(95, 95)
>>> hands, stock = known.sample(random.Random(0))
>>> len(hands[0]), len(stock), hands[1]
(14, 81, ())
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, parse_card
from ..rules import Rules, variant

__all__ = ["Unseen"]


def _ids(texts: Sequence[str]) -> list[str]:
    return [parse_card(text).id for text in texts]


@dataclass(frozen=True, slots=True)
class Unseen:
    """The cards a seat has not seen, and where they may be."""

    rules: Rules
    seat: int
    players: int
    #: The physical cards not visible to the seat, in pack order.
    cards: tuple[Card, ...]
    #: Unseen copies of each face (``7H``, ``JK``).
    faces: Mapping[str, int]
    #: Cards the view shows to be in an opponent's hand, by seat.
    known: Mapping[int, tuple[Card, ...]]
    #: How many cards each seat holds.
    hand_sizes: tuple[int, ...]
    stock_size: int

    @property
    def total(self) -> int:
        return len(self.cards)

    def live(self, face: str) -> int:
        """Unseen copies of ``face`` (a natural like ``7H``, or ``JK``)."""
        return self.faces.get(face, 0)

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Unseen:
        rules = variant(view["variant"], **view["options"])
        players = int(view["players"])
        seat = int(view["seat"])
        visible: list[str] = _ids(view.get("hand") or [])
        for meld in view.get("melds", []):
            visible += _ids(meld["cards"])
        visible += _ids(view.get("discard", []))
        if view.get("atu") and view.get("atu_taken_by") is None:
            visible += _ids([view["atu"]])
        gin = view.get("gin") or {}
        knock = gin.get("knock") or {}
        visible += _ids(knock.get("deadwood") or [])
        seen = set(visible)
        known: dict[int, tuple[Card, ...]] = {}
        upcard = gin.get("upcard")
        if upcard and players == 2 and parse_card(upcard).id not in seen:
            # Gin: the first up-card never goes back into the stock; out of sight, the other seat has it.
            known[1 - seat] = (parse_card(upcard),)
        cards = tuple(card for card in rules.pack_for(players) if card.id not in seen)
        faces = Counter(card.face for card in cards)
        return cls(
            rules=rules,
            seat=seat,
            players=players,
            cards=cards,
            faces=faces,
            known=known,
            hand_sizes=tuple(int(n) for n in view["hand_sizes"]),
            stock_size=int(view.get("stock_size", 0)),
        )

    def sample(self, rng: random.Random) -> tuple[dict[int, tuple[Card, ...]], tuple[Card, ...]]:
        """One determinization: every other seat's hand (its known cards first) and the stock."""
        known_ids = {card.id for cards in self.known.values() for card in cards}
        pool = [card for card in self.cards if card.id not in known_ids]
        rng.shuffle(pool)
        hands: dict[int, tuple[Card, ...]] = {}
        at = 0
        for other in range(self.players):
            if other == self.seat:
                hands[other] = ()
                continue
            mine = list(self.known.get(other, ()))
            need = max(0, self.hand_sizes[other] - len(mine))
            hands[other] = (*mine, *pool[at : at + need])
            at += need
        return hands, tuple(pool[at:])
