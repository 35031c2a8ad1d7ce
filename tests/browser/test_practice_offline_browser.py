"""Practice with the network off (issue 15, docs/practice.md), in Chromium against daphne.

/practice/ is opened once online, until it says the page, the engine and the bots are on the
device (and the engine's memory snapshot is kept). Then the network is cut: the context goes
offline and a route fails every request that still tries to reach the server, counting them.
The page is reloaded (from the service worker's cache, the engine restored from its snapshot),
and through the page's controls only (taps, a drag, buttons) the player plays a
whole Remik 51 round against three bots, with a hint, a take-back and a reload in the middle,
the bots' hands shown at its end, and a whole Gin deal against one bot (a drag to discard, a
knock or the reply to one). Not one request reached the server after the cut, and each game's
record, downloaded from the page, verifies with ``python -m games.engine verify``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.browser import practicekit as kit
from tests.browser import tablekit

pytestmark = [pytest.mark.practice, pytest.mark.timeout(600)]


def start(page: Any, variant: str, seats: int, level: str) -> None:
    kit.wait_state(page, "setup")
    page.select_option("#practice-variant", variant)
    fieldset = page.locator(f'fieldset.practice-variant[data-variant="{variant}"]')
    seats_field = fieldset.locator("[data-seats]")
    if seats_field.is_editable():
        seats_field.fill(str(seats))
    for seat in range(1, seats):
        fieldset.locator(f'[data-level="{seat}"]').select_option(level)
    page.click("#practice-start")
    kit.wait_state(page, "playing")


def download_and_verify(page: Any, tmp_path: Path, name: str) -> dict[str, Any]:
    with page.expect_download() as download:
        page.click("#practice-download-record")
    path = tmp_path / name
    download.value.save_as(path)
    record = json.loads(path.read_text())
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return record


def test_practice_plays_whole_games_with_the_network_off(
    server_url: str, browser: Any, tmp_path: Path, screenshot: tablekit.Screenshot
) -> None:
    page = tablekit.open_path(
        browser, server_url, "", viewport={"width": 1366, "height": 900}, accept_downloads=True
    )
    context = page.context
    page.on("dialog", lambda dialog: dialog.accept())

    # Once online: the engine is downloaded (with its progress shown) and kept.
    page.goto(f"{server_url}/practice/?delay=0")
    kit.wait_state(page, "setup")
    page.wait_for_function("document.getElementById('practice').dataset.offline === 'ready'", timeout=60_000)
    assert page.locator("#practice-offline").is_visible()
    # The first load started Python and kept a memory snapshot of it, the engine imported.
    assert page.evaluate("window.remiPractice.timings.engine.snapshot") == "made"
    page.wait_for_function("window.remiPractice.timings.snapshotKept !== undefined", timeout=60_000)
    assert page.evaluate("window.remiPractice.timings.snapshotKept") is not False

    # The network is cut: offline, and every request that still tries is failed and counted.
    reached: list[str] = []

    def refuse(route: Any) -> None:
        reached.append(route.request.url)
        route.abort("internetdisconnected")

    context.route("**/*", refuse)
    context.set_offline(True)
    page.reload()
    kit.wait_state(page, "setup")
    assert page.evaluate("navigator.onLine") is False
    # From now on the engine is the restored snapshot, not a new start of Python.
    assert page.evaluate("window.remiPractice.timings.engine.snapshot") == "restored"

    # A whole Remik 51 round against three bots.
    start(page, "remik51", 4, "normal")
    view = kit.frame(page)["view"]
    assert view["variant"] == "remik51"
    assert view["players"] == 4
    assert view["seat"] == 0
    assert [seat["kind"] for seat in kit.frame(page)["seats"]] == ["human", "bot", "bot", "bot"]
    # The table's status line says what this is: practice on the device, not a live table.
    assert page.locator("#conn-status").inner_text() == "Practice · offline"

    took_back: list[int] = []
    reloaded: list[int] = []

    def midway(turn: int) -> None:
        if turn == 0 and not took_back:
            # Draw, discard, then take the discard back: the same cards in hand, still to play.
            if kit.frame(page)["view"]["phase"] == "draw":
                kit.press(page, "draw")
            hand = sorted(kit.frame(page)["view"]["hand"])
            kit.discard_by_tap(page, kit.frame(page)["view"]["you"]["discards"][0])
            before = kit.version(page)
            page.click("#practice-take-back")
            page.wait_for_function(
                f"window.remiTable.model.frame.version > {before}"
                " && window.remiTable.model.frame.view.you.my_turn",
                timeout=30_000,
            )
            again = kit.frame(page)["view"]
            assert again["you"]["my_turn"]
            assert again["phase"] == "play"
            assert sorted(again["hand"]) == hand
            took_back.append(1)
        if turn == 0 and not reloaded:
            # The game survives a reload, offline: the same position, the player's turn.
            position = kit.frame(page)["view"]
            page.reload()
            kit.wait_state(page, "playing")
            assert page.evaluate("window.remiPractice.timings.engine.snapshot") == "restored"
            view = kit.frame(page)["view"]
            assert sorted(view["hand"]) == sorted(position["hand"])
            assert view["discard"] == position["discard"]
            assert view["hand_sizes"] == position["hand_sizes"]
            reloaded.append(1)

    over = kit.play_round(page, kit.remik_turn, on_turn=midway)
    assert took_back
    assert reloaded
    ended = [e for e in over["events"] if e["kind"] == "round_over"]
    assert ended
    assert ended[0]["round"] == 1
    # The bots' hands at the end of the round, as the engine revealed them.
    hands = page.locator("#practice-hands li")
    assert hands.count() == 3
    for seat in (1, 2, 3):
        item = page.locator(f'#practice-hands li[data-seat="{seat}"]')
        left = ended[0]["hands"][seat]
        assert item.inner_text().startswith(f"Bot {seat + 1}:")
        if not left:
            assert "nothing left" in item.inner_text()
    screenshot(page, "practice-remik51-round-over.png")
    record = download_and_verify(page, tmp_path, "remik51.json")
    assert record["variant"] == "remik51"
    assert record["practice"]["take_backs"] == 1
    assert record["rounds"][0]["seed"]
    assert record["rounds"][0]["lines"]
    page.click("#practice-next")
    assert page.locator("#practice-round").is_hidden()

    # A new game (the Remik one is abandoned), still offline: a whole Gin deal against one bot.
    page.click("#practice-abandon")
    kit.wait_state(page, "setup")
    start(page, "gin", 2, "normal")
    over = kit.play_round(page, kit.gin_turn)
    assert any(e["kind"] == "round_over" for e in over["events"])
    assert page.locator("#practice-hands li").count() == 1
    screenshot(page, "practice-gin-deal-over.png")
    record = download_and_verify(page, tmp_path, "gin.json")
    assert record["variant"] == "gin"
    assert record["rounds"][0]["lines"]

    assert reached == [], f"requests tried to reach the server after the cut: {reached}"
    assert tablekit.js_errors(page) == []
    context.close()
