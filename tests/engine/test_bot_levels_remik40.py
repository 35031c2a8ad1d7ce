"""Remik 40's hard level (:mod:`games.engine.rummy.bots.hard_remik40`): a race to go out (R40-25).

* it opens at once, where the shared hard bot holds the opening back for a one-go "Remik";
* it sheds no points when the opponent is near the end: it keeps the cards that may go out;
* with a short open hand, its first discard is one that gives the next stock draw the best
  chance to go out (checked here by brute force over every unseen card).
"""

from __future__ import annotations

from typing import Any

from games.engine import variant, view_for
from games.engine.bots import choose_move
from games.engine.cards import Card
from games.engine.moves import Discard, Play
from games.engine.positions import position
from games.engine.rummy.bots.hard import HardBot
from games.engine.rummy.bots.hard_remik40 import HardRemik40
from games.engine.rummy.bots.normal import _without, read_view
from games.engine.search import best_arrangement

R40 = variant("remik40")


def _open_hand_view(hand: str, table_meld: str) -> dict[str, Any]:
    """Seat 0's view in its play phase: both seats opened, ``table_meld`` laid by seat 1."""
    state = position(
        R40,
        hands=[hand, "5D 6D 7S 9C 2S"],
        melds=[(1, table_meld)],
        turn=0,
        phase="play",
        opened=[True, True],
    )
    return view_for(state, 0)


def test_hard_opens_at_once_where_the_shared_hard_bot_holds_back() -> None:
    # K K K + Q Q Q = 60 >= 40 (R40-18), three cards left: the shared bot keeps it for a Remik.
    state = position(
        R40, hands=["KS KH KD QC QD QS 5H 8C 2D", "5D 6D 7S 9C"], turn=0, phase="play", opened=[False, False]
    )
    view = view_for(state, 0)
    move = choose_move(view, "hard")
    assert isinstance(move, Play)
    assert len(move.melds) == 2
    shared = HardBot(view)
    assert shared.holds(read_view(view), move)
    assert not HardRemik40(view).holds(read_view(view), move)


def test_hard_keeps_a_live_pair_instead_of_shedding_points_near_the_end() -> None:
    # The opponent has opened and holds two cards: the shared bot sheds a king (10 points); in
    # Remik 40 only going out counts, so the live pair of kings stays and the three goes.
    state = position(
        R40,
        hands=["KD KS 3S", "5D 9C"],
        melds=[(0, "TH JH QH"), (1, "4C 5C 6C 7C")],
        turn=0,
        phase="play",
        opened=[True, True],
    )
    view = view_for(state, 0)
    shed = HardBot(view).choose_move(view)
    assert isinstance(shed, Discard)
    assert shed.card.face in ("KD", "KS")
    move = choose_move(view, "hard")
    assert isinstance(move, Discard)
    assert move.card.face == "3S"


def _outs(hand: list[Card], bot: HardRemik40, fits: set[str]) -> int:
    """Unseen cards (by live copies) after which at most one card of the hand is stuck."""
    outs = 0
    for face, count in bot.unseen.faces.items():
        drawn = next(c for c in bot.unseen.cards if c.face == face)
        _, left = best_arrangement(R40, [*hand, drawn], cover=True)
        if len([c for c in left if c.face not in fits]) <= 1:
            outs += count
    return outs


def test_hard_discards_for_the_most_outs_with_a_short_hand() -> None:
    state = position(
        R40,
        hands=["2S 3S 9D KD", "5D 9C 4H"],
        melds=[(0, "TH JH QH"), (1, "5C 6C 7C")],
        discard="KH KC",
        turn=0,
        phase="play",
        opened=[True, True],
    )
    view = view_for(state, 0)
    bot = HardRemik40(view)
    seen = read_view(view)
    fits = bot.fitting_faces(seen)
    assert {"9H", "KH", "4C", "8C", "JK"} <= fits
    assert "3S" not in fits
    hand = list(seen.hand)
    outs = {card.face: _outs(_without(hand, [card]), bot, fits) for card in hand}
    first = bot.discard_order(seen)[0]
    assert outs[first.face] == max(outs.values()) > min(outs.values())
    move = choose_move(view, "hard")
    assert isinstance(move, Discard)
    assert move.card.face in ("9D", "KD")


def test_hard_keeps_a_joker_in_a_short_hand_where_the_normal_bot_builds_it_onto_the_table() -> None:
    # JK 5H 9C after the draw: building the joker onto TS JS QS (R40-19) leaves 5H 9C, which no
    # single draw can take out; kept, the joker melds with 5H and any of 3H 4H 6H 7H or a five.
    view = _open_hand_view("JK 5H 9C", "TS JS QS")
    normal = choose_move(view, "normal")
    assert isinstance(normal, Play)
    assert any(card.is_joker for layoff in normal.layoffs for card in layoff.cards)
    move = choose_move(view, "hard")
    assert isinstance(move, Discard)
    assert move.card.face == "9C"


def test_hard_still_builds_a_joker_onto_the_table_to_go_out() -> None:
    # JK 5H: building the joker and discarding 5H ends the game (R40-25).
    view = _open_hand_view("JK 5H", "TS JS QS")
    move = choose_move(view, "hard")
    assert isinstance(move, Play)
    assert [card.is_joker for layoff in move.layoffs for card in layoff.cards] == [True]


def test_hard_keeps_a_card_that_fits_the_table_in_a_short_hand_until_it_goes_out() -> None:
    # 8H fits 5H 6H 7H (R40-19): the normal bot builds it at once; hard keeps it, since a card that
    # fits stays playable in the turn it goes out, and 8H 8D may still become a set.
    view = _open_hand_view("8H 8D 3C", "5H 6H 7H")
    normal = choose_move(view, "normal")
    assert isinstance(normal, Play)
    assert [card.face for layoff in normal.layoffs for card in layoff.cards] == ["8H"]
    move = choose_move(view, "hard")
    assert isinstance(move, Discard)
    assert move.card.face == "3C"


def test_hard_builds_the_fitting_cards_in_the_turn_it_goes_out() -> None:
    # 8H onto 5H 6H 7H and 3S 4S 5S in hand: all but 2D reach the table, so it goes out (R40-25).
    view = _open_hand_view("8H 3S 4S 5S 2D", "5H 6H 7H")
    move = choose_move(view, "hard")
    assert isinstance(move, Play)
    assert len(move.cards_from_hand()) == 4


def test_hard_keeps_a_meld_in_a_short_hand_until_it_goes_out() -> None:
    # 5S 6S 7S is a meld (R40-16), but laying it leaves 9D KC: hard keeps it in hand, to lay it
    # in the turn it goes out (R40-25); the normal bot lays it at once.
    state = position(
        R40,
        hands=["5S 6S 7S 9D KC", "5D 6D 7D 9C 2S"],
        melds=[(1, "TH JH QH")],
        turn=0,
        phase="play",
        opened=[True, True],
    )
    view = view_for(state, 0)
    normal = choose_move(view, "normal")
    assert isinstance(normal, Play)
    assert len(normal.melds) == 1
    move = choose_move(view, "hard")
    assert isinstance(move, Discard)
    assert move.card.face in ("9D", "KC")
