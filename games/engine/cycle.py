"""What a turn cycle is, and the one turn every move goes through.

Each family of the engine (a package: ``rummy/``, ``gin/``, ``knock108/``; docs/engine.md,
"Families, rule sets and cycles") plays one turn cycle, named by ``Rules.family``: the rummy cycle
(Remik 51, Remi, Rummy 500, Remik 40: draw, meld, lay off, discard), the gin cycle (gin, Oklahoma:
the up-card offer, the knock and the defender's reply) or Knock-108's (buy-backs, the knock, the
extra exchange). A cycle is an object with the methods of :class:`TurnCycle`; the cycles differ
only through those methods, and the rule sets of one family only through their ``Rules``.

:func:`play` is the turn every move goes through, whatever the family: the checks every cycle
shares are written here once (the match is not over, the seat is the one to move, the move is a
move, a variant without jokers sees none), then the cycle says at which :class:`Step` of its turn
the state stands: which kinds of move that step takes (each with its handler) and how it refuses
the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from . import errors
from .cards import JOKER, format_cards
from .moves import Discard, DrawStock, Knock, Move, Pass, Play, TakeDiscard, cards_named, names_a_joker
from .rules import Rules
from .state import CycleState, GameState, Transition, evolve

#: A step's handler of one kind of move: the transition, or an IllegalMoveError.
Handler = Callable[[GameState, int, Any], Transition]

MOVE_KINDS: frozenset[type] = frozenset((DrawStock, TakeDiscard, Play, Discard, Pass, Knock))


@dataclass(frozen=True, slots=True)
class Step:
    """A point of a family's turn: the kinds of move it takes, and how it refuses the others."""

    name: str
    moves: Mapping[type, Handler]
    #: The error for a move of another kind (``WrongPhaseError`` with the rule that says why).
    refuse: Callable[[GameState, Move], errors.IllegalMoveError]


class TurnCycle(Protocol):
    """The turn cycle of one family, shared by its rule sets."""

    name: str

    def choose_first(self, rules: Rules, players: int, secret: bytes) -> int:
        """The first dealer / first player of round 1, from the match secret."""
        ...

    def start(self, rules: Rules, players: int) -> CycleState:
        """The cycle's own state of a new match, before its first deal."""
        ...

    def deal_round(self, state: GameState, round_no: int, first: int) -> GameState:
        """Deal round ``round_no`` (its seed: ``deal_seed(state.secret, round_no)``)."""
        ...

    def step(self, state: GameState) -> Step:
        """Where the turn stands (the match is not over)."""
        ...

    def legal_moves(self, state: GameState, seat: int) -> list[Move]:
        """Moves the seat to move may make now (composite moves: a representative set)."""
        ...

    def seat_options(self, state: GameState, seat: int) -> dict[str, Any]:
        """The ``you`` block of the seat's view (hints only, nothing hidden)."""
        ...

    def view_extra(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """What the family adds to every view: public facts only, never a hand or the stock. The
        one hook a view has for what differs by family or rule set (``view_for`` calls no other):
        a rule set's own public facts come through its cycle's (``RummyRules.table_facts``).

        It says, for every family, who has opened (``opened``), the atu (``atu``,
        ``atu_taken_by``) and the jokers bought back (``consumed_jokers``).
        """
        ...


#: Every family's turn cycle by family name (``Rules.family``), filled by :mod:`.registry`.
CYCLES: dict[str, TurnCycle] = {}


def cycle_of(rules: Rules) -> TurnCycle:
    """The turn cycle ``rules`` plays (its family's)."""
    return CYCLES[rules.family]


def play(state: GameState, seat: int, move: Move) -> Transition:
    """Apply ``move`` for ``seat`` through its rule set's turn cycle; the state passed in is
    never changed. This is :func:`games.engine.game.apply_move` itself (and ``apply``): the public
    call goes straight here, one Python frame a move fewer
    (docs/benchmarks.md, "The gin hot path, choice by choice").

    Raises an :class:`~games.engine.errors.IllegalMoveError`. The returned state has the move
    counted (``moves_played``); a handler may count it itself, sparing a copy of the state.
    """
    if state.phase == "over":
        raise errors.GameOverError("the match is over")
    if seat != state.turn:
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise errors.NotYourTurnError(f"there is no seat {seat!r}", seat=seat)
        raise errors.NotYourTurnError(
            f"it is seat {state.turn}'s turn, not seat {seat}'s", seat=seat, turn=state.turn
        )
    kind = type(move)
    if kind not in MOVE_KINDS:
        raise errors.MalformedMoveError(f"not a move: {move!r}")
    rules = state.rules
    policy = rules.policy
    if (
        not policy.jokers
        and kind is not DrawStock
        and kind is not Pass
        # a discard, every other move, names one card (``names_a_joker``'s first case, inlined)
        and (move.card.rank == JOKER if isinstance(move, Discard) else names_a_joker(move))
    ):
        raise errors.NoJokersError(
            format_cards(card for card in cards_named(move) if card.is_joker),
            f"{rules.title} is played without jokers",
            rule=policy.rule_joker or None,
        )
    step = CYCLES[rules.family].step(state)
    handler = step.moves.get(kind)
    if handler is None:
        raise step.refuse(state, move)
    transition = handler(state, seat, move)
    if transition.state.moves_played == state.moves_played + 1:
        return transition
    return Transition(evolve(transition.state, moves_played=state.moves_played + 1), transition.events)


#: Apply ``move`` for ``seat`` through its rule set's turn cycle (:func:`play`).
apply = play
