"""Browser tests: a real daphne subprocess on the test database, and Debian's Chromium via Playwright.

Recipe: docs/testing.md (browser tests). The server is started once per session on the test database
(pytest-django's ``django_db_setup``); each test commits its own data (``transactional_db``),
which the server reads through its own connections. Every ORM call of a test happens in its
fixtures, before Playwright starts; the ``browser`` fixture also lets Django's async-safety
check pass while Playwright's event loop runs in the test thread.
"""

from __future__ import annotations

import os
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
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _test_database_url() -> str:
    """The URL of the *test* database, for the server subprocess."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    password = s.get("PASSWORD") or ""
    return f"postgres://{s['USER']}:{password}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture(scope="session")
def server_url(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """http://127.0.0.1:<port> of a daphne serving the site (HTTP and WebSockets) on the test database."""
    with django_db_blocker.unblock():
        database_url = _test_database_url()
    port = _free_port()
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        DJANGO_DEBUG="1",  # static files straight from static/ (whitenoise finders); no collectstatic
        EMBEDDED_WORKER="0",  # no timers or bots needed: every seat is a person
        PYTHONUNBUFFERED="1",
    )
    log_path = tmp_path_factory.mktemp("daphne") / "daphne.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
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
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"daphne exited with {proc.returncode}:\n{log_path.read_text()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"daphne did not start:\n{log_path.read_text()}") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        text = log_path.read_text(errors="replace")
        if "Traceback" in text:
            sys.stderr.write(f"\n--- daphne log ---\n{text}\n")


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A headless Chromium; started after the test's database fixtures."""
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; any ORM call a fixture makes at
    # teardown (the transactional flush) must not be refused because of it.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def artifacts() -> Path:
    """Where screenshots go (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
