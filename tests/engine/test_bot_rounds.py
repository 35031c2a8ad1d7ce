"""Bot-vs-bot rounds of every variant and option set play to a scored end without an error.

``make test`` plays a few rounds per option set, ``TEST_THOROUGH=1`` (CI) twice as many, ``make soak``
(SOAK=1) ``BOT_SOAK_ROUNDS`` (default 1000) per option set (``tests.effort``).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from games.engine import apply_move, new_game, variant, view_for
from games.engine.bots import NormalBot
from tests.effort import effort

OPTION_SETS = [
    pytest.param("remik51", {}, id="remik51"),
    pytest.param(
        "remik51",
        {
            "jokers_per_deck": 3,
            "joker_penalty": 50,
            "penalty_limit": 300,
            "lowest_tie": "extra_round",
            "max_players": 6,
        },
        id="remik51-6-jokers-300-extra-round",
    ),
    pytest.param("remik51", {"joker_penalty": 25}, id="remik51-joker-25"),
    pytest.param("remi", {"opening": "45"}, id="remi-45"),
    pytest.param("remi", {"opening": "51"}, id="remi-51"),
    pytest.param("remi", {"opening": "classic"}, id="remi-classic"),
    pytest.param("remi", {"short_game": True}, id="remi-short-game"),
    pytest.param("remi", {"row_visible_depth": 3}, id="remi-row-depth-3"),
    pytest.param("rummy500", {}, id="rummy500"),
    pytest.param("rummy500", {"two_decks_for_four": True, "target": 200}, id="rummy500-two-decks-for-four"),
    pytest.param("remik40", {}, id="remik40"),
    pytest.param("remik40", {"low_ace_value": 1, "max_jokers_per_meld": 2}, id="remik40-ace-1-two-jokers"),
]

ROUNDS = effort(3, 6, soak=int(os.environ.get("BOT_SOAK_ROUNDS", "1000")))
MOVES_PER_ROUND = 3000


def play_rounds(name: str, options: dict[str, Any], rounds: int) -> dict[str, int]:
    """Play ``rounds`` scored rounds (over as many matches as it takes), bots in every seat."""
    bot = NormalBot()
    played = 0
    seed = 0
    endings = {"went_out": 0, "stock_out": 0, "void": 0}
    rules = variant(name, **options)
    while played < rounds:
        seed += 1
        players = 2 if options.get("short_game") else 2 + seed % (rules.max_players - 1)
        state = new_game(rules, players, seed=f"{name}-{seed}")
        moves = 0
        while state.phase != "over" and played < rounds:
            before = len(state.results)
            move = bot.choose_move(view_for(state, state.turn))
            state = apply_move(state, state.turn, move).state  # raises if the bot's move is illegal
            moves += 1
            assert moves < MOVES_PER_ROUND * (before + 1), "a round did not end in a bounded number of moves"
            if len(state.results) > before:
                result = state.results[-1]
                endings[result.ended] += 1
                played += 1
                lines = {line.seat: line.points for line in result.lines}
                if result.winner is not None and rules.lower_wins:
                    assert lines[result.winner] == 0
                assert sum(state.totals) == sum(line.points for r in state.results for line in r.lines)
    assert not bot.anomalies
    return endings


@pytest.mark.soak  # selected by `make soak` too, with many more rounds
@pytest.mark.parametrize(("name", "options"), OPTION_SETS)
def test_bot_rounds_play_to_a_scored_end(name: str, options: dict[str, Any]) -> None:
    endings = play_rounds(name, options, ROUNDS)
    assert sum(endings.values()) == ROUNDS
    # Bots go out: most rounds end with a winner, not by exhausting the stock.
    assert endings["went_out"] >= ROUNDS // 2


#: A whole match of bots must end within this many rounds (Rummy 500 to 500 takes about 10-20).
MATCH_ROUNDS = 80


@pytest.mark.parametrize(
    ("name", "options", "players"),
    [
        pytest.param("rummy500", {}, 2, id="rummy500-2"),
        pytest.param("rummy500", {}, 4, id="rummy500-4"),
        pytest.param("rummy500", {}, 7, id="rummy500-7"),
        pytest.param("remik40", {}, 2, id="remik40-2"),
        pytest.param("remik40", {}, 3, id="remik40-3"),
        pytest.param("remik40", {"stake": 10}, 4, id="remik40-4"),
    ],
)
def test_bots_play_whole_matches_to_the_end(name: str, options: dict[str, Any], players: int) -> None:
    """R500-17/18: first past 500 after a scored deal; R40-Q11: a game is one round, its pool paid."""
    rules = variant(name, **options)
    bot = NormalBot()
    state = new_game(rules, players, seed=f"{name}-match-{players}")
    moves = 0
    while state.phase != "over":
        state = apply_move(state, state.turn, bot.choose_move(view_for(state, state.turn))).state
        moves += 1
        assert len(state.results) <= MATCH_ROUNDS
        assert moves < MOVES_PER_ROUND * MATCH_ROUNDS
    assert not bot.anomalies
    if name == "rummy500":
        best = max(state.totals)
        assert best > rules.options["target"]
        assert state.winners == (state.totals.index(best),)
    else:
        assert len(state.results) == 1
        chips = [line.chips or 0 for line in state.results[0].lines]
        assert sum(chips) == rules.options["stake"] * players
        assert view_for(state, None)["prize_pool"]["payouts"] == chips
