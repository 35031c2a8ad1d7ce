"""Every family's turn cycle, by family name: importing this module fills :data:`.cycle.CYCLES`.

One package per family (docs/engine.md, "Families, rule sets and cycles"), each with its cycle:

* :mod:`.rummy` (``rummy/cycle.py``, with ``rummy/play.py`` and ``rummy/moves.py``): Remik 51,
  Remi, Rummy 500, Remik 40;
* :mod:`.gin` (``gin/cycle.py``, with ``gin/deal.py`` and ``gin/reply.py``): gin and Oklahoma;
* :mod:`.knock108` (``knock108/cycle.py``, with ``knock108/deal.py``): Knock-108.

What every cycle is made of is written once, in :mod:`.cycle` (the interface and the one turn)
and :mod:`.steps` (the steps). A family's rule sets register themselves when its package is
imported (:func:`games.engine.rules.variant`).
"""

from .cycle import CYCLES, Step, TurnCycle, apply, cycle_of, play
from .gin.cycle import GIN
from .knock108.cycle import KNOCK108
from .rummy.cycle import RUMMY

CYCLES.update({cycle.name: cycle for cycle in (RUMMY, GIN, KNOCK108)})

__all__ = ["CYCLES", "GIN", "KNOCK108", "RUMMY", "Step", "TurnCycle", "apply", "cycle_of", "play"]
