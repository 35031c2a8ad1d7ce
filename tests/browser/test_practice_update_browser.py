"""A new engine replaces the cached one on the next online visit (issue 15, docs/practice.md).

The site is served from the repository, and /practice/ is opened until it is ready offline.
Then the same address serves a copy of the site whose engine differs by one line: on the next
online visit the browser installs the new service worker, which keeps the new engine archive and
drops every cache of the old version (the memory snapshot of the old engine with it: the new
engine is started, not restored from it); offline afterwards, the page plays with the new engine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.practice import assets as practice_assets
from tests.browser.tablekit import js_errors, open_path
from tests.live_server import LiveServer, free_port, start_daphne

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.practice, pytest.mark.timeout(300)]

SITE = ("accounts", "games", "remi_site", "templates", "static", "locale", "manage.py")
STATE = "(document.getElementById('practice') || {dataset: {}}).dataset.state"
ENGINE = "window.remiPractice.timings.engine"
KEPT = "window.remiPractice.timings.snapshotKept"

#: The engine archives named by the memory snapshots kept in any cache (docs/practice.md).
SNAPSHOTS = r"""async () => {
  const found = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) {
      const match = new URL(request.url).pathname.match(/\/snapshot-(engine-[0-9a-f]+\.zip)-/);
      if (match) found.push(match[1]);
    }
  }
  return found.sort();
}"""


def _serve(root: Path, port: int, sites: dict[str, Any]) -> LiveServer:
    """daphne serving the site found at ``root`` on ``port`` and the fixture's own database
    (DEBUG: files through the finders; no worker: practice asks the server nothing)."""
    return start_daphne(
        sites["logs"],
        name=root.name,
        root=root,
        port=port,
        database_url=f"sqlite:///{sites['database']}",
        embedded_worker=False,
        env={"DJANGO_DEBUG": "1", "REDIS_URL": ""},
    )


@pytest.fixture
def sites(tmp_path: Path) -> dict[str, Any]:
    """The repository's site and a copy of it with one more line in the engine, one database."""
    database = tmp_path / "db.sqlite3"
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{database}")
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    copy = tmp_path / "site"
    copy.mkdir()
    for name in SITE:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, copy / name)
    (copy / "node_modules").symlink_to(ROOT / "node_modules")
    rules = copy / "games" / "engine" / "rules.py"
    rules.write_text(rules.read_text() + "\n# A new engine: this line is all that changed.\n")
    # The copy's archive carries bytecode Pyodide compiles under Node (games/practice/assets.py),
    # kept in the copy's build folder: compiled here, not during the copy's first page.
    sources = {path.as_posix(): (copy / path).read_bytes() for path in practice_assets.source_files(copy)}
    practice_assets.pyodide_bytecode(sources, build_dir=copy / "build" / "practice")
    return {"database": database, "copy": copy, "port": free_port(), "logs": tmp_path}


def test_a_new_engine_replaces_the_cached_one_on_the_next_online_visit(
    sites: dict[str, Any], browser: Any
) -> None:
    port = sites["port"]
    url = f"http://127.0.0.1:{port}/practice/?delay=0"
    server = _serve(ROOT, port, sites)
    page = open_path(browser, server_url="", path="")
    context = page.context
    try:
        page.goto(url)
        page.wait_for_function(
            "document.getElementById('practice').dataset.offline === 'ready'", timeout=120_000
        )
        page.wait_for_function(f"{KEPT} !== undefined", timeout=120_000)
        old = page.evaluate("window.remiPractice.config")
        assert page.evaluate(f"{ENGINE}.snapshot") == "made"
        assert page.evaluate(SNAPSHOTS) == [old["archive"]]
    finally:
        server.stop()

    server = _serve(sites["copy"], port, sites)
    try:
        page.reload()
        page.wait_for_function(f"{STATE} === 'setup'", timeout=120_000)
        new = page.evaluate("window.remiPractice.config")
        assert new["archive"] != old["archive"]
        assert new["caches"]["app"] != old["caches"]["app"]
        assert new["caches"]["pyodide"] == old["caches"]["pyodide"]
        # The old engine's snapshot is not restored: Python starts with the new engine.
        assert page.evaluate(f"{ENGINE}.snapshot") == "made"
        page.wait_for_function(f"{KEPT} !== undefined", timeout=120_000)
        # The new service worker took over and dropped the old version's cache.
        page.wait_for_function(
            """async ([gone, kept]) => {
              const names = await caches.keys();
              return !names.includes(gone) && names.includes(kept);
            }""",
            arg=[old["caches"]["app"], new["caches"]["app"]],
            timeout=60_000,
        )
        page.wait_for_function(
            "document.getElementById('practice').dataset.offline === 'ready'", timeout=60_000
        )
    finally:
        server.stop()

    # Offline now: the page and the new engine come from the caches; the old archive is gone.
    context.set_offline(True)
    page.reload()
    page.wait_for_function(f"{STATE} === 'setup'", timeout=120_000)
    assert page.evaluate("window.remiPractice.config.archive") == new["archive"]
    assert page.evaluate(f"caches.match({new['archive_url']!r}).then(Boolean)")
    assert not page.evaluate(f"caches.match({old['archive_url']!r}).then(Boolean)")
    assert page.evaluate(f"{ENGINE}.snapshot") == "restored"
    assert page.evaluate(SNAPSHOTS) == [new["archive"]]  # the old engine's snapshot went with its cache
    started = page.evaluate(
        """() => window.remiPractice.state.engine.call(
             "start", {variant: "gin", options: {}, levels: [null, "easy"], names: ["A", "B"]})"""
    )
    assert started["ok"]["frame"]["view"]["variant"] == "gin"
    assert js_errors(page) == []
    context.close()
