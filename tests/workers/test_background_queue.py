"""Live play never waits behind background work (settings ``CELERY_TASK_ROUTES``).

A real server (daphne with its embedded workers; under REDIS_URL, daphne plus a live worker and a
background worker, as docs/operations.md advises) is asked for the analysis of a Remik 51 round
(tens of CPU seconds). While that analysis runs, a person plays a turn in another match: the bot's
answer must reach the person's socket, and be stored, while the analysis is still running. Had both
gone to one queue (one worker, one task at a time), the bot's move would wait for the analysis.
Only the order of the events is compared, never a duration.
"""

from __future__ import annotations

import json
import secrets
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from websockets.sync.client import ClientConnection, connect

from games import engine
from games.engine.bots import choose_move
from games.learn.models import RoundAnalysis
from games.play import services
from games.play.models import Match, MoveRecord
from tests.live_server import LiveServer, serving
from tests.site.test_history_pages import bot_match
from tests.workers.worker_helpers import bot_room, make_user, session_cookie, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

RECEIVE_TIMEOUT = 30


@dataclass(frozen=True)
class Tables:
    finished: int  # a Remik 51 match whose first round is over (the one analysed)
    live: int  # a Remik 51 match being played, ala against a bot
    cookie: str


def _in_round_two(state: Any) -> bool:
    return state.round_no == 2


@pytest.fixture
def tables(transactional_db: None) -> Tables:
    ala = make_user("ala")
    finished = bot_match(ala, "remik51", {}, finish=False, until=_in_round_two)
    assert finished.status == Match.Status.PLAYING
    live = services.match_start(room=bot_room(ala, "remik51", {}, seats=2, humans=(ala,)))
    return Tables(finished=finished.pk, live=live.pk, cookie=session_cookie(ala))


@pytest.fixture
def server(tables: Tables, tmp_path: Path) -> Iterator[LiveServer]:
    # No periodic sweep: it plays an overdue bot move itself (late, a few seconds after it was
    # due), which would hide a bot move stuck in the queue behind the analysis.
    env = {"BOT_MOVE_DELAY": "0", "ROUND_PAUSE_SECONDS": "0.2", "TURN_SWEEP_SECONDS": "0"}
    with serving(tmp_path, env=env, background_worker=True) as server:
        yield server


def _ask_analysis(server: LiveServer, tables: Tables) -> None:
    """What the replay's button does: a POST with the session and a CSRF token."""
    token = secrets.token_hex(16)  # 32 characters: an unmasked CSRF secret
    request = urllib.request.Request(
        f"{server.url}/matches/{tables.finished}/rounds/1/analysis/",
        method="POST",
        headers={
            "Accept": "application/json",
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={tables.cookie}; {settings.CSRF_COOKIE_NAME}={token}",
            "X-CSRFToken": token,
            "Origin": server.origin,
        },
    )
    with urllib.request.urlopen(request, timeout=RECEIVE_TIMEOUT) as response:
        assert response.status == 200


def _next_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=RECEIVE_TIMEOUT))
        assert message["type"] != "error", message
        if message["type"] == "state":
            return dict(message)


def _bot_moves(match_id: int) -> int:
    return MoveRecord.objects.filter(match_id=match_id, actor=MoveRecord.Actor.BOT).count()


def _analysis_status() -> str:
    return str(RoundAnalysis.objects.get().status)


@pytest.mark.timeout(180)
def test_a_bot_moves_while_a_round_analysis_runs(tables: Tables, server: LiveServer) -> None:
    _ask_analysis(server, tables)
    wait_until(lambda: _analysis_status() == RoundAnalysis.Status.RUNNING, what="the analysis to start")
    bot_moves_before = _bot_moves(tables.live)

    with connect(
        server.ws_url(f"/ws/match/{tables.live}/"),
        origin=server.origin,
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={tables.cookie}"},
        proxy=None,
    ) as ws:
        frame = _next_state(ws)
        # Play the person's turns until the bot has moved since the analysis started.
        while _bot_moves(tables.live) == bot_moves_before:
            if frame["view"]["you"]["my_turn"]:
                move = choose_move(frame["view"])
                command = {"type": "move", "id": uuid.uuid4().hex, "version": frame["version"]}
                ws.send(json.dumps({**command, "move": engine.move_to_json(move)}))
                sent = frame["version"]
                while frame["version"] <= sent:
                    frame = _next_state(ws)
            else:
                frame = _next_state(ws)

    # The bot's move was played, and its frame received, while the analysis was still running.
    assert _analysis_status() == RoundAnalysis.Status.RUNNING
    assert RoundAnalysis.objects.get().finished is None
