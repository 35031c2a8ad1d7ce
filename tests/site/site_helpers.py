"""Helpers shared by the site tests: a logged-in client and a room made through the service."""

from __future__ import annotations

from typing import Any

from django.test import Client

from games.play import services
from games.play.models import Room


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def make_room(owner: Any, variant: str = "remik51", seats: int = 2, **extra: Any) -> Room:
    return services.room_create(
        owner=owner,
        name=extra.pop("name", "Table"),
        variant=variant,
        options=extra.pop("options", {}),
        seats=seats,
        turn_seconds=extra.pop("turn_seconds", 60),
        **extra,
    )
