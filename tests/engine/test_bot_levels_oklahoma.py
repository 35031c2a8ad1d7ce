"""The hard level of the gin family in Oklahoma (games/engine/gin/bots/hard.py): it takes the
face-up card only when that beats a blind draw from the stock, by the deadwood expected one draw
later over every unseen card (the normal bot takes any card that lowers its deadwood)."""

from __future__ import annotations

from games.engine import DrawStock, GameState, Pass, TakeDiscard, variant, view_for
from games.engine.bots import choose_move
from games.engine.positions import gin_position

HAND = "JH QD AC KD 8C 2S 3D KS JD JS"
OTHER = "4H 5H 6H 7S 7D 7C 9S 9D TD TC"


def _draw(discard: str) -> GameState:
    # OKL-2: the first up-card (the bottom of the pile, TH) sets the limit, 10 here.
    return gin_position(variant("oklahoma"), hands=[HAND, OTHER], discard=discard, turn=0, phase="draw")


def test_hard_draws_blind_rather_than_take_a_card_that_saves_one_point() -> None:
    # 9H for a king: one point less for sure (the normal bot takes it, GIN-9), less than a stock
    # card is expected to bring (a queen or a king, a low card, a card for the jacks...).
    state = _draw("TH QC 9H")
    assert isinstance(choose_move(view_for(state, 0)), TakeDiscard)
    assert choose_move(view_for(state, 0), "hard") == DrawStock()


def test_hard_takes_a_card_that_makes_a_meld() -> None:
    # KH makes KD KS KH: 30 points less at once, far more than any stock draw brings on average.
    move = choose_move(view_for(_draw("TH QC KH"), 0), "hard")
    assert isinstance(move, TakeDiscard)
    assert move.card is not None
    assert move.card.face == "KH"


def test_hard_passes_an_up_card_offer_that_saves_one_point() -> None:
    # GIN-8: the non-dealer is offered the up-card 9H; the normal bot takes it, hard passes.
    state = gin_position(
        variant("oklahoma"), hands=[HAND, OTHER], discard="9H", turn=0, step="offer", phase="draw"
    )
    assert isinstance(choose_move(view_for(state, 0)), TakeDiscard)
    assert choose_move(view_for(state, 0), "hard") == Pass()
    # KH, the third king, is taken at the offer.
    state = gin_position(
        variant("oklahoma"), hands=[HAND, OTHER], discard="KH", turn=0, step="offer", phase="draw"
    )
    assert isinstance(choose_move(view_for(state, 0), "hard"), TakeDiscard)
