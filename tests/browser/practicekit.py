"""Playing practice games through the page (docs/practice.md): a player that acts only through the
table's controls and practice's own buttons (tap a card, drag it, press a button), deciding what
to do from what the page shows (the frame the table holds, the hint it was given)."""

from __future__ import annotations

import json
from typing import Any

#: The page's own state: "loading", "setup", "playing", "failed" (#practice[data-state]).
STATE = "(document.getElementById('practice') || {dataset: {}}).dataset.state"

#: A player's turn may begin (not while a command waits), or the round is over.
READY = """() => {
  const page = document.getElementById('practice');
  if (!page) return false;
  if (page.dataset.roundOver) return true;
  const m = window.remiTable && window.remiTable.model;
  if (!m || m.pending) return false;
  const view = m.frame.view;
  return view.phase === 'over' || Boolean(view.you && view.you.my_turn);
}"""


def wait_state(page: Any, state: str, timeout: float = 120_000) -> None:
    page.wait_for_function(f"{STATE} === {json.dumps(state)}", timeout=timeout)


def frame(page: Any) -> dict[str, Any]:
    return page.evaluate("window.remiTable.model.frame")


def version(page: Any) -> int:
    return int(page.evaluate("window.remiTable.model.frame.version"))


def wait_newer(page: Any, than: int) -> None:
    page.wait_for_function(
        f"window.remiTable.model.frame.version > {than} && !window.remiTable.model.pending", timeout=30_000
    )


def press(page: Any, key: str) -> bool:
    """Press a control of the table by its key (``draw``, ``discard``, ``submit``, ``knock-best``...);
    for a move, wait for its answer: True if the game moved on, False if the engine refused it."""
    button = page.locator(f'#table-app button[data-key="{key}"]')
    button.wait_for(state="visible", timeout=10_000)
    assert button.is_enabled(), f"{key} is disabled"
    before = version(page)
    button.click()
    if key in ("use-opening", "use-best", "new-meld", "clear", "unselect"):
        return True
    page.wait_for_function(
        f"(window.remiTable.model.frame.version > {before} || window.remiTable.model.error)"
        " && !window.remiTable.model.pending",
        timeout=30_000,
    )
    return version(page) > before


def hint(page: Any) -> dict[str, Any]:
    """Ask for a hint with practice's button; the hard bot's move the page shows."""
    box = page.locator("#practice-hint")
    page.evaluate("document.getElementById('practice-hint').dataset.move = 'asking'")
    page.click("#practice-hint-button")
    page.wait_for_function(
        "document.getElementById('practice-hint').dataset.move !== 'asking'", timeout=30_000
    )
    assert box.is_visible()
    text = box.inner_text()
    assert text.startswith("The hard bot would play:"), text
    return json.loads(box.get_attribute("data-move") or "null")


def tap_card(page: Any, card: str) -> None:
    page.locator(f'#hand button.card[data-card="{card}"]').click()


def discard_by_tap(page: Any, card: str) -> None:
    tap_card(page, card)
    press(page, "discard")


def discard_by_drag(page: Any, card: str) -> None:
    before = version(page)
    page.locator(f'#hand button.card[data-card="{card}"]').drag_to(page.locator("#discard-box"))
    wait_newer(page, before)


def remik_turn(page: Any, *, drag: bool = False) -> None:
    """One turn of Remik (51): draw from the stock; lay down the suggested opening when it is
    ready; discard the card the hint names (else the first card the table lets go)."""
    view = frame(page)["view"]
    if view["phase"] == "draw":
        press(page, "draw")
        view = frame(page)["view"]
    you = view["you"]
    opening = you.get("opening")
    if not you["opened"] and opening and opening.get("ready") and "play" in you["moves"]:
        press(page, "use-opening")
        assert page.locator(".draft-meld").count() == len(opening["melds"])
        if not press(page, "submit"):  # refused (a first turn): the reason is shown; clear it
            assert page.locator("#move-error[data-code]").count() == 1
            press(page, "clear")
        view = frame(page)["view"]
        you = view["you"]
        if view["phase"] == "over" or not you["my_turn"]:
            return  # went out with it
    move = hint(page)
    card = move["card"] if move and move["kind"] == "discard" else you["discards"][0]
    if drag:
        discard_by_drag(page, card)
    else:
        discard_by_tap(page, card)


def gin_turn(page: Any) -> None:
    """One turn of gin as the hint says: take or pass the up-card, draw or take, knock or
    discard (dragging the card to the discards), and "Done" after the other's knock."""
    view = frame(page)["view"]
    you, step = view["you"], view["gin"]["step"]
    if step == "reply":
        press(page, "pass")
        return
    move = hint(page)
    kind = move["kind"]
    if kind == "pass":
        press(page, "pass")
    elif kind == "take":
        press(page, "take")
    elif kind == "draw":
        press(page, "draw")
    elif kind == "knock":
        press(page, "knock-best")
    else:
        assert kind == "discard", move
        card = move["card"] if move["card"] in you.get("discards", []) else you["discards"][0]
        discard_by_drag(page, card)


def play_round(page: Any, turn: Any, limit: int = 400, on_turn: Any = None) -> dict[str, Any]:
    """Play the player's turns with ``turn`` until the round is over; the frame that ended it."""
    for count in range(limit):
        page.wait_for_function(READY, timeout=60_000)
        if page.evaluate("Boolean(document.getElementById('practice').dataset.roundOver)"):
            return frame(page)
        if on_turn is not None:
            on_turn(count)
        turn(page)
    raise AssertionError("the round did not end")
