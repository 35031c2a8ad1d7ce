"""Fixtures for the worker tests: fast bots, a private channel layer, a running Celery worker.

The tasks run in the worker's thread with their own database connection, so every test needs
committed data: ``django_db(transaction=True)``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from pytest_django.fixtures import Settings

from tests.workers.worker_helpers import running_worker


@pytest.fixture(autouse=True)
def _private_channel_layer(settings: Settings) -> None:
    """A fresh layer per test, of the kind the environment chose (channels resets on this change).

    Channels hold more messages than the default 100: a test may read a whole round's frames.
    """
    if django_settings.REDIS_URL:
        # Not the site's pub/sub layer: these tests also listen from synchronous code, one
        # ``async_to_sync`` call after another, and pub/sub only delivers to a channel while the
        # event loop that subscribed it runs. The site's sockets listen on daphne's loop; the
        # real server test (test_embedded_server) runs the site's own layer.
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                # The hosts exactly as the settings give them (timeouts, pool size).
                "CONFIG": {
                    **django_settings.CHANNEL_LAYERS["default"].get("CONFIG", {}),
                    "prefix": f"test-{uuid.uuid4().hex}",
                    "capacity": 2000,
                },
            }
        }
    else:
        settings.CHANNEL_LAYERS = {
            "default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 2000}}
        }


@pytest.fixture(autouse=True)
def _fast_bots(settings: Settings) -> None:
    # The test runner's defaults already are 0; say so here, whatever the environment sets.
    settings.BOT_MOVE_DELAY = 0.0
    settings.ROUND_PAUSE_SECONDS = 0.0


@pytest.fixture
def worker(transactional_db: None) -> Iterator[Any]:
    """A real Celery worker (solo pool) consuming this run's queue for the whole test."""
    with running_worker() as started:
        yield started


@pytest.fixture(autouse=True)
def _unhashed_static_files(settings: Settings) -> None:
    # Admin pages render static URLs; the manifest storage would need `collectstatic` first.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
