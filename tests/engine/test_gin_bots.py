"""The gin family's bot: whole matches bot against bot (in tests and in the terminal), and its
choices, which it makes from a seat's view only.

``make test`` plays a few matches per variant, ``TEST_THOROUGH=1`` (CI) twice as many, ``make soak``
(SOAK=1) ``GIN_SOAK_MATCHES`` (default 200) per variant (``tests.effort``).
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from games.engine import (
    DrawStock,
    GameState,
    Knock,
    LayOff,
    Move,
    Pass,
    Play,
    TakeDiscard,
    apply_move,
    new_game,
    parse_card,
    variant,
    view_for,
)
from games.engine.bots import NormalBot
from games.engine.gin.bots.normal import candidates
from games.engine.positions import gin_position
from games.engine.tools.cli import main
from tests.effort import SOAK, effort

MATCHES = effort(3, 6, soak=int(os.environ.get("GIN_SOAK_MATCHES", "200")))
A, B = 0, 1


def play_match(name: str, seed: int, **options: int) -> tuple[GameState, int]:
    rules = variant(name, **options)
    bot = NormalBot()
    state = new_game(rules, ["A", "B"], seed=f"{name}-bots-{seed}")
    moves = 0
    while state.phase != "over":
        move = bot.choose_move(view_for(state, state.turn))
        state = apply_move(state, state.turn, move).state  # raises if the bot's move is illegal
        moves += 1
        assert moves < 200 * (len(state.results) + 1), "a deal did not end"
    assert not bot.anomalies
    return state, moves


@pytest.mark.soak
@pytest.mark.parametrize("name", ["gin", "oklahoma"])
def test_bots_play_whole_matches_to_a_settlement(name: str) -> None:
    endings: dict[str, int] = {}
    for seed in range(MATCHES):
        state, _ = play_match(name, seed)
        settlement = state.cycle.settlement
        assert settlement is not None
        assert sum(settlement["net"]) == 0
        assert state.winners
        for result in state.results:
            kind = result.ended
            if kind == "went_out":
                notes = " ".join(n for line in result.lines for n in line.notes)
                kind = "gin" if "gin:" in notes else "undercut" if "undercut" in notes else "knock"
            endings[kind] = endings.get(kind, 0) + 1
    # Bots knock: most deals are knocks, not void deals.
    assert endings.get("knock", 0) > endings.get("void", 0)
    assert endings.get("gin", 0) + endings.get("undercut", 0) > 0 or not SOAK


def test_a_gin_match_to_50_is_shorter() -> None:
    state, _ = play_match("gin", 1, target=50)
    assert max(state.totals) >= 50


# --- what the bot chooses ----------------------------------------------------------------------


def first_choice(state: GameState, seat: int) -> Move:
    return next(iter(candidates(view_for(state, seat))))


GIN = variant("gin")


def test_the_bot_takes_an_up_card_that_helps_and_passes_one_that_does_not() -> None:
    hand = "7H 8H 2S 5S 9S JD QC KC 3D 4C"
    helps = gin_position(GIN, hands=[hand, "AS AD"], discard="9H", step="offer", dealer=B)
    take = first_choice(helps, A)
    assert isinstance(take, TakeDiscard)
    assert take.card == parse_card("9H#1")
    useless = gin_position(GIN, hands=[hand, "AS AD"], discard="KH", step="offer", dealer=B)
    assert first_choice(useless, A) == Pass()
    drawing = gin_position(GIN, hands=[hand, "AS AD"], discard="KH", stock="2C", dealer=B)
    assert first_choice(drawing, A) == DrawStock()


def test_the_bot_knocks_when_it_may_with_its_best_discard() -> None:
    state = gin_position(
        GIN, hands=["7H 8H 9H TH JC JD JS AC 2D 3C KD", "2H 3H"], discard="6C", turn=A, phase="play"
    )
    assert first_choice(state, A) == Knock(state.hands[A][-1])  # KD: knock with 6


def test_the_bot_lays_off_as_the_defender_then_passes() -> None:
    state = gin_position(
        GIN,
        hands=["JS JH JD 3S 4S 5S AH 2C AD 3C 9C", "JC 6S 7S 9D 9H KD 4H 2D 5C 8C"],
        discard="KS",
        turn=A,
        phase="play",
    )
    knocked = apply_move(state, A, Knock(parse_card("9C"))).state
    moves = list(candidates(view_for(knocked, B)))
    play = moves[0]
    assert isinstance(play, Play)
    laid = sorted(str(c) for lo in play.layoffs for c in lo.cards)
    assert laid == ["6S#1", "7S#1", "JC#1"]
    assert all(isinstance(lo, LayOff) for lo in play.layoffs)
    assert moves[-1] == Pass()
    after = apply_move(knocked, B, play).state
    assert first_choice(after, B) == Pass()


def test_the_bot_never_discards_the_card_it_just_took() -> None:
    state = gin_position(
        GIN, hands=["2S 3S 4S 6H 7H 8H 9C 9D KC QC", "5D 6D"], discard="KD", turn=A, phase="draw"
    )
    taken = apply_move(state, A, TakeDiscard()).state
    moves = list(candidates(view_for(taken, A)))
    assert all(str(getattr(m, "card", "")) != "KD#1" for m in moves)


# --- the terminal ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["gin", "oklahoma"])
def test_the_terminal_plays_a_bot_match_to_the_end(name: str) -> None:
    out = io.StringIO()
    code = main(["play", name, "--seats", "2", "--bots", "2", "--seed", "5", "--quiet"], stdout=out)
    text = out.getvalue()
    assert code == 0
    assert "Match over after" in text
    assert "(GIN-24)" in text or "(OKL-9)" in text


def test_a_human_in_the_terminal_can_pass_draw_knock_and_reply(tmp_path: Path) -> None:
    # The human lets the bot play every move ("bot"), which goes through the same commands.
    out = io.StringIO()
    save = tmp_path / "gin.json"
    code = main(
        ["play", "gin", "--seats", "2", "--bots", "1", "--seed", "11", "--save", str(save)],
        stdin=io.StringIO("help\nhint\ntable\n" + "bot\n" * 3000),
        stdout=out,
    )
    assert code == 0
    text = out.getvalue()
    assert "Deal   : up-card" in text
    assert "Match over after" in text
    record = json.loads(save.read_text())
    kinds = {move["move"]["kind"] for move in record["moves"]}
    assert {"draw", "discard", "knock", "pass"} <= kinds
    replayed = io.StringIO()
    assert main(["replay", str(save)], stdout=replayed) == 0
    assert "Match over after" in replayed.getvalue()
    verified = io.StringIO()
    assert main(["verify", str(save), "1"], stdout=verified) == 0
    assert "Deal verified." in verified.getvalue()


def test_terminal_commands_for_the_offer_and_the_knock() -> None:
    out = io.StringIO()
    script = "pass\nknock\ndiscard 2S\nquit\n"
    code = main(
        ["play", "gin", "--seats", "2", "--bots", "1", "--seed", "3"], stdin=io.StringIO(script), stdout=out
    )
    assert code == 0
    text = out.getvalue()
    assert "Offer  : the up-card goes to You" in text
    assert "! illegal move [wrong_phase]" in text  # a knock before drawing
