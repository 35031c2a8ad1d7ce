"""The Knock-108 family: one rule set, Knock-108 (docs/engine.md, "Families, rule sets and cycles").

* the rule set: :mod:`.rules` (``Knock108``: values, special hands, the best declaration, options);
* the turn cycle (buy-backs, draw and discard, the knock, the extra exchange): :mod:`.cycle`, with
  :mod:`.deal` (the deal, records, credits, stakes and the pool);
* the cycle's state: :mod:`.state` (``Knock108State``);
* the bots: :mod:`.bots` (normal, hard).

Importing this package registers its rule set (``games.engine.rules.variant``).
"""

from .rules import Knock108

__all__ = ["Knock108"]
