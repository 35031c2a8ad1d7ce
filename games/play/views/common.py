"""What the page views share: a room or 404, membership, a service call whose refusal becomes a
message on the page the user is sent back to."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest
from django.utils.translation import get_language

from games.play import selectors
from games.play.models import Room
from games.shared.errors import GameError, RoomNotFoundError
from games.shared.i18n_errors import translated_message


def room_or_404(**lookup: Any) -> Room:
    try:
        return selectors.room_get(**lookup)
    except RoomNotFoundError as error:
        raise Http404(str(error)) from error


def is_member(room: Room, user: Any) -> bool:
    """Does ``user`` own the room or sit in it?"""
    if not user.is_authenticated:
        return False
    return room.owner_id == user.pk or any(seat.user_id == user.pk for seat in room.seats.all())


def run_service(request: HttpRequest, service: Any, **kwargs: Any) -> Any:
    """Call a service; a GameError becomes an error message and None."""
    try:
        return service(**kwargs)
    except GameError as error:
        messages.error(request, error_text(error))
        return None


def error_text(error: GameError) -> str:
    """An application error in the request's language, by its code (games/shared/i18n_errors.py)."""
    fields = error.to_dict()
    if error.code == "bad_options":
        fields["detail"] = str(error)
    return translated_message(error.code, fields, get_language())
