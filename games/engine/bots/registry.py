"""Bots of the variants with a turn cycle of their own, by variant name.

A variant's bot lives in ``bots/<variant name>.py`` and calls :func:`register` when imported (it
is imported the first time a view of that variant needs a bot). :class:`~games.engine.bots.basic.
BasicBot` (used by the terminal game, the benchmark and the site) hands such views to it.
"""

from __future__ import annotations

import importlib
import importlib.util
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
    if variant_name not in _BOTS and variant_name.isidentifier():
        module = f"{__package__}.{variant_name}"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)
    return _BOTS.get(variant_name)
