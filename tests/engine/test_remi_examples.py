"""Remi worked examples (``docs/rules/remi.md``, worked examples): RMI-EX1, RMI-EX2 and RMI-DX1..DX8.

Every number is the example's own. Examples about play build the position with ``position(...)``
and play real moves through ``apply_move``; round scores are read from the scored round.
"""

from __future__ import annotations

import pytest

from games.engine import (
    DrawStock,
    GameState,
    apply_move,
    legal_moves,
    parse_cards,
    position,
    variant,
    view_for,
)
from games.engine.melds import read_meld
from games.engine.scoring import table_points
from tests.engine.helpers import discard, faces, play, refused, run, table_cards, take

REMI = variant("remi")  # Remi 45 by default
CLASSIC = variant("remi", opening="classic")
REMI51 = variant("remi", opening="51")


# --- helpers ------------------------------------------------------------------------------------


# --- RMI-EX1: deep take -------------------------------------------------------------------------

ROW = "5S TD AH 5C 3H 6D 7S"


def test_rmi_ex1_deep_take_of_the_three_brings_the_six_and_seven_into_the_hand() -> None:
    state = position(
        REMI,
        hands=["4H 5H", "2D 3D 4D"],
        melds=[(0, "KS KH KD")],
        discard=ROW,
        stock="9C",
        atu="8D",
        turn=0,
        rest="drop",
    )
    assert state.cycle.opened == (True, False)
    result = apply_move(state, 0, take("3H", "3H 4H 5H"))
    new = result.state
    assert faces(new.discard) == faces(parse_cards("5S TD AH 5C"))
    assert [c.face for c in new.discard] == ["5S", "TD", "AH", "5C"]
    assert faces(new.hands[0]) == ["6D", "7S"]
    assert table_cards(new, 2) == "3H 4H 5H"
    assert new.stock == state.stock  # nothing drawn
    took = next(e for e in result.events if e.kind == "took")
    assert (took.data["depth"], took.data["cards"]) == (3, ["3H#1", "6D#1", "7S#1"])
    # Only the 3 is bound: the pieces that came along may be discarded at once (RMI-Q21).
    after = apply_move(new, 0, discard("7S")).state
    assert [c.face for c in after.discard] == ["5S", "TD", "AH", "5C", "7S"]
    assert faces(after.hands[0]) == ["6D"]


def test_rmi_ex1_deep_take_refused_for_a_player_who_has_not_opened_row_untouched() -> None:
    # Classic table: 3H 4H 5H would be a valid opening, so only the depth is at fault.
    state = position(
        CLASSIC,
        hands=["4H 5H 9C", "2D 3D 4D"],
        melds=[(1, "KS KH KD")],
        discard=ROW,
        stock="9D",
        atu="8D",
        turn=0,
        rest="drop",
    )
    assert state.cycle.opened == (False, True)
    refused(state, 0, take("3H", "3H 4H 5H"), "cannot_take_discard")
    assert [c.face for c in state.discard] == ROW.split()
    # The state is still usable: the player draws instead.
    after = apply_move(state, 0, DrawStock()).state
    assert [c.face for c in after.discard] == ROW.split()
    assert faces(after.hands[0]) == ["4H", "5H", "9C", "9D"]


def test_rmi_ex1_deep_take_refused_when_the_three_forms_no_valid_formation() -> None:
    state = position(
        REMI,
        hands=["4C 5C 6C 4H", "2D 3D 4D"],
        melds=[(0, "KS KH KD")],
        discard=ROW,
        stock="9C",
        atu="8D",
        turn=0,
        rest="drop",
    )
    refused(state, 0, take("3H", "3H 4C 5C"), "not_a_meld")
    refused(state, 0, take("3H", "3H 4H 5C"), "not_a_meld")
    # A valid formation that does not hold the 3 does not count either.
    refused(state, 0, take("3H", "5C 6D 7S"), "not_a_meld")
    refused(state, 0, take("3H", "4C 5C 6C"), "taken_card_not_melded")
    refused(state, 0, take("3H"), "taken_card_not_melded")
    assert [c.face for c in state.discard] == ROW.split()
    assert faces(state.hands[0]) == ["4C", "4H", "5C", "6C"]


# --- RMI-EX2: lay-down button -----------------------------------------------------------------


def test_rmi_ex2_classic_rack_with_only_three_kings_reports_the_run_missing() -> None:
    state = position(CLASSIC, hands=["KS KH KD 2C 9D", "5S"], atu="8D", turn=0, phase="play")
    opening = view_for(state, 0)["you"]["opening"]
    assert opening["missing"] == ["run"]
    assert opening["required_points"] == 0
    refused(state, 0, play("KS KH KD"), "opening_needs_run")


def test_rmi_ex2_remi51_rack_worth_45_reports_the_points_missing() -> None:
    state = position(REMI51, hands=["3H 4H 5H KS KH KD 9C", "5S"], atu="8D", turn=0, phase="play")
    opening = view_for(state, 0)["you"]["opening"]
    assert opening["missing"] == ["points"]
    assert opening["required_points"] == 51
    assert opening["best_points"] == 45
    assert opening["has_run"] is True
    error = refused(state, 0, play("3H 4H 5H", "KS KH KD"), "opening_too_low")
    assert error.fields["points"] == 45


# --- RMI-DX1: values ----------------------------------------------------------------------------


def test_rmi_dx1_values() -> None:
    assert REMI.meld_points("AS AH AD") == 75
    assert REMI.meld_points("AH 2H 3H") == 15
    assert REMI.meld_points("QH KH AH") == 30
    assert REMI.meld_points("7S 8S 9S") == 15
    assert REMI.meld_points("TS JS QS") == 30
    assert REMI.meld_points("7H JK(8H) 9H") == 15
    assert REMI.meld_points("AS AH JK(AD)") == 75
    meld = read_meld(parse_cards("7H JK(8H) 9H"), REMI.policy)
    assert REMI.meld_value(meld) == 15


# --- RMI-DX2: thresholds ------------------------------------------------------------------------


def _opening_state(rules_opening: str, hand: str) -> GameState:
    rules = variant("remi", opening=rules_opening)
    return position(rules, hands=[hand + " 9C", "5S"], atu="8D", turn=0, phase="play")


@pytest.mark.parametrize("opening", ["classic", "45"])
def test_rmi_dx2_run_and_three_kings_worth_45_open_at_classic_and_45(opening: str) -> None:
    state = _opening_state(opening, "3H 4H 5H KS KH KD")
    result = apply_move(state, 0, play("3H 4H 5H", "KS KH KD"))
    assert result.state.cycle.opened[0] is True
    assert [e.data["points"] for e in result.events if e.kind == "opened"] == [45]


def test_rmi_dx2_run_and_three_kings_worth_45_do_not_open_at_51() -> None:
    state = _opening_state("51", "3H 4H 5H KS KH KD")
    error = refused(state, 0, play("3H 4H 5H", "KS KH KD"), "opening_too_low")
    assert (error.fields["points"], error.fields["needed"]) == (45, 51)


@pytest.mark.parametrize("opening", ["classic", "45", "51"])
def test_rmi_dx2_kings_and_aces_worth_105_without_a_run_never_open(opening: str) -> None:
    assert REMI.meld_points("KS KH KD") + REMI.meld_points("AS AH AD") == 105
    state = _opening_state(opening, "KS KH KD AS AH AD")
    refused(state, 0, play("KS KH KD", "AS AH AD"), "opening_needs_run")


@pytest.mark.parametrize(
    ("opening", "code"), [("classic", None), ("45", "opening_too_low"), ("51", "opening_too_low")]
)
def test_rmi_dx2_a_lone_run_opens_only_at_classic(opening: str, code: str | None) -> None:
    state = _opening_state(opening, "3H 4H 5H")
    if code is None:
        assert apply_move(state, 0, play("3H 4H 5H")).state.cycle.opened[0] is True
    else:
        refused(state, 0, play("3H 4H 5H"), code)


# --- RMI-DX3: first turn ------------------------------------------------------------------------


def test_rmi_dx3_first_player_with_a_valid_opening_may_only_discard() -> None:
    hand15 = "3H 4H 5H KS KH KD QS QH QD 7C 8C 9C 2D 6S 9H"
    state = position(
        REMI,
        hands=[hand15, "2C 3C 4C 5D 6D 7D 8S 9S TS JC QC KC 4S 8H"],
        stock="TD JD",
        atu="8D",
        turn=0,
        first=0,
        phase="play",
        turns_started=[1, 0],
        rest="drop",
    )
    assert [len(h) for h in state.hands] == [15, 14]
    refused(state, 0, play("3H 4H 5H", "KS KH KD"), "first_turn")
    refused(state, 0, play("3H 4H 5H", "KS KH KD", "QS QH QD", "7C 8C 9C"), "first_turn")
    refused(state, 0, DrawStock(), "wrong_phase")
    assert {type(m).__name__ for m in legal_moves(state, 0)} == {"Discard"}
    state = apply_move(state, 0, discard("9H")).state
    assert (state.turn, state.phase, state.turns_started) == (1, "draw", (1, 1))
    # The first player's second turn: now the opening goes down.
    state = run(state, (1, DrawStock()), (1, discard("TD")), (0, DrawStock()))
    new = apply_move(state, 0, play("3H 4H 5H", "KS KH KD")).state
    assert new.cycle.opened[0] is True


def test_rmi_dx3_other_player_in_first_turn_may_only_draw_and_discard() -> None:
    state = position(
        REMI,
        hands=["2C 3C 4C 5D 6D 7D 8S 9S TS JC QC KC 4S 8H 3H", "4H 5H KS KH KD QS QH QD 2D"],
        stock="TD JD",
        atu="8D",
        turn=0,
        first=0,
        phase="play",
        turns_started=[1, 0],
        rest="drop",
    )
    state = apply_move(state, 0, discard("3H")).state
    assert state.turns_started == (1, 1)
    # Breaking the row with a valid 45-point opening that uses the 3H is refused.
    refused(state, 1, take(None, "3H 4H 5H", "KS KH KD"), "first_turn")
    assert legal_moves(state, 1) == [DrawStock()]
    assert view_for(state, 1)["you"]["moves"] == ["draw"]
    state = apply_move(state, 1, DrawStock()).state
    refused(state, 1, play("KS KH KD", "QS QH QD"), "first_turn")
    state = apply_move(state, 1, discard("TD")).state
    assert (state.turn, state.phase) == (0, "draw")


# --- RMI-DX4: buy-back --------------------------------------------------------------------------


def _buy_back_position(p1_hand: str, p2_hand: str, stock: str = "") -> GameState:
    # P1 is seat 0 (opened with 5C 6C 7C), P2 is seat 1 (laid TS JK(JS) QS). P1 has drawn.
    return position(
        REMI,
        hands=[p1_hand, p2_hand],
        melds=[(0, "5C 6C 7C"), (1, "TS JK(JS) QS")],
        stock=stock,
        atu="9D",
        turn=0,
        phase="play",
        rest="drop",
    )


def test_rmi_dx4_buy_back_moves_ten_points_to_the_buyer_and_the_joker_costs_50_in_hand() -> None:
    state = _buy_back_position("JS 2D", "4S")
    assert view_for(state, 0)["melds"][1]["points"] == 30
    assert table_points(state) == (15, 30)
    result = apply_move(state, 0, play(exchanges=[(2, "JS")]))
    new = result.state
    assert table_cards(new, 2) == "TS JS QS"
    assert new.meld_by_id(2).placed_by == (1, 0, 1)  # type: ignore[union-attr]
    assert table_points(new) == (25, 20)  # TS JS QS: 20 for P2, 10 for P1
    assert faces(new.hands[0]) == ["2D", "JK"]
    joker = next(c for c in new.hands[0] if c.is_joker)
    assert new.cycle.consumed == (joker,)
    assert view_for(new, 1)["consumed_jokers"] == [joker.id]
    # P1 keeps the joker; the stock is empty, so P2's draw ends the round (RMI-50).
    new = run(new, (0, discard("2D")), (1, DrawStock()))
    last = new.results[-1]
    assert last.ended == "stock_out"
    p1, p2 = last.lines
    assert (p1.table, p1.hand, p1.points) == (25, 50, -25)
    assert (p2.table, p2.hand, p2.points) == (20, 5, 15)


def test_rmi_dx4_a_bought_back_joker_can_never_be_bought_back_again() -> None:
    state = _buy_back_position("JS 7H 9H 2D 6S", "8H 4S", stock="3C")
    state = apply_move(state, 0, play(exchanges=[(2, "JS")])).state
    # P1 uses the consumed joker in a new formation: still wild, worth the 8H it stands for.
    result = apply_move(state, 0, play("7H JK 9H"))
    state = result.state
    assert table_cards(state, 3) == "7H JK(8H) 9H"
    assert view_for(state, 1)["melds"][2]["points"] == 15
    joker = state.meld_by_id(3).cards[1].bare()  # type: ignore[union-attr]
    assert view_for(state, 1)["melds"][2]["consumed"] == [joker.id]
    state = run(state, (0, discard("2D")), (1, DrawStock()))
    # P2 has opened and holds the 8H, but the white joker cannot be bought again (RMI-42).
    error = refused(state, 1, play(exchanges=[(3, "8H")]), "bad_joker_exchange")
    assert error.rule == "RMI-42"
    assert table_cards(state, 3) == "7H JK(8H) 9H"


# --- RMI-DX5 / DX6: round scoring --------------------------------------------------------------


def _dx5_round(atu: str, p1_last: str) -> GameState:
    """Play the DX5 round to its end: P1 (seat 0), P2 (seat 1), P3 (seat 2), Remi 45.

    P1 opened with 45 (3H 4H 5H + KS KH KD), adds 6H, then goes out laying 9C 9D JK(9S).
    P2 laid 90 (TS JS QS, TD JD QD, TC JC QC) and adds 9S; P3 never lays anything.
    """
    state = position(
        REMI,
        hands=[f"6H 9C 9D {p1_last}", "9S QS 5D JK", "2D 4S 8C"],
        melds=[
            (0, "3H 4H 5H"),
            (0, "KS KH KD"),
            (1, "TS JS QS"),
            (1, "TD JD QD"),
            (1, "TC JC QC"),
        ],
        stock="8S 3D 4C JK",
        atu=atu,
        turn=0,
        first=0,
        rest="drop",
    )
    assert table_points(state) == (45, 90, 0)
    return run(
        state,
        (0, DrawStock()),
        (0, play(layoffs=[(1, "6H")])),
        (0, discard("8S")),
        (1, DrawStock()),
        (1, play(layoffs=[(3, "9S")])),
        (1, discard("3D")),
        (2, DrawStock()),
        (2, discard("4C")),
        (0, DrawStock()),
        (0, play("9C 9D JK(9S)")),
        (0, discard(p1_last)),
    )


def test_rmi_dx5_round_scoring_p1_165_p2_30_p3_minus_100() -> None:
    state = _dx5_round(atu="7D", p1_last="2C")
    last = state.results[-1]
    assert (last.ended, last.winner) == ("went_out", 0)
    p1, p2, p3 = last.lines
    assert (p1.table, p1.hand, p1.bonus, p1.atu_bonus, p1.points) == (65, 0, 100, 0, 165)
    assert (p2.table, p2.hand, p2.bonus, p2.points) == (95, 65, 0, 30)
    assert p3.points == -100
    assert state.totals == (165, 30, -100)


def test_rmi_dx5_p1_dealt_the_other_atu_scores_215() -> None:
    # P1 was dealt the other 7D (and goes out by discarding it: it is judged on the deal).
    state = _dx5_round(atu="7D", p1_last="7D")
    p1, p2, p3 = state.results[-1].lines
    assert (p1.atu_bonus, p1.points) == (50, 215)
    assert (p2.points, p3.points) == (30, -100)


def test_rmi_dx6_ace_atu_doubles_the_round_330_60_minus_200() -> None:
    state = _dx5_round(atu="AC", p1_last="2C")
    p1, p2, p3 = state.results[-1].lines
    assert (p1.points, p2.points, p3.points) == (330, 60, -200)
    assert (p1.multiplier, p2.multiplier, p3.multiplier) == (2, 2, 2)
    assert state.totals == (330, 60, -200)


# --- RMI-DX7: stock-out -------------------------------------------------------------------------


def test_rmi_dx7_stock_out_p1_plus_15_p2_minus_100_no_bonus() -> None:
    # P1 (seat 0) laid 40 (8S 9S TS + 8H 9H TH) and holds KD TC 5S (25) after its last discard.
    state = position(
        CLASSIC,
        hands=["KD TC 5S", "2C 6D 9C QH"],
        melds=[(0, "8S 9S TS"), (0, "8H 9H TH")],
        stock="4D",
        atu="7D",
        turn=0,
        rest="drop",
    )
    assert table_points(state) == (40, 0)
    state = run(state, (0, DrawStock()), (0, discard("4D")))
    assert state.stock == ()
    # P2 chooses to draw from the empty stock: the round ends at once.
    result = apply_move(state, 1, DrawStock())
    new = result.state
    last = new.results[-1]
    assert (last.ended, last.winner) == ("stock_out", None)
    p1, p2 = last.lines
    assert (p1.table, p1.hand, p1.bonus, p1.points) == (40, 25, 0, 15)
    assert (p2.bonus, p2.points) == (0, -100)
    assert new.totals == (15, -100)
    assert new.round_no == 2


# --- RMI-DX8: the atu -------------------------------------------------------------------------


def test_rmi_dx8_atu_taken_into_the_going_out_run_counts_for_the_taker() -> None:
    state = position(
        REMI,
        hands=["8C 9C", "4S 5S"],
        melds=[(0, "KS KH KD"), (0, "AS 2S 3S")],
        stock="5D",
        atu="TC",
        turn=0,
        rest="drop",
    )
    state = apply_move(state, 0, DrawStock()).state
    assert faces(state.hands[0]) == ["5D", "8C", "9C"]
    state = apply_move(state, 0, play("8C 9C TC")).state
    assert state.cycle.atu_taken_by == 0
    assert table_cards(state, 3) == "8C 9C TC"
    assert faces(state.hands[0]) == ["5D"]
    state = apply_move(state, 0, discard("5D")).state
    p1, p2 = state.results[-1].lines
    # 30 + 15 + (5 + 5 + 10) = 65 on the table, +50 for going out (no joker).
    assert (p1.table, p1.hand, p1.bonus, p1.points) == (65, 0, 50, 115)
    assert p2.points == -100


def test_rmi_dx8_atu_refused_when_two_pieces_would_be_left() -> None:
    state = position(
        REMI,
        hands=["8C 9C 6S", "4S 5S"],
        melds=[(0, "KS KH KD"), (0, "AS 2S 3S")],
        stock="5D",
        atu="TC",
        turn=0,
        rest="drop",
    )
    state = apply_move(state, 0, DrawStock()).state
    assert faces(state.hands[0]) == ["5D", "6S", "8C", "9C"]
    error = refused(state, 0, play("8C 9C TC"), "atu_not_allowed")
    assert error.rule == "RMI-45"
    assert state.cycle.atu_taken_by is None
    # Still usable: the player discards instead.
    after = apply_move(state, 0, discard("6S")).state
    assert str(after.cycle.atu) == "TC#1"
    assert after.cycle.atu_taken_by is None
