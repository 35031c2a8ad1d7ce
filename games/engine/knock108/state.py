"""Knock-108's own part of a match's state (``GameState.cycle``): the stage (buy-back, play, extra
exchange), who is still in, the chips and the pool with their ledger, the knock. Typed, immutable,
JSON-able (cards are :class:`~games.engine.cards.Card` here and card ids, ``"7H#1"``, in JSON)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..cards import Card, optional_card, optional_text

__all__ = ["Carry", "Knock108Knock", "Knock108State", "LedgerEntry", "Payer"]


Payer = int | Literal["pool"]


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """Chips moved in a deal (K108-22/23/26/28): from a seat or the pool, to a seat or the pool."""

    round: int
    kind: str
    source: Payer
    target: Payer
    amount: int

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "kind": self.kind,
            "from": self.source,
            "to": self.target,
            "amount": self.amount,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LedgerEntry:
        return cls(data["round"], data["kind"], data["from"], data["to"], data["amount"])


@dataclass(frozen=True, slots=True)
class Carry:
    """What happened to a seat before this deal that its score line must tell (a buy-back's record
    jump, the entry stake): points added to the line, and notes."""

    points: int = 0
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"points": self.points, "notes": list(self.notes)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Carry:
        return cls(data["points"], tuple(data["notes"]))


@dataclass(frozen=True, slots=True)
class Knock108Knock:
    """A knock waiting for the others' extra exchanges (K108-16)."""

    seat: int
    kind: str
    points: int
    discard: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "points": self.points, "discard": self.discard}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Knock108Knock:
        return cls(data["seat"], data["kind"], data["points"], data["discard"])


@dataclass(frozen=True, slots=True)
class Knock108State:
    """Knock-108's own (``games.engine.knock108.cycle``): the stage, who is in, the chips."""

    #: "buy_back" (the players who are out decide), "play", "exchange" (after a knock).
    stage: Literal["buy_back", "play", "exchange"]
    #: Seats still in the game (K108-25).
    active: tuple[bool, ...]
    #: Each seat's chips won (+) or paid (-) so far, and the pool.
    chips: tuple[int, ...]
    pool: int
    ledger: tuple[LedgerEntry, ...]
    #: Buy-backs per seat (K108-26).
    buy_backs: tuple[int, ...]
    #: The last deal's summary: what each seat showed (public once the deal is over).
    last_deal: Mapping[str, Any] | None = None
    #: The card taken from the face-up pile this turn (its face may not be discarded, K108-Q18).
    taken: Card | None = None
    knock: Knock108Knock | None = None
    #: Seats still to decide (buy-back) or to exchange, in order, after the one to move.
    queue: tuple[int, ...] = ()
    carry: tuple[Carry, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "active": list(self.active),
            "chips": list(self.chips),
            "pool": self.pool,
            "ledger": [entry.to_json() for entry in self.ledger],
            "buy_backs": list(self.buy_backs),
            "last_deal": dict(self.last_deal) if self.last_deal is not None else None,
            "stage": self.stage,
            "taken": optional_text(self.taken),
            "knock": self.knock.to_json() if self.knock is not None else None,
            "queue": list(self.queue),
            "carry": [item.to_json() for item in self.carry],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Knock108State:
        return cls(
            stage=data["stage"],
            active=tuple(data["active"]),
            chips=tuple(data["chips"]),
            pool=data["pool"],
            ledger=tuple(LedgerEntry.from_json(entry) for entry in data["ledger"]),
            buy_backs=tuple(data["buy_backs"]),
            last_deal=data.get("last_deal"),
            taken=optional_card(data.get("taken")),
            knock=Knock108Knock.from_json(data["knock"]) if data.get("knock") else None,
            queue=tuple(data.get("queue", ())),
            carry=tuple(Carry.from_json(item) for item in data.get("carry", ())),
        )
