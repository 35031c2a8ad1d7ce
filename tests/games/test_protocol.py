import doctest
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import games.play.protocol
import games.shared.errors
from games.engine import (
    CodedError,
    Discard,
    IllegalMoveError,
    Play,
    apply_move,
    parse_card,
    parse_cards,
    position,
    variant,
)
from games.engine import errors as engine_errors
from games.play.protocol import (
    MAX_ID_LENGTH,
    MalformedMessageError,
    ack_frame,
    decode_command,
    error_frame,
    state_frame,
)
from games.shared.errors import GameError, NotSeatedError, StaleVersionError

ROOT = Path(__file__).resolve().parents[2]


def test_the_module_examples_hold() -> None:
    failures, _ = doctest.testmod(games.play.protocol)
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


def test_an_engine_error_and_an_application_error_leave_in_one_shape() -> None:
    # R51-31: an opening of 9 points; the frame carries the rule and the numbers, as an HTTP
    # answer built from the same to_dict() does (the Polish text is built from them).
    state = position(variant("remik51"), hands=["2S 3S 4S 9H", "5C"], turn=0, phase="play")
    with pytest.raises(IllegalMoveError) as refused:
        apply_move(state, 0, Play(melds=(parse_cards("2S 3S 4S"),)))
    frame = error_frame(refused.value, "c1")
    assert frame == {"type": "error", "id": "c1", **refused.value.to_dict()}
    assert (frame["code"], frame["rule"], frame["points"], frame["needed"]) == (
        "opening_too_low",
        "R51-31",
        9,
        51,
    )
    stale = StaleVersionError(current=5)
    assert isinstance(stale, CodedError)
    assert isinstance(refused.value, CodedError)
    assert (stale.fields, stale.rule) == ({"current": 5}, None)
    assert error_frame(stale, "a") == {"type": "error", "id": "a", **stale.to_dict()}


def _codes(module: object, base: type) -> dict[str, str]:
    return {
        name: cls.code
        for name, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, base) and cls.__module__ == getattr(module, "__name__", "")
    }


def test_application_error_codes_are_pinned() -> None:
    from games.consumers import RateLimitedError

    assert _codes(games.shared.errors, GameError) == {
        "AlreadySeatedError": "already_seated",
        "AnalysisQueueFullError": "analysis_queue_full",
        "AnalysisRateLimitedError": "analysis_rate_limited",
        "BadOptionsError": "bad_options",
        "ChatEmptyError": "chat_empty",
        "ChatMessageNotFoundError": "chat_message_not_found",
        "ChatRateLimitedError": "chat_rate_limited",
        "ChatSilencedError": "chat_silenced",
        "ChatTooLongError": "chat_too_long",
        "ChatTooManyMarksError": "chat_too_many_marks",
        "DailyAlreadyPlayedError": "daily_already_played",
        "DailyAnalysisSealedError": "daily_analysis_sealed",
        "DailyNoSuchDealError": "daily_no_such_deal",
        "DailySealedError": "daily_sealed",
        "GameError": "game_error",
        "MatchNotFoundError": "match_not_found",
        "MatchOverError": "match_over",
        "MuteTargetError": "mute_target",
        "NotBotTurnError": "not_bot_turn",
        "NotOwnerError": "not_owner",
        "NotSeatedError": "not_seated",
        "NotStaffError": "not_staff",
        "RankedNoBotsError": "ranked_no_bots",
        "RematchUnavailableError": "rematch_unavailable",
        "ReplayBusyError": "replay_busy",
        "ReplayRateLimitedError": "replay_rate_limited",
        "ReplayTooLongError": "replay_too_long",
        "RoomFullError": "room_full",
        "RoomNotFoundError": "room_not_found",
        "RoomNotOpenError": "room_not_open",
        "RoomNotReadyError": "room_not_ready",
        "RoundInPlayError": "round_in_play",
        "RoundNotFoundError": "round_not_found",
        "RoundPauseError": "round_pause",
        "SeatTakenError": "seat_taken",
        "StaleVersionError": "stale_version",
    }
    assert (MalformedMessageError.code, RateLimitedError.code) == ("malformed_message", "rate_limited")


def test_every_error_code_is_listed_in_docs_protocol_md() -> None:
    from games.consumers import RateLimitedError

    listed = set(re.findall(r"`([a-z_]+)`", (ROOT / "docs" / "protocol.md").read_text()))
    codes = {
        cls.code
        for cls in vars(engine_errors).values()
        if isinstance(cls, type) and issubclass(cls, CodedError)
    }
    codes |= set(_codes(games.shared.errors, GameError).values())
    codes |= {MalformedMessageError.code, RateLimitedError.code, "server_error"}
    codes -= {CodedError.code, GameError.code}  # bases: never raised as such
    assert sorted(codes - listed) == []


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
        "import sys, games.play.protocol, games.shared.errors;"
        "print(any(m.split('.')[0] in ('django', 'channels', 'asgiref') for m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "False"
