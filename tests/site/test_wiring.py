import asyncio
import os
import subprocess
import sys
from pathlib import Path

from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import connection

from games.shared import enqueue
from remi_site import celery_app
from remi_site.asgi import application


def test_the_backends_follow_the_environment() -> None:
    # CI runs the suite twice; this proves the second run really uses PostgreSQL and Redis.
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")

    assert connection.vendor == ("postgresql" if database_url.startswith("postgres") else "sqlite")
    layer = type(get_channel_layer()).__name__
    assert layer == ("PubSubChannelLayer" if redis_url else "InMemoryChannelLayer")
    assert celery_app.conf.broker_url == (redis_url or "memory://")


async def test_the_channel_layer_delivers_a_message() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel()

    await layer.send(channel, {"type": "smoke.ping"})

    assert await asyncio.wait_for(layer.receive(channel), timeout=5) == {"type": "smoke.ping"}


async def test_a_websocket_opened_from_another_site_is_refused() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/anything/", headers=[(b"origin", b"https://elsewhere.example")]
    )

    connected, _ = await communicator.connect()

    assert not connected


def test_every_task_the_services_queue_is_registered_once_django_has_started() -> None:
    """The services queue tasks by name (games/shared/enqueue.py), never importing ``games.tasks``: a
    process that has only started Django (a server, not a worker) has every one registered."""
    code = (
        "import django; django.setup();"
        "from celery import current_app; from games.shared import enqueue;"
        "print(sorted(current_app.tasks[name].name for name in enqueue.NAMES))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "remi_site.settings.test"}
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True
    )
    assert result.stdout.split("\n")[-2] == str(sorted(enqueue.NAMES))
