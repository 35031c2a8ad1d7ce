"""The published schema (``games/play/protocol.schema.json``, docs/protocol.md) describes every frame of
every variant: a bot match of each, every audience's frame after every move, and every command
the bots sent. The socket tests check the frames they receive against it too (tests/schema.py)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client

from games import engine
from games.engine.bots import choose_move
from games.play import protocol
from tests.effort import effort
from tests.schema import SCHEMA_PATH, assert_command, assert_frame, fast_accepts, slow_accepts

#: Enough moves for every kind of turn (draws, takes, melds, lay-offs, knocks, the gin family's
#: deals ending); whole rounds and matches, with their round_over and match_over events, are
#: checked frame by frame by the socket tests (tests/realtime/test_whole_match_frames.py).
MOVES = 150
#: Two seats, the second a bot; a running turn clock.
SEATS = protocol.seats([(n, n > 0, "connected", 0) for n in range(2)])
CLOCK = {"turn_seconds": 60, "turn_started": 1_800_000_000_000, "resume_at": None}


def _frame(state: engine.GameState, version: int, events: Any, audience: int | None) -> dict[str, Any]:
    """The state frame ``audience`` receives at ``version``, as JSON gives it back."""
    frame = protocol.state_frame(engine.view_for(state, audience), version, events, clock=CLOCK, seats=SEATS)
    return dict(json.loads(json.dumps(frame)))


@pytest.mark.parametrize("variant", engine.variant_names())
def test_every_frame_of_a_bot_match_fits_the_published_schema(variant: str) -> None:
    state = engine.new_game(engine.variant(variant), players=["p0", "p1"], seed=f"schema {variant}".encode())
    kinds: set[str] = set()
    for version in range(MOVES):
        if state.is_over:
            break
        move = choose_move(engine.view_for(state, state.turn))
        assert_command(
            {"type": "move", "id": version + 1, "version": version, "move": engine.move_to_json(move)}
        )
        transition = engine.apply_move(state, state.turn, move)
        state = transition.state
        for audience in [0, 1, None]:
            events = engine.events_for(transition.events, audience)
            kinds |= {event["kind"] for event in events}
            assert_frame(_frame(state, version + 1, events, audience))
    assert {"turn", "discarded"} <= kinds


#: Broken copies of frames on which the two validators of tests/schema.py must agree, per variant.
MUTANTS = effort(60, 300)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (the keys of objects, the indexes of arrays)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


def _mutant(frame: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A copy of ``frame`` with one thing broken at a random place: a key gone, a value of
    another type or out of range, an unknown key."""
    broken = json.loads(json.dumps(frame))
    path = rng.choice(_paths(broken)[1:])
    parent = broken
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    how = rng.choice(["drop", "null", "text", "negative", "float", "list", "extra"])
    if how == "drop":
        del parent[last]
    elif how == "extra":
        target = parent[last]
        if isinstance(target, dict):
            target["unexpected"] = 1
        else:
            parent[last] = {"unexpected": 1}
    else:
        parent[last] = {"null": None, "text": "x", "negative": -1, "float": 0.5, "list": []}[how]
    return broken


@pytest.mark.parametrize("variant", engine.variant_names())
def test_the_fast_validator_agrees_with_jsonschema_on_frames_and_broken_frames(variant: str) -> None:
    """tests/schema.py lets a compiled draft-07 validator pass what it accepts: it must accept
    exactly what the Draft 2020-12 judge accepts, on real frames and on broken copies of them."""
    state = engine.new_game(engine.variant(variant), players=["p0", "p1"], seed=f"agree {variant}".encode())
    frames = []
    for version in range(40):
        if state.is_over:
            break
        transition = engine.apply_move(state, state.turn, choose_move(engine.view_for(state, state.turn)))
        state = transition.state
        audience = version % 2
        frames.append(_frame(state, version + 1, engine.events_for(transition.events, audience), audience))
    rng = random.Random(f"mutants {variant}")
    refused = 0
    for frame in frames[:: max(1, len(frames) // 8)]:
        assert fast_accepts("frame", frame)
        assert slow_accepts("frame", frame)
    for _ in range(MUTANTS):
        broken = _mutant(rng.choice(frames), rng)
        verdict = slow_accepts("frame", broken)
        assert fast_accepts("frame", broken) == verdict, json.dumps(broken)[:500]
        refused += not verdict
    assert refused > MUTANTS // 2  # the mutations do break frames


def test_a_frame_the_fast_validator_refuses_is_explained_by_jsonschema() -> None:
    frame = json.loads(json.dumps(protocol.ack_frame("c4", version=3)))
    frame["version"] = "three"
    with pytest.raises(AssertionError, match=r"not a frame of docs/protocol.md: \$"):
        assert_frame(frame)


def test_error_and_ack_frames_fit_it_too() -> None:
    assert_frame(protocol.error_frame(protocol.MalformedMessageError("not JSON")))
    assert_frame(protocol.ack_frame("c4", version=3))
    for command in ({"type": "resync"}, {"type": "away", "id": "a1"}, {"type": "back"}):
        assert_command(command)
    with pytest.raises(AssertionError, match="not a command"):
        assert_command({"type": "move", "version": 0, "move": {"kind": "discard", "card": "10h"}})


@pytest.mark.django_db
def test_the_schema_is_served_at_its_url() -> None:
    response = Client().get("/protocol.schema.json")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/schema+json")
    assert json.loads(response.content) == json.loads(SCHEMA_PATH.read_text())
