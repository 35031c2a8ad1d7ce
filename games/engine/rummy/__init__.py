"""The rummy family: Remik 51, Remi, Rummy 500 and Remik 40 (docs/engine.md, "Families, rule sets
and cycles").

* the rule sets, one module each: :mod:`.remik51`, :mod:`.remi`, :mod:`.rummy500`, :mod:`.remik40`;
* the turn cycle (draw or take, meld, lay off, discard): :mod:`.cycle`, with :mod:`.play` (the
  atomic play: exchanges, new melds, the opening, lay-offs) and :mod:`.moves` (the move search of
  ``legal_moves`` and the view's hints);
* the cycle's state: :mod:`.state` (``RummyState``);
* the bots: :mod:`.bots` (normal, hard, and the hard bots tuned for Remik 40 and Remi / Rummy 500).

Importing this package registers its rule sets (``games.engine.rules.variant``).
"""

from .remi import Remi
from .remik40 import Remik40
from .remik51 import Remik51
from .rummy500 import Rummy500

__all__ = ["Remi", "Remik40", "Remik51", "Rummy500"]
