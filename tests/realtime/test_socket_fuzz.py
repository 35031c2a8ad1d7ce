"""A bounded fuzz of the game socket (issue 19): every malformed shape we can think of, plus
seeded random ones, over a real socket (``remi_site.asgi.application``).

For every message: an ``error`` frame comes back with a stable code and the socket stays open;
at the end the socket still answers a resync, the match has not changed (version, stored state,
move log), and nothing was logged at ERROR or with a traceback. Sent by a seated player who is
not to move and by a spectator, so that no message can be a legal move by chance (and no
well-formed ``away``/``back``: those are commands, answered to everyone).
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from pytest_django.fixtures import Settings

from games.play.models import Match, MoveRecord
from tests.realtime.sockets import TIMEOUT, Table, joined

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 19
RANDOM_MESSAGES = 250
#: Codes a refusal of bad input may have (anything else, e.g. server_error, is a failure).
EXPECTED = {"malformed_message", "not_your_turn", "not_seated", "stale_version", "rate_limited"}

DEEP = 100_000

FIXED_TEXTS: list[str] = [
    "",
    " ",
    "null",
    "true",
    "0",
    "-1",
    "1e999",
    "NaN",
    "Infinity",
    '"move"',
    "[]",
    "{}",
    "{",
    "}",
    "[" * DEEP,
    "[" * DEEP + "]" * DEEP,
    '{"a":' * 50_000 + "1" + "}" * 50_000,
    '{"type":"move","move":' + "[" * DEEP + "]" * DEEP + "}",
    '{"type":"move","version":0,"move":{"kind":"play","melds":' + "[" * 20 + "]" * 20 + "}}",
    json.dumps({"type": "move", "version": 0, "move": {"kind": "draw"}, "pad": "x" * 200_000}),
    json.dumps({"type": "move", "id": "x" * 10_000, "version": 0, "move": {"kind": "draw"}}),
    json.dumps({"type": "move", "version": 0, "move": {"kind": "play", "melds": [["2S#1"] * 3000]}}),
    json.dumps({"type": "move", "version": 10**40, "move": {"kind": "draw"}}),
    json.dumps({"type": "move", "version": -1, "move": {"kind": "draw"}}),
    json.dumps({"type": "move", "version": 1.5, "move": {"kind": "draw"}}),
    json.dumps({"type": "move", "version": "0", "move": {"kind": "draw"}}),
    json.dumps({"type": "move", "version": True, "move": {"kind": "draw"}}),
    json.dumps({"type": "move", "id": 10**40, "version": 0, "move": {"kind": "draw"}}),
    json.dumps({"type": "move", "id": True, "version": 0, "move": {"kind": "draw"}}),
    json.dumps({"type": "move", "id": [], "version": 0, "move": {"kind": "draw"}}),
    json.dumps({"type": "move", "id": "", "version": 0, "move": {"kind": "draw"}}),
    json.dumps({"type": "dance"}),
    json.dumps({"type": None}),
    json.dumps({"type": ["move"]}),
    json.dumps({"type": {"resync": 1}}),
    json.dumps(["resync"]),
    '{"type": "move", "version": NaN, "move": {"kind": "draw"}}',
    '{"type": "move", "version": 0, "move": {"kind": "discard", "card": "\\u0000"}}',
    '{"type": "move", "version": 0, "move": {"kind": "discard", "card": "\\ud800"}}',
    json.dumps({"type": "move", "version": 0, "move": {"kind": "discard", "card": "10h"}}),
    json.dumps({"type": "move", "version": 0, "move": {"kind": "discard", "card": "t h"}}),
    json.dumps({"type": "move", "version": 0, "move": {"kind": "discard", "card": "JK#99999(ZZ)"}}),
    json.dumps(
        {
            "type": "move",
            "version": 0,
            "move": {"kind": "play", "layoffs": [{"meld": 10**30, "cards": ["2S"]}]},
        }
    ),
    json.dumps(
        {"type": "move", "version": 0, "move": {"kind": "play", "layoffs": [{"meld": -5, "cards": []}]}}
    ),
    json.dumps(
        {"type": "move", "version": 0, "move": {"kind": "play", "exchanges": [{"meld": "1", "card": 3}]}}
    ),
    json.dumps({"type": "move", "version": 0, "move": {"kind": "take", "card": {"a": 1}}}),
    json.dumps({"type": "move", "version": 0, "move": {"kind": "knock", "melds": "2S 3S 4S"}}),
    json.dumps({"type": "move", "version": 0, "move": None}),
    json.dumps({"type": "move", "version": 0, "move": []}),
    json.dumps({"type": "move", "version": 0}),
]

KINDS = ["draw", "take", "play", "discard", "pass", "knock", "fly", "", None, 1, ["draw"]]
FIELDS = ["card", "cards", "melds", "layoffs", "exchanges", "meld", "kind", "id", "version", "type", "move"]


def _junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value, shallow or deep, of every type."""
    pick = rng.randrange(12 if depth < 4 else 7)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 1, 2**31, 2**63, -(2**70), 10**30])
    if pick == 3:
        return rng.choice([0.5, -1e300, 1e300])
    if pick == 4:
        return rng.choice(
            ["", "2S", "2S#1", "JK", "JK#1(AS)", "ZZ", "ąę", "\u202e", "a" * rng.randrange(100)]
        )
    if pick == 5:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 12)))
    if pick == 6:
        return rng.choice(KINDS)
    if pick in (7, 8):
        return [_junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(FIELDS): _junk(rng, depth + 1) for _ in range(rng.randrange(4))}


def _random_messages(rng: random.Random) -> Iterator[str]:
    for _ in range(RANDOM_MESSAGES):
        shape = rng.randrange(4)
        if shape == 0:
            yield json.dumps(_junk(rng))
        elif shape == 1:
            yield json.dumps(
                {
                    "type": rng.choice(["move", "resync", "x", "Resync", "MOVE"]),
                    **{rng.choice(FIELDS): _junk(rng) for _ in range(rng.randrange(4))},
                }
            )
        else:
            move = {
                "kind": rng.choice(KINDS),
                **{rng.choice(FIELDS): _junk(rng) for _ in range(rng.randrange(4))},
            }
            yield json.dumps(
                {"type": "move", "id": rng.randrange(10**6), "version": rng.choice([0, 1, 7]), "move": move}
            )


def _snapshot(match_id: int) -> tuple[Any, ...]:
    match = Match.objects.get(pk=match_id)
    return match.version, match.state, MoveRecord.objects.filter(match_id=match_id).count()


@pytest.fixture
def roomy_budget(settings: Settings) -> None:
    settings.WS_RATE_LIMIT_BURST = 10_000
    settings.WS_ACCOUNT_RATE_LIMIT_BURST = 10_000


@pytest.mark.timeout(120)
async def test_no_message_kills_the_socket_changes_the_game_or_logs_a_traceback(
    table: Table, roomy_budget: None, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(SEED)
    texts = [*FIXED_TEXTS, *_random_messages(rng)]
    before = await database_sync_to_async(_snapshot)(table.match_id)
    codes: dict[str, int] = {}
    async with (
        joined(table.match_id, table.other) as (player, _),
        joined(table.match_id, table.spectator) as (
            watcher,
            _,
        ),
    ):
        for number, text in enumerate(texts):
            socket = player if number % 3 else watcher
            # (send_to refuses an empty text; the server may still receive one)
            await socket.send_input({"type": "websocket.receive", "text": text})
            answer = await socket.receive_json_from(timeout=TIMEOUT)
            if answer["type"] == "state":  # a well-formed resync, or an away/back answered by a frame
                continue
            assert answer["type"] == "error", (text[:200], answer)
            assert answer["code"] in EXPECTED, (text[:200], answer)
            codes[answer["code"]] = codes.get(answer["code"], 0) + 1
            if answer["code"] == "stale_version":
                assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "state"
        # Binary frames too.
        await player.send_to(bytes_data=b"\xff\xfe\x00garbage")
        assert (await player.receive_json_from(timeout=TIMEOUT))["code"] == "malformed_message"
        for socket in (player, watcher):
            await socket.send_json_to({"type": "resync"})
            frame = await socket.receive_json_from(timeout=TIMEOUT)
            assert (frame["type"], frame["version"]) == ("state", 0)
            assert await socket.receive_nothing(timeout=0.2)
    assert await database_sync_to_async(_snapshot)(table.match_id) == before
    assert codes.get("malformed_message", 0) > 100
    logged = [
        record.getMessage()[:200]
        for record in caplog.records
        if record.levelno >= logging.ERROR or record.exc_info is not None
    ]
    assert logged == []
