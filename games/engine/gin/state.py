"""The gin cycle's own part of a match's state (``GameState.cycle``): the step of the deal (offer,
turn, reply), the up-card and the knock limit it sets, the card just taken, the knock, deals won,
Oklahoma's columns, the settlement. Typed, immutable, JSON-able (cards are
:class:`~games.engine.cards.Card` here and card ids, ``"7H#1"``, in JSON)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..cards import Card, optional_card, optional_text

__all__ = ["GinColumn", "GinKnock", "GinState", "GinStep"]


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
    """The gin family's own (``games.engine.gin.cycle``): the step of the deal, what the
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
            "upcard": optional_text(self.upcard),
            "limit": self.limit,
            "factor": self.factor,
            "passed": list(self.passed),
            "stock_only": self.stock_only,
            "taken": optional_text(self.taken),
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
            upcard=optional_card(data["upcard"]),
            limit=data["limit"],
            factor=data["factor"],
            passed=tuple(data["passed"]),
            stock_only=data["stock_only"],
            taken=optional_card(data["taken"]),
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
