"""Deal of the day pages: today's deals, a day's boards, a month's board, and "play" (games/learn/daily.py).

The pages read through ``games.learn.daily``; "play" writes through ``daily_services.daily_start`` and sends
the player to the live table of the try (``/matches/<id>/``). Each page first opens the days that
are over (``daily_services.daily_reveal``), so a seed shown on a page is always that of a day whose
tries are closed.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.signins import address_key, browser_id
from games.learn import daily
from games.learn.services import daily as daily_services
from games.play.views.common import run_service

if TYPE_CHECKING:
    from accounts.models import User


def _titles() -> list[tuple[str, str]]:
    return [(variant, _(daily.rules_for(variant).title)) for variant in daily.DAILY_VARIANTS]


def daily_index(request: HttpRequest) -> HttpResponse:
    """``/daily/``: today's deal of each variant (its commitment), your try, the day's field."""
    daily_services.daily_reveal()
    today = daily.today()
    deals = daily.deals_of(today, request.user)
    context = {
        "today": today,
        "deals": [{"deal": deal, "title": _(deal.title)} for deal in deals],
        "yesterday": date.fromordinal(today.toordinal() - 1),
        "month": f"{today.year:04d}-{today.month:02d}",
    }
    return render(request, "games/daily.html", context)


@login_required
@require_POST
def daily_play(request: HttpRequest, variant: str) -> HttpResponse:
    """``POST /daily/<variant>/play/``: start your one try at today's deal; the table, or back to
    /daily/ with the reason (``daily_already_played``, ``daily_no_such_deal``)."""
    match = run_service(
        request,
        daily_services.daily_start,
        user=cast("User", request.user),
        variant=variant,
        browser=browser_id(request),
        address=address_key(request),
    )
    if match is None:
        return redirect("daily")
    return redirect("match", match_id=match.pk)


def _day_or_404(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise Http404("no such day") from None


def daily_day(request: HttpRequest, day: str) -> HttpResponse:
    """``/daily/<yyyy-mm-dd>/``: that day's board of each variant; once the day is over, its seeds
    and every try's replay and record."""
    daily_services.daily_reveal()
    when = _day_or_404(day)
    if when > daily.today():
        raise Http404("that day has not started")
    over = daily.day_over(when)
    user_id = request.user.pk if request.user.is_authenticated else None
    sections: list[dict[str, Any]] = []
    for variant, title in _titles():
        board = daily.board(when, variant)
        sections.append(
            {
                "variant": variant,
                "title": title,
                # Before the day is over, only to those who have finished their own try of it.
                "open": daily.board_open(when, variant, request.user),
                "board": board,
                "commitment": daily.deal_commitment(when, variant),
                "revealed": daily.revealed(when, variant),
                "you": board.entry_of(user_id),
            }
        )
    context = {
        "day": when,
        "over": over,
        "sections": sections,
        "previous": date.fromordinal(when.toordinal() - 1),
        "next": date.fromordinal(when.toordinal() + 1) if over else None,
        "month": f"{when.year:04d}-{when.month:02d}",
        "user_id": user_id,
    }
    return render(request, "games/daily_day.html", context)


def daily_month(request: HttpRequest, month: str) -> HttpResponse:
    """``/daily/month/<yyyy-mm>/?variant=``: the month's board of a variant (gains added up)."""
    daily_services.daily_reveal()
    try:
        year, number = (int(part) for part in month.split("-"))
        first = date(year, number, 1)
    except ValueError:
        raise Http404("no such month") from None
    variant = request.GET.get("variant", "")
    if variant not in daily.DAILY_VARIANTS:
        variant = next(iter(daily.DAILY_VARIANTS))
    user_id = request.user.pk if request.user.is_authenticated else None
    context = {
        "month": month,
        "first": first,
        "variant": variant,
        "variants": _titles(),
        "title": _(daily.rules_for(variant).title),
        "rows": daily.month_board(first.year, first.month, variant),
        "user_id": user_id,
    }
    return render(request, "games/daily_month.html", context)
