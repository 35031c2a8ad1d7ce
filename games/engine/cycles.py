"""What each family's turn cycle keeps beyond the shared state: typed, immutable, JSON-able.

:class:`~games.engine.state.GameState` holds what every family has (the hands, the stock, the
discard pile, the table, whose turn, the scores); its ``cycle`` field holds one of these:

* :class:`RummyState` — the rummy cycle (Remik 51, Remi, Rummy 500, Remik 40): who has opened,
  Remi's atu and bought-back jokers, the stock's reshuffles;
* :class:`GinState` — gin and Oklahoma: the step of the deal (offer, turn, reply), the up-card and
  the knock limit it sets, the card just taken, the knock, deals won, Oklahoma's columns;
* :class:`Knock108State` — Knock-108: the stage (buy-back, play, extra exchange), who is still in,
  the chips and the pool with their ledger, the knock.

Cards are :class:`~games.engine.cards.Card` here and card ids (``"7H#1"``) in JSON. Each class
reads and writes its JSON (``to_json`` / ``from_json``); :func:`cycle_from_json` picks the class
by family name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .cards import Card, parse_card

__all__ = [
    "Carry",
    "Cycle",
    "GinColumn",
    "GinKnock",
    "GinState",
    "Knock108Knock",
    "Knock108State",
    "LedgerEntry",
    "RummyState",
    "cycle_from_json",
]


def _card(text: str | None) -> Card | None:
    return parse_card(text) if text else None


def _text(card: Card | None) -> str | None:
    return str(card) if card is not None else None


# --- the rummy cycle ------------------------------------------------------------------------------


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
            "atu": _text(self.atu),
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
            atu=_card(data["atu"]),
            atu_taken_by=data["atu_taken_by"],
            atu_pair_seats=tuple(data["atu_pair_seats"]),
            consumed=tuple(parse_card(text) for text in data["consumed"]),
            reshuffles=data["reshuffles"],
        )


# --- the gin family -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GinKnock:
    """A knock of the deal: who, the discard, the loose points, gin or not, the knocker's table
    melds; and ``best``, the defender's optimum (GIN-Q8), which no view shows."""

    seat: int
    discard: str
    points: int
    gin: bool
    melds: tuple[int, ...]
    best: int

    def public(self) -> dict[str, Any]:
        """What every view and the deal's ``round_over`` event show (all but ``best``)."""
        return {
            "seat": self.seat,
            "discard": self.discard,
            "points": self.points,
            "gin": self.gin,
            "melds": list(self.melds),
        }

    def to_json(self) -> dict[str, Any]:
        return {**self.public(), "best": self.best}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GinKnock:
        return cls(
            data["seat"], data["discard"], data["points"], data["gin"], tuple(data["melds"]), data["best"]
        )


@dataclass(frozen=True, slots=True)
class GinColumn:
    """One of Oklahoma's three score columns (OKL-5..7): scores, deals won, who finished it."""

    scores: tuple[int, ...] = (0, 0)
    deals: tuple[int, ...] = (0, 0)
    winner: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "deals": list(self.deals), "winner": self.winner}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GinColumn:
        return cls(tuple(data["scores"]), tuple(data["deals"]), data["winner"])


GinStep = Literal["offer", "turn", "reply", "over"]


@dataclass(frozen=True, slots=True)
class GinState:
    """The gin family's own (``games.engine.families.gin``): the step of the deal, what the
    first up-card sets, the offer, the card just taken, the knock, deals won, the columns."""

    #: "offer" (the up-card), "turn" (draw, then discard or knock), "reply" (the defender's), "over".
    step: GinStep
    #: The deal's first up-card, which sets the knock limit and the factor (OKL-2, OKL-4); None
    #: before the first deal.
    upcard: Card | None = None
    #: The most loose points a knock may keep (0: gin only).
    limit: int = 10
    #: What the deal's score is multiplied by.
    factor: int = 1
    #: Seats that declined the up-card.
    passed: tuple[int, ...] = ()
    #: Both declined the up-card: the non-dealer draws from the stock (GIN-Q4).
    stock_only: bool = False
    #: The card taken from the face-up pile this turn (not to be discarded, GIN-Q5).
    taken: Card | None = None
    knock: GinKnock | None = None
    #: Deals won per seat.
    won: tuple[int, ...] = (0, 0)
    #: Oklahoma's three columns (None in gin).
    columns: tuple[GinColumn, ...] | None = None
    #: The final settlement (GIN-24, OKL-Q4), once the game is over.
    settlement: Mapping[str, Any] | None = None

    def moved(
        self,
        *,
        step: GinStep | None = None,
        passed: tuple[int, ...] | None = None,
        stock_only: bool | None = None,
        taken: Card | Literal[False] | None = False,
    ) -> GinState:
        """The state after a move of a turn (an offer, a draw, a take, a discard): ``replace``
        for the fields such a move changes, written out (a deal is a hundred moves; ``make
        bench``). ``taken=False`` keeps the card taken."""
        new: Any = _NEW(_GinDraft)
        new.step = self.step if step is None else step
        new.upcard = self.upcard
        new.limit = self.limit
        new.factor = self.factor
        new.passed = self.passed if passed is None else passed
        new.stock_only = self.stock_only if stock_only is None else stock_only
        new.taken = self.taken if taken is False else taken
        new.knock = self.knock
        new.won = self.won
        new.columns = self.columns
        new.settlement = self.settlement
        new.__class__ = GinState
        moved: GinState = new
        return moved

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "step": self.step,
            "upcard": _text(self.upcard),
            "limit": self.limit,
            "factor": self.factor,
            "passed": list(self.passed),
            "stock_only": self.stock_only,
            "taken": _text(self.taken),
            "knock": self.knock.to_json() if self.knock is not None else None,
            "won": list(self.won),
            "settlement": dict(self.settlement) if self.settlement is not None else None,
        }
        if self.columns is not None:
            data["columns"] = [column.to_json() for column in self.columns]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GinState:
        columns = data.get("columns")
        return cls(
            step=data["step"],
            upcard=_card(data["upcard"]),
            limit=data["limit"],
            factor=data["factor"],
            passed=tuple(data["passed"]),
            stock_only=data["stock_only"],
            taken=_card(data["taken"]),
            knock=GinKnock.from_json(data["knock"]) if data.get("knock") else None,
            won=tuple(data["won"]),
            columns=tuple(GinColumn.from_json(c) for c in columns) if columns is not None else None,
            settlement=data.get("settlement"),
        )


# ``GinState.moved`` fills a draft of the same slots with plain attribute stores and then sets its
# class, as ``games.engine.state.evolve`` does (see there), rather than calling the frozen
# dataclass's ``object.__setattr__`` per field.
_NEW = object.__new__
_GinDraft: type = type("_GinDraft", (), {"__slots__": GinState.__slots__})
if GinState.__slots__ != (
    "step",
    "upcard",
    "limit",
    "factor",
    "passed",
    "stock_only",
    "taken",
    "knock",
    "won",
    "columns",
    "settlement",
):  # pragma: no cover - a loud failure, not a half-made state
    raise ImportError("GinState's fields changed: update GinState.moved")
_check: Any = _NEW(_GinDraft)
_check.__class__ = GinState  # a TypeError at import if the layouts ever differ
del _check


# --- Knock-108 ------------------------------------------------------------------------------------

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
    """Knock-108's own (``games.engine.families.knock108``): the stage, who is in, the chips."""

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
            "taken": _text(self.taken),
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
            taken=_card(data.get("taken")),
            knock=Knock108Knock.from_json(data["knock"]) if data.get("knock") else None,
            queue=tuple(data.get("queue", ())),
            carry=tuple(Carry.from_json(item) for item in data.get("carry", ())),
        )


Cycle = RummyState | GinState | Knock108State


_CYCLES: Mapping[str, type[RummyState] | type[GinState] | type[Knock108State]] = {
    "rummy": RummyState,
    "gin": GinState,
    "knock108": Knock108State,
}


def cycle_from_json(family: str, data: Mapping[str, Any]) -> Cycle:
    """The state of ``family``'s cycle from its JSON."""
    return _CYCLES[family].from_json(data)
