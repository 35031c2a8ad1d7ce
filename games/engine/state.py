"""The state of a match: immutable, complete (including what players may not see), JSON-able.

Only :func:`games.engine.perspective.view_for` turns it into what one seat may know.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Final, Literal, NamedTuple

from .cards import Card, parse_card
from .events import Event
from .gin.state import GinState
from .knock108.state import Knock108State
from .melds import Meld
from .rules import Rules, family_of, rules_from_json
from .rummy.state import RummyState
from .scoring import RoundResult, ScoreLine

Phase = Literal["draw", "play", "over"]

#: A family's own part of the state (``GameState.cycle``), kept by its turn cycle: one class per
#: family, in the family's package (``rummy/state.py``, ``gin/state.py``, ``knock108/state.py``).
CycleState = RummyState | GinState | Knock108State

_CYCLE_STATES: Mapping[str, type[RummyState] | type[GinState] | type[Knock108State]] = {
    "rummy": RummyState,
    "gin": GinState,
    "knock108": Knock108State,
}


def cycle_from_json(family: str, data: Mapping[str, Any]) -> CycleState:
    """The state of ``family``'s cycle from its JSON."""
    return _CYCLE_STATES[family].from_json(data)


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
    """A match: what every family of turn cycles has, and its own part in ``cycle``."""

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
    turn: int
    phase: Phase
    #: Turns each seat has started this round (a seat's first turn is number 1).
    turns_started: tuple[int, ...]
    next_meld_id: int
    results: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    #: Set when the match is over.
    winners: tuple[int, ...]
    #: Moves applied so far in the match (a version number).
    moves_played: int
    #: What its family's turn cycle keeps beyond the fields above (:data:`CycleState`).
    cycle: CycleState

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def meld_by_id(self, meld_id: int) -> TableMeld | None:
        return next((m for m in self.melds if m.id == meld_id), None)

    def with_changes(self, **changes: Any) -> GameState:
        return replace(self, **changes)


class _Keep(Enum):
    """The default of :func:`evolve`'s arguments: keep the field as it is."""

    KEEP = 0


KEEP: Final = _Keep.KEEP


# A new state is made on every move. A frozen dataclass sets each field with
# ``object.__setattr__``, and even each slot's own setter is a call; so ``evolve`` and ``turned``
# fill a *draft*, an object of a class with the same slots and no such guard (plain attribute
# stores), then make it a ``GameState`` by setting its class, which CPython allows between classes
# of the same layout: the same state, at half the cost of nineteen setter calls (``make
# bench-peers``). The draft is never seen outside these two functions.
_NEW = object.__new__
_Draft: type = type("_Draft", (), {"__slots__": GameState.__slots__})

if tuple(GameState.__slots__) != (
    "rules",
    "players",
    "names",
    "secret",
    "round_no",
    "first",
    "hands",
    "stock",
    "discard",
    "melds",
    "turn",
    "phase",
    "turns_started",
    "next_meld_id",
    "results",
    "totals",
    "winners",
    "moves_played",
    "cycle",
):  # pragma: no cover - a loud failure
    raise ImportError("GameState's fields changed: update evolve and turned")
_check: Any = _NEW(_Draft)
_check.__class__ = GameState  # a TypeError at import if the layouts ever differ
del _check


def evolve(
    s: GameState,
    *,
    rules: Rules | _Keep = KEEP,
    players: int | _Keep = KEEP,
    names: tuple[str, ...] | _Keep = KEEP,
    secret: bytes | _Keep = KEEP,
    round_no: int | _Keep = KEEP,
    first: int | _Keep = KEEP,
    hands: tuple[tuple[Card, ...], ...] | _Keep = KEEP,
    stock: tuple[Card, ...] | _Keep = KEEP,
    discard: tuple[Card, ...] | _Keep = KEEP,
    melds: tuple[TableMeld, ...] | _Keep = KEEP,
    turn: int | _Keep = KEEP,
    phase: Phase | _Keep = KEEP,
    turns_started: tuple[int, ...] | _Keep = KEEP,
    next_meld_id: int | _Keep = KEEP,
    results: tuple[RoundResult, ...] | _Keep = KEEP,
    totals: tuple[int, ...] | _Keep = KEEP,
    winners: tuple[int, ...] | _Keep = KEEP,
    moves_played: int | _Keep = KEEP,
    cycle: CycleState | _Keep = KEEP,
) -> GameState:
    """``s`` with the fields given changed (``dataclasses.replace``, written out for speed: a gin
    deal is a hundred moves, each a new state; ``make bench``)."""
    new: Any = _NEW(_Draft)
    new.rules = s.rules if rules is KEEP else rules
    new.players = s.players if players is KEEP else players
    new.names = s.names if names is KEEP else names
    new.secret = s.secret if secret is KEEP else secret
    new.round_no = s.round_no if round_no is KEEP else round_no
    new.first = s.first if first is KEEP else first
    new.hands = s.hands if hands is KEEP else hands
    new.stock = s.stock if stock is KEEP else stock
    new.discard = s.discard if discard is KEEP else discard
    new.melds = s.melds if melds is KEEP else melds
    new.turn = s.turn if turn is KEEP else turn
    new.phase = s.phase if phase is KEEP else phase
    new.turns_started = s.turns_started if turns_started is KEEP else turns_started
    new.next_meld_id = s.next_meld_id if next_meld_id is KEEP else next_meld_id
    new.results = s.results if results is KEEP else results
    new.totals = s.totals if totals is KEEP else totals
    new.winners = s.winners if winners is KEEP else winners
    new.moves_played = s.moves_played if moves_played is KEEP else moves_played
    new.cycle = s.cycle if cycle is KEEP else cycle
    new.__class__ = GameState
    state: GameState = new
    return state


def turned(
    s: GameState,
    hands: tuple[tuple[Card, ...], ...],
    stock: tuple[Card, ...],
    discard: tuple[Card, ...],
    turn: int,
    phase: Phase,
    turns_started: tuple[int, ...],
    moves_played: int,
    cycle: CycleState,
) -> GameState:
    """``s`` after a move of a turn (a draw, a take, a discard, the turn passed): the fields such
    a move may change, every one given, the others kept. :func:`evolve` without its keywords, for
    the moves that make up most of a round (``make bench-peers``)."""
    new: Any = _NEW(_Draft)
    new.rules = s.rules
    new.players = s.players
    new.names = s.names
    new.secret = s.secret
    new.round_no = s.round_no
    new.first = s.first
    new.hands = hands
    new.stock = stock
    new.discard = discard
    new.melds = s.melds
    new.turn = turn
    new.phase = phase
    new.turns_started = turns_started
    new.next_meld_id = s.next_meld_id
    new.results = s.results
    new.totals = s.totals
    new.winners = s.winners
    new.moves_played = moves_played
    new.cycle = cycle
    new.__class__ = GameState
    state: GameState = new
    return state


def atu_of(state: GameState) -> Card | None:
    """The card turned up beside the stock after the deal (Remi's atu, RMI-14); None where the
    variant has none."""
    cycle = state.cycle
    return cycle.atu if isinstance(cycle, RummyState) else None


def free_atu(state: GameState) -> Card | None:
    """The atu while nobody has taken it into a meld (RMI-45), else None."""
    cycle = state.cycle
    return cycle.atu if isinstance(cycle, RummyState) and cycle.atu_taken_by is None else None


def opened_seats(state: GameState) -> tuple[bool, ...]:
    """Who has opened (laid a first meld) this round; nobody, in a family without an opening."""
    cycle = state.cycle
    return cycle.opened if isinstance(cycle, RummyState) else (False,) * state.players


class Transition(NamedTuple):
    """What a move did: the state after it and its events (each with its audience)."""

    state: GameState
    events: tuple[Event, ...]


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


#: The format of :func:`state_to_json`'s documents; :func:`upgrade_state_json` reads the older ones.
FORMAT = "remi-state/2"

#: The fields of the rummy cycle that ``remi-state/1`` kept beside the shared ones.
_RUMMY_V1 = (
    "opened",
    "opened_at_turn_start",
    "turn_joker_laid",
    "atu",
    "atu_taken_by",
    "atu_pair_seats",
    "consumed",
    "reshuffles",
)


def state_to_json(state: GameState) -> dict[str, Any]:
    """The complete state as JSON (server side only: it holds every hand and the secret)."""
    return {
        "format": FORMAT,
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
        "turn": state.turn,
        "phase": state.phase,
        "turns_started": list(state.turns_started),
        "next_meld_id": state.next_meld_id,
        "results": [result.to_json() for result in state.results],
        "totals": list(state.totals),
        "winners": list(state.winners),
        "moves_played": state.moves_played,
        "family": state.rules.family,
        "cycle": state.cycle.to_json(),
    }


def upgrade_state_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """A state document of an older format in the current one (:data:`FORMAT`); JSON to JSON, so
    a stored document without its secret (``Match.state``) upgrades as well.

    ``remi-state/1`` kept the rummy cycle's fields beside the shared ones and the gin family's and
    Knock-108's in ``extra``; ``remi-state/2`` keeps each family's own in ``cycle`` (the same keys),
    and names the family.

    >>> old = {"format": "remi-state/1", "rules": {"variant": "gin", "options": {}}, "players": 2,
    ...        "opened": [False, False], "atu": None, "extra": {"step": "offer"}}
    >>> new = upgrade_state_json(old)
    >>> new["format"], new["family"], new["cycle"], "opened" in new
    ('remi-state/2', 'gin', {'step': 'offer'}, False)
    """
    document = dict(data)
    if document.get("format") == FORMAT:
        return document
    if document.get("format") != "remi-state/1":
        raise ValueError(f"not a remi-state document: {document.get('format')!r}")
    family = family_of(str(document["rules"]["variant"]))
    rummy = {key: document.pop(key) for key in _RUMMY_V1 if key in document}
    extra = document.pop("extra", None) or {}
    document.update(format=FORMAT, family=family, cycle=rummy if family == "rummy" else dict(extra))
    return document


def state_from_json(data: Mapping[str, Any]) -> GameState:
    """Inverse of :func:`state_to_json` (an older format is upgraded first)."""
    data = upgrade_state_json(data)
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
        turn=data["turn"],
        phase=data["phase"],
        turns_started=tuple(data["turns_started"]),
        next_meld_id=data["next_meld_id"],
        results=tuple(_result_from_json(r) for r in data["results"]),
        totals=tuple(data["totals"]),
        winners=tuple(data["winners"]),
        moves_played=data["moves_played"],
        cycle=cycle_from_json(data["family"], data["cycle"]),
    )
