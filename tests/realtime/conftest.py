"""Fixtures for WebSocket tests: a started two-seat match, logged-in sockets, a private channel layer.

Every ORM call happens in sync fixtures, before the test's event loop runs the consumer; the
test body only talks to sockets. ``database_sync_to_async`` runs the services in another thread,
so the tests need committed data: ``django_db(transaction=True)``.
"""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from pytest_django.fixtures import Settings

from games.play import services
from games.play.models import Match
from tests.realtime.sockets import Player, Table, session_cookie


@pytest.fixture(autouse=True)
def _private_channel_layer(settings: Settings) -> None:
    """A fresh layer per test, of the kind the environment chose (channels resets on this change).

    Under REDIS_URL the tests still go through channels_redis, with a prefix of their own so
    they never meet another run's groups.
    """
    if django_settings.REDIS_URL:
        # The hosts exactly as the settings give them (timeouts, pool size), with a prefix.
        configured = django_settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": django_settings.CHANNEL_LAYERS["default"]["BACKEND"],
                "CONFIG": {**configured, "prefix": f"test-{uuid.uuid4().hex}"},
            }
        }
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def table(transactional_db: None) -> Table:
    make = get_user_model().objects.create_user
    ala, bartek, celina = (make(username=name, password=None) for name in ("ala", "bartek", "celina"))
    room = services.room_create(
        owner=ala, name="Table", variant="remik51", options={}, seats=2, turn_seconds=60
    )
    services.seat_take(room=room, user=ala, index=0)
    services.seat_take(room=room, user=bartek, index=1)
    match = services.match_start(room=room)
    match = Match.objects.get(pk=match.pk)
    state = match.game_state()
    players = [
        Player(
            user=user, cookie=session_cookie(user), seat=seat, hand=tuple(str(c) for c in state.hands[seat])
        )
        for seat, user in enumerate((ala, bartek))
    ]
    return Table(
        match_id=match.pk,
        room_id=room.pk,
        mover=players[state.turn],
        other=players[1 - state.turn],
        spectator=Player(user=celina, cookie=session_cookie(celina), seat=None, hand=()),
    )


@pytest.fixture
def empty_room_id(table: Table) -> int:
    """A room with two seats taken by the table's players but no match started yet."""
    room = services.room_create(
        owner=table.mover.user, name="Waiting", variant="remik51", options={}, seats=2, turn_seconds=60
    )
    services.seat_take(room=room, user=table.mover.user, index=0)
    return room.pk
