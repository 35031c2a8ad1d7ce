from django.contrib import admin

from games.models import Match, MoveRecord, Room, Round, ScoreLine, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "variant", "seat_count", "status", "ranked", "owner", "created")
    list_filter = ("status", "variant", "ranked")
    search_fields = ("name", "join_code")
    inlines = (SeatInline,)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "room", "number", "version", "status", "started", "finished")
    list_filter = ("status",)
    # The secret seeds every deal; the state holds every hand. Neither is shown.
    exclude = ("secret", "state")
    readonly_fields = ("room", "number", "version", "status", "winners", "finished")


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("id", "match", "number", "commitment", "revealed_seed", "finished")


@admin.register(MoveRecord)
class MoveRecordAdmin(admin.ModelAdmin):
    list_display = ("id", "match", "seq", "round_number", "seat", "actor", "created")

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(ScoreLine)
class ScoreLineAdmin(admin.ModelAdmin):
    list_display = ("id", "round", "seat", "points", "total")
