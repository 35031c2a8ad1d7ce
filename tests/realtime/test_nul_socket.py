"""NUL characters on the game socket (issue 32, item 11; docs/protocol.md, "Limits").

PostgreSQL's text fields cannot hold NUL (U+0000): a command id, a name or a reason holding one
reached the database and came back as ``server_error`` with a traceback. Every message is now
read by one function (``protocol.read_json``), which refuses a message holding NUL anywhere
(a value or a key) with ``malformed_message`` before anything else reads it; and a handshake
whose cookies hold one is closed with 4400 before the session is looked up.

Every kind of message, each with NUL in each of its strings, sent by the player to move (so that
the well-formed ones would be legal) and by a spectator: each is refused, the match is unchanged,
the socket stays open and nothing is logged at ERROR.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from typing import Any

import pytest
from channels.db import database_sync_to_async
from pytest_django.fixtures import Settings

from games.chat.models import ChatMessage, ChatMute, ChatReport
from games.play.models import Match, MoveRecord
from tests.realtime.sockets import TIMEOUT, Table, joined, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

NUL = "\u0000"


def _messages(table: Table) -> list[dict[str, Any]]:
    """Every kind of message the socket reads, well formed but for NUL in one of its strings."""
    card = table.mover.hand[0]
    kinds: list[dict[str, Any]] = [
        {"type": "move", "id": "m1", "version": 0, "move": {"kind": "discard", "card": card}},
        {"type": "move", "id": "m2", "version": 0, "move": {"kind": "draw"}},
        {"type": "resync", "id": "r1"},
        {"type": "away", "id": "a1"},
        {"type": "back", "id": "b1"},
        {"type": "chat", "id": "c1", "text": "dzień dobry"},
        {"type": "chat_history", "id": "h1"},
        {"type": "chat_mute", "id": "u1", "name": "bartek", "mute": True},
        {"type": "chat_report", "id": "p1", "message": 1, "reason": "obelgi"},
        {"type": "chat_delete", "id": "d1", "message": 1},
        {"type": "rematch", "id": "x1", "agree": True},
    ]
    spoiled: list[dict[str, Any]] = []
    for message in kinds:
        for key, value in message.items():
            if isinstance(value, str):
                spoiled.append({**message, key: value[:1] + NUL + value[1:]})
        spoiled.append({**message, "id": NUL})
        spoiled.append({**message, f"x{NUL}": 1})  # a key
        if "move" in message:
            move = message["move"]
            spoiled.append({**message, "move": {**move, "kind": move["kind"] + NUL}})
            if "card" in move:
                spoiled.append({**message, "move": {**move, "card": move["card"] + NUL}})
    return spoiled


def _snapshot(match_id: int) -> tuple[Any, ...]:
    match = Match.objects.get(pk=match_id)
    return (
        match.version,
        match.state,
        MoveRecord.objects.filter(match_id=match_id).count(),
        ChatMessage.objects.count(),
        ChatMute.objects.count(),
        ChatReport.objects.count(),
    )


@pytest.fixture
def roomy_budget(settings: Settings) -> None:
    settings.WS_RATE_LIMIT_BURST = 10_000
    settings.WS_ACCOUNT_RATE_LIMIT_BURST = 10_000
    settings.WS_CHAT_BURST = 10_000


@pytest.mark.timeout(120)
async def test_every_kind_of_message_holding_nul_is_refused_as_malformed(
    table: Table, roomy_budget: None, caplog: pytest.LogCaptureFixture
) -> None:
    messages = _messages(table)
    before = await database_sync_to_async(_snapshot)(table.match_id)
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.spectator) as (watcher, _),
    ):
        wrong: list[tuple[str, Any]] = []
        for socket in (mover, watcher):
            for message in messages:
                await socket.send_to(text_data=json.dumps(message))
                answer = await socket.receive_json_from(timeout=TIMEOUT)
                # Refused as unreadable, and no id echoed: an id is echoed only when it can be read.
                if (answer["type"], answer.get("code"), answer.get("id")) != (
                    "error",
                    "malformed_message",
                    None,
                ):
                    wrong.append((json.dumps(message), answer.get("code") or answer["type"]))
                while not await socket.receive_nothing(timeout=0.05):  # a fresh frame after an error
                    await socket.receive_json_from(timeout=TIMEOUT)
        assert dict(Counter(code for _, code in wrong)) == {}, wrong
        for socket in (mover, watcher):
            await socket.send_json_to({"type": "resync"})
            frame = await socket.receive_json_from(timeout=TIMEOUT)
            assert (frame["type"], frame["version"]) == ("state", 0)
    assert await database_sync_to_async(_snapshot)(table.match_id) == before
    logged = [
        record.getMessage()[:200]
        for record in caplog.records
        if record.levelno >= logging.ERROR or record.exc_info is not None
    ]
    assert logged == []


async def test_a_handshake_whose_session_cookie_holds_nul_is_closed_with_4400(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    # A quoted cookie value may write NUL as an octal escape, which the cookie parser decodes.
    for cookie in ('"\\000\\000\\000\\000\\000\\000\\000\\000"', f'"{table.mover.cookie}\\000"'):
        async with open_socket(table.match_id, cookie) as socket:
            connected, _ = await socket.connect(timeout=TIMEOUT)
            assert connected
            closed = await socket.receive_output(timeout=TIMEOUT)
            assert closed == {"type": "websocket.close", "code": 4400}, cookie
    logged = [record.getMessage()[:200] for record in caplog.records if record.levelno >= logging.ERROR]
    assert logged == []
