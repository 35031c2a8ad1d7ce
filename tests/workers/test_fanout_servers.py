"""One match's sockets on two daphne processes sharing Redis (games/play/fanout.py): a move made on
either process, or in a process with no sockets at all (a Celery worker's, here the test's),
reaches every socket exactly once, each with its own audience's frame."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import connection
from pytest_django.fixtures import Settings
from websockets.asyncio.client import ClientConnection, connect

from games import engine
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match
from tests.live_server import LiveServer, start_daphne
from tests.realtime.sockets import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

WAIT = 15
QUIET = 0.5


async def _open(server: LiveServer, match_id: int, cookie: str) -> tuple[ClientConnection, dict[str, Any]]:
    ws = await connect(
        server.ws_url(f"/ws/match/{match_id}/"),
        origin=server.origin,
        additional_headers={"Cookie": f"{django_settings.SESSION_COOKIE_NAME}={cookie}"},
        proxy=None,
    )
    return ws, json.loads(await asyncio.wait_for(ws.recv(), WAIT))


async def _next(ws: ClientConnection) -> dict[str, Any]:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if frame["type"] == "state":
            return frame


async def _nothing_more(ws: ClientConnection) -> bool:
    try:
        await asyncio.wait_for(ws.recv(), QUIET)
    except TimeoutError:
        return True
    return False


@pytest.mark.timeout(180)
def test_a_match_watched_from_two_processes_gets_each_move_once_on_every_socket(
    tmp_path: Path, settings: Settings
) -> None:
    if not settings.REDIS_URL:
        pytest.skip("two server processes need Redis between them")
    # This process publishes as a Celery worker of the site does: on the site's own layer (the
    # servers' prefix), not the private one the tests of this folder listen on.
    from remi_site.settings import base

    settings.CHANNEL_LAYERS = base.CHANNEL_LAYERS
    make = get_user_model().objects.create_user
    ala, bartek, celina = (make(username=name, password=None) for name in ("ala", "bartek", "celina"))
    room = services.room_create(
        owner=ala, name="Two", variant="remik51", options={}, seats=2, turn_seconds=3600
    )
    services.seat_take(room=room, user=ala, index=0)
    services.seat_take(room=room, user=bartek, index=1)
    match = services.match_start(room=room)
    cookies = {user.username: session_cookie(user) for user in (ala, bartek, celina)}
    users = {0: ala, 1: bartek}
    one = start_daphne(tmp_path, name="one", embedded_worker=False)
    two = start_daphne(tmp_path, name="two", embedded_worker=False)

    def state_now() -> engine.GameState:
        try:
            return Match.objects.get(pk=match.pk).game_state()
        finally:
            connection.close()

    def submit(seat: int, move: engine.Move, version: int) -> None:
        try:
            services.move_submit(match_id=match.pk, user=users[seat], move=move, expected_version=version)
        finally:
            connection.close()

    async def play() -> None:
        # Each seat on both processes (two tabs each), a spectator on the first.
        names = ("ala@one", "ala@two", "bartek@one", "bartek@two", "celina@one")
        servers = {"one": one, "two": two}
        sockets = {}
        for name in names:
            user, server = name.split("@")
            sockets[name] = await _open(servers[server], match.pk, cookies[user])
        seat_of = {name: {"ala": 0, "bartek": 1}.get(name.split("@")[0]) for name in names}
        try:
            version = max(frame["version"] for _, frame in sockets.values())
            for made_on in ("one", "two", "test"):  # "test": a process with no sockets, this one
                state = await asyncio.to_thread(state_now)
                move = choose_move(engine.view_for(state, state.turn))
                if made_on == "test":
                    await asyncio.to_thread(submit, state.turn, move, version)
                else:
                    ws, _ = sockets[f"{('ala', 'bartek')[state.turn]}@{made_on}"]
                    command = {"type": "move", "id": f"m{version}", "version": version}
                    await ws.send(json.dumps({**command, "move": engine.move_to_json(move)}))
                version += 1
                frames = {}
                for name, (ws, _) in sockets.items():
                    try:
                        frames[name] = await _next(ws)
                    except TimeoutError:
                        pytest.fail(f"{name}: no frame of the move made on {made_on} (version {version})")
                state = await asyncio.to_thread(state_now)  # the move is in: every frame is out
                for name, frame in frames.items():
                    assert frame["version"] == version, (made_on, name)
                    viewer = seat_of[name]
                    assert frame["view"]["seat"] == viewer
                    own = [str(card) for card in state.hands[viewer]] if viewer is not None else None
                    assert frame["view"]["hand"] == own, (made_on, name)
                for name, (ws, _) in sockets.items():
                    assert await _nothing_more(ws), f"{name} got a move made on {made_on} twice"
        finally:
            for ws, _ in sockets.values():
                await ws.close()

    try:
        asyncio.run(play())
    finally:
        one.stop()
        two.stop()
    for server in (one, two):
        assert "Traceback" not in server.text(), server.text()[-3000:]
