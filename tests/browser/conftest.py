"""Browser tests: a real daphne subprocess on the test database, and Debian's Chromium via Playwright.

The server (``tests/live_server.py``; docs/testing.md, browser tests) is started once per
session on the test database (pytest-django's ``django_db_setup``); each test commits its own
data (``transactional_db``), which the server reads through its own connections. Every ORM call
of a test happens in its fixtures, before Playwright starts; the ``browser`` fixture also lets
Django's async-safety check pass while Playwright's event loop runs in the test thread.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import start_daphne, subprocess_database_url

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


@pytest.fixture(scope="session")
def server_url(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """http://127.0.0.1:<port> of a daphne serving the site (HTTP and WebSockets) on the test database.

    Without a heartbeat (the default of ``start_daphne``): a server that lives for the whole session
    must not write into the test database between the tests that flush it.
    """
    with django_db_blocker.unblock():
        database_url = subprocess_database_url()
    server = start_daphne(
        tmp_path_factory.mktemp("daphne"),
        database_url=database_url,
        embedded_worker=False,  # no timers or bots needed: every seat is a person
        env={"DJANGO_DEBUG": "1"},  # static files straight from static/ (whitenoise finders)
    )
    try:
        yield server.url
    finally:
        server.stop()
        text = server.text()
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
