"""The one registry of bots, keyed by family and level (``Rules.family``, :data:`LEVELS`).

Every bot is a module named after the level it plays, in its family's package,
``<family>/bots/<level>.py`` (the easy level plays every family from the normal bots' moves: this
package's ``easy.py``), with a function ``candidates(view, rng)`` that yields the seat's moves,
best first. A variant whose bot at some level is tuned for it names its own module (Remik 40's
and Remi / Rummy 500's race to go out). Modules are named from ``games.engine`` and imported the
first time a view asks for them, so this module imports no bot, and no bot needs another through it.

>>> for name in ("remik51", "remik40", "remi", "oklahoma", "knock108"):
...     print(bot_module(name, "hard"))
rummy.bots.hard
rummy.bots.hard_remik40
rummy.bots.hard_remi_rummy500
gin.bots.hard
knock108.bots.hard
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..moves import Move
from ..rules import family_of

__all__ = ["BOTS", "LEVELS", "TUNED", "Candidates", "bot_for", "bot_module"]

LEVELS = ("easy", "normal", "hard")

#: A bot: the moves of the seat whose view this is, best first (the levels above normal may list
#: moves the engine refuses; the normal bot's simple moves follow them, :mod:`.levels`).
Candidates = Callable[[Mapping[str, Any], random.Random], Iterable[Move]]

#: (family, level) -> the module that plays it, named from ``games.engine``.
BOTS: Mapping[tuple[str, str], str] = {
    ("rummy", "easy"): "bots.easy",
    ("rummy", "normal"): "rummy.bots.normal",
    ("rummy", "hard"): "rummy.bots.hard",
    ("gin", "easy"): "bots.easy",
    ("gin", "normal"): "gin.bots.normal",
    ("gin", "hard"): "gin.bots.hard",
    ("knock108", "easy"): "bots.easy",
    ("knock108", "normal"): "knock108.bots.normal",
    ("knock108", "hard"): "knock108.bots.hard",
}

#: (variant, level) -> a module tuned for that variant, in place of its family's.
TUNED: Mapping[tuple[str, str], str] = {
    ("remik40", "hard"): "rummy.bots.hard_remik40",
    ("remi", "hard"): "rummy.bots.hard_remi_rummy500",
    ("rummy500", "hard"): "rummy.bots.hard_remi_rummy500",
}

#: The package the module names of :data:`BOTS` and :data:`TUNED` start from.
ENGINE = __name__.rsplit(".", 2)[0]


def bot_module(variant_name: str, level: str) -> str:
    """The module that plays ``variant_name`` at ``level``."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    return TUNED.get((variant_name, level)) or BOTS[(family_of(variant_name), level)]


def bot_for(variant_name: str, level: str) -> Candidates:
    """The ``candidates`` function of the bot that plays ``variant_name`` at ``level``."""
    module = importlib.import_module(f"{ENGINE}.{bot_module(variant_name, level)}")
    candidates: Candidates = module.candidates
    return candidates
