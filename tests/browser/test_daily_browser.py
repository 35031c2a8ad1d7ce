"""A deal of the day played start to finish in the browser, on the normal table (docs/learn.md).

A real server (daphne with its embedded worker, so the hard bot plays through Celery as in
production): the player opens /daily/, presses "Play today's deal" for gin, and plays the round
on the table page by clicking (pass the up-card, draw from the stock, discard the first card; "Done"
when the bot knocks) until the match is over. The table then links to the day's board instead of
offering "Play again", no page shows the deal's secret or seed, /daily/ shows the result in place
of the button, and a second try is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import engine
from games.learn.models import DailyTry
from games.play.models import Match
from tests.browser.tablekit import Screenshot, cookie, js_errors, open_path, users, wait_live
from tests.live_server import LiveServer, serving

pytestmark = [pytest.mark.timeout(300), pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def player(transactional_db: None) -> tuple[Any, str]:
    (ala,) = users(1)
    return ala, cookie(ala)


@pytest.fixture
def site(player: tuple[Any, str], tmp_path: Path) -> Iterator[LiveServer]:
    env = {"BOT_MOVE_DELAY": "0", "ROUND_PAUSE_SECONDS": "0", "DJANGO_DEBUG": "1"}
    with serving(tmp_path, env=env) as server:
        yield server


def _turn_line(page: Any) -> str:
    return str(page.inner_text("#turn-line"))


def _play_my_turn(page: Any) -> None:
    """One move of the player's, by clicking: the simplest legal one the page offers."""
    for name in ("Pass", "Draw from stock", "Done"):
        button = page.get_by_role("button", name=name, exact=True)
        if button.count() and button.is_enabled():
            button.click()
            return
    page.locator("#hand button.card").first.click()
    page.get_by_role("button", name="Discard selected", exact=True).click()


def test_a_deal_of_the_day_is_played_on_the_table_to_its_end(
    player: tuple[Any, str], site: LiveServer, browser: Any, screenshot: Screenshot
) -> None:
    user, session = player
    page = open_path(browser, site.url, "/daily/", session, viewport=LAPTOP)
    page.locator("#daily-play-gin").click()
    page.wait_for_url("**/matches/*/")
    wait_live(page)
    attempt = DailyTry.objects.select_related("match").get(user=user, variant="gin")
    match = attempt.match
    hidden = [match.secret_bytes.hex(), *(engine.deal_seed(match.secret_bytes, n).hex() for n in range(3))]

    for _ in range(200):
        page.wait_for_function(
            "() => { const line = document.querySelector('#turn-line');"
            " const app = document.querySelector('#table-app');"
            " return line && app && app.dataset.pending === 'false'"
            " && (line.textContent.startsWith('Your turn') || line.textContent === 'The match is over'); }",
            timeout=30000,
        )
        if _turn_line(page) == "The match is over":
            break
        before = int(page.get_attribute("#table-app", "data-version"))
        _play_my_turn(page)
        page.wait_for_function(
            f"() => Number(document.querySelector('#table-app').dataset.version) > {before}", timeout=30000
        )
        assert page.inner_text("#move-error") == ""
    assert _turn_line(page) == "The match is over"
    screenshot(page, "daily-gin-over-1366x768.png")
    # The finished table is the one deal played: no second deal dealt behind the summary.
    assert page.inner_text(".round-line") == "Deal 1"
    state = Match.objects.get(pk=match.pk).game_state()
    assert (state.round_no, len(state.results)) == (1, 1)

    # One try: no "Play again", a link to the day's board; nothing of the seed anywhere.
    assert page.locator("#rematch-yes").count() == 0
    assert page.locator("#daily-slot a").get_attribute("href") == f"/daily/day/{attempt.day.isoformat()}/"
    assert not [value for value in hidden if value in page.content()]
    assert js_errors(page) == []

    page.goto(f"{site.url}/daily/")
    result = page.inner_text("#daily-gin")
    assert "Your round:" in result
    assert page.locator("#daily-play-gin").count() == 0
    assert not [value for value in hidden if value in page.content()]
    screenshot(page, "daily-page-1366x768.png")

    # A second try, posted anyway, is refused with the reason on the page.
    token = page.locator("#daily-remik51 input[name=csrfmiddlewaretoken]").get_attribute("value")
    response = page.request.post(f"{site.url}/daily/gin/play/", form={"csrfmiddlewaretoken": token})
    assert response.url.endswith("/daily/")
    assert "already played this deal of the day: one try per day" in response.text()
    assert DailyTry.objects.filter(user=user).count() == 1
