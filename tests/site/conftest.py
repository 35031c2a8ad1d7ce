from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    # Counters kept in the cache (registrations per address) must not carry over between tests.
    # Only this run's keys: on Redis, cache.clear() would empty the database for every pytest-xdist
    # worker (and run) sharing it, wiping the counters of a test running beside this one.
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    cache = caches["default"]  # the backend itself (django.core.cache.cache is a proxy)
    if isinstance(cache, RedisCache):
        client = cache._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"{cache.key_prefix}:*"))
        if keys:
            client.delete(*keys)
    else:
        cache.clear()


@pytest.fixture(autouse=True)
def _unhashed_static_files(settings: Settings) -> None:
    # The manifest storage of production needs `collectstatic` to have run; these tests should
    # not depend on that, so they render plain /static/... URLs.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def make_user() -> Callable[[str], Any]:
    def make(username: str) -> Any:
        return get_user_model().objects.create_user(username=username, password="not-used-here")

    return make


@pytest.fixture
def ala(make_user: Callable[[str], Any]) -> Any:
    return make_user("ala")


@pytest.fixture
def bob(make_user: Callable[[str], Any]) -> Any:
    return make_user("bob")
