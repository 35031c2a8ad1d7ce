"""A deal of the day played over the socket (docs/learn.md): the same live table, and no frame
ever carries the deal's secret or a seed of it, not even the last one (the day is not over)."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from games import engine
from games.engine.bots import choose_move
from games.learn.services import daily as daily_services
from games.play import services
from games.play.models import Match
from tests.realtime.sockets import TIMEOUT, Player, joined, open_socket, room_path, session_cookie
from tests.site.daily_helpers import DAY_START, secrets_of, set_clock

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daily_try(transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> tuple[Match, Player]:
    set_clock(monkeypatch, DAY_START)
    ala = get_user_model().objects.create_user(username="ala", password=None)
    match = daily_services.daily_start(user=ala, variant="gin")
    return match, Player(user=ala, cookie=session_cookie(ala), seat=0, hand=())


async def test_a_try_over_the_socket_never_shows_the_secret_or_a_seed(
    daily_try: tuple[Match, Player],
) -> None:
    match, player = daily_try
    hidden = await database_sync_to_async(secrets_of)(match)
    raw: list[str] = []
    async with joined(match.pk, player) as (socket, first):
        raw.append(json.dumps(first))
        frame = first
        for _ in range(400):
            current = await database_sync_to_async(Match.objects.get)(pk=match.pk)
            if current.status != Match.Status.PLAYING:
                break
            version = current.version
            if current.game_state().turn == 0:
                move = choose_move(frame["view"])
                await socket.send_json_to(
                    {
                        "type": "move",
                        "id": f"m{version}",
                        "version": version,
                        "move": engine.move_to_json(move),
                    }
                )
            else:
                await database_sync_to_async(services.bot_move_play)(
                    match_id=match.pk, expected_version=version
                )
            while True:  # the frames of this move (an ack may come first)
                received = await socket.receive_json_from(timeout=TIMEOUT)
                raw.append(json.dumps(received))
                assert received.get("type") != "error", received
                if received.get("type") == "state" and received["version"] > version:
                    frame = received
                    break
        assert frame["view"]["phase"] == "over"
        # The try is one round: the finished table is round 1's, with no second deal behind it.
        assert frame["view"]["round"] == 1
    assert len(raw) > 10
    assert any('"round_over"' in text for text in raw)
    assert not any('"round_started"' in text for text in raw)
    for text in raw:
        assert not [value for value in hidden if value in text], text
        assert "revealed_seed" not in text
    # The table showed the deal's commitment, the one /daily/ published when the day started.
    assert first["view"]["commitment"] == engine.commitment(engine.deal_seed(match.secret_bytes, 1))


async def test_another_account_cannot_watch_a_try_over_the_socket_while_the_day_lasts(
    daily_try: tuple[Match, Player],
) -> None:
    # No preview of the deal (docs/learn.md): not the try's table, nor its room's socket.
    match, _player = daily_try

    def watcher() -> str:
        return session_cookie(get_user_model().objects.create_user(username="bob", password=None))

    cookie = await database_sync_to_async(watcher)()
    for path in (f"/ws/match/{match.pk}/", room_path(match.room_id)):
        async with open_socket(match.pk, cookie, path=path) as socket:
            connected, _ = await socket.connect(timeout=TIMEOUT)
            assert connected
            assert await socket.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4404}
