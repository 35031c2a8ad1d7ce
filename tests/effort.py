"""How hard a test tries: how many examples, hands, matches or repeats of a race it runs.

Three levels, chosen by the environment (docs/testing.md, "Speed"):

* **default** (``make test``): every check runs, on enough cases to exercise it, so that the whole
  suite stays within minutes and is run often;
* **thorough** (``TEST_THOROUGH=1``, set by ``.ci/run``): the larger counts CI runs on every change;
* **soak** (``SOAK=1``, ``make soak``): thousands, for long runs.

A test never skips a check at the default level: only the number of cases changes.
"""

from __future__ import annotations

import os


def _on(name: str) -> bool:
    return os.environ.get(name, "").strip() not in ("", "0")


SOAK = os.environ.get("SOAK") == "1"
THOROUGH = SOAK or _on("TEST_THOROUGH")
LEVEL = "soak" if SOAK else "thorough" if THOROUGH else "default"


def effort(default: int, thorough: int, soak: int | None = None) -> int:
    """The count for this run's level (``soak`` falls back to ``thorough`` when not given)."""
    if SOAK:
        return thorough if soak is None else soak
    return thorough if THOROUGH else default
