"""A practice game (games/practice/game.py), as the browser's worker runs it, here on CPython: the
player's commands, the bots' turns, take-backs, hints, the rack's question and the record that
keeps the game on the device and verifies like a site's (docs/practice.md, docs/record.md)."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games import engine
from games.engine.bots import choose_move
from games.engine.record_check import verify_record
from games.play import framing, rack
from games.practice import game as practice
from games.practice.game import Practice, PracticeError

SECRET = bytes.fromhex("ab" * 32)


def command(game: Practice, move: dict[str, Any], *, version: int | None = None) -> list[dict[str, Any]]:
    return game.command(
        {
            "type": "move",
            "id": f"c{game.version}",
            "version": game.version if version is None else version,
            "move": move,
        }
    )


def play_until(game: Practice, done: Any, limit: int = 2000) -> None:
    """The player plays the hard bot's move (the hint's); the bots play their own levels."""
    for _ in range(limit):
        if done(game):
            return
        if game.bot_to_move() is not None:
            game.bot_move()
        else:
            move, _transition = practice.bot_choice(game.state, game.player, "hard")
            frames = command(game, engine.move_to_json(move))
            assert frames[-1]["type"] == "state", frames
    raise AssertionError("the game did not get there")


@pytest.mark.parametrize(
    ("variant", "levels"),
    [("remik51", [None, "easy", "normal", "hard"]), ("gin", [None, "hard"]), ("remi", [None, "normal"])],
)
def test_a_played_round_is_kept_as_a_record_that_verifies(variant: str, levels: list[str | None]) -> None:
    names = ["Ana", *(f"Bot {seat + 1}" for seat in range(1, len(levels)))]
    game = Practice.start(variant, {}, levels=levels, names=names, secret=SECRET)
    play_until(game, lambda g: g.state.round_no > 1 or g.state.is_over)
    record = game.record()
    report = verify_record(json.loads(json.dumps(record)))
    assert report["ok"], report["problems"]
    assert report["rounds"][0]["finished"]
    assert report["rounds"][0]["commitment_ok"]
    assert report["rounds"][0]["seed_ok"]
    assert report["rounds"][0]["lines_ok"]
    replayed = engine.replay(record)
    assert engine.state_to_json(replayed) == engine.state_to_json(game.state)
    assert record["practice"]["levels"] == levels
    assert record["match"]["site"] == "practice"
    assert "id" not in record["match"]


def test_a_downloaded_record_verifies_on_the_command_line(tmp_path: Path) -> None:
    game = Practice.start("gin", {}, levels=[None, "normal"], names=["Ana", "Bot"], secret=SECRET)
    play_until(game, lambda g: g.state.round_no > 1)
    path = tmp_path / "practice.json"
    path.write_text(json.dumps(game.record()))
    for verb in ("verify", "replay"):
        done = subprocess.run(
            [sys.executable, "-m", "games.engine", verb, str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_a_refused_move_changes_nothing() -> None:
    game = Practice.start("remik51", {}, levels=[None, "normal"], names=["Ana", "Bot"], secret=SECRET)
    play_until(game, lambda g: g.bot_to_move() is None)
    before = (game.version, list(game.moves), engine.state_to_json(game.state))
    answer = command(game, {"kind": "discard", "card": "KS#9"})
    assert [frame["type"] for frame in answer] == ["error"]
    assert answer[0]["id"] == f"c{game.version}"
    assert (game.version, list(game.moves), engine.state_to_json(game.state)) == before
    assert command(game, {"kind": "fly"})[0]["code"] == "malformed_message"
    assert (game.version, list(game.moves)) == before[:2]


def test_a_stale_command_is_refused_with_the_current_frame() -> None:
    game = Practice.start("gin", {}, levels=[None, "normal"], names=["Ana", "Bot"], secret=SECRET)
    play_until(game, lambda g: g.bot_to_move() is None and g.version > 0)
    answer = command(game, {"kind": "draw"}, version=game.version - 1)
    assert answer[0]["code"] == "stale_version"
    assert answer[0]["current"] == game.version
    assert answer[1] == game.frame()


def test_the_bots_play_their_levels_from_their_own_view() -> None:
    """A bot's move is the engine's bot of its level, deciding from its seat's view (RMI-NET-2)."""
    game = Practice.start("remik51", {}, levels=[None, "easy", "hard"], names=["A", "B", "C"], secret=SECRET)
    seen = set()
    for _ in range(60):
        seat = game.bot_to_move()
        if seat is None:
            command(game, game.hint()["move"])
            continue
        expected = choose_move(engine.view_for(game.state, seat), level=game.levels[seat])
        answer = game.bot_move()
        assert answer["seat"] == seat
        assert answer["level"] == game.levels[seat]
        assert game.moves[-1] == (seat, expected)
        assert answer["ms"] >= 0
        assert answer["frame"]["view"]["seat"] == 0  # the player's frame, never the bot's view
        seen.add(answer["level"])
    assert seen == {"easy", "hard"}


def test_take_back_returns_the_turn_and_a_newer_frame() -> None:
    game = Practice.start(
        "remik51", {}, levels=[None, "normal", "normal"], names=["A", "B", "C"], secret=SECRET
    )
    play_until(game, lambda g: g.bot_to_move() is None and len(g.moves) > 3)
    position = engine.state_to_json(game.state)
    moves = len(game.moves)
    command(game, game.hint()["move"])
    play_until(game, lambda g: g.bot_to_move() is None)  # the player's move, then the bots'
    assert len(game.moves) > moves
    version = game.version
    answer = game.take_back()
    assert engine.state_to_json(game.state) == position
    assert len(game.moves) == moves
    assert answer["undone"] >= 1
    assert answer["frame"]["version"] > version  # the table takes only newer frames
    assert game.take_backs == 1
    assert verify_record(game.record())["ok"]


def test_take_back_needs_a_move_of_the_player() -> None:
    game = Practice.start("gin", {}, levels=[None, "normal"], names=["A", "B"], secret=SECRET)
    with pytest.raises(PracticeError):
        game.take_back()


def test_a_game_resumes_from_its_record_at_the_same_position() -> None:
    game = Practice.start(
        "remi", {}, levels=[None, "hard"], names=["A", "B"], secret=SECRET, started="2026-01-02"
    )
    play_until(game, lambda g: len(g.moves) > 12 and g.bot_to_move() is None)
    game.hint()
    record = json.loads(json.dumps(game.record()))
    again = Practice.resume(record)
    assert engine.state_to_json(again.state) == engine.state_to_json(game.state)
    assert again.frame()["view"] == game.frame()["view"]
    assert again.version >= game.version
    assert again.hints == 1
    assert again.started == "2026-01-02"
    record["moves"][3]["seat"] = 1 - record["moves"][3]["seat"]
    with pytest.raises(PracticeError, match="move 4"):
        Practice.resume(record)
    with pytest.raises(PracticeError):
        Practice.resume({**record, "practice": None})


def test_the_hint_is_the_hard_bots_move_with_the_opening_points() -> None:
    """Remik 51: following the hints, the player's opening comes as a hint that lays the hard
    bot's melds and gives their points against the 51 needed (R51-31)."""
    game = Practice.start("remik51", {}, levels=[None, "normal"], names=["A", "B"], secret=SECRET)
    for _ in range(400):
        if game.bot_to_move() is not None:
            game.bot_move()
            continue
        hint = game.hint()
        expected = choose_move(engine.view_for(game.state, 0), level="hard")
        assert hint["move"] == engine.move_to_json(expected)
        reason = hint["reason"]
        if reason.get("melds") and "opening" in reason:
            assert reason["opening"]["required_points"] == 51
            assert reason["points"] == sum(m["points"] for m in reason["melds"])
            assert reason["points"] >= 51
            assert reason["opening"]["opens"]
            assert reason["hand_after"] == len(game.state.hands[0]) - sum(
                len(m["cards"]) for m in reason["melds"]
            )
            return
        command(game, hint["move"])
    pytest.fail("the player never opened")


def test_the_rack_question_is_answered_as_over_http() -> None:
    game = Practice.start("remik51", {}, levels=[None, "normal"], names=["A", "B"], secret=SECRET)
    hand = game.frame()["view"]["hand"]
    query = {"groups": [hand[:3], hand[3:6]], "move": {"kind": "play"}}
    answer = game.rack(query)
    assert answer == {"version": game.version, **rack.check(game.state, game.player, query)}
    assert game.rack({"groups": "x"})["error"]["code"] == "malformed_query"


def test_the_workers_door_answers_json() -> None:
    started = json.loads(
        practice.call("start", json.dumps({"variant": "gin", "levels": [None, "easy"], "names": ["A", "B"]}))
    )
    assert started["ok"]["frame"]["type"] == "state"
    assert started["record"]["format"] == "remi-record/1"
    assert json.loads(practice.call("fly"))["error"]["code"] == "practice_error"
    refused = json.loads(
        practice.call(
            "start",
            json.dumps(
                {"variant": "gin", "options": {"target": 0}, "levels": [None, "x"], "names": ["A", "B"]}
            ),
        )
    )
    assert "error" in refused
    assert json.loads(practice.call("warm"))["ok"]["levels"]


def test_frame_of_record_is_the_frame_the_game_shows() -> None:
    game = Practice.start(
        "knock108", {}, levels=[None, "normal", "hard"], names=["A", "B", "C"], secret=SECRET
    )
    play_until(game, lambda g: len(g.moves) >= 9)
    built = practice.frame_of_record(
        {"record": game.record(), "seat": 0, "version": game.version, "seats": game.seats()}
    )
    assert built == game.frame(game.events)
    assert built == framing.frame_for(
        game.state, 0, version=game.version, events=game.events, seats=game.seats()
    )


@pytest.mark.parametrize("module", [framing, rack, practice])
def test_the_examples_in_the_docstrings_run(module: Any) -> None:
    failed, tried = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried
    assert not failed


@pytest.mark.parametrize("language", ["pl", "ro"])
def test_a_refusal_is_worded_as_the_sites_socket_words_it(language: str) -> None:
    """The page hands the worker the refusals' texts in its language; the worker's error frame
    then says what the site's socket says to a player of that language (games/shared/i18n_errors.py)."""
    from django.utils import translation

    from games.shared.i18n_errors import MESSAGES, translated_message

    with translation.override(language):
        catalog = {key: translation.gettext(text) for key, text in MESSAGES.items()}
    assert json.loads(practice.call("language", json.dumps(catalog)))["ok"]["texts"] == len(MESSAGES)
    try:
        started = json.loads(
            practice.call(
                "start", json.dumps({"variant": "remik51", "levels": [None, "normal"], "names": ["A", "B"]})
            )
        )
        while started["bot"] is not None:
            started = json.loads(practice.call("bot"))
        frame = started["ok"]["frame"]
        wrong = {"kind": "discard", "card": "KS#9"} if frame["view"]["phase"] == "play" else {"kind": "pass"}
        command = {"type": "move", "id": "c1", "version": frame["version"], "move": wrong}
        refused = json.loads(practice.call("command", json.dumps(command)))["ok"]["frames"][0]
        assert refused["type"] == "error"
        english = practice.Practice.resume(started["record"]).command(command)[0]
        assert refused["message"] == translated_message(english["code"], english, language)
        assert refused["message"] != english["message"]
    finally:
        practice.call("language", "{}")
