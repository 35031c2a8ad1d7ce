"""Knock-108's hard level: for now the normal bot's play (:mod:`.knock108`), unchanged.

Nothing stronger has been measured yet for Knock-108 (README, "Bots"); the level exists so that
every variant has all three, and a stronger policy can replace this one without touching callers.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from ..moves import Move
from .knock108 import candidates as normal

__all__ = ["candidates"]


def candidates(view: Mapping[str, Any], rng: random.Random) -> Iterator[Move]:
    """The moves of the seat whose view this is, best first (the normal bot's)."""
    del rng
    yield from normal(view)
