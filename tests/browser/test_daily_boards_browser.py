"""The day's board with its unranked tries, in Polish and Romanian, at laptop and phone sizes
(docs/learn.md, "Ranked and unranked tries", "No preview of the deal").

Real tries played through the services before the browser starts: a ranked one for each viewer,
one the stand-in finished, one of an account made today; a viewer who has not played reads that
the board opens once they have. Screenshots go to tests/browser/artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.learn import daily
from games.learn.services import daily as daily_services
from tests.browser.tablekit import Screenshot, cookie, js_errors, open_path
from tests.live_server import LiveServer, serving
from tests.site.daily_helpers import play_try
from tests.site.test_daily_fair_play import play_then_leave

pytestmark = [pytest.mark.timeout(300), pytest.mark.django_db(transaction=True)]

SIZES = {"1366x768": {"width": 1366, "height": 768}, "390x844": {"width": 390, "height": 844}}


def _account(name: str, language: str, *, old: bool = True) -> Any:
    user = get_user_model().objects.create_user(username=name, password=None, language=language)
    if old:
        user.date_joined = timezone.now() - timedelta(days=30)
        user.save(update_fields=["date_joined"])
    return user


@pytest.fixture
def viewers(transactional_db: None) -> dict[str, str]:
    """Session cookies by language of two viewers who finished their gin try, and of one who has not."""
    ala, dan = _account("ala", "pl"), _account("dan", "ro")
    play_try(daily_services.daily_start(user=ala, variant="gin"), ala)
    play_try(daily_services.daily_start(user=dan, variant="gin"), dan)
    bob = _account("bob", "pl")
    play_then_leave(daily_services.daily_start(user=bob, variant="gin"), bob, own_moves=1)
    new = _account("nowy", "pl", old=False)
    play_try(daily_services.daily_start(user=new, variant="gin"), new)
    board = daily.board(daily.today(), "gin")
    assert sorted(entry.username for entry in board.entries) == ["ala", "dan"]
    assert {entry.username: entry.unranked for entry in board.unranked} == {
        "bob": "standin",
        "nowy": "new_account",
    }
    waiting = _account("ewa", "ro")
    return {"pl": cookie(ala), "ro": cookie(dan), "waiting": cookie(waiting)}


@pytest.fixture
def site(viewers: dict[str, str], tmp_path: Path) -> Iterator[LiveServer]:
    with serving(tmp_path, env={"DJANGO_DEBUG": "1"}, worker=False) as server:
        yield server


WHY = {
    "pl": (
        "Część tej próby rozegrał bot zastępca",
        "Konto założone w dniu rozdania gra je poza klasyfikacją.",
    ),
    "ro": ("O parte din această încercare a jucat-o botul înlocuitor", "Un cont creat în ziua jocului"),
}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", ["pl", "ro"])
def test_the_days_board_lists_unranked_tries_with_their_reason(
    language: str,
    size: str,
    viewers: dict[str, str],
    site: LiveServer,
    browser: Any,
    screenshot: Screenshot,
    artifacts: Path,
) -> None:
    path = f"/daily/day/{daily.today().isoformat()}/"
    page = open_path(browser, site.url, path, viewers[language], viewport=SIZES[size])
    board = page.locator("#board-gin")
    assert board.locator(".daily-unranked #daily-gin-bob .daily-unranked-mark").count() == 1
    text = board.inner_text()
    for reason in WHY[language]:
        assert reason in text
    # Nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert js_errors(page) == []
    screenshot(page, f"daily-board-unranked-{language}-{size}.png")
    board.screenshot(path=str(artifacts / f"daily-board-gin-{language}-{size}.png"))

    closed = open_path(browser, site.url, path, viewers["waiting"], viewport=SIZES[size])
    assert closed.locator("#daily-closed-gin").count() == 1
    assert closed.locator("#daily-closed-remik51").count() == 0  # nobody has finished it: nothing to hide
    assert closed.locator("#daily-gin-ala").count() == 0
    screenshot(closed, f"daily-board-closed-ro-{size}.png")
