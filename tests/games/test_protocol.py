import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import games.protocol
from games.engine import Discard, IllegalMoveError, parse_card
from games.errors import NotSeatedError, StaleVersionError
from games.protocol import (
    MAX_ID_LENGTH,
    MalformedMessageError,
    ack_frame,
    decode_command,
    error_frame,
    state_frame,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_module_examples_hold() -> None:
    failures, _ = doctest.testmod(games.protocol)
    assert failures == 0


def test_a_move_command_is_read_from_text_or_parsed_json() -> None:
    text = '{"type": "move", "id": 7, "version": 2, "move": {"kind": "discard", "card": "7H#1"}}'
    command = decode_command(text)
    assert (command.id, command.version, command.move) == (7, 2, Discard(parse_card("7H#1")))
    assert decode_command({"version": 0, "move": {"kind": "draw"}}).id is None


@pytest.mark.parametrize(
    "data",
    [
        "not json",
        b"\xff",
        [],
        {"type": "chat", "version": 1, "move": {"kind": "draw"}},
        {"move": {"kind": "draw"}},
        {"version": "1", "move": {"kind": "draw"}},
        {"version": True, "move": {"kind": "draw"}},
        {"version": -1, "move": {"kind": "draw"}},
        {"version": 1},
        {"version": 1, "move": {"kind": "discard"}},
        {"version": 1, "move": {"kind": "discard", "card": "ZZ"}},
        {"version": 1, "move": {"kind": "play", "melds": "7H"}},
        {"version": 1, "id": {"x": 1}, "move": {"kind": "draw"}},
        {"version": 1, "id": "", "move": {"kind": "draw"}},
        {"version": 1, "id": "x" * (MAX_ID_LENGTH + 1), "move": {"kind": "draw"}},
        {"version": 1, "id": 10**MAX_ID_LENGTH, "move": {"kind": "draw"}},
    ],
)
def test_anything_unreadable_is_a_malformed_message(data: object) -> None:
    with pytest.raises(MalformedMessageError) as caught:
        decode_command(data)
    assert caught.value.code == "malformed_message"


def test_the_stored_command_id_is_the_id_as_text() -> None:
    assert decode_command({"id": "a" * MAX_ID_LENGTH, "version": 0, "move": {"kind": "draw"}}).command_id == (
        "a" * MAX_ID_LENGTH
    )
    assert decode_command({"id": 7, "version": 0, "move": {"kind": "draw"}}).command_id == "7"
    assert decode_command({"version": 0, "move": {"kind": "draw"}}).command_id is None


def test_an_ack_frame_names_the_command_and_the_current_version() -> None:
    assert ack_frame(7, version=3) == {"type": "ack", "id": 7, "version": 3, "duplicate": True}


def test_error_frames_carry_the_code_and_the_structured_fields() -> None:
    assert error_frame(StaleVersionError(current=5), "a") == {
        "type": "error",
        "id": "a",
        "code": "stale_version",
        "message": "the game is at version 5",
        "current": 5,
    }
    assert error_frame(NotSeatedError())["code"] == "not_seated"
    assert error_frame(IllegalMoveError("no"))["code"] == IllegalMoveError.code


def test_an_unexpected_exception_is_reported_without_details() -> None:
    frame = error_frame(RuntimeError("database password is hunter2"), 1)
    assert frame["code"] == "server_error"
    assert "hunter2" not in str(frame)


def test_a_state_frame_wraps_a_view_with_its_version() -> None:
    assert state_frame({"turn": 0}, 3, [{"kind": "drew"}]) == {
        "type": "state",
        "version": 3,
        "view": {"turn": 0},
        "events": [{"kind": "drew"}],
    }


def test_the_protocol_and_the_errors_load_no_django() -> None:
    # The wire format stays pure like the engine: a consumer, a test or a tool can use it alone.
    code = (
        "import sys, games.protocol, games.errors;"
        "print(any(m.split('.')[0] in ('django', 'channels', 'asgiref') for m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "False"
