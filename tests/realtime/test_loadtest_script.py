"""``scripts/loadtest.py`` (``make loadtest``) still runs: 2 tables x 2 seats, a few moves each.

A real daphne subprocess serves the test database (``tests/live_server.py``); the
script runs as its own process against it, as ``make loadtest`` does. The channel layer is the
in-memory one inside daphne even when REDIS_URL is set, so that no other test run sharing the
Redis server can hear these tables.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import start_daphne, subprocess_database_url

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


@pytest.fixture
def environment(transactional_db: None) -> dict[str, str]:
    """The script's environment: the test database; no Redis (see the module's docstring)."""
    return {**os.environ, "DATABASE_URL": subprocess_database_url(), "REDIS_URL": ""}


@pytest.fixture
def server(environment: dict[str, str], tmp_path: Path) -> Iterator[str]:
    live = start_daphne(tmp_path, embedded_worker=False, env={"REDIS_URL": ""})
    try:
        yield live.url
    finally:
        live.stop()
        if "Traceback" in (text := live.text()):
            sys.stderr.write(f"\n--- daphne log ---\n{text}\n")


def _figure(pattern: str, output: str) -> Any:
    match = re.search(pattern, output)
    assert match, f"{pattern!r} not in the output:\n{output}"
    return match


def test_the_load_script_plays_tables_against_a_running_server(
    server: str, environment: dict[str, str]
) -> None:
    command = [sys.executable, "scripts/loadtest.py", "--url", server, "--tables", "2", "--seats", "2"]
    command += ["--moves", "5", "--think", "0.05", "--echo-sockets", "2", "--echo-interval", "0.05"]

    result = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=90)

    output = result.stdout
    assert result.returncode == 0, result.stderr
    assert "2 tables x 2 seats" in output
    assert _figure(r"moves: (\d+) applied in [\d.]+ s = ([\d.]+) moves/s", output).group(1) == "10"
    _figure(r"move -> all 2 seats' frames delivered: p50 [\d.]+ ms .* p99 [\d.]+ ms .*\(n=10\)", output)
    assert int(_figure(r"echo round trip .*\(n=(\d+)\)", output).group(1)) >= 2
    assert re.search(r"^errors: 0$", output, re.MULTILINE), output
    _figure(r"this client's CPU while the tables played: [\d.]+ s \(\d+% of a core", output)


def test_a_view_no_move_can_be_chosen_from_ends_that_table_as_an_error_not_the_run() -> None:
    """An odd frame (say, another table's, when two servers share a Redis without a
    CHANNEL_LAYER_PREFIX each: docs/operations.md) made the bot raise and the whole run stop
    with a traceback; now it is one error of one table."""
    import argparse
    import asyncio
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "loadtest", Path(__file__).parents[2] / "scripts" / "loadtest.py"
    )
    assert spec is not None
    assert spec.loader is not None
    loadtest = importlib.util.module_from_spec(spec)
    sys.modules["loadtest"] = loadtest  # the dataclasses look their module up
    spec.loader.exec_module(loadtest)

    async def choose(view: dict[str, Any]) -> list[dict[str, Any]]:
        return loadtest.simple_moves(view)  # no draw, no discard: the bot, on a view not its turn

    async def main() -> tuple[float | None, Any]:
        stats = loadtest.Stats()
        table = loadtest.TableRun(None, stats, argparse.Namespace(timeout=1.0), choose)
        view = {"phase": "play", "variant": "gin", "turn": 1, "you": {"seat": 0, "moves": []}}
        return await table.move(None, 3, view), stats

    latency, stats = asyncio.run(main())
    assert latency is None
    assert sum(stats.errors.values()) == 1
    assert next(iter(stats.errors)).startswith("no move chosen: ")
