"""The server process shortens the interpreter's switch interval (remi_site/asgi.py,
``SERVER_GIL_SWITCH``; docs/benchmarks.md, "Replays and analyses beside live tables"): the
sockets' event loop waits less for the lock while a page's thread computes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = "import sys, remi_site.asgi; print(sys.getswitchinterval(), flush=True)"


def _interval(**env: str) -> float:
    environment = {key: value for key, value in os.environ.items() if key != "SERVER_GIL_SWITCH"}
    environment.update({"DJANGO_DEBUG": "1", **env})
    environment.pop("DATABASE_URL", None)  # the probe touches no database
    environment.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return float(done.stdout.split()[-1])


@pytest.mark.parametrize(("setting", "expected"), [(None, 0.0005), ("0.002", 0.002), ("", 0.005)])
def test_the_server_process_switches_threads_every_half_millisecond_unless_told(
    setting: str | None, expected: float
) -> None:
    env = {} if setting is None else {"SERVER_GIL_SWITCH": setting}
    assert _interval(**env) == pytest.approx(expected)
