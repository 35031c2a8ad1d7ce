"""A match's page, ``/matches/<id>/``: the table as the viewer may see it, its rounds, and, once
rated, each seat's rating change (docs/architecture.md, "The house by domain": a page that shows
play and ranked together sits above both)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games import engine
from games.learn.selectors import match_history_part
from games.play import selectors
from games.play.views.common import is_member
from games.shared.card_labels import card_label
from games.shared.errors import MatchNotFoundError


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match = selectors.match_get(match_id=match_id)
        frame = selectors.match_frame_for(match_id=match_id, user=request.user, with_log=True)
    except MatchNotFoundError as error:
        raise Http404(str(error)) from error
    if match.room.join_code and not is_member(match.room, request.user):
        raise Http404("no such match")
    view = frame["view"]
    rounds = list(selectors.match_rounds(match_id=match_id))
    context = {
        "match": match,
        "room": match.room,
        "frame": frame,
        "view": view,
        "title": _(engine.variant(view["variant"]).title),
        "hand": [card_label(card) for card in view["hand"]] if view["hand"] is not None else None,
        "players": [
            {
                "index": index,
                "name": name,
                "cards": view["hand_sizes"][index],
                "opened": view["opened"][index],
                "to_move": index == view["turn"],
                "you": index == view["seat"],
                "total": view["scores"]["totals"][index],
            }
            for index, name in enumerate(view["names"])
        ],
        "melds": [
            {
                **meld,
                "faces": [card_label(card) for card in meld["cards"]],
                "owner_name": view["names"][meld["owner"]],
            }
            for meld in view["melds"]
        ],
        "discard": [card_label(card) for card in view["discard"]],
        "atu": card_label(view["atu"]) if view["atu"] else None,
        "rounds": [_round_entry(r) for r in rounds],
    }
    context.update(match_history_part(match))  # rating changes, export links
    return render(request, "games/match.html", context)


def _round_entry(round_: Any) -> dict[str, Any]:
    lines = sorted(round_.score_lines.all(), key=lambda line: line.seat)
    return {"round": round_, "lines": lines, "chips": any(line.chips is not None for line in lines)}
