"""Computer players. A bot decides from one seat's view (``view_for``) and nothing else (RMI-NET-2).

Three levels play every variant (:mod:`.levels`): ``easy``, ``normal`` (the default) and ``hard``.
Which module plays a family (or a variant tuned for) at a level is said in one place, the registry
(:mod:`.registry`); the bots of a family are in its package: ``rummy/bots/normal.py`` is the rummy
family's normal bot, ``gin/bots/normal.py`` gin's, ``knock108/bots/hard.py`` Knock-108's hard bot,
and so on. This package holds what they share: the levels, the registry, the easy level (every
family's, from the normal bots' moves) and the count of unseen cards.

>>> from games.engine import variant, new_game, view_for
>>> state = new_game(variant("remik51"), players=2, seed=1)
>>> choose_move(view_for(state, state.turn)).__class__.__name__
'Discard'
>>> choose_move(view_for(state, state.turn), level="hard").__class__.__name__
'Discard'
"""

from ..rummy.bots.normal import NormalBot
from .levels import LEVELS, LUCK_LEFT_OUT, SEED_FIELDS, candidate_moves, choose_move, seed_text, view_rng
from .registry import bot_module

__all__ = [
    "LEVELS",
    "LUCK_LEFT_OUT",
    "SEED_FIELDS",
    "NormalBot",
    "bot_module",
    "candidate_moves",
    "choose_move",
    "seed_text",
    "view_rng",
]
