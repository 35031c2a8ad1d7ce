"""Helpers for the browser tests: users and their session cookies, matches set up through the
services, pages opened logged in (their script errors collected), and waits on the version the
table shows (``#table-app[data-version]``). Import it as ``tests.browser.tablekit``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games import engine
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match

NAMES = ("ala", "bartek", "celina", "darek")

#: The ``screenshot`` fixture (tests/browser/conftest.py): ``screenshot(page, "name.png")``.
Screenshot = Callable[..., Path]


@dataclass(frozen=True)
class Seat:
    name: str
    cookie: str
    seat: int | None


def cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def users(count: int) -> list[Any]:
    make = get_user_model().objects.create_user
    return [make(username=name, password=None) for name in NAMES[:count]]


def start_match(
    variant: str, options: dict[str, Any], players: Sequence[Any], secret: bytes, name: str = "Table"
) -> Match:
    """A room of ``len(players)`` seats, every seat taken, started with ``secret`` as the match secret."""
    room = services.room_create(
        owner=players[0], name=name, variant=variant, options=options, seats=len(players), turn_seconds=3600
    )
    for index, user in enumerate(players):
        services.seat_take(room=room, user=user, index=index)
    with mock.patch("secrets.token_bytes", return_value=secret):
        return services.match_start(room=room)


def play_bots_until(
    match: Match, players: Sequence[Any], done: Callable[[Any], bool], limit: int = 3000
) -> Match:
    """Play the bot's move for the seat to move, through the service, until ``done(state)``."""
    for _ in range(limit):
        match = Match.objects.get(pk=match.pk)
        state = match.game_state()
        if done(state):
            return match
        assert not state.is_over, "the match ended first"
        move = choose_move(engine.view_for(state, state.turn))
        services.move_submit(
            match_id=match.pk, user=players[state.turn], move=move, expected_version=match.version
        )
    raise AssertionError("the match did not get there")


def spectator(name: str = "widz") -> Seat:
    """A logged-in user with no seat at the table."""
    user = get_user_model().objects.create_user(username=name, password=None)
    return Seat(name, cookie(user), None)


def seat_of(players: Sequence[Any], index: int) -> Seat:
    return Seat(NAMES[index], cookie(players[index]), index)


def open_path(browser: Any, server_url: str, path: str, session: str | None = None, **context: Any) -> Any:
    """A new browser context (``context``: Playwright's options, e.g. a viewport), logged in with
    the session cookie ``session`` if one is given, its page at ``path``; the page's uncaught
    script errors are collected for ``js_errors``."""
    ctx = browser.new_context(**context)
    if session is not None:
        ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": server_url}])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _ERRORS[id(page)] = errors
    if path:
        page.goto(f"{server_url}{path}")
    return page


def open_page(browser: Any, server_url: str, match_id: int, seat: Seat, **context: Any) -> Any:
    """The match page as ``seat`` sees it, once its socket is live."""
    page = open_path(browser, server_url, f"/matches/{match_id}/", seat.cookie, **context)
    wait_live(page)
    return page


_ERRORS: dict[int, list[str]] = {}


def js_errors(page: Any) -> list[str]:
    """Uncaught script errors on a page opened with ``open_path`` or ``open_page``."""
    return list(_ERRORS.get(id(page), []))


def wait_live(page: Any) -> None:
    page.wait_for_selector('#table-app[data-status="live"]', timeout=15000)


def version(page: Any) -> int:
    return int(page.get_attribute("#table-app", "data-version"))


def wait_version(page: Any, wanted: int) -> None:
    page.wait_for_selector(f'#table-app[data-version="{wanted}"][data-pending="false"]', timeout=15000)


def hand(page: Any) -> list[str]:
    return sorted(page.eval_on_selector_all("#hand button.card", "els => els.map(e => e.dataset.card)"))


def click(page: Any, name: str) -> None:
    """Click the button ``name``; one the action bar put in its "More" menu (docs/table.md) is
    clicked after opening the menu, as a player would."""
    from playwright.sync_api import Error as PlaywrightError

    button = page.get_by_role("button", name=name, exact=True)
    try:
        button.click(timeout=5000)
    except PlaywrightError:
        more = page.locator('#controls [data-key="more"][aria-expanded="false"]')
        if not more.count():
            raise
        more.click()
        button.click()


def open_drawer(page: Any, name: str) -> None:
    """Open the table's drawer ``name`` ("log", "scores", "chat", "settings", "help") over the table."""
    button = page.locator(f'[data-key="drawer:{name}"]')
    if button.get_attribute("aria-expanded") != "true":
        button.click()
    page.wait_for_selector(f"#drawer-{name}:not([hidden])")


def close_drawer(page: Any) -> None:
    """Close the drawer open over the table."""
    page.keyboard.press("Escape")
    page.wait_for_function("![...document.querySelectorAll('.tbl-drawer')].some((d) => !d.hidden)")


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def rig(match: Match, state: Any) -> Match:
    """Replace the match's game state by ``state`` (an ``engine.position``), keeping its version.

    The rack tests build exact hands this way: the position is an ordinary state the services and
    the engine then play on, as if the deal had produced it.
    """
    match.set_game_state(state)
    match.save(update_fields=["state"])
    return Match.objects.get(pk=match.pk)


def rack_answer(
    cookie_value: str, match_id: int, groups: list[list[str]], move: dict[str, Any] | None = None
) -> Any:
    """The rack endpoint's answer for the user of ``cookie_value`` (tests/site and browser tests)."""
    import json

    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = cookie_value
    query = json.dumps({"groups": groups, **({"move": move} if move else {})})
    return client.get(f"/matches/{match_id}/rack/", {"q": query})


def _boxes_on_screen(page: Any, source: Any, target: Any) -> tuple[dict[str, float], dict[str, float]]:
    """The boxes of ``source`` and ``target`` (locators), both on screen at once and away from the
    edges where a drag scrolls the page (static/js/drag.js, 40 px)."""
    # The page rebuilds its regions on every frame and answer: wait until the rack's answer is in
    # (nothing moves after that), and read a box again if it came from an element just replaced.
    from playwright.sync_api import Error as PlaywrightError

    rack_settled(page)
    start = end = None
    height = page.viewport_size["height"] if page.viewport_size else 720
    margin = 48
    for attempt in range(20):
        try:
            if attempt == 0:
                target.scroll_into_view_if_needed(timeout=2000)
                source.scroll_into_view_if_needed(timeout=2000)
            start = source.bounding_box(timeout=2000)
            end = target.bounding_box(timeout=2000)
        except PlaywrightError:  # "not attached to the DOM": replaced by a render meanwhile
            start = end = None
        if not (start and end):
            page.wait_for_timeout(50)
            continue
        top = min(start["y"], end["y"])
        bottom = max(start["y"] + start["height"], end["y"] + end["height"])
        if top >= margin and bottom <= height - margin:
            break
        assert bottom - top <= height - 2 * margin, "the card and the drop target do not fit on one screen"
        page.evaluate(f"window.scrollBy(0, {top - (height - (bottom - top)) / 2})")
        start = end = None
    assert start, "the card to drag is not on screen"
    assert end, "the drop target is not on screen"
    return start, end


def drag(page: Any, source: Any, target: Any) -> None:
    """Drag ``source`` onto ``target`` (locators) with the mouse, in small steps (Pointer Events)."""
    start, end = _boxes_on_screen(page, source, target)
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + start["width"] / 2 + 8, start["y"] + start["height"] / 2 + 8, steps=2)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=6)
    page.mouse.up()


def touch_drag(page: Any, source: Any, target: Any) -> None:
    """Drag ``source`` onto ``target`` with a finger (touch events through the DevTools protocol;
    the page sees pointer events of type "touch"). The context needs ``has_touch=True``."""
    start, end = _boxes_on_screen(page, source, target)
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
        for step in range(1, 9):
            x, y = x0 + (x1 - x0) * step / 8, y0 + (y1 - y0) * step / 8
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        # The finger rests on the target before it lifts, as a player's does: lifted while still
        # moving, Chromium starts a fling, and the next tap only stops the fling (no click).
        page.wait_for_timeout(150)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x1, "y": y1}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


def rack_settled(page: Any) -> None:
    """Wait until the server has answered about the rack as it is now (``data-rack="checked"``)."""
    if page.locator("#hand.rack").count():
        page.wait_for_selector('#table-app:is([data-rack="checked"], [data-rack="off"])', timeout=10000)


def rack_slots(page: Any) -> list[str | None]:
    """The rack as the page holds it: a card id or None per slot."""
    return list(page.evaluate("window.remiTable.model.rack.slots"))


def free_run(slots: list[str | None], length: int) -> int:
    """The first slot index where ``length`` empty slots follow an empty slot (a place for a new block)."""
    padded = [*slots, *([None] * (length + 2))]
    for start in range(1, len(padded)):
        if all(padded[i] is None for i in range(start - 1, start + length + 1)):
            return start
    raise AssertionError("no room on the rack")
