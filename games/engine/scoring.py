"""Round scoring plumbing shared by every variant: the facts of a finished round and score lines.

Each variant's ``score_round(facts)`` turns :class:`RoundFacts` into one :class:`ScoreLine` per seat;
the turn cycle adds them to the running totals and asks ``match_over`` whether to deal again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from .cards import Card

if TYPE_CHECKING:
    from .melds import Meld

RoundEnd = Literal["went_out", "stock_out", "void"]


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """Everything scoring needs to know about a finished round."""

    players: int
    round_no: int
    ended: RoundEnd
    #: The seat that went out, if any.
    winner: int | None
    #: The winner laid all their cards in the going-out turn without having laid anything before.
    one_go: bool
    #: Cards left in each hand.
    hands: tuple[tuple[Card, ...], ...]
    #: Table points credited to each seat (the value of every card it put on the table).
    table_points: tuple[int, ...]
    opened: tuple[bool, ...]
    #: The going-out move had a joker in it (Remi, RMI-43).
    joker_going_out: bool = False
    atu: Card | None = None
    #: Seats that were dealt the atu's twin (Remi, RMI-47).
    atu_pair_seats: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One seat's result for one round, with its breakdown."""

    seat: int
    points: int
    hand: int = 0
    table: int = 0
    bonus: int = 0
    atu_bonus: int = 0
    multiplier: int = 1
    notes: tuple[str, ...] = field(default=())
    #: Site chips paid to the seat from the prize pool (Remik 40, R40-29); None where there is none.
    chips: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.seat,
            "points": self.points,
            "hand": self.hand,
            "table": self.table,
            "bonus": self.bonus,
            "atu_bonus": self.atu_bonus,
            "multiplier": self.multiplier,
            "notes": list(self.notes),
        }
        if self.chips is not None:
            data["chips"] = self.chips
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScoreLine:
        return cls(**{**data, "notes": tuple(data.get("notes", ()))})


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A scored round: how it ended, the lines and the totals after it."""

    round_no: int
    first: int
    ended: RoundEnd
    winner: int | None
    lines: tuple[ScoreLine, ...]
    totals: tuple[int, ...]
    #: The cards each seat still held (public once the round is over).
    hands: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round_no,
            "first": self.first,
            "ended": self.ended,
            "winner": self.winner,
            "lines": [line.to_json() for line in self.lines],
            "totals": list(self.totals),
            "hands": [[c.id for c in hand] for hand in self.hands],
        }


def standings(totals: Sequence[int], lower_wins: bool) -> tuple[int, ...]:
    """Seats holding the best total (several on a tie)."""
    best = min(totals) if lower_wins else max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


class LaidMeld(Protocol):
    """A meld on the table and who placed each of its cards (a state's ``TableMeld``)."""

    @property
    def meld(self) -> Meld: ...

    @property
    def placed_by(self) -> tuple[int, ...]: ...


class _CardValues(Protocol):
    def card_value(self, represented: Card, kind: str, position: int) -> int: ...


class Table(Protocol):
    """What :func:`table_points` reads of a state: the rules (what a card is worth in a meld), the
    seats and the table's melds."""

    @property
    def rules(self) -> _CardValues: ...

    @property
    def players(self) -> int: ...

    @property
    def melds(self) -> Sequence[LaidMeld]: ...


def table_points(state: Table) -> tuple[int, ...]:
    """What each seat has put on the table this round (the placer scores each card, RMI-36)."""
    points = [0] * state.players
    for table_meld in state.melds:
        meld = table_meld.meld
        for rep, position, placer in zip(meld.represented, meld.positions, table_meld.placed_by, strict=True):
            points[placer] += state.rules.card_value(rep, meld.kind, position)
    return tuple(points)
