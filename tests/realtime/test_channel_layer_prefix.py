"""The Redis channel layer's prefix keeps sites and test runs that share one Redis apart
(docs/operations.md, "Configuration"; docs/testing.md, "Running tests beside other people").

Redis pub/sub channels ignore the db number, and groups are named after match ids, which two
test databases (two pytest-xdist workers, two runs) hand out alike: without a prefix of its own a
page of one worker's match 3 received the frames of the other worker's match 3.
"""

from __future__ import annotations

import asyncio
import os
import runpy
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings

from remi_site.channel_layer import PubSubChannelLayer

BASE_SETTINGS = Path(settings.BASE_DIR) / "remi_site" / "settings" / "base.py"


def _prefix(**env: str) -> str | None:
    """The layer's prefix the settings give on Redis with the environment ``env`` (the settings
    file run again, as a process started with that environment would)."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("TOX_PARALLEL_ENV", "PYTEST_XDIST_WORKER", "CHANNEL_LAYER_PREFIX")
    }
    environment |= {"REDIS_URL": "redis://127.0.0.1:6379/0", **env}
    with mock.patch.dict(os.environ, environment, clear=True):
        configured = runpy.run_path(str(BASE_SETTINGS))
    return configured["CHANNEL_LAYERS"]["default"].get("CONFIG", {}).get("prefix")


def test_each_test_run_and_worker_and_site_has_a_channel_prefix_of_its_own() -> None:
    assert _prefix() == "asgi"  # a site alone: channels_redis' default, unchanged
    assert _prefix(CHANNEL_LAYER_PREFIX="remi-eu") == "remi-eu"
    workers = {_prefix(PYTEST_XDIST_WORKER="gw0"), _prefix(PYTEST_XDIST_WORKER="gw1")}
    assert workers == {"asgi_gw0", "asgi_gw1"}
    assert _prefix(TOX_PARALLEL_ENV="pg", PYTEST_XDIST_WORKER="gw0") == "asgi_pg_gw0"


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")
def test_layers_with_other_prefixes_on_one_redis_do_not_hear_each_other() -> None:
    hosts = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]

    async def scenario() -> tuple[dict, bool]:
        mine, theirs = (PubSubChannelLayer(hosts=hosts, prefix=f"prefix-test-{n}") for n in (1, 2))
        try:
            my_channel, their_channel = await mine.new_channel(), await theirs.new_channel()
            await mine.group_add("match-3", my_channel)
            await theirs.group_add("match-3", their_channel)
            await theirs.group_send("match-3", {"type": "frame", "from": "theirs"})
            await mine.group_send("match-3", {"type": "frame", "from": "mine"})
            received = await asyncio.wait_for(mine.receive(my_channel), 5)
            try:
                await asyncio.wait_for(mine.receive(my_channel), 0.5)
                heard_more = True
            except TimeoutError:
                heard_more = False
            return received, heard_more
        finally:
            await mine.flush()
            await theirs.flush()

    received, heard_more = asyncio.run(scenario())
    assert received == {"type": "frame", "from": "mine"}
    assert not heard_more
