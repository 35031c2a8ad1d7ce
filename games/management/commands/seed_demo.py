"""Demo rooms for a fresh site: one open room per variant, every seat but one taken by a bot.

Idempotent: a variant that already has an open demo room with a free seat gets no other one; once
a newcomer has filled or started a demo room, the next run opens a new room for that variant.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games import engine
from games.play import services
from games.play.models import Room, Seat

DEMO_USERNAME = "demo"
DEMO_SEATS = 3
DEMO_TURN_SECONDS = 60


class Command(BaseCommand):
    help = "Create the demo user and one open room per variant with bots in all seats but one."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            demo = self._demo_user()
            for name in engine.variant_names():
                room = (
                    Room.objects.filter(owner=demo, variant=name, status=Room.Status.OPEN)
                    .filter(seats__user__isnull=True, seats__is_bot=False)  # a seat still free
                    .first()
                )
                if room is not None:
                    self.stdout.write(f"{name}: open demo room {room.pk} already there")
                    continue
                room = self._demo_room(demo, name)
                self.stdout.write(self.style.SUCCESS(f"{name}: opened demo room {room.pk}"))

    def _demo_user(self) -> Any:
        user_model = get_user_model()
        user = user_model.objects.filter(username__iexact=DEMO_USERNAME).first()
        if user is None:
            user = user_model(username=DEMO_USERNAME)
            user.set_unusable_password()
            user.save()
        return user

    def _demo_room(self, demo: Any, name: str) -> Room:
        rules = engine.variant(name)
        seats = max(rules.min_players, min(DEMO_SEATS, rules.max_players))
        options = {"max_players": seats} if "max_players" in rules.options else {}
        room = services.room_create(
            owner=demo,
            name=Room.DEMO_NAME % {"title": rules.title},  # shown translated (Room.display_name)
            variant=name,
            options=options,
            seats=seats,
            turn_seconds=DEMO_TURN_SECONDS,
        )
        for index in range(1, seats):  # seat 0 stays free for a newcomer
            services.seat_add_bot(room=room, index=index, level=Seat.BotLevel.NORMAL)
        return room
