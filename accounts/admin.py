from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.models import User
from accounts.services import user_block


@admin.register(User)
class AccountAdmin(UserAdmin):
    actions = ("block_users",)

    @admin.action(description="Block the selected users (they can no longer log in)", permissions=["change"])
    def block_users(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        blocked = user_block(user_ids=list(queryset.values_list("pk", flat=True)), keep=request.user.pk)
        for user in blocked:
            self.log_change(request, user, "Blocked by an admin action: is_active set to False.")
        self.message_user(request, f"{len(blocked)} user(s) blocked.", messages.SUCCESS)
        skipped = queryset.count() - len(blocked)
        if skipped:
            self.message_user(
                request,
                f"{skipped} user(s) left as they were (blocked already, or yourself).",
                messages.WARNING,
            )
