"""What chat pages and the socket read: a room's lines as frames show them, and who an account mutes."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Subquery

from games.chat.models import ChatMessage, ChatMute
from games.play.models import Match, Seat
from games.play.selectors import audience_for, rematch_frame_for
from games.shared.errors import epoch_ms


def chat_room_for(*, match_id: int, user: AbstractBaseUser | AnonymousUser | None) -> int:
    """The room whose chat ``user`` reads from the match's socket (``MatchNotFoundError`` for a
    stranger to a private room, as ``audience_for``)."""
    audience_for(match_id=match_id, user=user)
    return int(Match.objects.filter(pk=match_id).values_list("room_id", flat=True).get())


def chat_entries(messages: list[ChatMessage], *, room_id: int) -> list[dict[str, Any]]:
    """The chat frames' ``message`` entries: id, author's name, author's seat (or None), text, sent."""
    seats = dict(Seat.objects.filter(room_id=room_id, user__isnull=False).values_list("user_id", "index"))
    names = dict(
        get_user_model()
        .objects.filter(pk__in={m.author_id for m in messages})
        .values_list("pk", get_user_model().USERNAME_FIELD)
    )
    return [
        {
            "id": message.pk,
            "author": names.get(message.author_id, ""),
            "seat": seats.get(message.author_id),
            "text": message.text,
            "sent": epoch_ms(message.created),
        }
        for message in messages
    ]


def chat_muted(*, user_id: int) -> dict[int, str]:
    """The accounts ``user_id`` mutes in chat: id -> name."""
    return dict(
        ChatMute.objects.filter(user_id=user_id).values_list(
            "muted_id", f"muted__{get_user_model().USERNAME_FIELD}"
        )
    )


def chat_history(*, room_id: int, user_id: int, limit: int) -> list[dict[str, Any]]:
    """The room's latest ``limit`` lines, oldest first, without deleted ones or muted authors."""
    muted = ChatMute.objects.filter(user_id=user_id).values("muted_id")
    newest = list(
        ChatMessage.objects.filter(room_id=room_id, deleted=False)
        .exclude(author_id__in=Subquery(muted))
        .order_by("-id")[:limit]
    )
    return chat_entries(newest[::-1], room_id=room_id)


def socket_context(*, match_id: int, user_id: int) -> tuple[int, dict[int, str], dict[str, Any] | None]:
    """What a match's socket needs besides its first frame: the room (its chat), the accounts the
    user mutes, and the ``rematch`` frame of a finished match once anyone voted."""
    room_id = int(Match.objects.filter(pk=match_id).values_list("room_id", flat=True).get())
    return room_id, chat_muted(user_id=user_id), rematch_frame_for(match_id=match_id)
