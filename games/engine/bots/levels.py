"""Bot levels: ``easy``, ``normal`` and ``hard``, for every variant, from one seat's view only.

Each level of each family is a module of this package, found in one registry (:mod:`.registry`).

* ``normal`` is the engine's heuristic bot: :mod:`.normal` for the rummy family (its
  :class:`~.normal.NormalBot` hands the other families' views to :mod:`.normal_gin` and
  :mod:`.normal_knock108`).
* ``easy`` (:mod:`.easy`) plays legal, plausible moves with a random hand on them: it overlooks some
  melds, takes and knocks, and discards among the few cards that look least useful.
* ``hard`` counts the cards it has not seen (:mod:`.unseen`). In gin and Oklahoma (:mod:`.hard_gin`)
  it samples the opponent's hand consistently with the view to decide when to knock, takes the
  face-up card only when it beats a blind stock draw by the deadwood expected one draw later, and
  chooses its discards by looking at every card it may draw; in the rummy family (:mod:`.hard_rummy`)
  it weighs discards by the live cards, sheds points when an opponent may go out, and holds an
  opening back for a one-go finish in penalty variants (Remik 51). In Remik 40
  (:mod:`.hard_remik40`, a race to go out) it opens at once, weighs a short hand's discards by the
  chance that the next draw goes out, and keeps such a hand whole until it can. In Remi and Rummy
  500 (:mod:`.hard_remi_rummy500`) it runs that race on every open hand, keeps high cards, and lays nothing
  before the play that goes out while no opponent is near going out. In Knock-108 (:mod:`.hard_knock108`) it
  weighs takes and discards by the next draw over the unseen cards, a draw that can end the deal
  counting extra.

Every level is deterministic given ``rng``; without one, the random choices are seeded from the view
itself, so the same view always gives the same move. A level's candidates end with the normal bot's,
so a caller that finds a move refused always reaches a simple legal move.

>>> from games.engine import variant, new_game, view_for
>>> state = new_game(variant("gin"), players=2, seed=3)
>>> view = view_for(state, state.turn)
>>> [choose_move(view, level).__class__.__name__ for level in LEVELS]
['Pass', 'Pass', 'Pass']
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..moves import Move
from ..search import shared_searches
from . import normal, registry
from .registry import LEVELS

__all__ = ["LEVELS", "LevelCandidates", "candidate_moves", "choose_move", "view_rng"]

#: A level's moves for one seat's view, best first (they need not all be legal: the normal bot's
#: candidates follow them).
LevelCandidates = Callable[[Mapping[str, Any], random.Random], Iterable[Move]]


def view_rng(view: Mapping[str, Any]) -> random.Random:
    """A random generator seeded by the view itself (same view, same choices).

    The deal's ``commitment`` is left out: it is a hash of the deal's seed, public but of no use to
    a player, and a bot's luck has no business depending on anything derived from hidden cards.
    """
    public = {key: value for key, value in view.items() if key != "commitment"}
    text = json.dumps(public, sort_keys=True, separators=(",", ":"), default=str)
    return random.Random(hashlib.sha256(text.encode()).digest())


def _level(view: Mapping[str, Any], level: str) -> LevelCandidates | None:
    """The bot of ``level`` for the view's variant (:mod:`.registry`); None for the normal level."""
    registry.bot_module(view["variant"], level)  # refuses an unknown level
    return None if level == "normal" else registry.bot_for(view["variant"], level)


def _unique(moves: Iterable[Move]) -> Iterable[Move]:
    tried: set[str] = set()
    for move in moves:
        key = repr(move)
        if key not in tried:
            tried.add(key)
            yield move


def candidate_moves(
    view: Mapping[str, Any], level: str = "normal", rng: random.Random | None = None
) -> list[Move]:
    """The bot's moves in order of preference for ``level``; the last ones are always simple moves."""
    special = _level(view, level)
    with shared_searches():  # one decision's searches share their work (the same answers)
        if special is None:
            return normal.candidate_moves(view)
        if view.get("phase") == "over" or not (view.get("you") or {}).get("my_turn"):
            return []
        own = list(special(view, rng if rng is not None else view_rng(view)))
        return list(_unique([*own, *normal.candidate_moves(view)]))


def choose_move(view: Mapping[str, Any], level: str = "normal", rng: random.Random | None = None) -> Move:
    """The move of a ``level`` bot for the seat whose view this is (it must be that seat's turn)."""
    special = _level(view, level)
    with shared_searches():  # one decision's searches share their work (the same answers)
        if special is None:
            return normal.choose_move(view)
        if view.get("phase") == "over" or not (view.get("you") or {}).get("my_turn"):
            raise ValueError("no move available: it is not this seat's turn")
        for move in special(view, rng if rng is not None else view_rng(view)):
            return move
        return normal.choose_move(view)
