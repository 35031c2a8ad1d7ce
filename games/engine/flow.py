"""The hook for variants whose turn cycle is not the shared one (the knock family).

Remik and Remi, Rummy 500 and Remik 40 change the shared cycle in :mod:`games.engine.turn` through
the attributes of their :class:`~games.engine.rules.Rules`. Gin, Oklahoma and Knock-108 have a
different shape (an up-card offer, knocking, the defender's reply, an extra exchange), so their
rules carry a ``flow``: an object with the methods below. The public API (``new_game``,
``apply_move``, ``legal_moves``, ``view_for``) checks the common things (the match is not over,
it is this seat's turn, the version counter) and hands the rest to the flow.

A flow keeps what the shared :class:`~games.engine.state.GameState` fields do not hold in
``state.extra`` (JSON-able, card ids as text), so states, records and replays work unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .moves import Move
    from .rules import Rules
    from .state import GameState
    from .turn import Transition


class Flow(Protocol):
    def choose_first(self, rules: Rules, players: int, secret: bytes) -> int:
        """The first dealer / first player of round 1, from the match secret."""
        ...

    def deal_round(self, state: GameState, round_no: int, first: int) -> GameState:
        """Deal round ``round_no`` (its seed: ``deal_seed(state.secret, round_no)``)."""
        ...

    def apply_move(self, state: GameState, seat: int, move: Move) -> Transition:
        """Apply a move of the seat to move; raise IllegalMoveError and change nothing if illegal.

        ``moves_played`` is counted by the caller, unless the returned state already has it one
        higher than ``state`` (a flow may count it itself, sparing the caller a copy of the state).
        """
        ...

    def legal_moves(self, state: GameState, seat: int) -> list[Move]:
        """Moves the seat may make now (composite moves: a representative set, as in legal.py)."""
        ...

    def seat_options(self, state: GameState, seat: int) -> dict[str, Any]:
        """The ``you`` block of the seat's view (hints only, nothing hidden)."""
        ...

    def view_extra(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """What the flow adds to ``view_for`` for this audience: never another hand or the stock."""
        ...

    # Optional: ``table_lines(view) -> list[str]``, extra lines for the terminal's table (tools/cli.py).
