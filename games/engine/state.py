"""The state of a match: immutable, complete (including what players may not see), JSON-able.

Only :func:`games.engine.perspective.view_for` turns it into what one seat may know.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .cards import Card, parse_card
from .melds import Meld
from .rules import Rules, rules_from_json
from .scoring import RoundResult, ScoreLine

Phase = Literal["draw", "play", "over"]


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: who laid it, its cards (jokers declared) and who placed each card."""

    id: int
    owner: int
    meld: Meld
    placed_by: tuple[int, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.meld.cards


@dataclass(frozen=True, slots=True)
class GameState:
    rules: Rules
    players: int
    names: tuple[str, ...]
    #: The match secret (never shown to players before it is revealed).
    secret: bytes
    round_no: int
    #: The dealer (Remik) or first player (Remi) of this round: the one dealt the extra card.
    first: int
    hands: tuple[tuple[Card, ...], ...]
    #: Top first.
    stock: tuple[Card, ...]
    #: Bottom (oldest) first; the last card is the top.
    discard: tuple[Card, ...]
    melds: tuple[TableMeld, ...]
    opened: tuple[bool, ...]
    turn: int
    phase: Phase
    #: Turns each seat has started this round (a seat's first turn is number 1).
    turns_started: tuple[int, ...]
    #: Had the seat to move opened before this turn began? (A one-go finish, R51-45.)
    opened_at_turn_start: bool
    #: A joker went into a new meld this turn (Remi's going-out bonus, RMI-43).
    turn_joker_laid: bool
    atu: Card | None
    atu_taken_by: int | None
    atu_pair_seats: tuple[int, ...]
    #: Jokers bought back this round (Remi, RMI-42).
    consumed: tuple[Card, ...]
    reshuffles: int
    next_meld_id: int
    results: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    #: Set when the match is over.
    winners: tuple[int, ...]
    #: Moves applied so far in the match (a version number).
    moves_played: int
    #: What a variant with its own turn cycle (``Rules.flow``) keeps beyond the fields above:
    #: JSON-able data only (card ids as text), never read by the shared cycle.
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def meld_by_id(self, meld_id: int) -> TableMeld | None:
        return next((m for m in self.melds if m.id == meld_id), None)

    def with_changes(self, **changes: Any) -> GameState:
        return replace(self, **changes)


# --- JSON -------------------------------------------------------------------------------------


def _ids(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


def _cards(items: list[str]) -> tuple[Card, ...]:
    return tuple(parse_card(item) for item in items)


def _meld_to_json(table_meld: TableMeld) -> dict[str, Any]:
    meld = table_meld.meld
    return {
        "id": table_meld.id,
        "owner": table_meld.owner,
        "kind": meld.kind,
        "cards": _ids(meld.cards),
        "start": meld.start,
        "suit": meld.suit,
        "rank": meld.rank,
        "placed_by": list(table_meld.placed_by),
    }


def _meld_from_json(data: dict[str, Any]) -> TableMeld:
    meld = Meld(
        data["kind"],
        _cards(data["cards"]),
        start=data["start"],
        suit=data["suit"],
        rank=data["rank"],
    )
    return TableMeld(data["id"], data["owner"], meld, tuple(data["placed_by"]))


def _result_from_json(data: dict[str, Any]) -> RoundResult:
    return RoundResult(
        round_no=data["round"],
        first=data["first"],
        ended=data["ended"],
        winner=data["winner"],
        lines=tuple(ScoreLine.from_json(line) for line in data["lines"]),
        totals=tuple(data["totals"]),
        hands=tuple(_cards(hand) for hand in data["hands"]),
    )


def state_to_json(state: GameState) -> dict[str, Any]:
    """The complete state as JSON (server side only: it holds every hand and the secret)."""
    return {
        "format": "remi-state/1",
        "rules": state.rules.to_json(),
        "players": state.players,
        "names": list(state.names),
        "secret": state.secret.hex(),
        "round": state.round_no,
        "first": state.first,
        "hands": [_ids(hand) for hand in state.hands],
        "stock": _ids(state.stock),
        "discard": _ids(state.discard),
        "melds": [_meld_to_json(m) for m in state.melds],
        "opened": list(state.opened),
        "turn": state.turn,
        "phase": state.phase,
        "turns_started": list(state.turns_started),
        "opened_at_turn_start": state.opened_at_turn_start,
        "turn_joker_laid": state.turn_joker_laid,
        "atu": str(state.atu) if state.atu else None,
        "atu_taken_by": state.atu_taken_by,
        "atu_pair_seats": list(state.atu_pair_seats),
        "consumed": _ids(state.consumed),
        "reshuffles": state.reshuffles,
        "next_meld_id": state.next_meld_id,
        "results": [result.to_json() for result in state.results],
        "totals": list(state.totals),
        "winners": list(state.winners),
        "moves_played": state.moves_played,
        "extra": dict(state.extra),
    }


def state_from_json(data: dict[str, Any]) -> GameState:
    """Inverse of :func:`state_to_json`."""
    if data.get("format") != "remi-state/1":
        raise ValueError("not a remi-state/1 document")
    return GameState(
        rules=rules_from_json(data["rules"]),
        players=data["players"],
        names=tuple(data["names"]),
        secret=bytes.fromhex(data["secret"]),
        round_no=data["round"],
        first=data["first"],
        hands=tuple(_cards(hand) for hand in data["hands"]),
        stock=_cards(data["stock"]),
        discard=_cards(data["discard"]),
        melds=tuple(_meld_from_json(m) for m in data["melds"]),
        opened=tuple(data["opened"]),
        turn=data["turn"],
        phase=data["phase"],
        turns_started=tuple(data["turns_started"]),
        opened_at_turn_start=data["opened_at_turn_start"],
        turn_joker_laid=data["turn_joker_laid"],
        atu=parse_card(data["atu"]) if data["atu"] else None,
        atu_taken_by=data["atu_taken_by"],
        atu_pair_seats=tuple(data["atu_pair_seats"]),
        consumed=_cards(data["consumed"]),
        reshuffles=data["reshuffles"],
        next_meld_id=data["next_meld_id"],
        results=tuple(_result_from_json(r) for r in data["results"]),
        totals=tuple(data["totals"]),
        winners=tuple(data["winners"]),
        moves_played=data["moves_played"],
        extra=dict(data.get("extra", {})),
    )
