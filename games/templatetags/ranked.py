"""Ratings on the profile page: ``{% load ranked %}{% player_ratings player %}``.

Each category the player is rated in gets its rating (shown rating ± uncertainty, a provisional
mark), matches played and win rate, and a rating history chart drawn here as an inline SVG
(server-side, no JavaScript): the shown rating after each rated match, with labelled axes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from django import template
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.ranked import ratings
from games.ranked.models import RatingChange

register = template.Library()

#: The chart's drawing box (SVG user units; the SVG scales to the page's width).
WIDTH, HEIGHT = 560, 260
LEFT, RIGHT, TOP, BOTTOM = 72, 20, 20, 56


@register.inclusion_tag("games/leaderboard_profile.html")
def player_ratings(player: Any) -> dict[str, Any]:
    entries = ratings.player_ratings(user_id=player.pk)
    for entry in entries:
        entry["chart"] = rating_chart(entry["history"], title=entry["title"])
    return {
        "player": player,
        "entries": entries,
        "provisional_below": ratings.display_uncertainty(ratings.provisional_sigma()),
    }


def nice_step(span: float, target_ticks: int = 5) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``target_ticks`` ticks."""
    raw = max(span, 1) / target_ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(1, int(factor * power))
    return int(10 * power)  # pragma: no cover


def rating_chart(history: Sequence[RatingChange], *, title: str) -> dict[str, Any]:
    """Geometry of a line chart of the shown rating: the start, then after each rated match."""
    if not history:
        return {}
    first = history[0]
    values = [ratings.display(first.mu_before, first.sigma_before)]
    values += [ratings.display(change.mu_after, change.sigma_after) for change in history]
    low, high = min(values), max(values)
    step = nice_step(high - low)
    y_min = math.floor(low / step) * step
    y_max = math.ceil(high / step) * step
    if y_max == y_min:
        y_min, y_max = y_min - step, y_max + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    count = len(values) - 1  # matches

    def x(index: int) -> float:
        return round(LEFT + (plot_w * index / count if count else plot_w / 2), 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (y_max - value) / (y_max - y_min), 1)

    points = [
        {
            "x": x(0),
            "y": y(values[0]),
            "label": _("Start: %(rating)s") % {"rating": values[0]},
        }
    ]
    for index, (change, value) in enumerate(zip(history, values[1:], strict=True), start=1):
        result = _("won") if change.won else _("place %(rank)s") % {"rank": change.rank}
        finished = change.match.finished
        when = dateformat.format(timezone.localtime(finished), "j N Y") if finished else ""
        delta = value - values[index - 1]
        points.append(
            {
                "x": x(index),
                "y": y(value),
                "label": (
                    _("Match %(number)s") % {"number": index}
                    + (f" ({when})" if when else "")
                    + f": {value} ± {ratings.display_uncertainty(change.sigma_after)} ({delta:+d}), {result}"
                    + (", " + _("stand-in played most turns") if change.standin else "")
                ),
                "won": change.won,
            }
        )
    x_every = max(1, math.ceil(count / 10))
    x_ticks = [{"x": x(index), "label": str(index)} for index in range(0, count + 1, x_every)]
    y_ticks = [{"y": y(value), "label": str(value)} for value in range(y_min, y_max + 1, step)]
    overall = values[-1] - values[0]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "mid_x": LEFT + plot_w / 2,
        "mid_y": TOP + plot_h / 2,
        "path": " ".join(f"{p['x']},{p['y']}" for p in points),
        "points": points,
        "x_ticks": x_ticks,
        "y_ticks": y_ticks,
        "summary": ngettext(
            "%(title)s rating over %(count)s rated match: from %(first)s to %(last)s (%(change)s), "
            "lowest %(low)s, highest %(high)s.",
            "%(title)s rating over %(count)s rated matches: from %(first)s to %(last)s (%(change)s), "
            "lowest %(low)s, highest %(high)s.",
            count,
        )
        % {
            "title": title,
            "count": count,
            "first": values[0],
            "last": values[-1],
            "change": f"{overall:+d}",
            "low": low,
            "high": high,
        },
    }
