"""Browser tests: a real daphne subprocess on the test database, and Debian's Chromium via Playwright.

The one preamble of every browser test (docs/testing.md, "Browser tests: the recipe"):

* a test that uses the ``browser`` fixture, or is marked ``browser``, is marked ``browser`` and
  ``slow``, given a 180 s timeout unless it sets its own, and skipped where Chromium or
  Playwright is missing (``REQUIRE_BROWSER=1``, as CI sets, makes it fail instead); a test
  marked ``practice`` is skipped the same way where practice's Pyodide files are missing;
* ``server_url``: the server (``tests/live_server.py``), started once per session on the test
  database (pytest-django's ``django_db_setup``); each test commits its own data
  (``transactional_db``), which the server reads through its own connections;
* ``browser``: a headless Chromium; ``screenshot(page, name)``: a full-page PNG in
  ``tests/browser/artifacts/``. Pages are opened logged in with ``tablekit.open_path`` /
  ``tablekit.open_page``, which collect the page's uncaught script errors (``tablekit.js_errors``).

Every ORM call of a test happens in its fixtures, before Playwright starts; the ``browser``
fixture also lets Django's async-safety check pass while Playwright's event loop runs in the
test thread.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from games import practice_assets
from tests.live_server import start_daphne, subprocess_database_url

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = HERE / "artifacts"
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
#: A browser test's timeout unless it sets its own (``pytestmark = pytest.mark.timeout(…)``).
BROWSER_TIMEOUT = 180


def browser_missing() -> str | None:
    """Why the browser tests cannot run on this machine, or None."""
    if not CHROMIUM.exists():
        return f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "browser tests need the playwright package (requirements-dev.txt)"
    return None


def practice_missing() -> str | None:
    """Why practice cannot run in the browser here, or None."""
    if practice_assets.pyodide_missing():
        return "practice needs Pyodide from npm (make npm)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    required = bool(os.environ.get("REQUIRE_BROWSER"))  # .ci/run sets it: nothing may be skipped
    no_browser = None if required else browser_missing()
    no_practice = None if required else practice_missing()
    for item in items:
        if HERE not in Path(str(item.path)).resolve().parents:
            continue
        if "browser" in getattr(item, "fixturenames", ()) or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)
            if item.get_closest_marker("timeout") is None:
                item.add_marker(pytest.mark.timeout(BROWSER_TIMEOUT))
            if no_browser:
                item.add_marker(pytest.mark.skip(reason=no_browser))
        if item.get_closest_marker("practice") and no_practice:
            item.add_marker(pytest.mark.skip(reason=no_practice))


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
def playwright(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Playwright's sync API, running (for a test that launches Chromium its own way)."""
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; any ORM call a fixture makes at
    # teardown (the transactional flush) must not be refused because of it.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as running:
        yield running


@pytest.fixture
def launch_options() -> dict[str, Any]:
    """How Chromium is launched: Debian's, headless, with the background services off."""
    return {"executable_path": str(CHROMIUM), "args": list(CHROMIUM_ARGS)}


@pytest.fixture
def browser(playwright: Any, launch_options: dict[str, Any]) -> Iterator[Any]:
    """A headless Chromium; started after the test's database fixtures."""
    chromium = playwright.chromium.launch(**launch_options)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture
def artifacts() -> Path:
    """Where screenshots go (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def screenshot(artifacts: Path) -> Callable[..., Path]:
    """``screenshot(page, "table-phone.png")``: the whole page (``full_page=False``: the viewport)
    as a PNG in ``tests/browser/artifacts/``; returns its path."""

    def take(page: Any, name: str, *, full_page: bool = True) -> Path:
        path = artifacts / name
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
