"""The easy bot: legal, plausible moves, with a careless hand on them.

It starts from the normal bot's candidates (the family's normal bot, :mod:`.registry`) and, using ``rng``
(seeded from the view by :mod:`.levels`, so the same view gives the same move):

* makes a take from the discard pile (or of gin's up-card) that the normal bot wants only
  ``TAKE`` of the time, and draws from the stock otherwise;
* overlooks everything it could lay this turn (melds, lay-offs, even going out) ``MISS_PLAY`` of
  the time; otherwise lays the normal bot's first choice, or (``OTHER_PLAY``) another of its plays;
* knocks (gin family, Knock-108) only ``KNOCK`` of the time when the normal bot would;
* discards one of the normal bot's ``WORST_DISCARDS`` favourite discards (never a joker if
  another will do), not always the very best.

The defender's reply in gin and the buy-back in Knock-108 are the normal bot's.

Remik 40 is a single deal (R40-25: the first to go out wins the match), so a careless hand above
still wins a third of its matches; there the easy bot is a beginner who never takes from the
discard pile (``REMIK40_TAKE``) and overlooks its plays more often (``REMIK40_MISS_PLAY``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..moves import Discard, DrawStock, Knock, Move, Pass, Play, TakeDiscard
from ..rummy.bots import normal

__all__ = [
    "KNOCK",
    "MISS_PLAY",
    "OTHER_PLAY",
    "REMIK40_MISS_PLAY",
    "REMIK40_TAKE",
    "TAKE",
    "WORST_DISCARDS",
    "candidates",
]

#: How often a take that the normal bot wants is made.
TAKE = 0.4
#: How often everything the seat could lay this turn is overlooked.
MISS_PLAY = 0.4
#: How often, when laying, another of the normal bot's plays is chosen than its first.
OTHER_PLAY = 0.5
#: How often a knock the normal bot would make is made.
KNOCK = 0.5
#: Remik 40 (one deal decides the match): how often a wanted take is made, and plays overlooked.
REMIK40_TAKE = 0.0
REMIK40_MISS_PLAY = 0.6
#: The discard is one of this many of the normal bot's first discards.
WORST_DISCARDS = 4


def _pick_discard(discards: Sequence[Discard], rng: random.Random) -> list[Discard]:
    """The discards with a random one of the first few moved to the front."""
    if not discards:
        return []
    head = list(discards[:WORST_DISCARDS])
    jokerless = [d for d in head if not d.card.is_joker] or head
    chosen = rng.choice(jokerless)
    return [chosen, *[d for d in discards if d is not chosen]]


def candidates(view: Mapping[str, Any], rng: random.Random) -> Iterator[Move]:
    """The easy bot's moves, best first (the normal bot's candidates follow in the caller)."""
    normal_moves = normal.candidate_moves(view)
    if not normal_moves:
        return
    first = normal_moves[0]
    remik40 = view.get("variant") == "remik40"
    take = REMIK40_TAKE if remik40 else TAKE
    miss_play = REMIK40_MISS_PLAY if remik40 else MISS_PLAY
    step = (view.get("gin") or {}).get("step")
    stage = view.get("stage")
    if step == "reply" or stage == "buy_back":
        yield first
        return
    if view.get("phase") == "draw":
        if isinstance(first, TakeDiscard) and rng.random() >= take:
            simple = [m for m in normal_moves if isinstance(m, (DrawStock, Pass))]
            if simple:
                yield simple[0]
                return
        yield first
        return
    discards = [m for m in normal_moves if isinstance(m, Discard)]
    knocks = [m for m in normal_moves if isinstance(m, Knock)]
    plays = [m for m in normal_moves if isinstance(m, Play)]
    if knocks and rng.random() < KNOCK:
        yield knocks[0]
        return
    if plays and rng.random() >= miss_play:
        yield plays[0] if rng.random() >= OTHER_PLAY else rng.choice(plays)
        return
    yield from _pick_discard(discards, rng)
