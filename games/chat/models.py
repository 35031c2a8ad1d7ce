"""A room's chat lines, mutes, reports and silences (docs/protocol.md, "Chat").

The tables belong to the one app ``games`` (docs/architecture.md): ``games.models`` gathers this
module.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ChatMessage(models.Model):
    """One line of a room's chat, by a logged-in player or spectator (``chat_services.chat_post``).

    Stored as typed (trimmed, control characters removed, at most ``MAX_LENGTH`` characters);
    the page shows it as text, never as markup. Staff may delete it: it is then hidden from
    everyone (``deleted``), and kept with its reports for the record.
    """

    MAX_LENGTH = 300

    room = models.ForeignKey("games.Room", on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=MAX_LENGTH)
    created = models.DateTimeField(auto_now_add=True)
    deleted = models.BooleanField(default=False)
    deleted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ("room", "pk")
        indexes = (models.Index(fields=("room", "deleted", "-id"), name="chat_room_newest"),)

    def __str__(self) -> str:
        return f"{self.author_id} in room {self.room_id}: {self.text[:40]}"


class ChatMute(models.Model):
    """A player does not want to read another one's chat: kept per account, for every room."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=("user", "muted"), name="chatmute_unique"),)

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class ChatReport(models.Model):
    """A player reported a chat message to staff (seen in the admin)."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    #: Staff have looked at it (the message deleted, or left as it is).
    handled = models.BooleanField(default=False, db_index=True)

    class Meta:
        ordering = ("handled", "-created")
        constraints = (models.UniqueConstraint(fields=("message", "reporter"), name="chatreport_unique"),)

    def __str__(self) -> str:
        return f"report of message {self.message_id} by {self.reporter_id}"


class ChatSilence(models.Model):
    """Staff muted an account in every chat until ``until`` (None: until lifted)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    until = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user_id} silenced until {self.until or 'lifted'}"
