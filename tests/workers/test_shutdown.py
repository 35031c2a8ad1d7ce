"""A server told to stop (SIGTERM) stops in order, in either mode (issue 19, defect 3).

The race an outside client found: a seated player's socket closes (``seat_disconnect`` runs in a
database thread and publishes the seats after commit) and SIGTERM arrives at once. The publish
went through ``async_to_sync`` to a loop that had stopped and waited for ever, so the thread
pool's exit hook never returned: daphne hung until SIGKILL, still beating, while its embedded
worker kept committing bot moves that nobody heard of. Now (``games.play.servers.shutdown``): no new
socket, no frame, no task or sweep starts, the heartbeat is dated back, and the process exits.

In the default mode (SQLite, no REDIS_URL) the server runs the embedded Celery worker, busy with a
table of four bots; under PostgreSQL + Redis it is the production daphne, without a worker.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone
from websockets.asyncio.client import connect

from games.play import services
from games.play.models import AccountSocket, Match, MoveRecord, Room, ServerProcess
from tests.live_server import LiveServer, start_daphne
from tests.workers.worker_helpers import bot_room, make_user, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

#: Tries of the race: 20 in CI (``TEST_THOROUGH=1``, .ci/run), 6 in a plain ``make test``; each
#: starts and stops a daphne (docs/testing.md, "Speed").
TRIES = 20 if os.environ.get("TEST_THOROUGH") else 6
#: The issue's bound on a stop, from SIGTERM to the process gone.
STOP_WITHIN = 2.0


def _tables() -> tuple[Match, str, Match]:
    """A table with one person (the socket that closes) and a table of four bots (busy tasks)."""
    ala = make_user("ala")
    mine = bot_room(ala, "remik51", {}, seats=2, humans=(ala,))
    Room.objects.filter(pk=mine.pk).update(turn_seconds=3600)
    bots = bot_room(ala, "remik51", {}, seats=4, humans=())
    return services.match_start(room=mine), session_cookie(ala), services.match_start(room=bots)


async def _close_a_seated_socket_then_sigterm(
    server: LiveServer, match_id: int, cookie: str
) -> tuple[datetime, float | None]:
    async with connect(
        server.ws_url(f"/ws/match/{match_id}/"),
        origin=server.origin,
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
        proxy=None,
    ) as ws:
        frame = await asyncio.wait_for(ws.recv(), 30)
        assert '"type": "state"' in frame or '"type":"state"' in frame
    # The socket is closed (its closing handshake is done): SIGTERM now, while the server's
    # seat_disconnect is under way.
    sent_at = timezone.now()
    return sent_at, server.stop(timeout=10)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_sigterm_right_after_a_seated_socket_closes_stops_the_server_in_order(tmp_path: Path) -> None:
    mine, cookie, bots = _tables()
    embedded = not settings.REDIS_URL
    times: list[float | None] = []
    for attempt in range(TRIES):
        server = start_daphne(
            tmp_path,
            name=f"try{attempt}",
            heartbeat=0.5,
            env={"BOT_MOVE_DELAY": "0", "ROUND_PAUSE_SECONDS": "0", "TURN_SWEEP_SECONDS": "0.2"},
        )
        try:
            if embedded:  # the embedded worker is playing the bots' table when the signal comes
                before = MoveRecord.objects.filter(match=bots).count()
                deadline = time.monotonic() + 30
                while MoveRecord.objects.filter(match=bots).count() < before + 3:
                    assert time.monotonic() < deadline, server.text()
                    time.sleep(0.05)
            sent_at, took = asyncio.run(_close_a_seated_socket_then_sigterm(server, mine.pk, cookie))
        finally:
            server.stop()  # whatever happened: nothing this test starts outlives it
        times.append(took)
        text = server.text()
        assert took is not None, f"try {attempt}: still running {10} s after SIGTERM\n{text[-3000:]}"
        assert took < STOP_WITHIN, f"try {attempt}: {took:.2f} s\n{text[-3000:]}"
        # No traceback, no task error (the old symptom: "'functools.partial' object has no attribute
        # '__qualname__'" for every bot move committed after the loop had gone).
        assert "Traceback" not in text, text[-3000:]
        assert not re.search(r"\bERROR\b", text), text[-3000:]
        # The heartbeat is dated back: the sweep may close its sockets at once.
        beats = list(ServerProcess.objects.values_list("beat", flat=True))
        assert len(beats) == 1
        assert beats[0] < sent_at - timedelta(hours=1), text[-3000:]
        # Its sockets no longer count against their accounts (at most 8 open at once).
        assert not AccountSocket.objects.exists()
        ServerProcess.objects.all().delete()
        if embedded:
            # No task ran after the stop began: the beat was dated back a day (servers.retire)
            # once the task gate had closed and the task running then had ended, so no move of
            # the bots' table is later than that moment. (A loaded machine may deliver SIGTERM a
            # few tasks after ``sent_at``.)
            stopped = beats[0] + timedelta(days=1)
            assert not MoveRecord.objects.filter(match=bots, created__gt=stopped).exists()
    print("seconds from SIGTERM to exit:", ", ".join(f"{t:.2f}" for t in times if t is not None))
