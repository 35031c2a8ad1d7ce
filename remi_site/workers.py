"""The Celery workers of the PostgreSQL + Redis shape, split: ``python -m remi_site.workers``.

What ``make worker`` and ``make run`` (with ``REDIS_URL``) start (docs/operations.md, "One process,
or several"): two ``celery worker`` processes,

* **live**: the default queue only (bot moves, turn timers, grace periods, sweeps), and
* **background**: ``BACKGROUND_QUEUE`` only (a round's analysis, puzzle generation), one task at a
  time (``--concurrency 1``), at a lower priority (``OFFLOAD_NICE``),

so that a bot's reply never waits behind an analysis in a shared pool (issue 32: one person's
analyses took another table's bot reply p50 from 18 ms to 4,036 ms under one worker of both
queues). ``live`` or ``background`` as the argument starts that one only (on another machine, say);
arguments after ``--`` are given to every ``celery worker`` (``-- --concurrency 4 -l info``).

The queue names come from the settings (a test run's own suffix included). SIGTERM or SIGINT is
passed on to both (Celery's warm shutdown); when either worker exits, the other is stopped and
this exits with its code.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from types import FrameType

KINDS = ("live", "background")


def commands(kinds: Sequence[str], extra: Sequence[str] = ()) -> list[list[str]]:
    """The ``celery worker`` command of each kind."""
    import django
    from django.conf import settings

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")
    django.setup()
    base = [sys.executable, "-m", "celery", "-A", "remi_site", "worker"]
    queues = {
        "live": ["-Q", settings.CELERY_TASK_DEFAULT_QUEUE, "-n", "live@%h"],
        "background": ["-Q", settings.BACKGROUND_QUEUE, "--concurrency", "1", "-n", "background@%h"],
    }
    return [base + queues[kind] + list(extra) for kind in kinds]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in args:
        at = args.index("--")
        args, extra = args[:at], args[at + 1 :]
    kinds = [kind for kind in args if kind in KINDS] or list(KINDS)
    if unknown := [arg for arg in args if arg not in KINDS]:
        print(
            f"unknown: {' '.join(unknown)} (live, background, or both; celery's options after --)",
            file=sys.stderr,
        )
        return 2
    from django.conf import settings

    from games.play.offload import lower_priority

    nice, idle = settings.OFFLOAD_NICE, settings.OFFLOAD_IDLE
    processes = [
        # The background worker at a lower priority (OFFLOAD_NICE, OFFLOAD_IDLE): on busy CPUs
        # live play comes first.
        subprocess.Popen(
            command, preexec_fn=(lambda: lower_priority(nice, idle)) if kind == "background" else None
        )
        for kind, command in zip(kinds, commands(kinds, extra), strict=True)
    ]

    def stop(signum: int, frame: FrameType | None = None) -> None:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    code = 0
    try:
        while all(process.poll() is None for process in processes):
            time.sleep(0.2)
        code = next(process.returncode for process in processes if process.poll() is not None)
    finally:
        stop(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
    return code


if __name__ == "__main__":
    sys.exit(main())
