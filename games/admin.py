"""Staff pages. Rooms and seats are managed through services; the match record is read-only.

Moves and score lines are the match's log: nobody adds, changes or deletes them here.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from games.chat import services as chat_services
from games.chat.models import ChatMessage, ChatMute, ChatReport, ChatSilence
from games.learn.models import Puzzle, PuzzleBatch, PuzzleRating, PuzzleReport
from games.learn.services import puzzles as puzzle_services
from games.play import services
from games.play.models import Match, MoveRecord, Room, Round, ScoreLine, Seat, SeatSocket, ServerProcess
from games.ranked import ratings
from games.ranked.models import Rating, RatingChange
from games.shared.errors import GameError


class ReadOnlyMixin:
    """No add, change or delete: the change view shows the record and refuses a POST."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def end_stuck_turn(model_admin: admin.ModelAdmin, request: HttpRequest, match: Match, logged: Any) -> None:
    """Play the current seat's turn with the normal bot (``services.turn_end_stuck``).

    The outcome goes to the staff user as a message, and into the admin log on ``logged`` (the
    match, or the room the action was run from).
    """
    seat = match.state.get("turn")
    try:
        version = services.turn_end_stuck(match_id=match.pk)
    except GameError as error:
        model_admin.message_user(request, f"{match}: the turn was not ended ({error}).", messages.WARNING)
        return
    text = (
        f"Ended the stuck turn of seat {seat} in {match}: the normal bot played it as a stand-in "
        f"(now version {version})."
    )
    model_admin.log_change(request, logged, text)
    model_admin.message_user(request, text, messages.SUCCESS)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    # Presence is the table's business (sockets, timers, away and back), not staff's.
    readonly_fields = ("state", "timeouts", "connections", "offline_since")


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "variant", "seat_count", "status", "ranked", "owner", "created")
    list_filter = ("status", "variant", "ranked")
    search_fields = ("name", "join_code")
    inlines = (SeatInline,)
    actions = ("close_rooms", "end_stuck_turns")

    @admin.action(description="Close the selected rooms", permissions=["change"])
    def close_rooms(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        closed = services.room_close(room_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(request, f"{closed} room(s) closed.", messages.SUCCESS)

    @admin.action(
        description="End the stuck turn of the room's match (the bot plays it)", permissions=["change"]
    )
    def end_stuck_turns(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        for room in queryset:
            match = room.matches.filter(status=Match.Status.PLAYING).order_by("-number").first()
            if match is None:
                self.message_user(request, f"{room}: no match is being played.", messages.WARNING)
                continue
            end_stuck_turn(self, request, match, logged=room)


class SeatSocketInline(ReadOnlyMixin, admin.TabularInline):
    """The seat's open sockets, and the server process holding each (``SeatSocket``)."""

    model = SeatSocket
    extra = 0
    fields = ("channel", "server", "opened")


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("id", "room", "index", "user", "is_bot", "bot_level", "state")
    list_filter = ("room__status", "is_bot")
    search_fields = ("room__name", "user__username")
    list_select_related = ("room", "user")
    actions = ("remove_player",)
    inlines = (SeatSocketInline,)

    @admin.action(description="Remove the seat's player (open rooms only)", permissions=["change"])
    def remove_player(self, request: HttpRequest, queryset: QuerySet[Seat]) -> None:
        freed = sum(services.seat_remove_player(seat_id=pk) for pk in queryset.values_list("pk", flat=True))
        skipped = queryset.count() - freed
        self.message_user(request, f"{freed} seat(s) freed.", messages.SUCCESS)
        if skipped:
            self.message_user(
                request,
                f"{skipped} seat(s) left as they were (free already, or the room is not open).",
                messages.WARNING,
            )


class MoveRecordInline(ReadOnlyMixin, admin.TabularInline):
    model = MoveRecord
    extra = 0
    fields = ("seq", "round_number", "seat", "actor", "move", "created")
    readonly_fields = fields


class RoundInline(ReadOnlyMixin, admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "commitment", "revealed_seed", "started", "finished")
    readonly_fields = fields
    show_change_link = True


class RatingChangeInline(ReadOnlyMixin, admin.TabularInline):
    model = RatingChange
    extra = 0
    fields = (
        "seat",
        "user",
        "category",
        "rank",
        "won",
        "standin",
        "mu_before",
        "sigma_before",
        "mu_after",
        "sigma_after",
        "ordinal_before",
        "ordinal_after",
    )
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "room", "number", "version", "status", "rating_status", "started", "finished")
    list_filter = ("status", "rating_status", "room__variant", "room__ranked")
    # The secret seeds every deal; the state holds every hand. Neither is shown.
    exclude = ("secret", "state")
    readonly_fields = (
        "room",
        "number",
        "version",
        "status",
        "winners",
        "finished",
        "turn_started",
        "turn_deadline",
        "resume_at",
        "rating_status",
    )
    inlines = (RatingChangeInline, RoundInline, MoveRecordInline)
    actions = ("end_stuck_turns", "annul_for_ratings")

    @admin.action(description="End the stuck turn (the bot plays it as a stand-in)", permissions=["change"])
    def end_stuck_turns(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        for match in queryset:
            end_stuck_turn(self, request, match, logged=match)

    @admin.action(
        description="Annul for ratings (remove its rating changes, replay the variant's ratings)",
        permissions=["change"],
    )
    def annul_for_ratings(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        for match in queryset:
            categories = sorted(set(match.rating_changes.values_list("category", flat=True)))
            players = ratings.match_annul(match_id=match.pk)
            if not players:
                self.message_user(
                    request, f"{match}: not annulled (it is not a rated match).", messages.WARNING
                )
                continue
            names = ", ".join(ratings.category_title(category) for category in categories)
            text = (
                f"Annulled {match} for ratings: the rating changes of {len(players)} player(s) were "
                f"removed and every {names} rating was replayed from the remaining rated matches."
            )
            self.log_change(request, match, text)
            self.message_user(request, text, messages.SUCCESS)


class ScoreLineInline(ReadOnlyMixin, admin.TabularInline):
    model = ScoreLine
    extra = 0
    fields = ("seat", "points", "hand", "table", "bonus", "atu_bonus", "multiplier", "notes", "total")
    readonly_fields = fields


@admin.register(Round)
class RoundAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "match", "number", "commitment", "revealed_seed", "finished")
    list_select_related = ("match",)
    inlines = (ScoreLineInline,)


@admin.register(MoveRecord)
class MoveRecordAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "match", "seq", "round_number", "seat", "actor", "created")
    list_filter = ("actor",)
    list_select_related = ("match",)


@admin.register(ScoreLine)
class ScoreLineAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "round", "seat", "points", "total")
    list_select_related = ("round",)


@admin.register(Rating)
class RatingAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Ratings are derived from the rating changes: read here, rebuilt by an annul's replay."""

    list_display = ("user", "category", "shown", "mu", "sigma", "ordinal", "matches", "wins", "updated")
    list_filter = ("category",)
    search_fields = ("user__username",)
    list_select_related = ("user",)

    @admin.display(description="shown rating")
    def shown(self, rating: Rating) -> str:
        mark = " (provisional)" if ratings.is_provisional(rating.sigma) else ""
        return (
            f"{ratings.display(rating.mu, rating.sigma)} ± {ratings.display_uncertainty(rating.sigma)}{mark}"
        )


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = (
        "id",
        "match",
        "user",
        "category",
        "rank",
        "won",
        "standin",
        "ordinal_before",
        "ordinal_after",
        "created",
    )
    list_filter = ("category", "standin", "won")
    search_fields = ("user__username",)
    list_select_related = ("match", "user")


@admin.register(ServerProcess)
class ServerProcessAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The server processes holding sockets, and their last heartbeat (``games.play.servers``).

    Read-only: a process that stops beating is taken for gone by the workers' sweep, which closes
    its sockets (``services.servers_gone``)."""

    list_display = ("name", "started", "beat", "sockets")
    ordering = ("-beat",)

    @admin.display(description="sockets")
    def sockets(self, server: ServerProcess) -> int:
        return SeatSocket.objects.filter(server=server.name).count()


# --- chat (docs/protocol.md, "Chat") ------------------------------------------------------------


def _delete_for_everyone(model_admin: admin.ModelAdmin, request: HttpRequest, message_ids: list[int]) -> None:
    """``chat_services.chat_delete``: hidden from everyone, the rooms' sockets told, reports handled."""
    deleted = chat_services.chat_delete(message_ids=message_ids, user=request.user)  # type: ignore[arg-type]
    model_admin.message_user(request, f"{deleted} chat message(s) deleted for everyone.", messages.SUCCESS)


class ChatReportInline(ReadOnlyMixin, admin.TabularInline):
    model = ChatReport
    extra = 0
    fields = readonly_fields = ("reporter", "reason", "created", "handled")


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Lines are the players' words: staff read them and may hide them, never rewrite them."""

    list_display = ("id", "room", "author", "text", "created", "deleted")
    list_filter = ("deleted",)
    search_fields = ("text", "author__username", "room__name")
    readonly_fields = ("room", "author", "text", "created", "deleted", "deleted_by")
    inlines = (ChatReportInline,)
    actions = ("delete_for_everyone",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(
        description="Delete for everyone (hide the messages in their rooms)", permissions=["change"]
    )
    def delete_for_everyone(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        _delete_for_everyone(self, request, list(queryset.values_list("pk", flat=True)))


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    """What players reported: the line, who wrote it, who reported it and why."""

    list_display = ("id", "message_text", "message_author", "reporter", "reason", "created", "handled")
    list_filter = ("handled",)
    search_fields = ("message__text", "message__author__username", "reporter__username", "reason")
    readonly_fields = ("message", "reporter", "reason", "created")
    list_select_related = ("message__author", "reporter")
    actions = ("delete_reported_messages", "mark_handled")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="message")
    def message_text(self, report: ChatReport) -> str:
        return f"{report.message.text}{' (deleted)' if report.message.deleted else ''}"

    @admin.display(description="author")
    def message_author(self, report: ChatReport) -> str:
        return str(report.message.author)

    @admin.action(description="Delete the reported messages for everyone", permissions=["change"])
    def delete_reported_messages(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        _delete_for_everyone(self, request, list(queryset.values_list("message_id", flat=True)))

    @admin.action(description="Mark handled (leave the messages)", permissions=["change"])
    def mark_handled(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        self.message_user(
            request, f"{queryset.update(handled=True)} report(s) marked handled.", messages.SUCCESS
        )


@admin.register(ChatSilence)
class ChatSilenceAdmin(admin.ModelAdmin):
    """Accounts muted in every chat by staff (``chat_silenced``), until a time or lifted."""

    list_display = ("user", "until", "reason", "created")
    search_fields = ("user__username", "reason")
    raw_id_fields = ("user",)


@admin.register(ChatMute)
class ChatMuteAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("user", "muted", "created")
    search_fields = ("user__username", "muted__username")


# --- puzzles (docs/learn.md, "Puzzles") -------------------------------------------------------------


class PuzzleReportInline(ReadOnlyMixin, admin.TabularInline):
    model = PuzzleReport
    fields = ("reporter", "reason", "created", "resolved")
    extra = 0


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "variant", "mu", "sigma", "attempts", "solved", "withdrawn", "created")
    list_filter = ("kind", "variant", "withdrawn")
    readonly_fields = (
        "kind",
        "variant",
        "options",
        "seat",
        "answer",
        "explanation",
        "source",
        "key",
        "mu",
        "sigma",
        "attempts",
        "solved",
        "created",
    )
    # The full state holds every hand and the stock: staff may look, nobody edits it here.
    exclude = ("state",)
    inlines = (PuzzleReportInline,)
    actions = ("withdraw",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Withdraw the selected puzzles (never offered again)", permissions=["change"])
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Puzzle]) -> None:
        for puzzle_id in queryset.values_list("pk", flat=True):
            puzzle_services.puzzle_withdraw(puzzle_id=puzzle_id)
        self.message_user(request, f"{queryset.count()} puzzle(s) withdrawn.", messages.SUCCESS)


@admin.register(PuzzleReport)
class PuzzleReportAdmin(admin.ModelAdmin):
    list_display = ("id", "puzzle", "reporter", "reason", "created", "resolved")
    list_filter = ("resolved",)
    readonly_fields = ("puzzle", "reporter", "reason", "created")
    actions = ("withdraw_puzzles", "resolve")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Withdraw the reported puzzles", permissions=["change"])
    def withdraw_puzzles(self, request: HttpRequest, queryset: QuerySet[PuzzleReport]) -> None:
        for puzzle_id in set(queryset.values_list("puzzle_id", flat=True)):
            puzzle_services.puzzle_withdraw(puzzle_id=puzzle_id)
        self.message_user(request, "The reported puzzles are withdrawn.", messages.SUCCESS)

    @admin.action(description="Mark resolved (the puzzle stays)", permissions=["change"])
    def resolve(self, request: HttpRequest, queryset: QuerySet[PuzzleReport]) -> None:
        queryset.update(resolved=True)


@admin.register(PuzzleRating)
class PuzzleRatingAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("user", "kind", "mu", "sigma", "solved", "failed", "updated")
    list_filter = ("kind",)


@admin.register(PuzzleBatch)
class PuzzleBatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "seed", "target", "made", "games", "started", "finished")
