"""Remik 40 in the terminal (``python -m games.engine play remik40``): a set's joker recovered with
two cards in one command, and bots playing a game to its prize split."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from games.engine import position, variant
from games.engine.tools.cli import TerminalGame

ROOT = Path(__file__).resolve().parents[2]


def test_bots_play_a_remik40_game_to_its_prize_split_in_the_terminal() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "games.engine",
            "play",
            "remik40",
            "--seats",
            "4",
            "--bots",
            "4",
            "--seed",
            "5",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "prize:" in out
    assert "Match over after 1 round(s)." in out
    assert "Traceback" not in out + result.stderr


def test_a_human_recovers_a_set_joker_with_both_missing_cards() -> None:
    state = position(
        variant("remik40"),
        hands=["3S 3D 9S 9H 2C", "4H 5H 6C"],
        melds=[(1, "3H 3C JK"), (0, "TS JS QS")],
        turn=0,
        phase="play",
        names=["You", "Bot1"],
    )
    out = io.StringIO()
    commands = "swap 1 3S meld 9S 9H JK(9D)\nswap 1 3S, 1 3D meld 9S 9H JK(9D)\ndiscard 2C\n"
    game = TerminalGame(state=state, humans=frozenset({0}), out=out, inp=io.StringIO(commands), echo=True)
    assert game.run() == 0
    text = out.getvalue()
    assert "illegal move [bad_joker_exchange]" in text  # one card is not enough (R40-22)
    assert "[3]  You   set  9S 9H JK(9D)" in text
    assert "--- Round 1 over: You went out ---" in text
    assert "(lowest wins)" in text
    # The loser holds 4H 5H 6C (15 < 50): 25% of the pool (R40-29).
    assert "prize: 150 of 200 chips" in text
    assert "prize: 50 of 200 chips" in text
