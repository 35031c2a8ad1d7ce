"""The rule sets. Importing this package registers them with :func:`games.engine.rules.variant`."""

from . import remi, remik51

__all__ = ["remi", "remik51"]
