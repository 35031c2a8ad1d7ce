"""Every main page of the site in English, Polish and Romanian, in Chromium, without one console
error (issue 14): no script error, no failed resource (the favicon was a 404), no SVG attribute
the browser refuses (the rating chart's decimal commas, item 7: "Error: <line> attribute y1:
Expected length, '204,0'"), and the page really in that language."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.play import services
from tests.browser import tablekit
from tests.ranked.ranked_helpers import play_ranked

#: One word of each language's header, to tell the page was rendered in it.
HEADER = {"en": "Leaderboard", "pl": "Klasyfikacja", "ro": "Clasament"}


@pytest.fixture
def site(transactional_db: None) -> dict[str, Any]:
    """A player with ranked history (a chart on their profile), a finished match and its replay,
    an open room and a match being played."""
    ala, bartek, celina = tablekit.users(3)
    finished = None
    for _ in range(3):
        finished = play_ranked([ala, bartek])
    room = services.room_create(
        owner=celina, name="Open table", variant="gin", options={}, seats=2, turn_seconds=60
    )
    services.seat_take(room=room, user=celina, index=0)
    playing = tablekit.start_match("remik51", {}, [ala, celina], secret=b"pages in three languages")
    assert finished is not None
    return {
        "session": tablekit.cookie(ala),
        "paths": [
            "/",
            "/rooms/new/",
            f"/rooms/{room.pk}/",
            f"/rooms/{playing.room_id}/",
            f"/matches/{playing.pk}/",
            f"/matches/{finished.pk}/",
            f"/matches/{finished.pk}/rounds/1/replay/",
            "/matches/",
            "/matches/all/",
            "/u/ala/",
            "/u/bartek/",
            "/leaderboard/",
            "/verify/",
            "/accounts/preferences/",
        ],
        "anonymous": [
            "/",
            "/accounts/login/",
            "/accounts/register/",
            "/accounts/password/reset/",
            "/u/ala/",
            "/leaderboard/",
        ],
    }


def _watch(page: Any) -> tuple[list[list[str]], set[Any]]:
    """Console errors, script errors and failed requests of the page, into ``holder[0]``; and the
    page's requests still under way (``_settle`` waits for none)."""
    holder: list[list[str]] = [[]]
    pending: set[Any] = set()
    page.on("console", lambda m: holder[0].append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda error: holder[0].append(f"script: {error}"))
    page.on("response", lambda r: holder[0].append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None)
    page.on("request", lambda r: pending.add(r))
    page.on("requestfinished", lambda r: pending.discard(r))
    # A request that fails without a response is the browser's own console error; one cut short
    # by leaving the page (net::ERR_ABORTED) is none of the page's.
    page.on("requestfailed", lambda r: pending.discard(r))
    return holder, pending


def _settle(page: Any, pending: set[Any]) -> None:
    """Wait until every request the page has made (its resources, the fetches its scripts started
    while it loaded) has ended. Playwright's ``networkidle`` waits for that *and* half a second of
    quiet after it: 60 pages, half a minute of waiting for nothing (docs/testing.md, "Speed")."""
    deadline = time.monotonic() + 15
    while pending and time.monotonic() < deadline:
        page.wait_for_timeout(20)  # lets Playwright deliver the page's events meanwhile
    assert not pending, [request.url for request in pending]


#: A page visit waits for the network to be idle: three languages' worth of them.
pytestmark = pytest.mark.timeout(420)


def test_the_main_pages_have_no_console_error_in_english_polish_and_romanian(
    site: dict[str, Any], server_url: str, browser: Any, artifacts: Path
) -> None:
    """One site (three ranked matches are its slow part) visited in each language in turn."""
    problems: dict[str, list[str]] = {}
    for language in ("en", "pl", "ro"):
        problems |= _visit_in(language, site, server_url, browser, artifacts)
    assert problems == {}


def _visit_in(
    language: str, site: dict[str, Any], server_url: str, browser: Any, artifacts: Path
) -> dict[str, list[str]]:
    """The problems of each page in ``language``, keyed ``"<language> <path>"``."""
    # The logged-in player's stored language comes first; the anonymous visitor's cookie decides.
    get_user_model().objects.filter(username="ala").update(language=language)
    problems: dict[str, list[str]] = {}
    for session, paths in ((site["session"], site["paths"]), (None, site["anonymous"])):
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        cookies = [{"name": "django_language", "value": language, "url": server_url}]
        if session is not None:
            cookies.append({"name": "sessionid", "value": session, "url": server_url})
        context.add_cookies(cookies)
        page = context.new_page()
        holder, pending = _watch(page)
        for path in paths:
            holder[0] = found = []
            page.goto(f"{server_url}{path}", wait_until="load")
            _settle(page, pending)
            if re.fullmatch(r"/matches/\d+/", path) and session is not None:
                page.wait_for_selector('#table-app[data-status="live"]', timeout=15000)
                _settle(page, pending)  # what the live table asked for (the rack's hints)
            assert page.evaluate("document.documentElement.lang") == language, (language, path)
            # The site's header (on the match page it may sit in a closed drawer: its text counts).
            header = page.eval_on_selector(".site-header", "e => e.textContent")
            assert HEADER[language] in header, (language, path)
            if found:
                problems[f"{language} {'anonymous ' if session is None else ''}{path}"] = found
            if path == "/u/ala/":
                page.screenshot(path=str(artifacts / f"profile-chart-{language}.png"), full_page=True)
        context.close()
    return problems
