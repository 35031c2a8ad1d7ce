"""Bots of the variants with a turn cycle of their own, by variant name.

A variant's bot module calls :func:`register`; :class:`~games.engine.bots.basic.BasicBot` (used
by the terminal game, the benchmark and the site) hands the views of such a variant to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..moves import Move

#: Moves in order of preference for one seat's view; the last ones are always simple legal moves.
Candidates = Callable[[Mapping[str, Any]], Iterable[Move]]

_BOTS: dict[str, Candidates] = {}


def register(variant_name: str, candidates: Candidates) -> None:
    """Let ``candidates`` play the views of ``variant_name``."""
    _BOTS[variant_name] = candidates


def candidates_for(variant_name: str) -> Candidates | None:
    return _BOTS.get(variant_name)
