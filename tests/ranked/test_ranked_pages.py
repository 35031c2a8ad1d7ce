"""The leaderboard page and the ratings (with their chart) on a profile page."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from games.ranked import ratings
from games.ranked.models import Rating, RatingChange
from games.templatetags.ranked import nice_step
from tests.ranked.ranked_helpers import play_ranked

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"


def rate(user: Any, category: str, mu: float, sigma: float, matches: int, wins: int = 0) -> Rating:
    return Rating.objects.create(
        user=user,
        category=category,
        mu=mu,
        sigma=sigma,
        ordinal=ratings.ordinal(mu, sigma),
        matches=matches,
        wins=wins,
    )


def board(client: Client, variant: str | None = None) -> str:
    response = client.get("/leaderboard/", {"variant": variant} if variant else {})
    assert response.status_code == 200
    return response.content.decode()


def names_in_order(page: str) -> list[str]:
    return re.findall(r'id="leaderboard-([^"]+)"', page)


def test_the_leaderboard_orders_by_rating_and_needs_the_minimum_matches(
    make_user: Any, settings: Settings
) -> None:
    settings.LEADERBOARD_MIN_MATCHES = 3
    settings.RATING_PROVISIONAL_SIGMA = 5.5
    ala, bob, cyd, dan, eve, fay = (make_user(n) for n in ("ala", "bob", "cyd", "dan", "eve", "fay"))
    rate(ala, "remik51", 30.0, 5.0, matches=6, wins=3)  # 15.0
    rate(bob, "remik51", 35.0, 6.0, matches=3, wins=3)  # 17.0
    rate(cyd, "remik51", 40.0, 4.0, matches=2, wins=2)  # 28.0 but too few matches
    rate(dan, "remik51", 45.0, 4.0, matches=9, wins=9)  # 33.0 but blocked
    dan.is_active = False
    dan.save()
    rate(eve, "remik51", 27.0, 4.0, matches=8, wins=1)  # 15.0: ties ala, more matches first
    rate(fay, "gin", 50.0, 2.0, matches=10, wins=10)  # another variant

    page = board(Client(), "remik51")

    assert names_in_order(page) == ["bob", "eve", "ala"]
    assert "at least 3 rated matches" in page
    assert f"<strong>{ratings.display(35.0, 6.0)}</strong>" in page
    assert "± 240" in page  # bob's sigma 6 on the display scale
    row = {name: page.split(f'id="leaderboard-{name}"')[1].split("</tr>")[0] for name in ("bob", "ala")}
    assert "provisional" in row["bob"]  # sigma 6 is above 5.5
    assert "provisional" not in row["ala"]
    assert names_in_order(board(Client(), "gin")) == ["fay"]
    assert 'href="/u/bob/"' in page
    assert "100%" in page  # bob's win rate


def test_the_leaderboard_offers_every_variant_and_falls_back_to_remik51(make_user: Any) -> None:
    page = board(Client(), "no-such-variant")
    assert '<option value="remik51" selected>' in page
    for key, label in ratings.CATEGORIES:
        assert f'<option value="{key}"' in page
        assert label in page
    assert "Remi (opening classic)" in page
    assert "Nobody has played" in page
    assert '<option value="remi-51" selected>' in board(Client(), "remi-51")


def test_every_page_links_to_the_leaderboard(make_user: Any) -> None:
    assert 'href="/leaderboard/"' in Client().get("/").content.decode()


def test_players_of_real_ranked_matches_reach_the_leaderboard(people: list[Any]) -> None:
    ala, bartek, celina, _ = people
    for _ in range(2):
        play_ranked([ala, bartek])
    play_ranked([celina, ala])
    page = board(Client(), "remi-45")
    shown = names_in_order(page)
    assert sorted(shown) == ["ala", "bartek"]  # celina has one match, fewer than the 2 needed
    by_rating = sorted(Rating.objects.filter(category="remi-45", matches__gte=2), key=lambda r: -r.ordinal)
    assert shown == [r.user.username for r in by_rating]
    assert "provisional" in page


def svg_of(page: str) -> ET.Element:
    match = re.search(r"<svg.*?</svg>", page, re.S)
    assert match, "no chart on the page"
    return ET.fromstring(match.group(0))


def test_the_profile_shows_each_rating_with_a_chart_win_rate_and_matches(people: list[Any]) -> None:
    ala, bartek, _, _ = people
    for _ in range(3):
        play_ranked([ala, bartek])
    rating = Rating.objects.get(user=ala, category="remi-45")
    changes = list(RatingChange.objects.filter(user=ala).order_by("pk"))

    page = Client().get("/u/ala/").content.decode()

    assert "Remi (opening 45)" in page
    assert f'<strong class="rating-value">{ratings.display(rating.mu, rating.sigma)}</strong>' in page
    assert f"± {ratings.display_uncertainty(rating.sigma)}" in page
    assert "provisional" in page  # three matches are not enough
    assert "<dt>Matches played</dt><dd>3</dd>" in page
    assert f"<dt>Win rate</dt><dd>{round(100 * rating.wins / 3)}%" in page

    svg = svg_of(page)
    assert svg.get("role") == "img"
    texts = ["".join(t.itertext()) for t in svg.iter(f"{SVG}text")]
    assert "Rated matches played" in texts
    assert "Rating" in texts
    assert {"0", "1", "2", "3"} <= set(texts)  # the x axis: the start, then each match
    points = svg.find(f"{SVG}polyline").get("points").split()
    assert len(points) == 4
    dots = list(svg.iter(f"{SVG}circle"))
    assert len(dots) == 4
    shown = [ratings.display(changes[0].mu_before, changes[0].sigma_before)] + [
        ratings.display(c.mu_after, c.sigma_after) for c in changes
    ]
    labels = ["".join(dot.find(f"{SVG}title").itertext()) for dot in dots]
    assert labels[0] == "Start: 1000"
    for label, value in zip(labels[1:], shown[1:], strict=True):
        assert f": {value} ± " in label
    # Higher ratings are drawn higher (smaller y), and the y labels cover every value.
    ys = [float(point.split(",")[1]) for point in points]
    for i in range(len(ys) - 1):
        assert (ys[i] - ys[i + 1]) * (shown[i + 1] - shown[i]) >= 0
    y_labels = [int(t) for t in texts if t.lstrip("-").isdigit() and int(t) >= 100]
    assert min(y_labels) <= min(shown)
    assert max(y_labels) >= max(shown)
    assert svg.find(f"{SVG}desc").text.startswith(
        "Remi (opening 45) rating over 3 rated matches: from 1000 to"
    )


#: The SVG attributes that hold numbers (coordinates, sizes); a browser reads them with a dot.
NUMERIC = {"x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "dy", "stroke-width"}


@pytest.mark.parametrize("language", ["pl", "ro", "en"])
def test_the_chart_numbers_have_no_decimal_comma_in_any_language(people: list[Any], language: str) -> None:
    """Issue 14, item 7: in Polish and Romanian the chart's coordinates read ``204,0``."""
    ala, bartek, _, _ = people
    play_ranked([ala, bartek])
    client = Client()
    client.cookies["django_language"] = language

    page = client.get("/u/ala/").content.decode()

    assert f'<html lang="{language}"' in page
    svg = svg_of(page)
    numbers = [
        value
        for element in svg.iter()
        for name, value in element.attrib.items()
        if name in NUMERIC or (name == "viewBox")
    ]
    assert len(numbers) > 20
    for value in numbers:
        for part in value.split():
            float(part)  # raises on "204,0"
    for point in svg.find(f"{SVG}polyline").get("points").split():
        x, y = point.split(",")
        float(x), float(y)


def test_a_profile_without_rated_matches_says_so(make_user: Any) -> None:
    make_user("newbie")
    page = Client().get("/u/newbie/").content.decode()
    assert "No rated matches yet" in page
    assert "<svg" not in page


@pytest.mark.parametrize(("span", "step"), [(0, 1), (7, 2), (40, 10), (136, 50), (900, 200), (2400, 500)])
def test_chart_ticks_are_round_numbers(span: int, step: int) -> None:
    assert nice_step(span) == step
