"""Practice's memory snapshot (docs/practice.md, "Starting fast"), in Chromium against daphne.

The first load starts Python, imports the engine and keeps a snapshot of Pyodide's memory in this
version's cache; later loads restore it instead of starting Python again. A snapshot that cannot
be restored is deleted and Python starts as on a first load (and keeps a good one); a restored
engine holds no game and no language of the load that kept the snapshot.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import practicekit as kit
from tests.browser.tablekit import js_errors, open_path

pytestmark = [pytest.mark.practice, pytest.mark.timeout(300)]

ENGINE = "window.remiPractice.timings.engine"
KEPT = "window.remiPractice.timings.snapshotKept"

#: The snapshot entries of the page's app cache: [url, size in bytes].
SNAPSHOTS = """async () => {
  const cache = await caches.open(window.remiPractice.config.caches.app);
  const found = [];
  for (const request of await cache.keys()) {
    if (!new URL(request.url).pathname.includes("/snapshot-")) continue;
    found.push([request.url, (await (await cache.match(request)).arrayBuffer()).byteLength]);
  }
  return found;
}"""

#: Overwrite the kept snapshot with bytes that are not one (a torn write, another build).
SPOIL = """async ([url, size]) => {
  const cache = await caches.open(window.remiPractice.config.caches.app);
  const bytes = new Uint8Array(size);
  crypto.getRandomValues(bytes.subarray(0, 65536));
  await cache.put(url, new Response(bytes, {headers: {"Content-Type": "application/octet-stream"}}));
}"""


def reload_until_setup(page: Any) -> dict[str, Any]:
    page.reload()
    kit.wait_state(page, "setup")
    page.wait_for_function(f"{KEPT} !== undefined", timeout=120_000)
    engine: dict[str, Any] = page.evaluate(ENGINE)
    return engine


def test_a_snapshot_that_cannot_be_restored_is_replaced_and_python_starts(
    server_url: str, browser: Any
) -> None:
    page = open_path(browser, server_url, "/practice/?delay=0")
    kit.wait_state(page, "setup")
    page.wait_for_function(f"{KEPT} !== undefined", timeout=120_000)
    assert page.evaluate(f"{ENGINE}.snapshot") == "made"
    [(url, size)] = page.evaluate(SNAPSHOTS)
    assert size > 1_000_000  # Pyodide's heap, the engine in it

    assert reload_until_setup(page)["snapshot"] == "restored"

    page.evaluate(SPOIL, [url, size])
    assert reload_until_setup(page)["snapshot"] == "made"  # the spoilt one dropped, Python started
    [(again, _)] = page.evaluate(SNAPSHOTS)
    assert again == url
    assert reload_until_setup(page)["snapshot"] == "restored"

    # The restored engine plays.
    started = page.evaluate(
        """() => window.remiPractice.state.engine.call(
             "start", {variant: "gin", options: {}, levels: [null, "hard"], names: ["A", "B"]})"""
    )
    assert started["ok"]["frame"]["view"]["variant"] == "gin"
    assert js_errors(page) == []
    page.context.close()


def test_a_restored_engine_holds_no_game_and_no_language_of_the_load_that_kept_it(
    server_url: str, browser: Any
) -> None:
    page = open_path(browser, server_url, "/practice/?delay=0")
    kit.wait_state(page, "setup")
    page.wait_for_function(f"{KEPT} !== undefined", timeout=120_000)
    engine = "window.remiPractice.state.engine"
    call = f"([name, args]) => {engine}.call(name, args)"
    gin = {"variant": "gin", "options": {}, "levels": [None, "easy"], "names": ["A", "B"]}
    # A game and a language in the engine that kept the snapshot...
    page.evaluate(call, ["language", {"stale_version": "Ce n'est plus la position."}])
    page.evaluate(call, ["start", gin])
    assert page.evaluate(call, ["frame", None])["ok"]["frame"]["view"]["variant"] == "gin"
    page.evaluate("localStorage.clear()")

    # ...are not in the engine restored from it.
    assert reload_until_setup(page)["snapshot"] == "restored"
    answer = page.evaluate(call, ["frame", None])
    assert answer["error"]["message"] == "no practice game: start one"
    page.evaluate(call, ["start", {**gin, "variant": "remik51"}])
    stale = page.evaluate(
        call, ["command", {"type": "move", "id": "x", "version": 99, "move": {"kind": "draw"}}]
    )
    frames = stale["ok"]["frames"]
    assert frames[0]["type"] == "error"
    assert frames[0]["code"] == "stale_version"
    assert "plus la position" not in frames[0]["message"]
    assert js_errors(page) == []
    page.context.close()
