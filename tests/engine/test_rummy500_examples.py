"""Rummy 500 worked examples (``docs/rules/rummy500.md``, worked examples): one test per R500-EXn, R500-DXn.

Every number is the example's own. Examples about a move in play build the position with
``position(...)`` and play real moves through ``apply_move``.
"""

from __future__ import annotations

import pytest

from games.engine import (
    DrawStock,
    GameState,
    InvalidMeldError,
    apply_move,
    parse_cards,
    position,
    variant,
    view_for,
)
from games.engine.melds import read_meld
from tests.engine.helpers import discard, faces, play, points, refused, table_cards, take

R500 = variant("rummy500")


# --- examples from the source (EX) ----------------------------------------------------------------


def test_r500_ex1_ace_two_three_is_a_run_queen_king_ace_is_not() -> None:
    meld = read_meld(parse_cards("AH 2H 3H"), R500.policy)
    assert (meld.kind, meld.start, meld.suit) == ("run", 1, "H")
    assert R500.meld_points("AH 2H 3H") == 6  # the ace is the lowest card and counts 1
    with pytest.raises(InvalidMeldError) as info:
        read_meld(parse_cards("QH KH AH"), R500.policy)
    assert info.value.code == "wrap_around"
    with pytest.raises(InvalidMeldError):
        read_meld(parse_cards("KH AH 2H"), R500.policy)
    # On the table: the low run is laid, the high one refused.
    state = position(R500, hands=["AH 2H 3H QS KS AS 5C", "9D 9C"], turn=0, phase="play", rest="drop")
    refused(state, 0, play("QS KS AS"), "wrap_around")
    new = apply_move(state, 0, play("AH 2H 3H")).state
    assert table_cards(new, 1) == "AH 2H 3H"


def test_r500_ex2_ten_is_10_ace_is_1_jack_queen_king_are_10_each() -> None:
    assert [R500.hand_points(card) for card in ("TS", "AS", "JS", "QS", "KS")] == [10, 1, 10, 10, 10]
    assert [R500.hand_points(card) for card in ("2D", "5D", "9D")] == [2, 5, 9]
    assert R500.meld_points("TS JS QS") == 30
    assert R500.meld_points("AS AH AD") == 3
    assert R500.meld_points("9C TC JC QC KC") == 49


# --- derived examples (DX) -----------------------------------------------------------------------


def _dx1_position(last_cards: str) -> GameState:
    return position(
        R500,
        hands=[last_cards, "5C 5D 5S", "QC 2D"],
        melds=[(0, "7H 8H 9H"), (0, "KS KH KD"), (1, "AS AH AD")],
        turn=0,
        phase="play",
        first=2,
    )


def test_r500_dx1_scoring_a_deal_plus_64_minus_12_minus_12() -> None:
    # P1 lays off TH onto 7H 8H 9H and discards the last card (R500-Q4, second way).
    state = _dx1_position("TH 4C")
    state = apply_move(state, 0, play(layoffs=[(1, "TH")])).state
    assert table_cards(state, 1) == "7H 8H 9H TH"
    assert state.melds[0].placed_by == (0, 0, 0, 0)
    state = apply_move(state, 0, discard("4C")).state
    result = state.results[-1]
    assert (result.ended, result.winner) == ("went_out", 0)
    assert points(state) == [64, -12, -12]
    lines = result.lines
    assert (lines[0].table, lines[0].hand, lines[0].bonus) == (64, 0, 0)  # R500-16: no bonus
    assert (lines[1].table, lines[1].hand) == (3, 15)  # the unlaid set 5C 5D 5S still counts
    assert (lines[2].table, lines[2].hand) == (0, 12)
    assert state.totals == (64, -12, -12)  # R500-Q10: negative totals are allowed
    assert state.phase == "draw"  # far from 500: the next deal (R500-17)


def test_r500_dx1_going_out_by_laying_off_the_last_card_scores_the_same() -> None:
    # R500-Q4, first way: the last card is laid off; no discard is needed.
    state = _dx1_position("TH")
    result = apply_move(state, 0, play(layoffs=[(1, "TH")]))
    new = result.state
    assert [e.kind for e in result.events] == ["laid_off", "round_over", "round_started"]
    assert new.results[-1].ended == "went_out"
    assert new.results[-1].winner == 0
    assert points(new) == [64, -12, -12]


def test_r500_dx2_a_deep_take_brings_every_card_above_and_melds_the_card_reached_for() -> None:
    state = position(R500, hands=["9H 9D 4S", "2C 3C"], discard="4C 9S 7H 2D KC", turn=0, phase="draw")
    result = apply_move(state, 0, take("9S", "9S 9H 9D"))
    new = result.state
    assert [c.face for c in new.discard] == ["4C"]
    assert table_cards(new, 1) == "9S 9H 9D"
    assert faces(new.hands[0]) == ["2D", "4S", "7H", "KC"]  # the cards above came along
    assert new.phase == "play"  # R500-Q3: the turn still ends with a discard
    took = next(e for e in result.events if e.kind == "took")
    assert (took.data["depth"], [c.split("#")[0] for c in took.data["cards"]]) == (
        4,
        ["9S", "7H", "2D", "KC"],
    )
    assert new.melds[0].placed_by == (0, 0, 0)


def test_r500_dx2_the_meld_may_not_use_the_other_cards_taken_from_the_pile() -> None:
    state = position(R500, hands=["9H 4S", "2C 3C"], discard="4C 9S 9D 2D KC", turn=0, phase="draw")
    error = refused(state, 0, take("9S", "9S 9D 9H"), "cannot_take_discard")
    assert error.rule == "R500-9"
    # Nor with the 9D written with its id: the physical card decides, not the notation.
    nine = state.discard[2]
    assert nine.face == "9D"
    refused(state, 0, take("9S", f"9S {nine} 9H"), "cannot_take_discard")


def test_r500_dx2_the_cards_that_came_along_may_go_into_other_melds_of_the_same_move() -> None:
    # R500-Q6: only the meld holding the card reached for is restricted.
    state = position(R500, hands=["9H 9D 5C 6C", "2H 3H"], discard="4C 9S 7C 2D KC", turn=0, phase="draw")
    new = apply_move(state, 0, take("9S", "9S 9H 9D", "5C 6C 7C")).state
    assert [table_cards(new, m.id) for m in new.melds] == ["9S 9H 9D", "5C 6C 7C"]
    assert faces(new.hands[0]) == ["2D", "KC"]
    # ... and the card reached for may be laid off onto a table meld instead (R500-Q6).
    state = position(
        R500,
        hands=["2S 3S", "2H 3H"],
        discard="4C 9S 7C 2D KC",
        melds=[(1, "6S 7S 8S")],
        turn=0,
        phase="draw",
    )
    new = apply_move(state, 0, take("9S", layoffs=[(1, "9S")])).state
    assert table_cards(new, 1) == "6S 7S 8S 9S"
    assert new.melds[0].placed_by == (1, 1, 1, 0)  # the 9S scores for the taker (R500-12)
    assert faces(new.hands[0]) == ["2D", "2S", "3S", "7C", "KC"]


def test_r500_dx3_the_highest_total_over_500_wins_after_the_deal() -> None:
    # Before the deal: P1 488, P2 518, P3 310. P2 goes out with 4C 4D 4H (+12); P1 has 9C TC JC on
    # the table (29) and 5S in hand (-5); P3 laid nothing and holds QS (-10).
    state = position(
        R500,
        hands=["5S", "4C 4D 4H 2S", "QS"],
        melds=[(0, "9C TC JC")],
        turn=1,
        phase="play",
        totals=[488, 518, 310],
    )
    state = apply_move(state, 1, play("4C 4D 4H")).state
    state = apply_move(state, 1, discard("2S")).state
    assert state.totals == (512, 530, 300)
    assert state.phase == "over"  # R500-Q8: judged once the deal is fully scored
    assert state.winners == (1,)  # R500-18: more than one past 500: the most points wins
    assert view_for(state, None)["winners"] == [1]


def test_r500_dx3_passing_500_during_the_deal_but_ending_at_498_does_not_end_the_game() -> None:
    # P1 starts at 466 and lays 39: the running tally (R500-14) shows 505, but P1 is caught with 7D.
    state = position(
        R500,
        hands=["9S TS JS QS 7D 9D", "4C 4D 4H"],
        stock="2H",
        turn=0,
        phase="play",
        totals=[466, 100],
    )
    state = apply_move(state, 0, play("9S TS JS QS")).state
    assert view_for(state, 1)["running_totals"] == [505, 100]
    assert state.totals == (466, 100)  # totals change only when the deal is scored
    state = apply_move(state, 0, discard("9D")).state
    state = apply_move(state, 1, DrawStock()).state
    state = apply_move(state, 1, play("4C 4D 4H")).state
    state = apply_move(state, 1, discard("2H")).state
    assert state.totals == (498, 112)
    assert state.phase == "draw"
    assert state.round_no == 2
    assert view_for(state, 0)["running_totals"] == [498, 112]


def test_r500_q8_a_tie_for_the_highest_total_over_500_means_one_more_deal() -> None:
    state = position(R500, hands=["5S", "4C 4D 4H 2S"], turn=1, phase="play", totals=[505, 498])
    state = apply_move(state, 1, play("4C 4D 4H")).state
    state = apply_move(state, 1, discard("2S")).state
    assert state.totals == (500, 510)
    assert state.phase == "over"
    state = position(R500, hands=["AS", "4C 4D 4H 2S"], turn=1, phase="play", totals=[511, 498])
    state = apply_move(state, 1, play("4C 4D 4H")).state
    state = apply_move(state, 1, discard("2S")).state
    assert state.totals == (510, 510)
    assert state.phase == "draw"  # tied at the top: one more deal
    assert state.round_no == 2
