"""Rummy 500 in the terminal (``python -m games.engine play rummy500``): plus scoring, the fanned
discard row, deep takes typed as one command, and bots playing a whole match."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from games.engine import position, variant
from games.engine.tools.cli import TerminalGame

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_the_terminal_lists_rummy500() -> None:
    result = run_cli("play", "rummy500", "--help")
    assert result.returncode == 0
    assert "rummy500" in result.stdout


def test_bots_play_a_whole_rummy500_match_in_the_terminal() -> None:
    result = run_cli("play", "rummy500", "--seats", "3", "--bots", "3", "--seed", "4", "-o", "target=200")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Match over after" in out
    assert "Winner:" in out
    assert "Traceback" not in out + result.stderr


def test_a_human_takes_deep_from_the_row_and_sees_plus_scores() -> None:
    state = position(
        variant("rummy500"),
        hands=["9H 9D 5C 2S", "KH KD 3D"],
        discard="4C 9S 9C 2D KS",
        melds=[(1, "TS JS QS")],
        turn=0,
        phase="draw",
        names=["You", "Bot1"],
    )
    out = io.StringIO()
    commands = "take 9S meld 9S 9C 9H\ntake 9S meld 9S 9H 9D\nadd 1 KS\ndiscard 2S\nscores\n"
    game = TerminalGame(state=state, humans=frozenset({0}), out=out, inp=io.StringIO(commands), echo=True)
    assert game.run() == 0
    text = out.getvalue()
    assert "Discard row (oldest -> newest): 4C 9S 9C 2D KS" in text
    assert "(highest wins)" in text
    assert "illegal move [cannot_take_discard]" in text  # the 9C came along: not with the 9S (R500-9)
    assert "[2]  You   set  9S 9H 9D  27 pts" in text
    assert "TS JS QS KS" in text
    assert "Score sheet (highest total wins)" in text
    assert "You left the game." in text
