"""The puzzle tests' fixtures: a small batch of the generator stored by the service, its bot games
played once per test process (``stored``)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from pytest_django.fixtures import Settings

from games.learn import puzzles as generator


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


#: The generator itself (the fixture below replaces it in its tests with a cached copy).
GAME_PUZZLES = generator.game_puzzles


@functools.cache
def _game_puzzles(seed: str, game_no: int, kinds: tuple[str, ...]) -> tuple[generator.Puzzle, ...]:
    return tuple(GAME_PUZZLES(seed, game_no, kinds))


def _cached_game_puzzles(
    seed: str, game_no: int, kinds: Sequence[str] = generator.KINDS
) -> Iterator[generator.Puzzle]:
    return iter(_game_puzzles(seed, game_no, tuple(kinds)))


@pytest.fixture
def stored(db: None, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Eight puzzles of the seed ``site`` stored by the service, as the Celery task does; the
    opening kinds (``opening``, ``joker``) first.

    The bot games they come from are played once per test process: ``games.learn.puzzles.game_puzzles``
    is deterministic given its arguments and its puzzles are frozen, so its answers are kept (the
    games were about 4 s of CPU a test); the service stores them as it does for the Celery task.
    """
    from games.learn.models import Puzzle
    from games.learn.services import puzzles

    monkeypatch.setattr(generator, "game_puzzles", _cached_game_puzzles)
    batch = puzzles.puzzle_batch_create(seed="site", target=8)
    puzzles.puzzle_batch_run(batch_id=batch.pk)
    rows = list(Puzzle.objects.order_by("id"))
    evaluated = ("knock", "discard")
    return [p for p in rows if p.kind not in evaluated] + [p for p in rows if p.kind in evaluated]
