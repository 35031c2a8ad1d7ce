"""``scripts/loadtest.py --server-pid`` prints the servers' CPU per move and their memory at the
start of the play, at ``--memory-mark`` and at the end, with the growth from the mark (issue 18's
"no growth" run is made with it; docs/benchmarks.md, "The memory runs"). The server is a real
daphne subprocess, as in ``test_loadtest_script.py``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import LiveServer, start_daphne, subprocess_database_url

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


@pytest.fixture
def environment(transactional_db: None) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": subprocess_database_url(), "REDIS_URL": ""}


@pytest.fixture
def live(environment: dict[str, str], tmp_path: Path) -> Iterator[LiveServer]:
    server = start_daphne(tmp_path, embedded_worker=False, env={"REDIS_URL": ""})
    try:
        yield server
    finally:
        server.stop()


def _run(live: LiveServer, environment: dict[str, str], *extra: str) -> str:
    command = [sys.executable, "scripts/loadtest.py", "--url", live.url, "--tables", "1", "--seats", "2"]
    command += ["--moves", "4", "--think", "0.05", "--echo-sockets", "1", "--echo-interval", "0.05"]
    command += ["--server-pid", str(live.process.pid), *extra]
    result = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=90)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_load_script_prints_the_servers_memory_at_the_mark_and_at_the_end(
    live: LiveServer, environment: dict[str, str]
) -> None:
    output = _run(live, environment, "--memory-mark", "0")

    assert re.search(r"server CPU while the tables played: [\d.]+ s = [\d.]+ ms per move", output), output
    line = re.search(
        r"server memory \(RSS, pids together\): ([\d.]+) MB at the start of the play, ([\d.]+) MB after 0 s, "
        r"([\d.]+) MB at its end: ([+-][\d.]+)% from the mark to the end",
        output,
    )
    assert line, output
    start, mark, end, growth = (float(value) for value in line.groups())
    assert min(start, mark, end) > 1  # a Python server holds more than a megabyte
    assert growth == pytest.approx(100 * (end - mark) / mark, abs=0.2)


def test_a_play_shorter_than_the_mark_is_said_to_be(live: LiveServer, environment: dict[str, str]) -> None:
    output = _run(live, environment)  # the default mark: 5 minutes

    assert re.search(
        r"server memory \(RSS, pids together\): [\d.]+ MB at the start of the play, [\d.]+ MB at its end "
        r"\([+-][\d.]+%\); the play was shorter than --memory-mark 300 s",
        output,
    ), output
