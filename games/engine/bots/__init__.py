"""Computer players. A bot decides from one seat's view (``view_for``) and nothing else (RMI-NET-2).

The basic bot plays the shared cycle (Remik, Remi and their relatives). A variant with a turn
cycle of its own registers its bot in :mod:`.registry`; the basic bot hands it those views.

>>> from games.engine import variant, new_game, view_for
>>> state = new_game(variant("remik51"), players=2, seed=1)
>>> choose_move(view_for(state, state.turn)).__class__.__name__
'Discard'
"""

from .basic import BasicBot, candidate_moves, choose_move
from .registry import register

__all__ = ["BasicBot", "candidate_moves", "choose_move", "register"]
