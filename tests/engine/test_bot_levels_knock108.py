"""Knock-108's hard level (games/engine/knock108/bots/hard.py): it counts the cards it has seen."""

from __future__ import annotations

from games.engine import (
    Discard,
    DrawStock,
    GameState,
    Knock,
    TakeDiscard,
    parse_card,
    position,
    variant,
    view_for,
)
from games.engine.bots import choose_move

OTHER = "7C QD 5S 5D 5C TC JC QC KC AC"


def _play(hand: str, discard: str = "") -> GameState:
    return position(variant("knock108"), hands=[hand, OTHER], discard=discard, turn=0, phase="play", seed=2)


def test_hard_knocks_when_it_may() -> None:
    # K108-14: 2S3S4S 5H6H7H 9C9D9H and 4C loose after KD goes.
    state = _play("2S 3S 4S 5H 6H 7H 9C 9D 9H 4C KD")
    assert choose_move(view_for(state, 0), "hard") == Knock(parse_card("KD#1"))


def test_hard_breaks_the_pair_whose_cards_are_all_in_sight() -> None:
    hand = "2S 3S 4S 5H 6H 7H QC QD KC KD 9S"
    # Nothing seen: hard discards a king, as the normal bot does.
    move = choose_move(view_for(_play(hand), 0), "hard")
    assert isinstance(move, Discard)
    assert move.card.face == "KC"
    # Every other queen in the discard pile (K108-2: two packs): the queens can never make a set,
    # the kings can; hard gives up a queen where the normal bot still gives up a king.
    state = _play(hand, discard="QH QS QH QS")
    assert choose_move(view_for(state, 0)) == Discard(parse_card("KC#1"))
    move = choose_move(view_for(state, 0), "hard")
    assert isinstance(move, Discard)
    assert move.card.face in ("QC", "QD")


def test_hard_takes_a_discard_that_beats_a_blind_draw_and_draws_otherwise() -> None:
    hands = ["2S 3S 4S 5H 6H 7H 9C 9D QH KD", OTHER]
    state = position(variant("knock108"), hands=hands, discard="9H", turn=0, phase="draw", seed=2)
    assert choose_move(view_for(state, 0), "hard") == TakeDiscard()
    # 2D for KD: 8 points fewer for sure, more than a stock card brings on average (K108-8).
    state = position(variant("knock108"), hands=hands, discard="2D", turn=0, phase="draw", seed=2)
    assert choose_move(view_for(state, 0), "hard") == TakeDiscard()
    # 8S for KD: 2 points fewer, less than a stock card brings on average.
    state = position(variant("knock108"), hands=hands, discard="8S", turn=0, phase="draw", seed=2)
    assert choose_move(view_for(state, 0), "hard") == DrawStock()


def test_hard_keeps_the_cards_that_let_it_end_the_deal_after_the_next_draw() -> None:
    # 444 and 999 melded. Giving up KC leaves fewer loose points (23 against 27), but keeping the
    # kings and shedding 6S leaves more draws after which the deal can end (a third king, a card
    # joining 2D 5D): a deal's loser is caught for ~30 points, a knocker pays ~3 (K108-14, K108-20).
    hand = "4H 4C 4D 9D 9H 9S 5D 2D KC KH 6S"
    state = _play(hand, discard="5H 2H 8D 8S")
    move = choose_move(view_for(state, 0), "hard")
    assert isinstance(move, Discard)
    assert move.card.face == "6S"
    assert choose_move(view_for(state, 0)) != move  # the normal bot sheds a king
