"""Whole Knock-108 matches played by bots, 2 to 6 players, to a winner who takes the pool; and the
bot's choices in positions where one move is clearly right.

``make test`` plays a few matches, ``TEST_THOROUGH=1`` (CI) more, ``make soak`` (SOAK=1)
``BOT_SOAK_MATCHES`` (default 300): ``tests.effort``.
"""

from __future__ import annotations

import io
import os
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from games.engine import (
    Discard,
    DrawStock,
    GameState,
    Knock,
    Pass,
    TakeDiscard,
    apply_move,
    new_game,
    parse_card,
    position,
    variant,
    view_for,
)
from games.engine.bots import NormalBot, choose_move
from games.engine.tools.cli import main
from tests.effort import effort

MATCHES = effort(10, 20, soak=int(os.environ.get("BOT_SOAK_MATCHES", "300")))
#: A deal lasts at most (stock / players) turns of two moves, plus the extra exchange; a match
#: of bots ends in a few dozen deals at most (each bot buys back at most twice).
MOVES_PER_MATCH = 5000

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"full_sequence": True},
    {"joker_limits": "none", "stake": 4},
    {"special_hand_stakes": 2, "full_sequence": True},
]


def play_match(
    seed: int, players: int, options: dict[str, Any], bot: NormalBot
) -> tuple[GameState, Counter[str]]:
    state = new_game(variant("knock108", **options), players, seed=f"k108-{seed}")
    seen: Counter[str] = Counter()
    moves = 0
    while state.phase != "over":
        move = bot.choose_move(view_for(state, state.turn))
        transition = apply_move(state, state.turn, move)  # raises if the bot's move is illegal
        for event in transition.events:
            if event.kind == "round_over":
                seen[event.data["result"]] += 1
            elif event.kind in ("eliminated", "bought_back", "stayed_out"):
                seen[event.kind] += 1
        state = transition.state
        moves += 1
        assert moves < MOVES_PER_MATCH, "the match did not end in a bounded number of moves"
    return state, seen


@pytest.mark.soak
def test_bot_matches_of_two_to_six_players_end_with_a_winner_who_takes_the_pool() -> None:
    bot = NormalBot()
    seen: Counter[str] = Counter()
    for seed in range(MATCHES):
        players = 2 + seed % 5
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        state, found = play_match(seed, players, options, bot)
        seen.update(found)
        cycle = state.cycle
        assert state.winners
        # K108-28: every winner is in (or, if nobody is, went out in the last deal with the lowest).
        in_game = [s for s in range(players) if cycle.active[s]]
        assert len(in_game) <= 1
        if in_game:
            assert state.winners == tuple(in_game)
        assert cycle.pool == 0
        assert sum(cycle.chips) == 0
        # The winners took the whole pool (a winner who bought back in may still be down on chips).
        ledger = cycle.ledger
        paid_in = sum(e.amount for e in ledger if e.target == "pool")
        paid_out = [e for e in ledger if e.source == "pool"]
        assert sum(e.amount for e in paid_out) == paid_in
        assert sorted({e.target for e in paid_out}) == sorted(state.winners)
        # The score lines add up to the records and the chips.
        for seat in range(players):
            assert sum(r.lines[seat].points for r in state.results) == state.totals[seat]
            assert sum(r.lines[seat].chips or 0 for r in state.results) == cycle.chips[seat]
    assert not bot.anomalies
    # Bots knock, go gin, hold special hands, drop out and buy back in.
    assert seen["knock"] > MATCHES
    assert seen["gin"] + seen["flush"] + seen["figures"] > 0
    assert seen["eliminated"] >= MATCHES
    assert seen["bought_back"] > 0


def test_a_bots_only_match_plays_to_the_end_in_the_terminal() -> None:
    out = io.StringIO()
    code = main(
        ["play", "knock108", "--seats", "4", "--bots", "4", "--seed", "3"], stdin=io.StringIO(), stdout=out
    )
    text = out.getvalue()
    assert code == 0
    assert "Match over after" in text
    assert "Winner:" in text
    assert "knocks" in text


def test_a_human_sees_the_records_the_pool_and_the_knock_hint_in_the_terminal() -> None:
    out = io.StringIO()
    commands = io.StringIO("table\nknock 2C\nquit\n")
    main(["play", "knock108", "--seats", "3", "--bots", "2", "--seed", "5"], stdin=commands, stdout=out)
    text = out.getvalue()
    assert "Records: You 0 (in, chips -10)" in text
    assert "Pool   : 30 chips (stake 10)" in text
    assert "Loose  :" in text
    assert "[knock_too_high]" in text or "[card_not_in_hand]" in text


# --- the bot's choices ----------------------------------------------------------------------------------


def _seat0(hands: list[str], **changes: Any) -> GameState:
    state = position(variant("knock108"), hands=hands, turn=0, phase="play", seed=2)
    return replace(state, **changes)


def test_the_bot_ends_the_deal_when_it_can() -> None:
    state = _seat0(["2S 3S 4S 5H 6H 7H 9C 9D 9H 4C KD", "7C QD 5S 5D 5C TC JC QC KC AC"])
    assert choose_move(view_for(state, 0)) == Knock(parse_card("KD#1"))
    gin = _seat0(["2S 3S 4S 5H 6H 7H 9C 9D 9H 9S KD", "7C QD 5S 5D 5C TC JC QC KC AC"])
    assert choose_move(view_for(gin, 0)) == Knock(parse_card("KD#1"))


def test_the_bot_discards_its_worst_card() -> None:
    state = _seat0(["2S 3S 4S 5H 6H 7H 9C 9D QH KD 8C", "7C QD 5S 5D 5C TC JC QC KC AC"])
    move = choose_move(view_for(state, 0))
    assert isinstance(move, Discard)
    assert move.card.face in ("KD", "QH")


def test_the_bot_takes_a_discard_that_completes_a_meld_and_draws_otherwise() -> None:
    hands = ["2S 3S 4S 5H 6H 7H 9C 9D QH KD", "7C QD 5S 5D 5C TC JC QC KC AC"]
    state = position(variant("knock108"), hands=hands, discard="9H", turn=0, phase="draw", seed=2)
    assert choose_move(view_for(state, 0)) == TakeDiscard()
    state = position(variant("knock108"), hands=hands, discard="2D", turn=0, phase="draw", seed=2)
    assert choose_move(view_for(state, 0)) == DrawStock()


def test_the_bot_uses_the_extra_exchange() -> None:
    state = position(
        variant("knock108"),
        hands=["2S 3S 4S 5H 6H 7H 9C 9D 9H 4C KH", "7C QD 5S 5D 5C TC JC QC KC 8H"],
        turn=0,
        phase="play",
        seed=2,
    )
    state = apply_move(state, 0, Knock(parse_card("KH"))).state
    # KH extends TC..QC? No: it is a heart; the top does not help seat 1, so it draws from the stock.
    assert choose_move(view_for(state, 1)) == DrawStock()
    state = position(
        variant("knock108"),
        hands=["2S 3S 4S 5H 6H 7H 9C 9D 9H 4C KC", "7C QD 5S 5D 5C TC JC QC 2H 8H"],
        turn=0,
        phase="play",
        seed=2,
    )
    state = apply_move(state, 0, Knock(parse_card("KC"))).state
    assert choose_move(view_for(state, 1)) == TakeDiscard()
    state = apply_move(state, 1, TakeDiscard()).state
    move = choose_move(view_for(state, 1))
    assert isinstance(move, Discard)
    assert move.card.face == "QD"


def test_the_bot_buys_back_in_only_with_room_to_play() -> None:
    def offer(record: int, times: int) -> GameState:
        state = position(
            variant("knock108"),
            hands=["", "2S 3S 4S 5H 6H 7H 9C 9D 9H 4C KD", "7C QD 5S 5D 5C TC JC QC KC AC"],
            turn=1,
            phase="play",
            totals=[104, record - 4, record - 17],
            seed=2,
        )
        cycle = replace(state.cycle, active=(False, True, True), buy_backs=(times, 0, 0))
        state = replace(state, cycle=cycle)
        state = apply_move(state, 1, Knock(parse_card("KD"))).state
        state = apply_move(state, 2, Pass()).state
        assert state.cycle.stage == "buy_back"
        return state

    assert choose_move(view_for(offer(60, 0), 0)) == Knock()
    assert choose_move(view_for(offer(90, 0), 0)) == Pass()
    assert choose_move(view_for(offer(60, 2), 0)) == Pass()
