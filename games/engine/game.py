"""The one turn API: ``new_game``, ``apply_move``, ``legal_moves`` and ``end_match``.

Each hands the state to its rule set's turn cycle (``Rules.family`` names the family: the rummy
cycle, the gin cycle, Knock-108's; :mod:`games.engine.registry`) through one interface, after the
checks every cycle shares (:func:`games.engine.cycle.play`). ``apply_move(state, seat, move)`` returns a
:class:`~games.engine.state.Transition` (the new state and its events) or raises an
:class:`~games.engine.errors.IllegalMoveError`; the state passed in is never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import errors
from .deal import secret_bytes
from .events import public
from .moves import Move
from .registry import CYCLES, cycle_of, play
from .rules import Rules
from .state import GameState, Transition
from .steps import finish

__all__ = [
    "Transition",
    "apply_move",
    "choose_first",
    "end_match",
    "legal_moves",
    "new_game",
    "next_match_first",
]


def new_game(
    rules: Rules,
    players: int | Sequence[str],
    seed: int | str | bytes,
    *,
    first: int | None = None,
) -> GameState:
    """Seat the players and deal the first round.

    ``players`` is a seat count or the players' names. ``seed`` is the match secret: every deal
    (and the choice of the first dealer, unless ``first`` is given) follows from it.
    """
    names = tuple(players) if not isinstance(players, int) else tuple(f"P{i + 1}" for i in range(players))
    count = len(names)
    if count < rules.min_players or count > rules.max_players:
        raise ValueError(
            f"{rules.name} is played by {rules.min_players} to {rules.max_players} players (got {count})"
        )
    secret = secret_bytes(seed)
    if first is None:
        first = choose_first(rules, count, secret)
    elif not 0 <= first < count:
        raise ValueError(f"first must be a seat (0 to {count - 1})")
    cycle = cycle_of(rules)
    empty = GameState(
        rules=rules,
        players=count,
        names=names,
        secret=secret,
        round_no=0,
        first=first,
        hands=tuple(() for _ in range(count)),
        stock=(),
        discard=(),
        melds=(),
        turn=first,
        phase="draw",
        turns_started=(0,) * count,
        next_meld_id=1,
        results=(),
        totals=(0,) * count,
        winners=(),
        moves_played=0,
        cycle=cycle.start(rules, count),
    )
    return cycle.deal_round(empty, 1, first)


def choose_first(rules: Rules, players: int, secret: bytes) -> int:
    """Who deals (or plays first) in round 1 of a match with this secret (the cycle's rule)."""
    return cycle_of(rules).choose_first(rules, players, secret)


def next_match_first(rules: Rules, previous: GameState) -> int | None:
    """Who plays first in the next match of a room whose last match is ``previous``.

    Where the deal passes to the left each game (Remik 40, R40-Q13) it is the seat after the first
    player of ``previous``'s last round; elsewhere None: the new match draws its own (``new_game``).

    >>> from games.engine import variant
    >>> last = new_game(variant("remik40"), 3, seed=5, first=2)
    >>> next_match_first(variant("remik40"), last), next_match_first(variant("remik51"), last)
    (0, None)
    """
    if not rules.deal_passes_each_match or previous.rules.name != rules.name:
        return None
    return (previous.first + 1) % previous.players


#: ``apply_move(state, seat, move)``: play ``move`` for ``seat``; raises IllegalMoveError (the state
#: is left as it was). It is :func:`games.engine.cycle.play`, the turn every move goes
#: through, called directly: a hundred moves a gin deal, one frame fewer each (docs/benchmarks.md,
#: "The gin hot path, choice by choice").
apply_move: Callable[[GameState, int, Move], Transition] = play


def legal_moves(state: GameState, seat: int) -> list[Move]:
    """Moves ``seat`` may make now: none unless it is the seat to move in a match not over.

    Simple moves (a draw, every discard) are listed in full; composite moves (plays, takes) have
    too many forms to list, so the cycle lists those its search finds, each accepted by
    :func:`apply_move`.
    """
    if state.phase == "over" or seat != state.turn:
        return []
    return CYCLES[state.rules.family].legal_moves(state, seat)


def end_match(state: GameState) -> Transition:
    """Close a match now (an endless Remi room being closed, RMI-Q19): standings are final.

    The round in progress is abandoned unscored.
    """
    if state.phase == "over":
        raise errors.GameOverError("the match is over")
    return finish(state, [public("round_abandoned", round=state.round_no)])
