"""The published schema (``games/protocol.schema.json``, docs/protocol.md) describes every frame of
every variant: a bot match of each, every audience's frame after every move, and every command
the bots sent. The socket tests check the frames they receive against it too (tests/schema.py)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games import engine, protocol
from games.engine.bots import choose_move
from tests.schema import SCHEMA_PATH, assert_command, assert_frame

#: Enough moves for deals to end and new ones to start (knocks, lay-offs, round_over, match_over).
MOVES = 400


@pytest.mark.parametrize("variant", engine.variant_names())
def test_every_frame_of_a_bot_match_fits_the_published_schema(variant: str) -> None:
    rules = engine.variant(variant)
    players = min(3, rules.max_players)
    state = engine.new_game(
        rules, players=[f"p{n}" for n in range(players)], seed=f"schema {variant}".encode()
    )
    seats = protocol.seats([(n, n > 0, "connected", 0) for n in range(players)])
    clock = {"turn_seconds": 60, "turn_started": 1_800_000_000_000, "resume_at": None}
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
        for audience in [*range(players), None]:
            events = engine.events_for(transition.events, audience)
            kinds |= {event["kind"] for event in events}
            frame = protocol.state_frame(
                engine.view_for(state, audience), version + 1, events, clock=clock, seats=seats
            )
            assert_frame(json.loads(json.dumps(frame)))
    assert {"turn", "discarded"} <= kinds


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
