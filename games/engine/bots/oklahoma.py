"""Oklahoma's bot is gin's (:mod:`games.engine.bots.gin`): the deal's knock limit is in the view."""

from __future__ import annotations

from . import registry
from .gin import candidates

__all__ = ["candidates"]

registry.register("oklahoma", candidates)
