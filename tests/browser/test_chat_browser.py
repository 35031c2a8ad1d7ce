"""The chat drawer and "Play again" in the match page, with real accounts in separate browser
contexts (issue 14): lines reach the other player as text, a reload keeps them, a mute works,
and two players agreeing on a rematch are both taken to the room's next match."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from games.play.models import Match
from tests.browser.tablekit import open_page, play_bots_until, seat_of, spectator, start_match, users

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}

#: Typed into the chat: a page that put it in as markup would run it.
HOSTILE = '<img src=x onerror="window.__pwned = 1"><b>bold?</b>'


def console_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def open_chat(page: Any) -> None:
    page.click('button[aria-controls="drawer-chat"]')  # the table's Chat toggle
    page.wait_for_selector("#chat-input", state="visible")


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def lines(page: Any) -> list[str]:
    return page.eval_on_selector_all("#chat-lines .chat-text", "els => els.map(e => e.textContent)")


def wait_line(page: Any, text: str) -> None:
    page.wait_for_function(
        "text => [...document.querySelectorAll('#chat-lines .chat-text')].some(e => e.textContent === text)",
        arg=text,
        timeout=10000,
    )


@pytest.fixture
def pair(transactional_db: None) -> tuple[int, Any, Any, Any]:
    players = users(2)
    match = start_match("remik51", {}, players, b"chat in the browser")
    return match.pk, seat_of(players, 0), seat_of(players, 1), spectator()


def test_two_accounts_chat_as_text_keep_it_over_a_reload_and_mute(
    pair: tuple[int, Any, Any, Any], server_url: str, browser: Any, artifacts: Path
) -> None:
    match_id, ala, bartek, watcher = pair
    pages = [open_page(browser, server_url, match_id, who) for who in (ala, bartek, watcher)]
    errors = [console_errors(page) for page in pages]
    first, second, third = pages
    for page in (first, second):
        open_chat(page)
        page.wait_for_selector("#chat-empty:not([hidden])")

    say(first, HOSTILE)
    # The spectator has not opened the chat: the line is counted on the button that opens it.
    third.wait_for_selector('#chat-panel[data-unread="1"]', state="attached")
    assert (
        third.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--chat-unread')")
        == '"1"'
    )
    third.screenshot(path=str(artifacts / "chat-unread-1366.png"))
    open_chat(third)
    third.wait_for_function("() => !document.documentElement.classList.contains('chat-unread')")
    for page in pages:
        wait_line(page, HOSTILE)
        # Shown as the text typed: no element was made of it, nothing ran.
        assert page.locator("#chat-lines img, #chat-lines b").count() == 0
        assert page.evaluate("window.__pwned === undefined")
    assert first.input_value("#chat-input") == ""
    say(third, "good luck both")
    wait_line(first, "good luck both")
    assert "(watching)" in first.inner_text("#chat-lines")
    second.screenshot(path=str(artifacts / "chat-drawer-1366.png"))

    # A reload (a new socket) brings the history back, in order.
    second.reload()
    second.wait_for_selector('#table-app[data-status="live"]')
    open_chat(second)
    wait_line(second, "good luck both")
    assert lines(second) == [HOSTILE, "good luck both"]

    # Bartek mutes Ala: her next line reaches the spectator, not him; he can unmute her.
    second.locator('#chat-lines li[data-author="ala"] .chat-mute').first.click()
    second.wait_for_selector("#chat-muted button.chat-unmute")
    assert lines(second) == ["good luck both"]
    say(first, "are you there?")
    wait_line(third, "are you there?")
    say(third, "after")
    wait_line(second, "after")
    assert "are you there?" not in lines(second)

    # Too long is refused next to the box, in the player's words (the input stops at 300).
    assert first.get_attribute("#chat-input", "maxlength") == "300"
    for page, found in zip(pages, errors, strict=True):
        assert found == [], f"{page.url}: {found}"


@pytest.fixture
def finished_pair(transactional_db: None) -> tuple[int, int, Any, Any]:
    players = users(2)
    match = start_match("remi", {"rounds": 1, "max_players": 2}, players, b"rematch in the browser")
    match = play_bots_until(match, players, lambda state: state.is_over)
    return match.pk, match.room_id, seat_of(players, 0), seat_of(players, 1)


def test_play_again_takes_both_players_to_the_next_match(
    finished_pair: tuple[int, int, Any, Any], server_url: str, browser: Any, artifacts: Path
) -> None:
    match_id, room_id, ala, bartek = finished_pair
    first, second = (open_page(browser, server_url, match_id, who) for who in (ala, bartek))
    errors = [console_errors(page) for page in (first, second)]
    for page in (first, second):
        page.wait_for_selector("#rematch-yes", state="visible")
        assert "Play again?" in page.inner_text("#rematch-slot")

    first.click("#rematch-yes")
    second.wait_for_function(
        "() => (document.getElementById('rematch-status') || {}).textContent?.includes('Waiting for: bartek')"
    )
    assert "Ready: ala" in second.inner_text("#rematch-status")
    assert first.is_disabled("#rematch-yes")
    first.screenshot(path=str(artifacts / "rematch-waiting-1366.png"))

    second.click("#rematch-yes")
    for page in (first, second):
        page.wait_for_url(f"{server_url}/matches/*/", timeout=15000)
        page.wait_for_function(f"() => location.pathname !== '/matches/{match_id}/'", timeout=15000)
        page.wait_for_selector('#table-app[data-status="live"]', timeout=15000)
    next_id = int(first.url.rstrip("/").rsplit("/", 1)[1])
    assert second.url == first.url
    assert next_id != match_id
    first.screenshot(path=str(artifacts / "rematch-next-match-1366.png"))
    for found in errors:
        assert found == []
    numbers = Match.objects.filter(room_id=room_id).order_by("number").values_list("number", flat=True)
    assert list(numbers) == [1, 2]


@pytest.mark.parametrize(
    ("language", "refusal"),
    [
        ("pl", "Za dużo znaków diakrytycznych przy jednej literze."),
        ("ro", "Prea multe semne diacritice pe o singură literă."),
    ],
)
def test_a_letter_under_200_accents_is_refused_in_the_players_language(
    pair: tuple[int, Any, Any, Any],
    server_url: str,
    browser: Any,
    artifacts: Path,
    language: str,
    refusal: str,
) -> None:
    """Issue 32 item 12 (docs/protocol.md, "Chat"): the line is refused with a sentence in the
    player's language and reaches nobody; letters with their own accents pass, composed."""
    from django.contrib.auth import get_user_model

    match_id, ala, bartek, _watcher = pair
    get_user_model().objects.filter(username=ala.name).update(language=language)
    first, second = (open_page(browser, server_url, match_id, who, viewport=PHONE) for who in (ala, bartek))
    for page in (first, second):
        open_chat(page)
    say(first, "a" + "\u0301" * 200)
    first.wait_for_function("text => document.getElementById('chat-note').textContent === text", arg=refusal)
    first.screenshot(path=str(artifacts / f"chat-too-many-marks-{language}-390.png"))
    # Nothing is lost: the refused line is back in the box, to be corrected rather than typed again.
    assert first.input_value("#chat-input") == "a" + "\u0301" * 200
    typed = "zaz\u0307o\u0301łc\u0301 s\u0326i t\u0326" if language == "pl" else "s\u0326i t\u0326 a\u0306"
    composed = "zażółć și ț" if language == "pl" else "și ț ă"
    say(first, typed)
    wait_line(second, composed)
    assert lines(second) == [composed]  # the refused line never reached the other player


@pytest.mark.parametrize("language", ["pl", "ro", "en"])
def test_chat_times_follow_the_pages_language_not_the_browsers(
    transactional_db: None, server_url: str, browser: Any, artifacts: Path, language: str
) -> None:
    """A browser set to American English and a player who reads Polish or Romanian: the time of a
    chat line is written the page's way, 24-hour "20:24" (issue 33: "08:24 PM" on a Polish page);
    in English the 12-hour "08:24 PM" stays. The clock is the browser's (UTC here)."""
    players = users(2)
    players[0].language = language
    players[0].save(update_fields=["language"])
    match = start_match("remik51", {}, players, b"chat times in the browser")
    page = open_page(
        browser, server_url, match.pk, seat_of(players, 0), locale="en-US", timezone_id="UTC", viewport=PHONE
    )
    assert page.get_attribute("html", "lang") == language
    open_chat(page)
    say(page, "czas / ora")
    wait_line(page, "czas / ora")
    shown = page.locator("#chat-lines .chat-time").first
    sent = datetime.fromisoformat(shown.get_attribute("datetime").replace("Z", "+00:00"))
    wanted = sent.strftime("%I:%M %p") if language == "en" else sent.strftime("%H:%M")
    assert " ".join(shown.text_content().split()) == wanted
    page.screenshot(path=str(artifacts / f"chat-time-{language}-390.png"))
