"""The frames of practice are the site's frames (issue 15, docs/practice.md).

A two-seat Remik 51 match is played on the real server (daphne) over two real sockets, one per
seat, each seat moving as the normal bot decides from the frame its socket received, until the
first round is over. Then the browser's worker (Pyodide running games.practice.game, loaded by the
/practice/ page in Chromium) builds, from the match's record (the same secret, the same moves),
the frame of each seat after each move, with the table facts of the server's frame (version,
clock, seats): every one of them equals, field for field, the frame that seat's socket got.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.conf import settings

from games.engine import move_to_json
from games.engine.bots import choose_move
from games.play.models import Match, MoveRecord
from tests.browser.tablekit import cookie, js_errors, open_path, start_match, users

pytestmark = [pytest.mark.practice, pytest.mark.timeout(300)]

SECRET = bytes.fromhex("5eed" * 16)


async def _play_round_over_sockets(server_url: str, match_id: int, cookies: list[str]) -> list[list[dict]]:
    """Each seat's frames after each move (index = version), until the first round is over."""
    from websockets.asyncio.client import connect

    ws_url = server_url.replace("http://", "ws://") + f"/ws/match/{match_id}/"
    frames: list[dict[int, dict[str, Any]]] = [{}, {}]
    latest: list[dict[str, Any] | None] = [None, None]
    errors: list[tuple[int, dict[str, Any]]] = []

    async def reader(seat: int, socket: Any) -> None:
        async for text in socket:
            frame = json.loads(text)
            if frame.get("type") == "error":
                errors.append((seat, frame))
            if frame.get("type") != "state":
                continue
            latest[seat] = frame
            # The first frame of each version is the one that followed the move (a later one at the
            # same version only says a seat's presence changed).
            frames[seat].setdefault(frame["version"], frame)

    sockets = []
    tasks = []
    for seat, session in enumerate(cookies):
        socket = await connect(
            ws_url,
            additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}", "Origin": server_url},
        )
        sockets.append(socket)
        tasks.append(asyncio.create_task(reader(seat, socket)))
    try:
        for version in range(400):
            while latest[0] is None or latest[1] is None or any(f["version"] < version for f in latest):
                await asyncio.sleep(0.005)
            view = latest[0]["view"]
            if view["round"] > 1 or view["phase"] == "over":
                break
            mover = view["turn"]
            move = choose_move(latest[mover]["view"])
            command = {"type": "move", "id": f"m{version}", "version": version, "move": move_to_json(move)}
            await sockets[mover].send(json.dumps(command))
            # A hang guard, not a time limit (a move takes milliseconds on an idle machine).
            async with asyncio.timeout(60):
                while any(version + 1 not in frames[seat] for seat in (0, 1)):
                    if errors and errors[-1][1].get("code") == "rate_limited":
                        # A seat moving faster than a socket may send (a round at machine speed):
                        # sent again after the wait the server names, as the table page does
                        # (static/js/table/connection.js); nothing was applied.
                        _, refused = errors.pop()
                        await asyncio.sleep(refused["retry_after"])
                        await sockets[mover].send(json.dumps(command))
                    assert not errors, f"refused at version {version}: {errors}"
                    await asyncio.sleep(0.005)
    finally:
        for socket in sockets:
            await socket.close()
        for task in tasks:
            task.cancel()
    return [[frames[seat][v] for v in sorted(frames[seat]) if v > 0] for seat in (0, 1)]


@pytest.fixture
def played(server_url: str, transactional_db: None) -> dict[str, Any]:
    players = users(2)
    match = start_match("remik51", {}, players, SECRET)
    cookies = [cookie(user) for user in players]
    seat_frames = asyncio.run(_play_round_over_sockets(server_url, match.pk, cookies))
    match = Match.objects.get(pk=match.pk)
    moves = list(MoveRecord.objects.filter(match=match).order_by("seq").values_list("seat", "move"))
    record = {
        "format": "remi-record/1",
        "variant": "remik51",
        "options": dict(match.room.rules().options),
        "players": list(match.state["names"]),
        "seed": match.secret_bytes.hex(),
        "first": None,
        "moves": [{"seat": seat, "move": move} for seat, move in moves],
    }
    return {"frames": seat_frames, "record": record}


def test_the_worker_builds_the_frames_the_server_sent(
    played: dict[str, Any], server_url: str, browser: Any
) -> None:
    frames, record = played["frames"], played["record"]
    assert any(e["kind"] == "round_over" for e in frames[0][-1]["events"]), "the round was played to its end"
    # What the worker is asked: each seat's frame after each move, with the server's table facts.
    asks = [
        {
            "record": {**record, "moves": record["moves"][: frame["version"]]},
            "seat": seat,
            "version": frame["version"],
            "clock": frame.get("clock"),
            "seats": frame.get("seats"),
            "actor": frame.get("actor"),
        }
        for seat in (0, 1)
        for frame in frames[seat]
    ]
    page = open_path(browser, server_url, "/practice/?delay=0")
    page.wait_for_function("document.getElementById('practice').dataset.state === 'setup'", timeout=120_000)
    built = page.evaluate(
        """async (asks) => {
          const engine = window.remiPractice.state.engine;
          const out = [];
          for (const ask of asks) {
            const answer = await engine.call("frame_of_record", ask);
            out.push(answer.ok || answer);
          }
          return out;
        }""",
        asks,
    )
    assert js_errors(page) == []
    page.context.close()
    expected = [frame for seat in (0, 1) for frame in frames[seat]]
    assert len(built) == len(expected) > 20
    for mine, theirs in zip(built, expected, strict=True):
        assert mine == theirs, f"seat {theirs['view']['seat']}, version {theirs['version']}"
    assert {frame["view"]["seat"] for frame in built} == {0, 1}
    assert any(frame["events"] for frame in built)
