"""Hypothesis profiles for the rules engine tests (no Django, no database here).

Choose one with ``HYPOTHESIS_PROFILE``:

* ``dev`` (the default of ``make test``): few examples, so the whole engine folder runs in seconds;
* ``ci`` (the default under ``TEST_THOROUGH=1``, which ``.ci/run`` sets): more examples;
* ``soak``: many examples, for long runs (``make soak`` also runs the ``soak``-marked tests).

Tests that count their own cases (hands against a brute force, bot matches) take the same level
from ``tests.effort``.

``deadline`` is off everywhere: a random game plays many moves, and its time depends on the game.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from tests.effort import THOROUGH

_SLOW_DATA = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

settings.register_profile(
    "dev",
    max_examples=8,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=_SLOW_DATA,
    print_blob=True,
)
# CI runs every property of seven rule sets; 30 examples each keeps .ci/run under its 20 minutes
# (make soak is where the thousands go).
settings.register_profile(
    "ci",
    max_examples=30,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=_SLOW_DATA,
    print_blob=True,
)
settings.register_profile(
    "soak",
    max_examples=2000,
    stateful_step_count=200,
    deadline=None,
    suppress_health_check=_SLOW_DATA,
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if THOROUGH else "dev"))
