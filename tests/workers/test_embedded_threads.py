"""The single-process mode's worker threads (remi_site/embedded.py, docs/operations.md): a live
worker and a background worker, and one periodic turn sweep per process, not one per worker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import time, threading
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from remi_site.embedded import ensure_embedded_worker
assert ensure_embedded_worker()
deadline = time.monotonic() + 60
names = []
while time.monotonic() < deadline:
    names = sorted(t.name for t in threading.enumerate())
    if "celery-embedded-background" in names and "turn-sweep" in names:
        time.sleep(2)  # both workers have started their bootsteps by now
        names = sorted(t.name for t in threading.enumerate())
        break
    time.sleep(0.2)
print("THREADS", ",".join(names))
"""


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_the_embedded_mode_runs_a_live_and_a_background_worker_and_one_sweep(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL", "EMBEDDED_WORKER")}
    env.update(
        DJANGO_SETTINGS_MODULE="remi_site.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        TURN_SWEEP_SECONDS="1",
    )
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, env=env, capture_output=True, text=True, timeout=150
    )
    assert done.returncode == 0, done.stderr[-3000:]
    line = next(line for line in done.stdout.splitlines() if line.startswith("THREADS "))
    names = line.removeprefix("THREADS ").split(",")
    assert "celery-embedded" in names
    assert "celery-embedded-background" in names
    assert names.count("turn-sweep") == 1, names
