"""Puzzles stored once per test session's database (a small batch of the generator)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _plain_static_files(settings: Settings) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def make_user(db: None) -> Callable[[str], Any]:
    def make(username: str) -> Any:
        return get_user_model().objects.create_user(username=username, password="not-used-here")

    return make


@pytest.fixture
def stored(db: None) -> list[Any]:
    """Eight puzzles of the seed ``site`` stored by the service, as the Celery task does; the
    opening kinds (``opening``, ``joker``) first."""
    from games.models import Puzzle
    from games.services import puzzles

    batch = puzzles.puzzle_batch_create(seed="site", target=8)
    puzzles.puzzle_batch_run(batch_id=batch.pk)
    rows = list(Puzzle.objects.order_by("id"))
    evaluated = ("knock", "discard")
    return [p for p in rows if p.kind not in evaluated] + [p for p in rows if p.kind in evaluated]
