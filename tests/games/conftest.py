"""Fixtures for the application layer: users, rooms, and a private in-memory channel layer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from pytest_django.fixtures import Settings

from games.play import services
from games.play.models import Room


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    # Broadcast tests read frames back from the layer; with REDIS_URL set the tests still use a
    # per-test in-memory layer so nothing is left in Redis (channels resets layers on this change).
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def make_user(db: None) -> Callable[[str], Any]:
    def make(username: str) -> Any:
        return get_user_model().objects.create_user(username=username, password="not-used-here")

    return make


@pytest.fixture
def owner(make_user: Callable[[str], Any]) -> Any:
    return make_user("owner")


@pytest.fixture
def make_room(owner: Any) -> Callable[..., Room]:
    def make(
        variant: str = "remik51", options: dict[str, Any] | None = None, seats: int = 2, **extra: Any
    ) -> Room:
        return services.room_create(
            owner=owner,
            name="Table",
            variant=variant,
            options=options or {},
            seats=seats,
            turn_seconds=extra.pop("turn_seconds", 60),
            **extra,
        )

    return make
