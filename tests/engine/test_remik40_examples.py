"""Remik 40 worked examples (``docs/rules/remik40.md``, worked examples): one test per R40-EXn and R40-DXn.

Every number is the example's own. Examples about a move in play build the position with
``position(...)`` and play real moves through ``apply_move``.
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
from games.engine.moves import Play
from games.engine.rummy.remik40 import split_pool
from tests.engine.helpers import discard, faces, play, points, refused, table_cards

R40 = variant("remik40")


# --- examples from the source (EX) ----------------------------------------------------------------


def test_r40_ex1_a_seven_costs_7_an_ace_11_a_joker_15_and_faces_count_10_towards_the_40() -> None:
    # R40-7's table, card by card, as penalty points.
    table = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10}
    table |= {"J": 10, "Q": 10, "K": 10, "A": 11}
    for rank, value in table.items():
        assert R40.hand_points(f"{rank}S") == value
    assert R40.hand_points("JK") == 15
    assert R40.hand_points("7C AS JK") == 7 + 11 + 15
    # Towards the opening: J, Q, K 10 each, the ace 11.
    assert R40.meld_points("JS JH JD") == 30
    assert R40.meld_points("QS QH QD") == 30
    assert R40.meld_points("KS KH KD") == 30
    assert R40.meld_points("AS AH AD") == 33


def test_r40_ex2_the_joker_in_seven_joker_nine_stands_for_the_eight_and_counts_8() -> None:
    meld = read_meld(parse_cards("7H JK 9H"), R40.policy)
    assert meld.kind == "run"
    assert [c.face for c in meld.represented] == ["7H", "8H", "9H"]
    assert meld.cards[1].stands_for is not None
    assert meld.cards[1].stands_for.face == "8H"
    assert R40.meld_points("7H JK 9H") == 24
    # The same joker left in a loser's hand costs 15.
    state = position(R40, hands=["5D", "JK 2C"], melds=[(0, "2S 3S 4S")], turn=0, phase="play", rest="drop")
    state = apply_move(state, 0, discard("5D")).state
    assert points(state) == [0, 17]
    assert state.results[-1].lines[1].hand == 17


def _ex3_position(hand: str) -> GameState:
    return position(
        R40,
        hands=[hand, "2H 2D"],
        melds=[(1, "3H 3C JK"), (0, "TS JS QS")],
        turn=0,
        phase="play",
        rest="drop",
    )


def test_r40_ex3_a_set_joker_is_recovered_only_by_both_missing_cards() -> None:
    state = _ex3_position("3S 3D 9S 9H 5C")
    assert table_cards(state, 1) in {"3H 3C JK(3S)", "3H 3C JK(3D)"}
    result = apply_move(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "3S"), (1, "3D")]))
    new = result.state
    assert faces(new.melds[0].cards) == ["3C", "3D", "3H", "3S"]
    assert table_cards(new, 3) == "9S 9H JK(9D)"
    assert faces(new.hands[0]) == ["5C"]
    exchanged = [e for e in result.events if e.kind == "joker_exchanged"]
    assert len(exchanged) == 1
    assert [c.split("#")[0] for c in exchanged[0].data["cards"]] == ["3S", "3D"]
    # The recovered joker must be used in the same move (R40-Q10).
    refused(state, 0, play(exchanges=[(1, "3S"), (1, "3D")]), "exchanged_joker_not_melded")


def test_r40_ex3_a_player_holding_only_one_of_them_cannot() -> None:
    state = _ex3_position("3S 9S 9H 5C")
    error = refused(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "3S")]), "bad_joker_exchange")
    assert error.rule == "R40-21/22"
    assert not any(isinstance(m, Play) and m.exchanges for m in legal_moves(state, 0))
    # Two cards of the same suit, or a card of a suit already there, will not do either.
    state = _ex3_position("3S 3S 3H 9S 9H 5C")
    refused(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "3S"), (1, "3S")]), "bad_joker_exchange")
    refused(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "3S"), (1, "3H")]), "bad_joker_exchange")


def test_r40_ex4_a_fourth_card_closes_a_set_with_a_joker_for_good() -> None:
    state = position(
        R40,
        hands=["3S 7C 8C", "3D 9S 9H 2C"],
        melds=[(1, "3H 3C JK"), (0, "TS JS QS"), (1, "4H 5H 6H")],
        stock="2D",
        turn=0,
        phase="play",
        rest="drop",
    )
    state = apply_move(state, 0, play(layoffs=[(1, "3S")])).state
    assert faces(state.melds[0].cards) == ["3C", "3H", "3S", "JK"]
    assert table_cards(state, 1) == "3H 3C JK(3D) 3S"
    state = apply_move(state, 0, discard("7C")).state
    state = apply_move(state, 1, DrawStock()).state
    # Even the one card the joker now stands for (3D) cannot take it back.
    error = refused(state, 1, play("9S 9H JK(9D)", exchanges=[(1, "3D")]), "bad_joker_exchange")
    assert error.rule == "R40-23/Q9"
    assert not any(isinstance(m, Play) and m.exchanges for m in legal_moves(state, 1))


# --- derived examples (DX) -----------------------------------------------------------------------


def test_r40_dx1_openings_54_is_legal_39_is_not_and_queen_king_ace_is_31() -> None:
    assert R40.meld_points("7H JK(8H) 9H") == 24
    assert R40.meld_points("KS KH KD") == 30
    assert R40.meld_points("4C 5C 6C") + R40.meld_points("8S 8H 8D") == 39
    assert R40.meld_points("QS KS AS") == 31
    state = position(R40, hands=["7H JK 9H KS KH KD 2C", "5D"], turn=0, phase="play")
    result = apply_move(state, 0, play("7H JK(8H) 9H", "KS KH KD"))
    assert [e.data["points"] for e in result.events if e.kind == "opened"] == [54]
    state = position(R40, hands=["4C 5C 6C 8S 8H 8D 2C", "5D"], turn=0, phase="play")
    error = refused(state, 0, play("4C 5C 6C", "8S 8H 8D"), "opening_too_low")
    assert (error.fields["points"], error.fields["needed"], error.rule) == (39, 40, "R40-18")


def test_r40_dx2_a_loser_holding_seven_queen_ace_joker_scores_43_and_68_after_a_remik() -> None:
    assert R40.hand_points("7C QD AS JK") == 43
    # A normal going out: the winner had laid melds in an earlier turn.
    state = position(R40, hands=["5D", "7C QD AS JK"], melds=[(0, "2S 3S 4S")], turn=0, phase="play")
    state = apply_move(state, 0, discard("5D")).state
    assert points(state) == [0, 43]
    assert "Remik" not in " ".join(state.results[-1].lines[0].notes)
    # A Remik: everything laid in one turn by a player who had laid nothing before.
    hand = "9S TS JS 8H 8D 8C 2C 3C 4C 5C KS KH KD"
    state = position(R40, hands=[hand, "7C QD AS JK"], stock="6D", turn=0, phase="draw", rest="drop")
    state = apply_move(state, 0, DrawStock()).state
    state = apply_move(state, 0, play("9S TS JS", "8H 8D 8C", "2C 3C 4C 5C", "KS KH KD")).state
    state = apply_move(state, 0, discard("6D")).state
    line = state.results[-1].lines[1]
    assert (line.hand, line.bonus, line.points) == (43, 25, 68)
    assert "Remik" in " ".join(state.results[-1].lines[0].notes)


def test_r40_dx3_a_run_joker_is_swapped_for_the_card_it_stands_for_and_laid_this_turn() -> None:
    state = position(
        R40,
        hands=["6D 9S 9H 2C", "4H 5H"],
        melds=[(1, "5D JK(6D) 7D"), (0, "TS JS QS")],
        turn=0,
        phase="play",
        rest="drop",
    )
    new = apply_move(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "6D")])).state
    assert table_cards(new, 1) == "5D 6D 7D"
    assert table_cards(new, 3) == "9S 9H JK(9D)"
    assert faces(new.hands[0]) == ["2C"]
    # ... or lay it off onto a table meld (R40-21).
    new = apply_move(state, 0, play(exchanges=[(1, "6D")], layoffs=[(2, "JK(KS)")])).state
    assert table_cards(new, 2) == "TS JS QS JK(KS)"
    assert faces(new.hands[0]) == ["2C", "9H", "9S"]
    # If it cannot be placed, the swap is not allowed.
    refused(state, 0, play(exchanges=[(1, "6D")]), "exchanged_joker_not_melded")
    # Only the card it stands for (R40-Q18).
    other = position(
        R40,
        hands=["6H 9S 9H 2C", "4H 5H"],
        melds=[(1, "5D JK(6D) 7D"), (0, "TS JS QS")],
        turn=0,
        phase="play",
        rest="drop",
    )
    refused(other, 0, play("9S 9H JK(9D)", exchanges=[(1, "6H")]), "bad_joker_exchange")


def test_r40_dx4_prize_split_pool_1000_winner_750_two_losers_under_50_share_250() -> None:
    assert split_pool(1000, winner=0, penalties=[0, 30, 45, 60], winner_share=75) == (750, 125, 125, 0)
    # If no loser were under 50, the winner would receive all 1000.
    assert split_pool(1000, winner=0, penalties=[0, 50, 61, 70], winner_share=75) == (1000, 0, 0, 0)
    # The same through a game: four players, stake 250, P1 goes out.
    rules = variant("remik40", stake=250)
    state = position(
        rules,
        hands=["5D", "TS TH TD", "KS KH KD 8C 7C", "KC QC JC TC 9S 9H 2D"],
        melds=[(0, "2S 3S 4S")],
        turn=0,
        phase="play",
    )
    state = apply_move(state, 0, discard("5D")).state
    assert points(state) == [0, 30, 45, 60]
    assert [line.chips for line in state.results[-1].lines] == [750, 125, 125, 0]
    assert state.phase == "over"  # R40-Q11: one game is one round
    assert state.winners == (0,)
    for seat in (None, 0, 1, 2, 3):
        prize = view_for(state, seat)["prize_pool"]
        assert (prize["pool"], prize["winner_share"]) == (1000, 75)
        assert prize["payouts"] == [750, 125, 125, 0]
        assert prize["net"] == [500, -125, -125, -250]


@pytest.mark.parametrize(("share", "expected"), [(75, (750, 125, 125, 0)), (90, (900, 50, 50, 0))])
def test_r40_dx4_the_payout_table_is_chosen_per_player_count(share: int, expected: tuple[int, ...]) -> None:
    rules = variant("remik40", stake=250, winner_share_4=share)
    assert rules.winner_share(4) == share
    assert split_pool(1000, winner=0, penalties=[0, 30, 45, 60], winner_share=share) == expected
