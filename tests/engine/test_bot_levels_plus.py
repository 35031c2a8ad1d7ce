"""The hard level of Remi and Rummy 500 (:mod:`games.engine.rummy.bots.hard_remi_rummy500`): a race to go out
with plus points.

* once open, it keeps its melds and the cards that fit the table in hand while no opponent who has
  opened is near going out, and lays everything when one is (RMI-51, RMI-54, RMI-56);
* it still opens at once (RMI-24/25) and still goes out when it can (RMI-51);
* of two cards of the same use it discards the lower (RMI-10: a ten scores two fives), and the
  higher once an opponent is near the end.
"""

from __future__ import annotations

from typing import Any

from games.engine import variant, view_for
from games.engine.bots import choose_move
from games.engine.moves import Discard, Play
from games.engine.positions import position
from games.engine.rummy.bots.hard_remi_rummy500 import SAFE_HAND, HardPlus
from games.engine.rummy.bots.normal import NormalBot, read_view

REMI = variant("remi")
#: Cards of an opponent who has opened, far from going out and near it.
FAR = "5D 6D 9C 2S 4H 8S"
NEAR = "5D 9C"


def _view(
    hand: str, other: str, *, opened: bool = True, melds: tuple[tuple[int, str], ...] = ()
) -> dict[str, Any]:
    """Seat 0's view in its play phase, in the fourth turn of both seats (RMI-19 is past)."""
    state = position(
        REMI,
        hands=[hand, other],
        melds=melds or ((1, "TH JH QH"),),
        turn=0,
        phase="play",
        opened=[opened, True],
        turns_started=[4, 3],
        atu="2C",
    )
    return view_for(state, 0)


def _kept(view: dict[str, Any], discards: tuple[str, ...]) -> None:
    """The normal bot lays one meld from this view; hard keeps it and discards one of ``discards``."""
    normal = choose_move(view, "normal")
    assert isinstance(normal, Play)
    assert len(normal.melds) == 1
    move = choose_move(view, "hard")
    assert isinstance(move, Discard)
    assert move.card.face in discards


def _lays_the_run(view: dict[str, Any]) -> None:
    """Hard lays 5S 6S 7S from this view."""
    move = choose_move(view, "hard")
    assert isinstance(move, Play)
    assert [card.face for card in move.melds[0]] == ["5S", "6S", "7S"]


def test_hard_keeps_its_melds_in_hand_while_the_opponent_is_far_from_going_out() -> None:
    assert len(FAR.split()) >= SAFE_HAND
    _kept(_view("5S 6S 7S 9D 3C", FAR), ("9D", "3C"))


def test_hard_keeps_a_card_that_fits_the_table_while_the_opponent_is_far() -> None:
    # KH fits TH JH QH (RMI-35): the normal bot lays it off at once; hard keeps it for the turn it
    # goes out, and the kings may still make a set.
    view = _view("KH KD 4C", FAR)
    normal = choose_move(view, "normal")
    assert isinstance(normal, Play)
    assert [card.face for layoff in normal.layoffs for card in layoff.cards] == ["KH"]
    move = choose_move(view, "hard")
    assert isinstance(move, Discard)
    assert move.card.face == "4C"


def test_hard_lays_everything_when_an_opponent_who_has_opened_is_near_going_out() -> None:
    view = _view("5S 6S 7S 9D 3C", NEAR)
    assert not HardPlus(view).safe()
    _lays_the_run(view)


def test_hard_goes_out_with_the_cards_it_kept() -> None:
    # The run, the set and KH onto TH JH QH: everything but 2D reaches the table (RMI-51).
    view = _view("5S 6S 7S 9D 9C 9H KH 2D", FAR)
    move = choose_move(view, "hard")
    assert isinstance(move, Play)
    assert len(move.cards_from_hand()) == 7


def test_hard_opens_at_once() -> None:
    # KS KH KD (30) + 7C 8C 9C (15) = 45 with a run (RMI-24/25): opened, it may build and take deep.
    view = _view("KS KH KD 7C 8C 9C 2D 4H", FAR, opened=False)
    move = choose_move(view, "hard")
    assert isinstance(move, Play)
    assert sorted(len(meld) for meld in move.melds) == [3, 3]


def test_hard_discards_the_lower_of_two_loose_cards_and_the_higher_near_the_end() -> None:
    # 3C and KD meld with nothing: the normal bot sheds the king (it costs more in hand, RMI-56),
    # hard keeps it (laid, it scores twice what the three does, RMI-54) until the end is near.
    hand = "5S 6S 7S 3C KD"
    far = _view(hand, FAR)
    assert NormalBot().discard_order(read_view(far))[0].face == "KD"
    assert HardPlus(far).discard_order(read_view(far))[0].face == "3C"
    near = _view(hand, NEAR)
    assert HardPlus(near).discard_order(read_view(near))[0].face == "KD"


def test_hard_keeps_its_melds_in_rummy_500_until_an_opponent_is_near_going_out() -> None:
    # No opening in Rummy 500 (R500-19): every seat may go out, so the opponent's hand size decides.
    rummy = variant("rummy500")

    def view(other: str) -> dict[str, Any]:
        state = position(rummy, hands=["5S 6S 7S 9D 3C", other], turn=0, phase="play", turns_started=[4, 3])
        return view_for(state, 0)

    _kept(view(FAR), ("9D", "3C"))
    _lays_the_run(view(NEAR))
