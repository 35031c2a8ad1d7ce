"""The one registry of bots, keyed by family and level (``Rules.family``, :data:`LEVELS`).

Every bot is a module of this package named after what it plays, ``<level>_<family>.py`` (the
easy level plays every family from the normal bots' moves: ``easy.py``; the rummy family's normal
bot is ``normal.py``), with a function ``candidates(view, rng)`` that yields the seat's moves,
best first. A variant whose bot at some level is tuned for it names its own module (Remik 40's
and Remi / Rummy 500's race to go out). Modules are imported the first time a view asks for them,
so this module imports no bot, and no bot needs another through it.

>>> [bot_module(name, "hard") for name in ("remik51", "remik40", "remi", "oklahoma", "knock108")]
['hard_rummy', 'hard_remik40', 'hard_remi_rummy500', 'hard_gin', 'hard_knock108']
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

#: (family, level) -> the module of this package that plays it.
BOTS: Mapping[tuple[str, str], str] = {
    ("rummy", "easy"): "easy",
    ("rummy", "normal"): "normal",
    ("rummy", "hard"): "hard_rummy",
    ("gin", "easy"): "easy",
    ("gin", "normal"): "normal_gin",
    ("gin", "hard"): "hard_gin",
    ("knock108", "easy"): "easy",
    ("knock108", "normal"): "normal_knock108",
    ("knock108", "hard"): "hard_knock108",
}

#: (variant, level) -> a module tuned for that variant, in place of its family's.
TUNED: Mapping[tuple[str, str], str] = {
    ("remik40", "hard"): "hard_remik40",
    ("remi", "hard"): "hard_remi_rummy500",
    ("rummy500", "hard"): "hard_remi_rummy500",
}


def bot_module(variant_name: str, level: str) -> str:
    """The module that plays ``variant_name`` at ``level``."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    return TUNED.get((variant_name, level)) or BOTS[(family_of(variant_name), level)]


def bot_for(variant_name: str, level: str) -> Candidates:
    """The ``candidates`` function of the bot that plays ``variant_name`` at ``level``."""
    module = importlib.import_module(f"{__package__}.{bot_module(variant_name, level)}")
    candidates: Candidates = module.candidates
    return candidates
