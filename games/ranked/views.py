"""Ranked pages: the leaderboard of each rating category. Reads only (``games.ranked.ratings``).

The profile page's ratings and chart are the ``player_ratings`` tag (games/templatetags/ranked.py).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.ranked import ratings

DEFAULT_CATEGORY = "remik51"


def leaderboard(request: HttpRequest) -> HttpResponse:
    """``/leaderboard/?variant=<category>``: the top players with enough rated matches."""
    keys = [key for key, _ in ratings.CATEGORIES]
    category = request.GET.get("variant", "")
    if category not in keys:
        category = DEFAULT_CATEGORY if DEFAULT_CATEGORY in keys else keys[0]
    rows = []
    for position, rating in enumerate(ratings.leaderboard(category=category), start=1):
        rows.append(
            {
                "position": position,
                "user": rating.user,
                "display": ratings.display(rating.mu, rating.sigma),
                "uncertainty": ratings.display_uncertainty(rating.sigma),
                "provisional": ratings.is_provisional(rating.sigma),
                "matches": rating.matches,
                "wins": rating.wins,
                "win_rate": round(100 * rating.wins / rating.matches) if rating.matches else 0,
                "you": request.user.is_authenticated and rating.user_id == request.user.pk,
            }
        )
    context = {
        "categories": [(key, ratings.category_title(key)) for key, _ in ratings.CATEGORIES],
        "category": category,
        "title": ratings.category_title(category),
        "rows": rows,
        "min_matches": ratings.leaderboard_min_matches(),
        "provisional_below": ratings.display_uncertainty(ratings.provisional_sigma()),
    }
    return render(request, "games/leaderboard.html", context)
