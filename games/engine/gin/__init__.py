"""The gin family: gin rummy and Oklahoma (docs/engine.md, "Families, rule sets and cycles").

* the rule sets: :mod:`.rules` (``GinRules``, what the family's rule sets share: deadwood, the
  knock limit, the settlement; and ``Gin``), :mod:`.oklahoma` (``Oklahoma``);
* exact deadwood on bitmasks: :mod:`.deadwood`;
* the turn cycle (the up-card offer, draw and discard, knock or gin): :mod:`.cycle`, with
  :mod:`.reply` (the defender's reply) and :mod:`.deal` (the deal, a knock scored, void deals, the
  settlement);
* the cycle's state: :mod:`.state` (``GinState``);
* the bots: :mod:`.bots` (normal, hard).

Importing this package registers its rule sets (``games.engine.rules.variant``).
"""

from .oklahoma import Oklahoma
from .rules import Gin, GinRules

__all__ = ["Gin", "GinRules", "Oklahoma"]
