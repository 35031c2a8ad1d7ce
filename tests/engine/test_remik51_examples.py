"""Remik 51 worked examples (``docs/rules/remik51.md``, worked examples): one test per R51-EXn and R51-DXn.

Every number is the example's own. Examples about a move in play build the position with
``position(...)`` and play real moves through ``apply_move``.
"""

from __future__ import annotations

import pytest

from games.engine import (
    DrawStock,
    IllegalMoveError,
    InvalidMeldError,
    apply_move,
    parse_cards,
    position,
    variant,
    view_for,
)
from games.engine.melds import read_meld
from tests.engine.helpers import discard, faces, play, refused, table_cards

R51 = variant("remik51")


# --- helpers ------------------------------------------------------------------------------------


# --- examples from the source (EX) ----------------------------------------------------------------


def test_r51_ex1_opening_nine_ten_jack_and_three_eights_is_53() -> None:
    assert R51.meld_points("9S TS JS") == 29
    assert R51.meld_points("8H 8D 8C") == 24
    state = position(
        R51, hands=["9S TS JS 8H 8D 8C 2C", "5D 6D 7D"], turn=0, phase="play", stock="KS", rest="drop"
    )
    assert state.cycle.opened == (False, False)
    result = apply_move(state, 0, play("9S TS JS", "8H 8D 8C"))
    new = result.state
    assert new.cycle.opened == (True, False)
    opened = [e for e in result.events if e.kind == "opened"]
    assert [e.data["points"] for e in opened] == [53]
    view = view_for(new, 0)
    assert [(m["kind"], m["points"]) for m in view["melds"]] == [("run", 29), ("set", 24)]
    assert faces(new.hands[0]) == ["2C"]


def test_r51_ex2_seven_eight_nine_of_hearts_is_a_run() -> None:
    meld = read_meld(parse_cards("7H 8H 9H"), R51.policy)
    assert (meld.kind, meld.suit, meld.start) == ("run", "H", 7)
    assert R51.meld_points("7H 8H 9H") == 24
    state = position(R51, hands=["7H 8H 9H 2C", "5D"], opened=[True, False], turn=0, phase="play")
    new = apply_move(state, 0, play("7H 8H 9H")).state
    assert [(m["kind"], m["cards"]) for m in view_for(new, 1)["melds"]] == [("run", ["7H#1", "8H#1", "9H#1"])]


def test_r51_ex3_three_queens_of_different_suits_is_a_group() -> None:
    meld = read_meld(parse_cards("QS QH QC"), R51.policy)
    assert (meld.kind, meld.rank) == ("set", "Q")
    assert R51.meld_points("QS QH QC") == 30


def test_r51_ex4_two_nines_of_hearts_and_a_nine_of_spades_is_not_a_group() -> None:
    with pytest.raises(InvalidMeldError) as info:
        read_meld(parse_cards("9H 9H 9S"), R51.policy)
    assert info.value.code == "repeated_suit"
    # Both 9H exist in the two-deck pack, yet laying them together is refused.
    state = position(R51, hands=["9H 9H 9S 2C", "5D"], opened=[True, False], turn=0, phase="play")
    refused(state, 0, play("9H 9H 9S"), "repeated_suit")


def test_r51_ex5_king_ace_two_does_not_wrap_around() -> None:
    with pytest.raises(InvalidMeldError) as info:
        read_meld(parse_cards("KS AS 2S"), R51.policy)
    assert info.value.code == "wrap_around"
    state = position(R51, hands=["KS AS 2S 5C", "5D"], opened=[True, False], turn=0, phase="play")
    refused(state, 0, play("KS AS 2S"), "wrap_around")


def test_r51_ex6_ace_two_three_is_valid_and_the_ace_counts_1() -> None:
    meld = read_meld(parse_cards("AS 2S 3S"), R51.policy)
    assert (meld.kind, meld.start) == ("run", 1)
    assert R51.meld_points("AS 2S 3S") == 6
    # In an opening the ace counts 1: 6 + 30 + 12 = 48 < 51 (it would be 58 with the ace at 11).
    state = position(R51, hands=["AS 2S 3S KS KH KD 4C 4H 4D 9C", "5D"], turn=0, phase="play")
    error = refused(state, 0, play("AS 2S 3S", "KS KH KD", "4C 4H 4D"), "opening_too_low")
    assert error.fields["points"] == 48


def test_r51_ex7_queen_king_ace_is_valid_and_the_ace_counts_11() -> None:
    meld = read_meld(parse_cards("QS KS AS"), R51.policy)
    assert (meld.kind, meld.start) == ("run", 12)
    assert R51.meld_points("QS KS AS") == 31
    # 31 + 21 = 52 >= 51: a legal opening only because the ace counts 11.
    state = position(R51, hands=["QS KS AS 7C 7H 7D 9C", "5D"], turn=0, phase="play")
    result = apply_move(state, 0, play("QS KS AS", "7C 7H 7D"))
    assert result.state.cycle.opened[0] is True
    assert [e.data["points"] for e in result.events if e.kind == "opened"] == [52]


def test_r51_ex8_joker_ace_seven_left_in_hand_cost_48() -> None:
    assert R51.hand_points("JK AD 7C") == 48
    # Seat 0 (opened in an earlier turn) goes out; seat 1 is caught with JK AD 7C.
    state = position(
        R51, hands=["5D", "JK AD 7C"], melds=[(0, "2S 3S 4S")], turn=0, phase="play", rest="drop"
    )
    new = apply_move(state, 0, discard("5D")).state
    result = new.results[-1]
    assert (result.ended, result.winner) == ("went_out", 0)
    line = result.lines[1]
    assert (line.points, line.hand, line.multiplier) == (48, 48, 1)
    assert result.lines[0].points == 0
    assert new.totals == (0, 48)


# --- derived examples (DX) -----------------------------------------------------------------------


def test_r51_dx1_ace_at_both_ends_is_not_a_valid_run() -> None:
    cards = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    with pytest.raises(InvalidMeldError) as info:
        read_meld(parse_cards(cards), R51.policy)
    assert info.value.code == "ace_both_ends"
    state = position(R51, hands=[cards + " 5C", "5D"], opened=[True, False], turn=0, phase="play")
    refused(state, 0, play(cards), "ace_both_ends")


def test_r51_dx2_opening_values_ace_low_6_ace_high_31_three_aces_33() -> None:
    assert R51.meld_points("AS 2S 3S") == 6
    assert R51.meld_points("QS KS AS") == 31
    assert R51.meld_points("AS AH AD") == 33


def test_r51_dx3_joker_limits_in_groups_and_runs() -> None:
    # QS QH JK(QD) is valid.
    meld = read_meld(parse_cards("QS QH JK(QD)"), R51.policy)
    assert meld.kind == "set"
    assert R51.meld_points("QS QH JK(QD)") == 30
    # QS JK JK is not: two jokers in a group of three; as a run (Q-K-A) the jokers are adjacent.
    with pytest.raises(InvalidMeldError) as info:
        read_meld(parse_cards("QS JK JK"), R51.policy)
    assert info.value.code in {"too_many_jokers", "adjacent_jokers"}
    # JK QS JK is the run J-Q-K (R51-Q5).
    meld = read_meld(parse_cards("JK QS JK"), R51.policy)
    assert (meld.kind, meld.start) == ("run", 11)
    assert [c.face for c in meld.represented] == ["JS", "QS", "KS"]
    assert R51.meld_points("JK QS JK") == 30
    # QS QH JK(QD) JK(QC) is valid.
    meld = read_meld(parse_cards("QS QH JK(QD) JK(QC)"), R51.policy)
    assert meld.kind == "set"
    assert R51.meld_points("QS QH JK(QD) JK(QC)") == 40
    # 5H JK JK 8H is not (adjacent jokers).
    with pytest.raises(InvalidMeldError) as info:
        read_meld(parse_cards("5H JK JK 8H"), R51.policy)
    assert info.value.code == "adjacent_jokers"
    # 5H JK(6H) 7H JK(8H) is valid.
    meld = read_meld(parse_cards("5H JK(6H) 7H JK(8H)"), R51.policy)
    assert (meld.kind, meld.start) == ("run", 5)
    assert R51.meld_points("5H JK(6H) 7H JK(8H)") == 26
    # The same limits hold on the table.
    state = position(R51, hands=["5H JK JK 8H QS 2C", "5D"], opened=[True, False], turn=0, phase="play")
    refused(state, 0, play("5H JK JK 8H"), "adjacent_jokers")
    new = apply_move(state, 0, play("JK QS JK")).state
    assert table_cards(new, 1) == "JK(JS) QS JK(KS)"


def test_r51_dx4_opening_whose_only_run_has_a_joker_is_illegal_a_pure_run_makes_it_legal() -> None:
    assert R51.meld_points("5H JK(6H) 7H") == 18
    assert R51.meld_points("KS KH KD") == 30
    assert R51.meld_points("AS AH AC") == 33
    state = position(R51, hands=["5H JK 7H 6H KS KH KD AS AH AC 2C", "5D"], turn=0, phase="play", rest="drop")
    error = refused(state, 0, play("5H JK(6H) 7H", "KS KH KD", "AS AH AC"), "opening_needs_run")
    assert error.fields["points"] == 81
    result = apply_move(state, 0, play("5H 6H 7H", "KS KH KD", "AS AH AC"))
    assert result.state.cycle.opened[0] is True
    assert [e.data["points"] for e in result.events if e.kind == "opened"] == [81]


def test_r51_dx5_going_out_in_one_go_doubles_the_opponent_to_96() -> None:
    hand = "9S TS JS 8H 8D 8C 2C 3C 4C 5C KS KH KD"
    state = position(R51, hands=[hand, "JK AD 7C"], stock="6D", turn=0, phase="draw", first=1, rest="drop")
    state = apply_move(state, 0, DrawStock()).state
    assert len(state.hands[0]) == 14
    result = apply_move(state, 0, play("9S TS JS", "8H 8D 8C", "2C 3C 4C 5C", "KS KH KD"))
    assert [e.data["points"] for e in result.events if e.kind == "opened"] == [97]
    state = result.state
    assert faces(state.hands[0]) == ["6D"]
    state = apply_move(state, 0, discard("6D")).state
    last = state.results[-1]
    assert (last.ended, last.winner) == ("went_out", 0)
    assert last.lines[0].points == 0
    line = last.lines[1]
    assert (line.hand, line.multiplier, line.points) == (48, 2, 96)
    assert state.totals == (0, 96)


def test_r51_dx6_joker_penalty_25_makes_the_hand_43_and_50_makes_it_68() -> None:
    assert variant("remik51", joker_penalty=25).hand_points("JK AD 7C") == 43
    assert variant("remik51", joker_penalty=50).hand_points("JK AD 7C") == 68
    assert variant("remik51", jokerPenalty=30).hand_points("JK AD 7C") == 48
    for penalty, expected in ((25, 43), (50, 68)):
        rules = variant("remik51", joker_penalty=penalty)
        state = position(rules, hands=["5D", "JK AD 7C"], melds=[(0, "2S 3S 4S")], turn=0, phase="play")
        new = apply_move(state, 0, discard("5D")).state
        assert new.results[-1].lines[1].points == expected
        assert new.totals == (0, expected)


def test_r51_dx7_joker_exchange_the_joker_must_go_into_a_new_meld_this_turn() -> None:
    state = position(
        R51,
        hands=["5D 9S 9H 2C", "3S 4S 5S"],
        melds=[(1, "4D JK(5D) 6D")],
        opened=[True, True],
        turn=0,
        phase="play",
        rest="drop",
    )
    # Without a new meld for the joker the exchange is illegal.
    refused(state, 0, play(exchanges=[(1, "5D")]), "exchanged_joker_not_melded")
    # A lay-off of the joker is not a new meld either.
    refused(state, 0, play(exchanges=[(1, "5D")], layoffs=[(1, "JK(7D)")]), "exchanged_joker_not_melded")
    result = apply_move(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "5D")]))
    new = result.state
    assert table_cards(new, 1) == "4D 5D 6D"
    assert table_cards(new, 2) == "9S 9H JK(9D)"
    assert faces(new.hands[0]) == ["2C"]
    assert [e.kind for e in result.events].count("joker_exchanged") == 1
    # P discards the card kept back (R51-43) and goes out; P had opened before: no doubling.
    new = apply_move(new, 0, discard("2C")).state
    line = new.results[-1].lines[1]
    assert (line.points, line.multiplier) == (12, 1)


def test_r51_dx7_joker_exchange_needs_a_card_left_to_discard() -> None:
    state = position(
        R51,
        hands=["5D 9S 9H", "3S 4S 5S"],
        melds=[(1, "4D JK(5D) 6D")],
        opened=[True, True],
        turn=0,
        phase="play",
        rest="drop",
    )
    refused(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "5D")]), "must_keep_discard")


def test_r51_dx8_limit_500_a_total_of_505_ends_the_match_500_does_not() -> None:
    # 480 + 25 = 505 > 500: the match ends and the lowest total wins.
    state = position(
        R51,
        hands=["5D", "KS 9D 6C"],
        melds=[(0, "2S 3S 4S")],
        turn=0,
        phase="play",
        totals=[100, 480],
    )
    over = apply_move(state, 0, discard("5D")).state
    assert over.totals == (100, 505)
    assert over.phase == "over"
    assert over.winners == (0,)
    with pytest.raises(IllegalMoveError) as info:
        apply_move(over, over.turn, DrawStock())
    assert info.value.code == "game_over"
    # 480 + 20 = 500 exactly: not over; the next round is dealt.
    state = position(
        R51,
        hands=["5D", "KS TD"],
        melds=[(0, "2S 3S 4S")],
        turn=0,
        phase="play",
        totals=[100, 480],
    )
    going = apply_move(state, 0, discard("5D")).state
    assert going.totals == (100, 500)
    assert going.phase == "play"
    assert going.round_no == 2
    assert going.winners == ()
