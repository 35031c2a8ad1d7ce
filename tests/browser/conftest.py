"""Browser tests: a real daphne subprocess on the test database, and Debian's Chromium via Playwright.

The one preamble of every browser test (docs/testing.md, "Browser tests: the recipe"):

* a test that uses the ``browser`` fixture, or is marked ``browser``, is marked ``browser`` and
  ``slow``, given a 180 s timeout unless it sets its own, and skipped where Chromium or
  Playwright is missing (``REQUIRE_BROWSER=1``, as CI sets, makes it fail instead); a test
  marked ``practice`` is skipped the same way where practice's Pyodide files are missing;
* ``server_url``: the server (``tests/live_server.py``), started once per session on the test
  database (pytest-django's ``django_db_setup``); each test commits its own data
  (``transactional_db``), which the server reads through its own connections;
* ``browser``: a headless Chromium, this pytest worker's one (``SharedChromium``), with the
  contexts the test opens closed at its end; ``screenshot(page, name)``: a full-page PNG in
  ``tests/browser/artifacts/``. Pages are opened logged in with ``tablekit.open_path`` /
  ``tablekit.open_page``, which collect the page's uncaught script errors (``tablekit.js_errors``).

Playwright itself (its Node driver) is shared by consecutive browser tests of a pytest worker
(``SharedPlaywright``), its event loop marked running only while the test's own code runs: the
fixtures that make a test's data (matches, their frames published) and the flush after it run as
in any other test.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from games.practice import assets as practice_assets
from tests.live_server import start_daphne, subprocess_database_url

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
#: Debian's Chromium the tests drive: its headless shell (package chromium-headless-shell, the
#: build Playwright itself runs headless tests in) where installed, else the full browser in its
#: headless mode. The shell is the same Blink and V8 without the desktop browser around them: a new
#: context and page cost a quarter of the CPU (docs/testing.md, "Speed").
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
FULL_CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM = HEADLESS_SHELL if HEADLESS_SHELL.exists() else FULL_CHROMIUM
ARTIFACTS = HERE / "artifacts"
CHROMIUM_ARGS = [
    *(["--headless=new"] if CHROMIUM == FULL_CHROMIUM else []),
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
        return (
            f"browser tests need Chromium at {HEADLESS_SHELL} or {FULL_CHROMIUM}"
            " (apt-get install chromium-headless-shell)"
        )
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


class SharedPlaywright:
    """Playwright's sync API, started by the first browser test of a run of them on this pytest
    worker and stopped after the last (``pytest_runtest_teardown`` below): starting its Node
    driver for each test cost more than a second of CPU a test (docs/testing.md, "Speed").

    Playwright's sync API keeps its event loop inside ``run_until_complete`` in a greenlet of its
    own, so between two calls the loop counts as running in the test's thread. Then Django
    refuses ORM calls (``SynchronousOnlyOperation``), ``async_to_sync`` refuses to publish a
    frame, and ``asyncio.run`` refuses to start. So the loop is marked running only while
    Playwright owns the thread (``calls``): the call phase of a test that uses it, and the
    ``browser`` fixture's own Playwright calls; there ``DJANGO_ALLOW_ASYNC_UNSAFE`` lets the test
    read the database. A fixture that makes a match, its frames published, and the flush after
    the test, run with no loop marked, exactly as in a test without Playwright; and so does any
    other test on this worker, once Playwright is stopped.
    """

    def __init__(self) -> None:
        self.manager: Any = None
        self.running: Any = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def get(self) -> Any:
        if self.running is None:
            from playwright.sync_api import sync_playwright

            manager = sync_playwright()
            running = manager.start()
            self.loop = asyncio.events._get_running_loop()
            assert self.loop is not None, "Playwright's sync API runs no event loop in this thread"
            asyncio.events._set_running_loop(None)  # until ``calls``
            self.manager, self.running = manager, running
        return self.running

    @contextmanager
    def calls(self) -> Iterator[None]:
        """Playwright owns the thread: its loop marked running, Django's async check relaxed."""
        if self.running is None:
            yield
            return
        saved = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        asyncio.events._set_running_loop(self.loop)
        try:
            yield
        finally:
            asyncio.events._set_running_loop(None)
            if saved is None:
                os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
            else:
                os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = saved

    def stop(self) -> None:
        if self.running is None:
            return
        try:
            with self.calls():
                self.manager.__exit__(None, None, None)
        finally:
            self.manager = self.running = self.loop = None


_PLAYWRIGHT = SharedPlaywright()


def _uses_playwright(item: pytest.Item | None) -> bool:
    return item is not None and "playwright" in getattr(item, "fixturenames", ())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """The test's own code drives Playwright: its loop is marked running meanwhile."""
    with _PLAYWRIGHT.calls():
        yield


_FAILED_KEY = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed:
        item.stash[_FAILED_KEY] = True
    return report


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After a test's own teardown (its contexts closed, the database flushed): stop Playwright
    unless the next test on this worker uses it too; and after a failed test (a timeout may have
    interrupted a call), so that the next one starts from a fresh driver."""
    if not _uses_playwright(nextitem) or item.stash.get(_FAILED_KEY, False):
        _PLAYWRIGHT.stop()


@pytest.fixture
def playwright() -> Any:
    """Playwright's sync API, running (``SharedPlaywright``; also for a test that launches
    Chromium its own way)."""
    return _PLAYWRIGHT.get()


@pytest.fixture
def launch_options() -> dict[str, Any]:
    """How Chromium is launched: Debian's, headless, with the background services off."""
    return {"executable_path": str(CHROMIUM), "args": list(CHROMIUM_ARGS)}


class SharedChromium:
    """One Chromium process per pytest worker, started on first use, which each test reaches over
    the DevTools protocol (``connect_over_cdp``) with a Playwright of its own.

    Launching Chromium was about a second of wall time and of CPU per browser test (half of the
    browser tests' own cost); a context is a tenth of that. Each test still gets its own contexts
    (cookies, storage, cache, service workers: nothing is shared between tests), and Playwright
    itself is shared by consecutive browser tests (``SharedPlaywright``). If the process has died,
    the next test starts another.
    """

    def __init__(self, profile: Path) -> None:
        self.profile = profile
        self.process: subprocess.Popen[str] | None = None
        self.endpoint = ""
        self.command: list[str] = []

    def url(self) -> str:
        if self.process is None or self.process.poll() is not None:
            self._start()
        return self.endpoint

    @staticmethod
    def playwright_command() -> list[str]:
        """The command line Playwright itself launches Chromium with (its own switches, e.g. no
        back-forward cache and no throttling of background pages, which the tests rely on, then
        ``CHROMIUM_ARGS``), read from the process it starts, without the profile and the pipe
        Playwright talks through: so the shared process runs exactly as a launched one did."""
        from playwright.sync_api import sync_playwright

        with sync_playwright() as running:
            launched = running.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))
            try:
                command = _chromium_under(os.getpid())
            finally:
                launched.close()
        if not command:
            raise RuntimeError("could not read the command line of the Chromium Playwright launched")
        skip = ("--user-data-dir=", "--remote-debugging-pipe", "--no-startup-window")
        return [command[0], *(arg for arg in command[1:] if not arg.startswith(skip))]

    def _start(self) -> None:
        profile = self.profile / f"profile-{time.monotonic_ns()}"
        command = self.command = self.command or self.playwright_command()
        process = subprocess.Popen(
            [*command, "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert process.stderr is not None
        lines: list[str] = []
        deadline = time.monotonic() + 60
        for line in process.stderr:  # Chromium names its endpoint on stderr once it listens
            lines.append(line)
            if line.startswith("DevTools listening on "):
                self.endpoint = line.split(" on ", 1)[1].strip()
                break
            if time.monotonic() > deadline:
                break
        if not self.endpoint or process.poll() is not None:
            process.kill()
            raise RuntimeError("Chromium did not start:\n" + "".join(lines))
        # Keep reading its stderr (a full pipe would stall it).
        threading.Thread(target=process.stderr.read, daemon=True).start()
        self.process = process

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def _chromium_under(ancestor: int) -> list[str]:
    """The command line of the Chromium browser process descending from ``ancestor`` (Linux /proc):
    the one process of the tree named as ``CHROMIUM`` without a ``--type=`` (renderers, GPU, …
    have one)."""
    parents: dict[int, int] = {}
    commands: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            commands[int(entry.name)] = (entry / "cmdline").read_text().split("\0")[:-1]
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])

    def descends(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == ancestor:
                return True
        return False

    for pid, command in commands.items():
        if (
            command
            and Path(command[0]).name == CHROMIUM.name
            and not any(arg.startswith("--type=") for arg in command)
            and descends(pid)
        ):
            return command
    return []


@pytest.fixture(scope="session")
def shared_chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedChromium]:
    """This worker's Chromium (``SharedChromium``), stopped and waited for at the end of the session."""
    chromium = SharedChromium(tmp_path_factory.mktemp("chromium"))
    # Now, before any test's Playwright runs (session fixtures are set up before a test's own).
    chromium.url()
    try:
        yield chromium
    finally:
        chromium.stop()


#: How long a browser test's end waits for the server to have closed the test's sockets.
SOCKETS_CLOSED_TIMEOUT = 30.0


def _wait_until_sockets_closed() -> None:
    """Wait until the server has handled the closing of the test's sockets (its last write of a
    socket's close is deleting its ``AccountSocket`` row), so that the database's flush after the
    test does not race the server's writes (on PostgreSQL the flush's TRUNCATE and a seat's
    disconnect deadlocked). A bounded wait: a socket still open then is not this fixture's to judge."""
    from games.play.models import AccountSocket

    deadline = time.monotonic() + SOCKETS_CLOSED_TIMEOUT
    while AccountSocket.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.fixture
def browser(transactional_db: None, playwright: Any, shared_chromium: SharedChromium) -> Iterator[Any]:
    """A headless Chromium, started after the test's database fixtures: this worker's Chromium
    (``SharedChromium``); every context and page the test opened is closed at its end, and the
    end waits until the server has seen those sockets close. It asks for ``transactional_db``
    (every browser test commits its data for the server) so that the flush comes after that wait."""
    with _PLAYWRIGHT.calls():
        chromium = playwright.chromium.connect_over_cdp(shared_chromium.url())
        default = set(chromium.contexts)  # Chromium's own default context: left as it is
    try:
        yield chromium
    finally:
        with _PLAYWRIGHT.calls():
            for context in chromium.contexts:
                if context not in default:
                    context.close()
            chromium.close()  # disconnects; the process stays for the next test
        _wait_until_sockets_closed()


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
