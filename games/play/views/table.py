"""The table over HTTP: the match page, the rack's read-only question to the engine, the card display.

What a viewer sees of a match comes only from ``selectors.match_frame_for``. The rack's question
(``GET /matches/<id>/rack/?q=<json>``) and its answer are those of ``games.play.rack.check`` (which
practice asks in the browser too), for the logged-in user's own seat only (spectators and
strangers get 403), with the match's ``version`` added; refusals are worded in the page's
language. Nothing is stored.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET, require_POST

from games.engine import IllegalMoveError
from games.play import protocol, rack, selectors
from games.shared.errors import MatchNotFoundError
from games.shared.i18n_errors import translated_message


def _refuse(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status)


@require_GET
def rack_check(request: HttpRequest, match_id: int) -> JsonResponse:
    if not request.user.is_authenticated:
        return _refuse(401, "not_logged_in", "log in to play")
    try:
        match = selectors.match_get(match_id=match_id)
    except MatchNotFoundError:
        return _refuse(404, "no_such_match", "no such match")
    seat = selectors.seat_index_for(room_id=match.room_id, user=request.user)
    if seat is None:
        return _refuse(403, "not_seated", "you have no seat at this table")
    try:
        query = protocol.read_json(request.GET.get("q") or "{}")
        answer = rack.check(match.game_state(), seat, query, said=_said)
    except (ValueError, rack.MalformedQueryError):
        return _refuse(400, "malformed_query", "q is a JSON object with groups of card ids and a move")
    return JsonResponse({"version": match.version, **answer})


def _said(error: IllegalMoveError) -> str:
    """The refusal in the page's language (games/shared/i18n_errors.py; English keeps the engine's words)."""
    return translated_message(error.code, error.to_dict(), None)


@require_POST
def card_display(request: HttpRequest) -> JsonResponse:
    """``POST /table/display/`` ``{"large": bool, "four_colour": bool}`` (either may be left out):
    the logged-in player's card display, kept with their account (CSRF token required)."""
    from accounts.services import user_set_card_display

    if not request.user.is_authenticated:
        return _refuse(401, "not_logged_in", "log in to keep your display settings")
    try:
        data = protocol.read_json(request.body or b"{}")
        if not isinstance(data, dict):
            raise ValueError("not an object")
        large, four = data.get("large"), data.get("four_colour")
        if not all(v is None or isinstance(v, bool) for v in (large, four)):
            raise ValueError("not booleans")
    except ValueError:
        return _refuse(
            400, "malformed_query", "send a JSON object with large and four_colour as true or false"
        )
    user = user_set_card_display(user=request.user, large=large, four_colour=four)
    return JsonResponse({"large": user.cards_large, "four_colour": user.cards_four_colour})
