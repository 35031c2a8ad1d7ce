"""A room's chat (docs/protocol.md, "Chat"): lines, mutes, reports and staff deletes.

Everyone who may watch a match of the room (``games.play.selectors.audience_for``: in a private room only
its owner and seated players) may read and write its chat. A line is cleaned (``chat_clean``:
composed (NFC), control and direction-override characters become spaces, runs of spaces one,
trimmed) and must then hold 1 to ``ChatMessage.MAX_LENGTH`` characters, with at most
``MAX_MARKS`` combining marks on any one character (``marks_run``). After commit it goes to the room's chat
group (``broadcast.chat_group``) with its author's id: each socket drops the lines of the
authors its user mutes. What the socket's budget allows is decided by the consumer
(``limits.CHAT``); staff may silence an account (``ChatSilence``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.chat import selectors
from games.chat.models import ChatMessage, ChatMute, ChatReport, ChatSilence
from games.play import broadcast, protocol
from games.play.services.core import on_commit
from games.shared.errors import (
    ChatEmptyError,
    ChatMessageNotFoundError,
    ChatSilencedError,
    ChatTooLongError,
    ChatTooManyMarksError,
    MuteTargetError,
    NotStaffError,
)
from games.shared.text import MAX_MARKS, chat_clean, marks_run


def _user_id(user: AbstractBaseUser | AnonymousUser | None) -> int:
    if user is None or not user.is_authenticated:
        raise ChatMessageNotFoundError()
    return int(user.pk)


def chat_post(*, match_id: int, user: AbstractBaseUser, text: str) -> dict[str, Any]:
    """Store a line in the room of ``match_id`` and send it to the room; returns its entry."""
    cleaned = chat_clean(text)
    if not cleaned:
        raise ChatEmptyError()
    if len(cleaned) > ChatMessage.MAX_LENGTH:
        raise ChatTooLongError(limit=ChatMessage.MAX_LENGTH)
    if marks_run(cleaned) > MAX_MARKS:
        raise ChatTooManyMarksError(limit=MAX_MARKS)
    room_id = selectors.chat_room_for(match_id=match_id, user=user)
    author_id = _user_id(user)
    now = timezone.now()
    if ChatSilence.objects.filter(Q(until__isnull=True) | Q(until__gt=now), user_id=author_id).exists():
        raise ChatSilencedError()
    with transaction.atomic():
        message = ChatMessage.objects.create(room_id=room_id, author_id=author_id, text=cleaned)
        entry = selectors.chat_entries([message], room_id=room_id)[0]
        on_commit(
            partial(
                broadcast.send_many,
                [
                    (
                        broadcast.chat_group(room_id),
                        {
                            "type": broadcast.ROOM_MESSAGE,
                            "frame": protocol.chat_frame(entry),
                            "author": author_id,
                        },
                    )
                ],
            )
        )
    return entry


def chat_delete(*, message_ids: list[int], user: AbstractBaseUser, match_id: int | None = None) -> int:
    """Staff: hide messages from everyone (the rooms' sockets drop them); the count deleted.

    With ``match_id`` (the socket's command) the message must be in that match's room.
    """
    if not (user.is_authenticated and getattr(user, "is_staff", False)):
        raise NotStaffError()
    messages = ChatMessage.objects.filter(pk__in=message_ids, deleted=False)
    if match_id is not None:
        messages = messages.filter(room_id=selectors.chat_room_for(match_id=match_id, user=user))
    with transaction.atomic():
        found = list(messages.select_for_update().values_list("pk", "room_id"))
        if match_id is not None and not found:
            raise ChatMessageNotFoundError()
        ChatMessage.objects.filter(pk__in=[pk for pk, _ in found]).update(deleted=True, deleted_by=user)
        ChatReport.objects.filter(message_id__in=[pk for pk, _ in found]).update(handled=True)
        on_commit(
            partial(
                broadcast.send_many,
                [
                    (
                        broadcast.chat_group(room_id),
                        {"type": broadcast.ROOM_MESSAGE, "frame": protocol.chat_deleted_frame(pk)},
                    )
                    for pk, room_id in found
                ],
            )
        )
    return len(found)


def chat_mute(*, user: AbstractBaseUser, name: str, mute: bool = True) -> list[str]:
    """``user`` mutes (or unmutes) the player named ``name`` in every room; the names muted now.

    Each socket of ``user`` hears of it (``broadcast.account_group``) and drops that author's
    lines from then on; the page hides the lines it shows already.
    """
    user_id = _user_id(user)
    target = get_user_model().objects.filter(username__iexact=name).values_list("pk", flat=True).first()
    if target is None or target == user_id:
        raise MuteTargetError()
    with transaction.atomic():
        if mute:
            ChatMute.objects.get_or_create(user_id=user_id, muted_id=target)
        else:
            ChatMute.objects.filter(user_id=user_id, muted_id=target).delete()
        muted = selectors.chat_muted(user_id=user_id)
        on_commit(
            partial(
                broadcast.send_many,
                [
                    (
                        broadcast.account_group(user_id),
                        {"type": "chat.mutes", "ids": sorted(muted), "names": sorted(muted.values())},
                    )
                ],
            )
        )
    return sorted(muted.values())


def chat_report(*, match_id: int, user: AbstractBaseUser, message_id: int, reason: str = "") -> int:
    """``user`` reports a line of the match's room to staff (the admin's chat reports)."""
    room_id = selectors.chat_room_for(match_id=match_id, user=user)
    reporter = _user_id(user)
    if not ChatMessage.objects.filter(pk=message_id, room_id=room_id, deleted=False).exists():
        raise ChatMessageNotFoundError()
    ChatReport.objects.get_or_create(
        message_id=message_id, reporter_id=reporter, defaults={"reason": chat_clean(reason)}
    )
    return message_id
