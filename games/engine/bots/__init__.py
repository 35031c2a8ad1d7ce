"""Computer players. A bot decides from one seat's view (``view_for``) and nothing else (RMI-NET-2).

>>> from games.engine import variant, new_game, view_for
>>> state = new_game(variant("remik51"), players=2, seed=1)
>>> choose_move(view_for(state, state.turn)).__class__.__name__
'Discard'
"""

from .basic import BasicBot, candidate_moves, choose_move

__all__ = ["BasicBot", "candidate_moves", "choose_move"]
