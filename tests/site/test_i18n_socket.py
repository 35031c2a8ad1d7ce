"""Error frames over a real socket arrive in the player's language (games/shared/i18n_errors.py)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from pytest_django.fixtures import Settings

from games import engine
from games.play import services
from games.play.models import Match
from tests.realtime.sockets import TIMEOUT, Player, joined, session_cookie


@pytest.fixture(autouse=True)
def _private_channel_layer(settings: Settings) -> None:
    if django_settings.REDIS_URL:
        import uuid

        configured = django_settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": django_settings.CHANNEL_LAYERS["default"]["BACKEND"],
                "CONFIG": {**configured, "prefix": f"test-{uuid.uuid4().hex}"},
            }
        }
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.mark.django_db(transaction=True)
async def test_an_error_frame_reaches_a_polish_player_in_polish() -> None:
    def setup() -> tuple[int, Player]:
        make = get_user_model().objects.create_user
        ala = make(username="ala", password=None, language="pl")
        bob = make(username="bob", password=None, language="pl")
        room = services.room_create(
            owner=ala, name="Stół", variant="remik51", options={}, seats=2, turn_seconds=60
        )
        services.seat_take(room=room, user=ala, index=0)
        services.seat_take(room=room, user=bob, index=1)
        match = Match.objects.get(pk=services.match_start(room=room).pk)
        waiting = 1 - match.game_state().turn
        user = (ala, bob)[waiting]
        hand = tuple(str(card) for card in match.game_state().hands[waiting])
        return match.pk, Player(user=user, cookie=session_cookie(user), seat=waiting, hand=hand)

    match_id, player = await sync_to_async(setup)()
    expected = "To nie jest twój ruch."

    async with joined(match_id, player) as (socket, first):
        await socket.send_json_to(
            {
                "type": "move",
                "id": 1,
                "version": first["version"],
                "move": {"kind": "discard", "card": player.hand[0]},
            }
        )
        error = await socket.receive_json_from(timeout=TIMEOUT)

    assert (error["type"], error["code"]) == ("error", "not_your_turn")
    assert error["message"] == expected


@pytest.mark.django_db(transaction=True)
async def test_a_polish_players_refused_opening_carries_its_numbers() -> None:
    # R51-31 (docs/rules/remik51.md): an opening of 9 points is refused; the frame carries the rule
    # and the numbers (one error shape, engine and site alike), so the Polish text names them.
    def setup() -> tuple[int, Player]:
        make = get_user_model().objects.create_user
        ala = make(username="ala", password=None, language="pl")
        bob = make(username="bob", password=None, language="pl")
        room = services.room_create(
            owner=ala, name="Stół", variant="remik51", options={}, seats=2, turn_seconds=60
        )
        services.seat_take(room=room, user=ala, index=0)
        services.seat_take(room=room, user=bob, index=1)
        match = Match.objects.get(pk=services.match_start(room=room).pk)
        state = engine.position(
            engine.variant("remik51"),
            hands=["2S 3S 4S 9H 9D KC", "5C 6C 7C"],
            turn=0,
            phase="play",
            names=["ala", "bob"],
        )
        match.set_game_state(state)
        match.save(update_fields=["state"])
        return match.pk, Player(user=ala, cookie=session_cookie(ala), seat=0, hand=())

    match_id, player = await sync_to_async(setup)()
    async with joined(match_id, player) as (socket, first):
        await socket.send_json_to(
            {
                "type": "move",
                "id": "c2",
                "version": first["version"],
                "move": {"kind": "play", "melds": [["2S", "3S", "4S"]]},
            }
        )
        error = await socket.receive_json_from(timeout=TIMEOUT)

    assert error == {
        "type": "error",
        "id": "c2",
        "code": "opening_too_low",
        "message": "Twoje wyłożenie jest warte 9 pkt; potrzeba co najmniej 51.",
        "rule": "R51-31",
        "points": 9,
        "needed": 51,
        "missing": "points",
    }
