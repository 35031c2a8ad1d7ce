"""Bot levels: ``easy``, ``normal`` and ``hard``, for every variant, from one seat's view only.

Each level of each family is a module of the family's package (``<family>/bots/<level>.py``), found
in one registry (:mod:`.registry`).

* ``normal`` is the engine's heuristic bot: :mod:`games.engine.rummy.bots.normal` for the rummy
  family (its :class:`~games.engine.rummy.bots.normal.NormalBot` hands the other families' views
  to :mod:`games.engine.gin.bots.normal` and :mod:`games.engine.knock108.bots.normal`).
* ``easy`` (:mod:`.easy`) plays legal, plausible moves with a random hand on them: it overlooks some
  melds, takes and knocks, and discards among the few cards that look least useful.
* ``hard`` counts the cards it has not seen (:mod:`.unseen`). In gin and Oklahoma
  (:mod:`games.engine.gin.bots.hard`) it samples the opponent's hand consistently with the view to decide when
  to knock, takes the face-up card only when it beats a blind stock draw by the deadwood expected one draw
  later, and chooses its discards by looking at every card it may draw; in the rummy family
  (:mod:`games.engine.rummy.bots.hard`) it weighs discards by the live cards, sheds points when an opponent
  may go out, and holds an opening back for a one-go finish in penalty variants (Remik 51). In Remik 40
  (:mod:`games.engine.rummy.bots.hard_remik40`, a race to go out) it opens at once, weighs a short hand's
  discards by the chance that the next draw goes out, and keeps such a hand whole until it can. In Remi and
  Rummy 500 (:mod:`games.engine.rummy.bots.hard_remi_rummy500`) it runs that race on every open hand, keeps
  high cards, and lays nothing before the play that goes out while no opponent is near going out. In Knock-108
  (:mod:`games.engine.knock108.bots.hard`) it weighs takes and discards by the next draw over the unseen
  cards, a draw that can end the deal counting extra.

Every level is deterministic given ``rng``; without one, the random choices are seeded from the view
itself (its ``SEED_FIELDS``: never the players' names), so the same view always gives the same
move. A level's candidates end with the normal bot's, so a caller that finds a move refused always
reaches a simple legal move.

>>> from games.engine import variant, new_game, view_for
>>> state = new_game(variant("gin"), players=2, seed=3)
>>> view = view_for(state, state.turn)
>>> [choose_move(view, level).__class__.__name__ for level in LEVELS]
['Pass', 'Pass', 'Pass']
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..moves import Move
from ..rummy.bots import normal
from ..search import shared_searches
from . import registry
from .registry import LEVELS

__all__ = [
    "LEVELS",
    "LUCK_LEFT_OUT",
    "SEED_FIELDS",
    "LevelCandidates",
    "candidate_moves",
    "choose_move",
    "seed_text",
    "view_rng",
]

#: A level's moves for one seat's view, best first (they need not all be legal: the normal bot's
#: candidates follow them).
LevelCandidates = Callable[[Mapping[str, Any], random.Random], Iterable[Move]]


#: The view's fields a bot's luck is seeded from: what its seat sees of the game, and nothing else
#: (docs/engine.md, "Bots: levels and API", on luck). Left out on purpose (``LUCK_LEFT_OUT``):
#: who sits where (``names``) and what is derived from the deal's seed (``commitment``,
#: ``revealed_seed``). A field a view gains later is left out until it is added here, so nothing
#: about the people at a table can slip into the bots' choices: the same moves in the same deal
#: meet the same bot moves, whoever makes them (the deal of the day's fairness, docs/learn.md).
SEED_FIELDS: frozenset[str] = frozenset(
    {
        "variant",
        "options",
        "players",
        "seat",
        "round",
        "first",
        "turn",
        "phase",
        "version",
        "hand",
        "hand_sizes",
        "stock_size",
        "discard",
        "melds",
        "opened",
        "atu",
        "atu_taken_by",
        "turns_started",
        "consumed_jokers",
        "scores",
        "winners",
        "lower_wins",
        # What only some variants or families show (Remik 40's pool, Rummy 500's tally, gin's
        # and Knock-108's state of the deal).
        "buy_back",
        "gin",
        "in_game",
        "knock",
        "knock_limit",
        "last_deal",
        "limit",
        "prize_pool",
        "running_totals",
        "stage",
        "stakes",
        "target",
        "you",
    }
)

#: The view's fields never in a bot's seed, and why (a test checks that every field of every
#: variant's view is in ``SEED_FIELDS`` or here).
LUCK_LEFT_OUT: dict[str, str] = {
    "names": "who plays a seat must not change the luck of the game: the same moves meet the same bots",
    "commitment": "a hash of the deal's seed: a bot's luck must not depend on what derives from hidden cards",
    "revealed_seed": "the seed itself, once the last round is over",
}


def seed_text(view: Mapping[str, Any]) -> bytes:
    """The part of ``view`` a bot's luck is seeded from (``SEED_FIELDS``), as canonical JSON."""
    public = {key: value for key, value in view.items() if key in SEED_FIELDS}
    return json.dumps(public, sort_keys=True, separators=(",", ":"), default=str).encode()


def view_rng(view: Mapping[str, Any], key: bytes | None = None) -> random.Random:
    """A random generator seeded by the view itself (same view, same choices): the SHA-256 of
    ``seed_text(view)``, or its HMAC with ``key`` (a deal of the day's bots have one of their own).

    The players' names are not part of it, nor the deal's ``commitment`` (``LUCK_LEFT_OUT``).
    """
    text = seed_text(view)
    if key is None:
        return random.Random(hashlib.sha256(text).digest())
    return random.Random(hmac.new(key, text, hashlib.sha256).digest())


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
