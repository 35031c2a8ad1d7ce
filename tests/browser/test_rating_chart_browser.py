"""The rating chart of a profile in a real browser: no two of its texts overlap (issue 33, item 10:
"on a ranked profile the '1000' label overlaps '0'").

Every text of the chart (the y labels, the x labels, the two axis titles, the rotated "Rating"
included) is measured with ``getBoundingClientRect`` and no two boxes may come closer than
``GAP`` CSS pixels; the corner where the lowest y label meets the x label "0" is the case the
issue names. The shapes are the ones a new player has: one or two rated matches with the rating
staying at 1000 (a one-point tick step), one or two real matches, and three matches with a wide
swing (four-digit labels). Pages in Polish and Romanian at 360x740 (the SVG keeps a 420-px minimum
width inside a box that scrolls sideways), 390x844 and 1280x720; a screenshot of each chart goes to
tests/browser/artifacts/ (``rating-chart-<shape>-<size>-<language>.png``). docs/ranked.md
describes the chart.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.ranked.models import RatingChange
from tests.browser.tablekit import Screenshot, open_path, users
from tests.site.test_history_pages import two_people_match

pytestmark = pytest.mark.timeout(300)

SIZES = {
    "360x740": {"width": 360, "height": 740},
    "390x844": {"width": 390, "height": 844},
    "1280x720": {"width": 1280, "height": 720},
}

#: The least room, in CSS pixels, between two texts of the chart: closer than this, "1000" above
#: the corner and "0" below it read as one number.
GAP = 3

TEXT_BOXES = """
(svg) => [...svg.querySelectorAll("text")].map((t) => {
  const r = t.getBoundingClientRect();
  return {text: t.textContent, left: r.left, top: r.top, right: r.right, bottom: r.bottom};
})
"""


def _flat(changes: list[RatingChange]) -> None:
    """Every match left the shown rating where a new player starts (1000)."""
    start = changes[0]
    for change in changes:
        change.mu_before, change.sigma_before = start.mu_before, start.sigma_before
        change.mu_after, change.sigma_after = start.mu_before, start.sigma_before
        change.save()


@pytest.fixture
def profiles(transactional_db: None) -> dict[str, str]:
    """Four players, each with the rating history of one shape; returns shape -> username."""
    ala, bartek, celina, darek = users(4)
    two_people_match(ala, bartek, ranked=True, name="Ranked 1")
    for n in range(2):
        two_people_match(celina, darek, ranked=True, name=f"Ranked {n + 2}")
    _flat([RatingChange.objects.get(user=bartek)])
    _flat(list(RatingChange.objects.filter(user=darek).order_by("id")))
    # celina's second match: a wide swing, then down again (labels of four digits, 500 apart).
    swing = list(RatingChange.objects.filter(user=celina).order_by("id"))
    swing[0].mu_after, swing[0].sigma_after = 60.0, 2.0
    swing[1].mu_before, swing[1].sigma_before = 60.0, 2.0
    swing[1].mu_after, swing[1].sigma_after = 20.0, 6.0
    for change in swing:
        change.save()
    return {"one-match": "ala", "one-match-at-1000": "bartek", "two-wide": "celina", "two-at-1000": "darek"}


def _overlaps(boxes: list[dict[str, Any]]) -> list[str]:
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = max(
                b["left"] - a["right"], a["left"] - b["right"], b["top"] - a["bottom"], a["top"] - b["bottom"]
            )
            if apart < GAP:
                found.append(f"{a['text']!r} and {b['text']!r} {apart:.1f} px apart")
    return found


@pytest.mark.parametrize("language", ["pl", "ro"])
def test_no_two_texts_of_the_rating_chart_overlap(
    server_url: str, profiles: dict[str, str], browser: Any, screenshot: Screenshot, language: str
) -> None:
    problems = []
    for size, viewport in SIZES.items():
        touch = viewport["width"] < 600
        page = open_path(browser, server_url, "", viewport=viewport, has_touch=touch, is_mobile=touch)
        page.context.add_cookies([{"name": "django_language", "value": language, "url": server_url}])
        for shape, username in profiles.items():
            page.goto(f"{server_url}/u/{username}/")
            assert page.get_attribute("html", "lang") == language
            chart = page.locator(".rating-chart svg").first
            chart.scroll_into_view_if_needed()
            boxes = chart.evaluate(TEXT_BOXES)
            assert {"0", "1"} <= {box["text"] for box in boxes}, boxes
            problems += [f"{shape} {size}: {problem}" for problem in _overlaps(boxes)]
            screenshot(page, f"rating-chart-{shape}-{size}-{language}.png", full_page=False)
        page.context.close()
    assert not problems, "; ".join(problems)
