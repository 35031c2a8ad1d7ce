"""The basic bot: it finishes whole matches with legal moves only, and decides from its view alone."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from games.engine import (
    Discard,
    DrawStock,
    GameState,
    Move,
    Play,
    TakeDiscard,
    apply_move,
    new_game,
    position,
    variant,
    view_for,
)
from games.engine.bots import NormalBot, candidate_moves, choose_move
from games.engine.cards import Card, parse_cards

#: A bound on the moves of one match (the longest bounded match below needs well under half).
MAX_MOVES = 6000


def play_match(rules: Any, players: int, seed: int) -> tuple[GameState, int, NormalBot]:
    """Bots in every seat; every move the bot returns must be accepted by the engine."""
    bot = NormalBot()
    state = new_game(rules, players, seed=seed)
    moves = 0
    while state.phase != "over":
        assert moves < MAX_MOVES, "the match did not end in a bounded number of moves"
        move = bot.choose_move(view_for(state, state.turn))
        state = apply_move(state, state.turn, move).state  # raises on an illegal move
        moves += 1
    return state, moves, bot


MATCHES = [
    pytest.param("remik51", {"penalty_limit": 100}, 2, 1, id="remik51-2-seats"),
    pytest.param("remik51", {"penalty_limit": 100}, 3, 2, id="remik51-3-seats"),
    pytest.param("remik51", {"penalty_limit": 100}, 4, 3, id="remik51-4-seats"),
    pytest.param("remik51", {"penalty_limit": 100, "jokers_per_deck": 3}, 3, 4, id="remik51-6-jokers"),
    pytest.param(
        "remik51",
        {"penalty_limit": 50, "jokers_per_deck": 3, "max_players": 6},
        6,
        5,
        id="remik51-6-jokers-6-seats",
    ),
    pytest.param("remi", {"rounds": 2, "opening": "45"}, 2, 6, id="remi-45-2-seats"),
    pytest.param("remi", {"rounds": 2, "opening": "51"}, 3, 7, id="remi-51-3-seats"),
    pytest.param("remi", {"rounds": 2, "opening": "classic"}, 4, 8, id="remi-classic-4-seats"),
    pytest.param("remi", {"rounds": 3, "short_game": True}, 2, 9, id="remi-short-game"),
    pytest.param("remi", {"rounds": 1, "row_visible_depth": 2}, 3, 10, id="remi-row-depth-2"),
    pytest.param("remi", {"target": 300}, 3, 11, id="remi-target"),
]


@pytest.mark.parametrize(("name", "options", "players", "seed"), MATCHES)
def test_bots_finish_a_whole_match_with_legal_moves_only(
    name: str, options: dict[str, Any], players: int, seed: int
) -> None:
    state, moves, bot = play_match(variant(name, **options), players, seed)
    assert state.phase == "over"
    assert state.winners
    assert state.results
    assert bot.anomalies == []
    assert moves < MAX_MOVES


def test_bots_finish_matches_over_several_seeds() -> None:
    for seed in range(3):
        for name, options in (("remik51", {"penalty_limit": 60}), ("remi", {"rounds": 1})):
            state, _, bot = play_match(variant(name, **options), 2 + seed, 100 + seed)
            assert state.phase == "over"
            assert bot.anomalies == []


# --- the bot decides from its view alone ---------------------------------------------------------


def _hidden_changed(state: GameState, seat: int) -> GameState:
    """The same game as ``seat`` sees it: other hands and the stock order differ.

    Cards are swapped between the opponents' hands and the stock (so every hand keeps its size and
    the pack stays whole), one card moves between two opponents, and the stock is reversed.
    """
    hands = [list(hand) for hand in state.hands]
    stock = list(state.stock)
    others = [s for s in range(state.players) if s != seat and hands[s]]
    for other in others:
        if stock:
            hands[other][0], stock[-1] = stock[-1], hands[other][0]
    if len(others) >= 2 and hands[others[0]] and hands[others[1]]:
        a, b = others[0], others[1]
        hands[a][-1], hands[b][-1] = hands[b][-1], hands[a][-1]
    stock.reverse()
    changed = replace(state, hands=tuple(tuple(h) for h in hands), stock=tuple(stock))
    assert changed.hands[seat] == state.hands[seat]
    assert any(changed.hands[s] != state.hands[s] for s in others) or not stock
    return changed


@pytest.mark.parametrize(
    ("name", "options", "players"),
    [("remik51", {"penalty_limit": 100}, 3), ("remi", {"rounds": 1}, 3), ("remi", {"rounds": 1}, 4)],
)
def test_the_bot_decides_from_the_view_alone(name: str, options: dict[str, Any], players: int) -> None:
    bot = NormalBot()
    state = new_game(variant(name, **options), players, seed=42)
    checked = 0
    for step in range(300):
        if state.phase == "over":
            break
        seat = state.turn
        view = view_for(state, seat)
        move = bot.choose_move(view)
        if step % 2 == 0:
            twin = _hidden_changed(state, seat)
            assert twin != state
            twin_view = view_for(twin, seat)
            assert twin_view == view
            assert NormalBot().choose_move(twin_view) == move
            checked += 1
        state = apply_move(state, seat, move).state
    assert checked >= 15


def test_the_bot_needs_nothing_but_plain_view_data() -> None:
    state = new_game(variant("remi"), 3, seed=3)
    for _ in range(60):
        view = view_for(state, state.turn)
        copied = json.loads(json.dumps(view))
        move = choose_move(copied)
        assert move == choose_move(view)
        state = apply_move(state, state.turn, move).state


def test_the_bot_is_deterministic() -> None:
    state = new_game(variant("remik51"), 4, seed=9)
    for _ in range(80):
        view = view_for(state, state.turn)
        moves = {repr(NormalBot().choose_move(view)) for _ in range(3)}
        assert len(moves) == 1
        state = apply_move(state, state.turn, choose_move(view)).state


def test_every_candidate_the_bot_offers_is_legal() -> None:
    # The bot checks its composite moves on a shadow of the visible game; the real game agrees.
    for name in ("remik51", "remi"):
        state = new_game(variant(name), 3, seed=17)
        for _ in range(150):
            if state.phase == "over":
                break
            seat = state.turn
            candidates = candidate_moves(view_for(state, seat))
            assert candidates
            for move in candidates:
                apply_move(state, seat, move)
            state = apply_move(state, seat, candidates[0]).state


def test_the_bot_refuses_another_seats_view_or_a_spectators() -> None:
    state = new_game(variant("remik51"), 2, seed=1)
    other = (state.turn + 1) % 2
    assert candidate_moves(view_for(state, other)) == []
    with pytest.raises(ValueError, match="not this seat's turn"):
        choose_move(view_for(state, other))
    with pytest.raises(ValueError, match="spectator"):
        NormalBot().choose_move({**view_for(state, None), "you": {"my_turn": True}, "phase": "play"})


# --- what the bot does in given positions ---------------------------------------------------------

R51 = variant("remik51")
REMI = variant("remi")


def _move(state: GameState, seat: int = 0) -> Move:
    move = choose_move(view_for(state, seat))
    apply_move(state, seat, move)
    return move


def _faces(cards: tuple[Card, ...]) -> list[str]:
    return [c.face if c.stands_for is None else f"JK({c.stands_for.face})" for c in cards]


def test_a_bot_opens_when_it_holds_a_legal_opening_remik51() -> None:
    # R51-EX1: 9S TS JS + 8H 8D 8C = 53 with a pure run.
    state = position(R51, hands=["9S TS JS 8H 8D 8C 2C KD 4H", "5D 6D"], turn=0, phase="play", rest="drop")
    move = _move(state)
    assert isinstance(move, Play)
    assert sorted(map(_faces, move.melds)) == [["8H", "8D", "8C"], ["9S", "TS", "JS"]]
    assert apply_move(state, 0, move).state.cycle.opened[0]


def test_a_bot_opens_when_it_holds_a_legal_opening_remi() -> None:
    state = position(REMI, hands=["3H 4H 5H KS KH KD 9C 2D", "5D 6D"], turn=0, phase="play", atu="7C")
    move = _move(state)
    assert isinstance(move, Play)
    assert apply_move(state, 0, move).state.cycle.opened[0]


def test_a_bot_does_not_open_below_the_minimum() -> None:
    # RMI-DX2: 45 points do not open a Remi 51 table.
    state = position(
        variant("remi", opening="51"),
        hands=["3H 4H 5H KS KH KD 9C 2D", "5D 6D"],
        turn=0,
        phase="play",
        atu="7C",
    )
    assert isinstance(_move(state), Discard)


def test_a_bot_waits_in_its_first_remi_turn() -> None:
    # RMI-19: the first player holds an opening but may only discard.
    state = position(
        REMI,
        hands=["3H 4H 5H KS KH KD 9C 2D 7S", "5D 6D"],
        turn=0,
        phase="play",
        atu="7C",
        turns_started=[1, 0],
    )
    assert isinstance(_move(state), Discard)


def test_a_bot_goes_out_in_one_go_when_it_can() -> None:
    # R51-DX5: 13 cards down with an opening, the 14th discarded.
    state = position(
        R51, hands=["9S TS JS 8H 8D 8C 2C 3C 4C 5C KS KH KD 7D", "5D 6D"], turn=0, phase="play", rest="drop"
    )
    move = _move(state)
    after = apply_move(state, 0, move).state
    assert len(after.hands[0]) == 1
    assert isinstance(_move(after), Discard)


def test_an_opened_bot_takes_a_useful_top_discard() -> None:
    state = position(
        R51,
        hands=["5H 6H KC 2D", "5D 6D"],
        melds=[(0, "9S TS JS"), (0, "8H 8D 8C")],
        discard="3S 7H",
        turn=0,
        phase="draw",
    )
    move = _move(state)
    assert isinstance(move, TakeDiscard)
    assert move.card is not None
    assert move.card.face == "7H"
    assert _faces(move.play.melds[0]) == ["5H", "6H", "7H"]


def test_an_opened_bot_draws_when_the_discard_does_not_help() -> None:
    state = position(
        R51,
        hands=["5H 6H KC 2D", "5D 6D"],
        melds=[(0, "9S TS JS"), (0, "8H 8D 8C")],
        discard="3S 9C",
        turn=0,
        phase="draw",
    )
    assert isinstance(_move(state), DrawStock)


def test_a_remik_bot_takes_before_opening_only_to_go_out() -> None:
    # R51-37: with KD the hand goes down to one card; without it, taking 7H is not allowed.
    hand = "9S TS JS 8H 8D 8C 2C 3C 4C 5C KS KH 7D"
    state = position(R51, hands=[hand, "5D 6D"], discard="3S KD", turn=0, phase="draw", opened=[False, False])
    move = _move(state)
    assert isinstance(move, TakeDiscard)
    assert len(apply_move(state, 0, move).state.hands[0]) == 1
    state = position(
        R51,
        hands=["5H 6H KC 2D 9C 9D", "5D 6D"],
        discard="3S 7H",
        turn=0,
        phase="draw",
        opened=[False, False],
    )
    assert isinstance(_move(state), DrawStock)


def test_a_remi_bot_takes_deep_from_the_row_after_opening() -> None:
    # RMI-EX1: reaching for the 3H brings 6D and 7S along.
    state = position(
        REMI,
        hands=["4H 5H 9C", "5S 6S"],
        melds=[(0, "TS JS QS"), (0, "7C 8C 9C")],
        discard="5S TD AH 5C 3H 6D 7S",
        turn=0,
        phase="draw",
        atu="2D",
    )
    move = _move(state)
    assert isinstance(move, TakeDiscard)
    assert move.card is not None
    assert move.card.face == "3H"
    after = apply_move(state, 0, move).state
    assert [c.face for c in after.discard] == ["5S", "TD", "AH", "5C"]
    assert sorted(c.face for c in after.hands[0]) == ["6D", "7S", "9C"]


def test_a_remi_bot_respects_the_row_depth_option() -> None:
    state = position(
        variant("remi", row_visible_depth=2),
        hands=["4H 5H 9C", "5S 6S"],
        melds=[(0, "TS JS QS")],
        discard="5S TD AH 5C 3H 6D 7S",
        turn=0,
        phase="draw",
        atu="2D",
    )
    assert isinstance(_move(state), DrawStock)


def test_a_remik_bot_exchanges_a_joker_and_melds_it() -> None:
    # R51-DX7.
    state = position(
        R51,
        hands=["5D 9S 9H 2C", "5S 6S"],
        melds=[(1, "4D JK(5D) 6D"), (0, "9C TC JC QC KC")],
        turn=0,
        phase="play",
    )
    move = _move(state)
    assert isinstance(move, Play)
    assert [(ex.meld, ex.card.face) for ex in move.exchanges] == [(1, "5D")]
    after = apply_move(state, 0, move).state
    assert [c.face for c in after.melds[0].cards] == ["4D", "5D", "6D"]
    assert after.hands[0] == parse_cards("2C#1")


def test_a_remi_bot_buys_back_a_joker_it_can_meld() -> None:
    # RMI-DX4 with a pair to meld the joker with.
    state = position(
        REMI,
        hands=["JS 4H 4C 2D", "5S 6S"],
        melds=[(1, "TS JK(JS) QS"), (0, "9C TC JC")],
        turn=0,
        phase="play",
        atu="7D",
    )
    move = _move(state)
    assert isinstance(move, Play)
    assert move.exchanges
    assert move.melds
    after = apply_move(state, 0, move).state
    assert after.cycle.consumed


def test_a_remi_bot_takes_the_atu_to_go_out() -> None:
    # RMI-DX8.
    state = position(
        REMI, hands=["8C 9C 5D", "5S 6S"], melds=[(0, "TS JS QS")], turn=0, phase="play", atu="TC"
    )
    move = _move(state)
    after = apply_move(state, 0, move).state
    assert after.cycle.atu_taken_by == 0
    assert [c.face for c in after.hands[0]] == ["5D"]
    # With one more card the atu would leave two in hand: not allowed, and not tried.
    state = position(
        REMI, hands=["8C 9C 5D 6S", "5S 6S"], melds=[(0, "TS JS QS")], turn=0, phase="play", atu="TC"
    )
    assert isinstance(_move(state), Discard)


def test_a_bot_never_empties_its_hand_by_melding() -> None:
    state = position(
        R51, hands=["9S TS JS QS", "5D 6D"], melds=[(0, "AS AH AD"), (0, "4H 5H 6H")], turn=0, phase="play"
    )
    move = _move(state)
    after = apply_move(state, 0, move).state
    assert len(after.hands[0]) == 1


def test_a_bot_lays_off_what_fits() -> None:
    state = position(
        R51, hands=["7H 3H KS", "5D 6D"], melds=[(0, "AS AH AD"), (0, "4H 5H 6H")], turn=0, phase="play"
    )
    move = _move(state)
    assert isinstance(move, Play)
    assert sorted(c.face for lo in move.layoffs for c in lo.cards) == ["3H", "7H"]


def test_a_bot_keeps_its_jokers_and_discards_the_least_useful_card() -> None:
    state = position(R51, hands=["JK 5H 6H KC 2D", "5D 6D"], turn=0, phase="play", opened=[False, False])
    move = _move(state)
    assert move == Discard(parse_cards("KC#1")[0])
