"""Fixtures for ranked play: people and the settings the tests rely on (see ranked_helpers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _quiet_layer_and_settings(settings: Settings) -> None:
    # Every move publishes after commit: keep frames in a per-test in-memory layer, never Redis.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.RATING_PROVISIONAL_SIGMA = 6.5
    settings.LEADERBOARD_MIN_MATCHES = 2


@pytest.fixture
def make_user(db: None) -> Callable[[str], Any]:
    def make(username: str) -> Any:
        return get_user_model().objects.create_user(username=username, password="not-used-here")

    return make


@pytest.fixture
def people(make_user: Callable[[str], Any]) -> list[Any]:
    return [make_user(name) for name in ("ala", "bartek", "celina", "darek")]
