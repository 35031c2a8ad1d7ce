"""Computer players. A bot decides from one seat's view (``view_for``) and nothing else (RMI-NET-2).

Three levels play every variant (:mod:`.levels`): ``easy``, ``normal`` (the default: the basic
bot of the shared cycle, and the bots of the variants with a cycle of their own, which register
themselves in :mod:`.registry`) and ``hard``.

>>> from games.engine import variant, new_game, view_for
>>> state = new_game(variant("remik51"), players=2, seed=1)
>>> choose_move(view_for(state, state.turn)).__class__.__name__
'Discard'
>>> choose_move(view_for(state, state.turn), level="hard").__class__.__name__
'Discard'
"""

from .basic import BasicBot
from .levels import LEVELS, candidate_moves, choose_move
from .registry import register

__all__ = ["LEVELS", "BasicBot", "candidate_moves", "choose_move", "register"]
