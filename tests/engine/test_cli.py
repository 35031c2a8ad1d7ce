"""The terminal front end: ``python -m games.engine play | replay | record-demo | verify``."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import (
    Discard,
    DrawStock,
    Exchange,
    Knock,
    LayOff,
    Pass,
    Play,
    TakeDiscard,
    position,
    variant,
)
from games.engine.cards import parse_card, parse_cards
from games.engine.errors import MalformedCardError, MalformedMoveError
from games.engine.records import record_from_json, replay
from games.engine.tools.cli import TerminalGame, command_for, main, parse_command

ROOT = Path(__file__).resolve().parents[2]


#: A hang guard, not a bound the test checks: a bots-only match took 60 s of wall time on a machine
#: at load average 20 (a fresh-clone ``make test`` beside other runs) and failed at the old 60 s.
HANG_GUARD = 600


def run_cli(*args: str, stdin: str = "", timeout: float = HANG_GUARD) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        check=False,
    )


# --- whole programs --------------------------------------------------------------------------------


def test_a_bots_only_match_plays_to_the_end() -> None:
    result = run_cli("play", "remik51", "--seats", "2", "--bots", "2", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert "Match over after" in result.stdout
    assert "Winner:" in result.stdout
    assert "Bot1 discards" in result.stdout
    assert "--- Round 1 over" in result.stdout
    assert result.stderr == ""


def test_a_human_plays_from_piped_commands_and_sees_the_error_codes() -> None:
    commands = ["help", "hint", "hand", "table", "scores", "fly away", "discard QQ", "draw", "draw"]
    commands += ["bot"] * 600  # let the bot play the human's seat to the end
    result = run_cli(
        "play",
        "remik51",
        "--seats",
        "2",
        "--bots",
        "1",
        "--seed",
        "3",
        "--option",
        "penalty_limit=100",
        stdin="\n".join(commands) + "\n",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Commands (cards in notation" in out  # help
    assert "the bot would play:" in out  # hint
    assert "[malformed_move] unknown command 'fly'" in out
    assert "[malformed_card] 'QQ' is not a card" in out
    # One of the two draws comes in the play phase, whoever is dealt the first turn.
    assert "! illegal move [wrong_phase]: cannot draw now" in out
    assert "=== Remik 51 · round 1 · You to play" in out
    assert "Match over after" in out
    assert "Traceback" not in out + result.stderr


def test_end_of_input_leaves_the_game_cleanly() -> None:
    result = run_cli("play", "remi", "--seats", "3", "--bots", "2", "--seed", "4", stdin="hint\n")
    assert result.returncode == 0
    assert "You left the game." in result.stdout
    assert "Atu    :" in result.stdout
    assert "Discard row (oldest -> newest)" in result.stdout


def test_replaying_a_demo_record_prints_the_replayed_totals(tmp_path: Path) -> None:
    path = tmp_path / "demo.json"
    result = run_cli(
        "record-demo",
        "remik51",
        "--bots-only",
        "--seats",
        "3",
        "--seed",
        "5",
        "--out",
        str(path),
        "--option",
        "penalty_limit=100",
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(path.read_text())
    state = replay(record_from_json(data))
    assert state.phase == "over"

    result = run_cli("replay", str(path))
    assert result.returncode == 0, result.stderr
    match = re.search(r"^Totals: (.*)$", result.stdout, re.MULTILINE)
    assert match is not None
    printed = dict(re.findall(r"(\S+) (-?\d+)", match.group(1)))
    assert printed == {name: str(total) for name, total in zip(state.names, state.totals, strict=True)}
    winners = " and ".join(state.names[s] for s in state.winners)
    assert f"Winner: {winners}." in result.stdout
    for result_line in state.results:
        assert f"--- Round {result_line.round_no} over" in result.stdout

    verified = run_cli("verify", str(path), "1")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "Deal verified." in verified.stdout


def test_a_remi_demo_record_replays_too(tmp_path: Path) -> None:
    path = tmp_path / "remi.json"
    assert (
        main(
            ["record-demo", "remi", "--seats", "2", "--seed", "2", "--out", str(path), "-o", "rounds=1"],
            stdout=io.StringIO(),
        )
        == 0
    )
    out = io.StringIO()
    assert main(["replay", str(path)], stdout=out) == 0
    state = replay(json.loads(path.read_text()))
    assert f"Totals: {state.names[0]} {state.totals[0]}, {state.names[1]} {state.totals[1]}" in out.getvalue()


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "/nonexistent/record.json"],
        ["play", "remik51", "--option", "jokers_per_deck=4"],
        ["play", "remik51", "--option", "nonsense"],
        ["play", "remik51", "--seats", "9", "--bots", "9"],
        ["play", "remik51", "--seats", "2", "--bots", "3"],
        ["play", "whist"],
        ["verify", "/nonexistent/record.json", "1"],
    ],
)
def test_bad_usage_exits_with_2_and_no_traceback(args: list[str]) -> None:
    result = run_cli(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout


def test_a_record_with_a_refused_move_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    main(
        [
            "record-demo",
            "remik51",
            "--seats",
            "2",
            "--seed",
            "1",
            "--out",
            str(path),
            "-o",
            "penalty_limit=50",
        ],
        stdout=io.StringIO(),
    )
    data = json.loads(path.read_text())
    data["moves"][1] = {"seat": data["moves"][1]["seat"], "move": {"kind": "discard", "card": "JK#9"}}
    path.write_text(json.dumps(data))
    err = io.StringIO()
    old, sys.stderr = sys.stderr, err
    try:
        assert main(["replay", str(path)], stdout=io.StringIO()) == 2
    finally:
        sys.stderr = old
    assert "move 2" in err.getvalue()


# --- the command language ----------------------------------------------------------------------------


def test_commands_parse_into_moves() -> None:
    assert parse_command("draw").move == DrawStock()
    assert parse_command("x 7H").move == Discard(parse_card("7H"))
    assert parse_command("take 3H meld 3H 4H 5H").move == TakeDiscard(
        parse_card("3H"), Play(melds=(parse_cards("3H 4H 5H"),))
    )
    assert parse_command("take meld 3H 4H 5H").move == TakeDiscard(
        None, Play(melds=(parse_cards("3H 4H 5H"),))
    )
    assert parse_command("meld 9S TS JS, 8H 8D 8C add 3 TH, 4 5C 6C").move == Play(
        melds=(parse_cards("9S TS JS"), parse_cards("8H 8D 8C")),
        layoffs=(LayOff(3, parse_cards("TH")), LayOff(4, parse_cards("5C 6C"))),
    )
    assert parse_command("swap 2 5D meld 9S 9H JK(9D)").move == Play(
        melds=(parse_cards("9S 9H JK(9D)"),), exchanges=(Exchange(2, parse_card("5D")),)
    )
    # A bare take (gin's up-card) is read; Remik and Remi refuse it in the engine.
    assert parse_command("take 3H").move == TakeDiscard(parse_card("3H"))
    assert parse_command("pass").move == Pass()
    assert parse_command("knock 7H meld 2S 3S 4S").move == Knock(parse_card("7H"), (parse_cards("2S 3S 4S"),))
    assert parse_command("  ").name == ""
    assert parse_command("scores").name == "scores"


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("add X 7H", MalformedMoveError),
        ("swap 2 5D 6D", MalformedMoveError),
        ("meld 9S ZZ", MalformedCardError),
        ("7H 8H 9H", MalformedMoveError),
        ("draw 7H", MalformedMoveError),
    ],
)
def test_bad_commands_are_refused_with_a_code(line: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        parse_command(line)


def test_moves_print_as_the_commands_that_make_them() -> None:
    for line in ["draw", "discard 7H", "take 3H meld 3H 4H 5H", "swap 2 5D meld 9S 9H JK(9D) add 3 TH"]:
        move = parse_command(line).move
        assert move is not None
        assert command_for(move) == line


def test_a_human_exchanges_a_joker_and_melds_it_in_one_line() -> None:
    # R51-DX7, holding another joker too: the bare JK means the joker taken from the table.
    state = position(
        variant("remik51"),
        hands=["5D 9S 9H 2C JK 7S", "5S 6S KD"],
        melds=[(1, "4D JK(5D) 6D"), (0, "9C TC JC")],
        turn=0,
        phase="play",
        names=["You", "Bot1"],
    )
    out = io.StringIO()
    game = TerminalGame(
        state=state,
        humans=frozenset({0}),
        out=out,
        inp=io.StringIO("meld 4D\nswap 1 5D meld 9S 9H JK(9D)\ndiscard 2C\n"),
        echo=True,
    )
    assert game.run() == 0
    text = out.getvalue()
    assert "[1]  Bot1  run  4D 5D 6D" in text
    assert "[3]  You   set  9S 9H JK(9D)" in text
    assert "illegal move [card_not_in_hand]" in text  # the 4D of the first line
    assert "You left the game." in text
