"""The families of turn cycles, one module each, and the interface they share (:mod:`.base`).

* :mod:`.rummy` (with :mod:`.rummy_play` and :mod:`.rummy_moves`): Remik 51, Remi, Rummy 500,
  Remik 40;
* :mod:`.gin`: gin and Oklahoma;
* :mod:`.knock108`: Knock-108.

The steps they are made of are written once, in :mod:`.steps`.
"""

from .base import FAMILIES, Family, Step, apply, family_of, play
from .gin import GIN
from .knock108 import KNOCK108
from .rummy import RUMMY

FAMILIES.update({family.name: family for family in (RUMMY, GIN, KNOCK108)})

__all__ = ["FAMILIES", "GIN", "KNOCK108", "RUMMY", "Family", "Step", "apply", "family_of", "play"]
