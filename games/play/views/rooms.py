"""HTML pages of the rooms: the lobby, create a room, a room and its seats, start a match.

Writes go through ``games.play.services``; an application error (``games.shared.errors.GameError``) becomes
a message on the page the user is sent back to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import engine
from games.play import selectors, services
from games.play.forms import BotForm, RoomForm, SeatForm, variant_or_default
from games.play.models import Room, Seat
from games.play.views.common import error_text, is_member, room_or_404, run_service
from games.shared import i18n_rules
from games.shared.errors import BadOptionsError

if TYPE_CHECKING:
    from accounts.models import User


def home(request: HttpRequest) -> HttpResponse:
    """The lobby: open public rooms, and the rooms the user sits in."""
    rooms = [_room_card(room) for room in selectors.room_list_lobby()]
    mine = [_room_card(room) for room in selectors.room_list_seated(user=request.user)]
    return render(request, "games/home.html", {"rooms": rooms, "my_rooms": mine})


@login_required
def room_new(request: HttpRequest) -> HttpResponse:
    variant = variant_or_default(request.POST.get("variant") or request.GET.get("variant"))
    form = RoomForm(request.POST or None, variant=variant)
    if request.method == "POST" and form.is_valid():
        try:
            room = services.room_open_seated(owner=cast("User", request.user), **form.room_kwargs())
        except BadOptionsError as error:
            form.add_error(None, error_text(error))
        else:
            messages.success(request, _("Room “%(name)s” is open; you sit at seat 1.") % {"name": room.name})
            return redirect("room", room_id=room.pk)
    context = {
        "form": form,
        "variants": [(name, _(engine.variant(name).title)) for name in engine.variant_names()],
        "rules_text": f"{_(form.rules.title)}: {_(form.rules.summary)}",
    }
    return render(request, "games/room_new.html", context)


def room_detail(request: HttpRequest, room_id: int) -> HttpResponse:
    room = room_or_404(room_id=room_id)
    if room.join_code and not is_member(room, request.user):
        raise Http404("no such room")  # private: reached through its join code
    return _room_page(request, room, code="")


def room_join(request: HttpRequest, code: str) -> HttpResponse:
    room = room_or_404(join_code=code)
    if room.daily_day is not None and not is_member(room, request.user):
        raise Http404("no such room")  # a deal of the day's try is its player's alone
    return _room_page(request, room, code=room.join_code or "")


@login_required
@require_POST
def seat_take(request: HttpRequest, room_id: int) -> HttpResponse:
    room = room_or_404(room_id=room_id)
    form = SeatForm(request.POST)
    code = form.data.get("code", "").strip().upper()
    if room.join_code and code != room.join_code and not is_member(room, request.user):
        raise Http404("no such room")
    if form.is_valid():
        run_service(
            request, services.seat_take, room=room.pk, user=request.user, index=form.cleaned_data["index"]
        )
    return _back_to(room, code)


@login_required
@require_POST
def seat_add_bot(request: HttpRequest, room_id: int) -> HttpResponse:
    room = room_or_404(room_id=room_id)
    form = BotForm(request.POST)
    if form.is_valid():
        run_service(request, services.seat_add_bot, room=room.pk, user=request.user, **form.cleaned_data)
    else:
        messages.error(request, _("Choose a seat and a bot level."))
    return _back_to(room, request.POST.get("code", ""))


@login_required
@require_POST
def match_start(request: HttpRequest, room_id: int) -> HttpResponse:
    room = room_or_404(room_id=room_id)
    match = run_service(request, services.match_start_from_room, room=room.pk, user=request.user)
    if match is None:
        return _back_to(room, request.POST.get("code", ""))
    return redirect("match", match_id=match.pk)


@login_required
@require_POST
def seat_leave(request: HttpRequest, room_id: int) -> HttpResponse:
    room = room_or_404(room_id=room_id)
    code = request.POST.get("code", "")
    if room.join_code and not is_member(room, request.user):
        raise Http404("no such room")
    if run_service(request, services.seat_leave, room=room.pk, user=request.user) is not None:
        messages.success(request, _("You left your seat."))
    return _back_to(room, code)


# --- helpers -----------------------------------------------------------------------------------


def _back_to(room: Room, code: str) -> HttpResponse:
    if room.join_code and code:
        return redirect("room_join", code=room.join_code)
    return redirect("room", room_id=room.pk)


def _room_page(request: HttpRequest, room: Room, *, code: str) -> HttpResponse:
    card = _room_card(room)
    user = request.user
    seated = user.is_authenticated and any(seat["user_id"] == user.pk for seat in card["seats"])
    context = {
        "room": room,
        "card": card,
        "code": code,
        "is_owner": user.is_authenticated and room.owner_id == user.pk,
        "seated": seated,
        "full": all(not seat["free"] for seat in card["seats"]),
        "latest_match_id": selectors.room_latest_match_id(room_id=room.pk),
        "bot_levels": Seat.BotLevel.choices,
        # A deal of the day's room (docs/learn.md): one try, one player; nothing to share or start.
        "daily": room.daily_day is not None,
        "join_url": request.build_absolute_uri(reverse("room_join", args=[room.join_code]))
        if room.join_code and room.daily_day is None
        else "",
    }
    return render(request, "games/room.html", context)


def _room_card(room: Room) -> dict[str, Any]:
    """What the lobby and the room page show of a room."""
    rules = room.rules()
    seats = [
        {
            "index": seat.index,
            "number": seat.index + 1,
            "user_id": seat.user_id,
            "name": seat.user.get_username() if seat.user is not None else "",
            "bot": seat.is_bot,
            "bot_level": seat.bot_level,
            "free": seat.is_free,
        }
        for seat in sorted(room.seats.all(), key=lambda seat: seat.index)
    ]
    return {
        "room": room,
        "title": _(rules.title),
        "options": _options_summary(rules),
        "table_rules": _table_rules(room, rules),
        "seats": seats,
        "free": sum(1 for seat in seats if seat["free"]),
        "latest_match_id": getattr(room, "latest_match_id", None),
    }


def _table_rules(room: Room, rules: engine.Rules) -> dict[str, Any]:
    """The rules of this table in plain words, shown before anyone sits down.

    The variant's summary and each option's sentence come from the engine (``Rules.summary``,
    ``option_specs()``), each with the value this room chose.
    """
    options = []
    for spec in type(rules).option_specs():
        if spec["name"] == "max_players":
            continue  # the seat count is shown on its own
        value = rules.options.get(spec["name"])
        options.append(
            {
                "name": spec["name"].replace("_", " "),
                "help": i18n_rules.help_text(spec["help"]),
                "value": _option_value(value, spec["name"]),
                "default": _option_value(spec["default"], spec["name"]),
                "changed": value != spec["default"],
            }
        )
    return {
        "summary": _(rules.summary),
        "options": options,
        "seats": room.seat_count,
        "turn_seconds": room.turn_seconds,
        "end": _end_condition(rules),
        "ranked": room.ranked,
    }


def _option_value(value: Any, name: str) -> str:
    if value is None:
        return i18n_rules.empty_value(name)  # what empty means for this option ("the whole row")
    return _("yes") if value is True else _("no") if value is False else i18n_rules.option_value(str(value))


def _end_condition(rules: engine.Rules) -> str:
    """When the match ends and who wins: each rule set says it in its own words."""
    # In the page's language, with the table's numbers; its rule ids as a tag after the sentence.
    sentence, rules_cited = i18n_rules.split_rules(i18n_rules.end_condition(rules))
    if not rules_cited:
        return sentence
    return format_html('{} <small class="rule-ref">{}</small>', sentence, ", ".join(rules_cited))


def _options_summary(rules: engine.Rules) -> str:
    """The room's options in one line, e.g. "opening 45 · short game no · rounds —"."""
    parts = []
    for spec in type(rules).option_specs():
        if spec["name"] == "max_players":
            continue  # shown as the seats
        value = rules.options.get(spec["name"])
        shown = _option_value(value, spec["name"])
        label = _(spec["name"].replace("_", " ").capitalize()).lower()
        parts.append(f"{label} {shown}")
    return " · ".join(parts)
