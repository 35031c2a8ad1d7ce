"""``scripts/loadtest.py`` (``make loadtest``) still runs: 2 tables x 2 seats, a few moves each.

A real daphne subprocess serves the test database (the recipe of docs/testing.md, browser tests); the
script runs as its own process against it, as ``make loadtest`` does. The channel layer is the
in-memory one inside daphne even when REDIS_URL is set, so that no other test run sharing the
Redis server can hear these tables.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _test_database_url() -> str:
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    password = settings.get("PASSWORD") or ""
    host, port = settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    return f"postgres://{settings['USER']}:{password}@{host}:{port}/{settings['NAME']}"


@pytest.fixture
def environment(transactional_db: None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    env |= {"DATABASE_URL": _test_database_url(), "EMBEDDED_WORKER": "0", "PYTHONUNBUFFERED": "1"}
    return env


@pytest.fixture
def server(environment: dict[str, str], tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    log_path = tmp_path / "daphne.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "remi_site.asgi:application",
            ],
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                pytest.fail(f"daphne exited with {process.returncode}:\n{log_path.read_text()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"daphne did not start:\n{log_path.read_text()}")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if "Traceback" in (text := log_path.read_text(errors="replace")):
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
