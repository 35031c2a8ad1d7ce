"""The rummy cycle's own part of a match's state (``GameState.cycle``): who has opened, Remi's atu
and bought-back jokers, the stock's reshuffles. Typed, immutable, JSON-able (cards are
:class:`~games.engine.cards.Card` here and card ids, ``"7H#1"``, in JSON)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import Card, optional_card, optional_text, parse_card

__all__ = ["RummyState"]


@dataclass(frozen=True, slots=True)
class RummyState:
    """The rummy cycle's own: openings, Remi's atu and bought-back jokers, the reshuffles."""

    opened: tuple[bool, ...]
    #: Had the seat to move opened before this turn began? (A one-go finish, R51-45.)
    opened_at_turn_start: bool = False
    #: A joker went into a new meld this turn (Remi's going-out bonus, RMI-43).
    turn_joker_laid: bool = False
    #: Remi's atu, turned up beside the stock (RMI-14), and who took it.
    atu: Card | None = None
    atu_taken_by: int | None = None
    #: Seats dealt the atu's twin (RMI-47).
    atu_pair_seats: tuple[int, ...] = ()
    #: Jokers bought back this round (Remi, RMI-42).
    consumed: tuple[Card, ...] = ()
    #: Times the stock was rebuilt from the discard pile this round (R51-38).
    reshuffles: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "opened": list(self.opened),
            "opened_at_turn_start": self.opened_at_turn_start,
            "turn_joker_laid": self.turn_joker_laid,
            "atu": optional_text(self.atu),
            "atu_taken_by": self.atu_taken_by,
            "atu_pair_seats": list(self.atu_pair_seats),
            "consumed": [str(card) for card in self.consumed],
            "reshuffles": self.reshuffles,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RummyState:
        return cls(
            opened=tuple(data["opened"]),
            opened_at_turn_start=data["opened_at_turn_start"],
            turn_joker_laid=data["turn_joker_laid"],
            atu=optional_card(data["atu"]),
            atu_taken_by=data["atu_taken_by"],
            atu_pair_seats=tuple(data["atu_pair_seats"]),
            consumed=tuple(parse_card(text) for text in data["consumed"]),
            reshuffles=data["reshuffles"],
        )
