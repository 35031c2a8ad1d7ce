import asyncio
import os

from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import connection

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
