"""Rules of play for Remik 51 and Remi: the hard parts, each test named after its rule.

Positions are built with ``position(...)`` and moves are played through ``apply_move``. A refused
move must raise the rule's error code and leave the state it was tried on unchanged and usable.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import (
    Discard,
    DrawStock,
    GameState,
    IllegalMoveError,
    Move,
    Play,
    TakeDiscard,
    apply_move,
    end_match,
    legal_moves,
    new_game,
    position,
    variant,
    view_for,
)
from games.engine.scoring import table_points
from tests.engine.helpers import discard, faces, play, points, refused, run, table_cards, take

R51 = variant("remik51")
REMI = variant("remi")  # Remi 45
CLASSIC = variant("remi", opening="classic")


# --- helpers ------------------------------------------------------------------------------------


def draw_discard_to_stock_out(state: GameState) -> GameState:
    """Play the round on by drawing and discarding only, until the stock-out ends it (Remi)."""
    round_no = state.round_no
    while state.round_no == round_no and state.phase != "over":
        seat = state.turn
        if state.phase == "draw":
            state = apply_move(state, seat, DrawStock()).state
        else:
            state = apply_move(state, seat, Discard(state.hands[seat][-1])).state
    return state


# =================================================================================================
# Remik 51
# =================================================================================================

OPENER = "9S TS JS 8H 8D 8C"  # R51-EX1: 29 + 24 = 53 with a pure run


def test_r51_13_dealer_starts_with_14_cards_and_does_not_draw() -> None:
    state = new_game(R51, 4, seed=7, first=2)
    assert [len(h) for h in state.hands] == [13, 13, 14, 13]
    assert (state.turn, state.phase, state.first) == (2, "play", 2)
    assert state.discard == ()
    assert len(state.stock) == 108 - 53
    refused(state, 2, DrawStock(), "wrong_phase")
    refused(state, 2, TakeDiscard(None, Play()), "wrong_phase")
    refused(state, 3, DrawStock(), "not_your_turn")
    state = apply_move(state, 2, Discard(state.hands[2][0])).state
    assert (state.turn, state.phase) == (3, "draw")
    assert [len(h) for h in state.hands] == [13, 13, 13, 13]
    assert len(state.discard) == 1


def test_r51_5_jokers_per_deck_3_gives_six_jokers() -> None:
    assert sum(c.is_joker for c in R51.pack()) == 4
    assert len(R51.pack()) == 108
    rules = variant("remik51", jokersPerDeck=3)
    assert sum(c.is_joker for c in rules.pack()) == 6
    assert len(rules.pack()) == 110


def test_r51_14_the_deal_passes_to_the_left_after_each_round() -> None:
    state = position(
        R51,
        hands=["5D", "KS", "2C 3C"],
        melds=[(0, "2S 3S 4S")],
        turn=0,
        first=2,
        phase="play",
    )
    state = apply_move(state, 0, discard("5D")).state
    assert state.round_no == 2
    assert (state.first, state.turn, state.phase) == (0, 0, "play")
    assert [len(h) for h in state.hands] == [14, 13, 13]
    assert state.results[-1].first == 2
    # Round 2 is dealt by seat 0, round 3 by seat 1.
    nxt = position(R51, hands=["5D", "KS", "2C 3C"], melds=[(0, "2S 3S 4S")], turn=0, first=0, phase="play")
    nxt = apply_move(nxt, 0, discard("5D")).state
    assert (nxt.first, nxt.turn) == (1, 1)
    assert [len(h) for h in nxt.hands] == [13, 14, 13]


def test_r51_31_opening_below_51_is_refused_opening_too_low() -> None:
    state = position(R51, hands=["9S TS JS 7H 7D 7C 2C", "5D"], turn=0, phase="play")
    error = refused(state, 0, play("9S TS JS", "7H 7D 7C"), "opening_too_low")
    assert (error.fields["points"], error.fields["needed"]) == (50, 51)
    assert state.cycle.opened == (False, False)
    # R51-30: a first meld is one lay-down; part of it alone is not an opening either.
    refused(state, 0, play("9S TS JS"), "opening_too_low")
    # Still usable: discarding is fine.
    assert apply_move(state, 0, discard("2C")).state.turn == 1


def test_r51_31_opening_whose_runs_all_hold_jokers_is_refused_opening_needs_run() -> None:
    state = position(R51, hands=["9S JK JS 8H 8D 8C KS KH KD 2C", "5D"], turn=0, phase="play", rest="drop")
    refused(state, 0, play("9S JK(TS) JS", "8H 8D 8C", "KS KH KD"), "opening_needs_run")
    refused(state, 0, play("8H 8D 8C", "KS KH KD"), "opening_needs_run")


def test_r51_31_opening_of_exactly_51_with_a_pure_run_is_accepted() -> None:
    # 2C 3C 4C 5C 6C 7C = 27, + 8H 8D 8C = 24: 51.
    state = position(R51, hands=["2C 3C 4C 5C 6C 7C 8H 8D 8C KD", "5D"], turn=0, phase="play")
    result = apply_move(state, 0, play("2C 3C 4C 5C 6C 7C", "8H 8D 8C"))
    assert result.state.cycle.opened == (True, False)
    assert [e.data["points"] for e in result.events if e.kind == "opened"] == [51]


def test_r51_33_lay_offs_in_the_opening_turn_do_not_count_toward_51() -> None:
    # Melds worth 44; laying off 7D 8D (15) onto seat 1's run would make 59 if it counted.
    state = position(
        R51,
        hands=["9S TS JS 5H 5D 5C 7D 8D 2C", "KC"],
        melds=[(1, "4D 5D 6D")],
        turn=0,
        phase="play",
        rest="drop",
    )
    error = refused(state, 0, play("9S TS JS", "5H 5D 5C", layoffs=[(1, "7D 8D")]), "opening_too_low")
    assert error.fields["points"] == 44
    # Once 51 is laid, lay-offs in the same turn are allowed (R51-33).
    state = position(
        R51,
        hands=[f"{OPENER} 7D 2C", "KC"],
        melds=[(1, "4D 5D 6D")],
        turn=0,
        phase="play",
        rest="drop",
    )
    new = apply_move(state, 0, play("9S TS JS", "8H 8D 8C", layoffs=[(1, "7D")])).state
    assert table_cards(new, 1) == "4D 5D 6D 7D"
    assert new.meld_by_id(1).placed_by == (1, 1, 1, 0)  # type: ignore[union-attr]
    assert faces(new.hands[0]) == ["2C"]


def test_r51_41_lay_off_before_opening_is_refused() -> None:
    state = position(
        R51, hands=["7D 2C 3C", "KC"], melds=[(1, "4D 5D 6D")], turn=0, phase="play", rest="drop"
    )
    assert state.cycle.opened == (False, True)
    refused(state, 0, play(layoffs=[(1, "7D")]), "not_opened")
    opened = position(
        R51,
        hands=["7D 2C 3C", "KC"],
        melds=[(1, "4D 5D 6D")],
        opened=[True, True],
        turn=0,
        phase="play",
        rest="drop",
    )
    assert table_cards(apply_move(opened, 0, play(layoffs=[(1, "7D")])).state, 1) == "4D 5D 6D 7D"


def test_r51_27_joker_exchange_is_refused_before_opening() -> None:
    state = position(
        R51,
        hands=["5D 9S 9H 2C", "KC"],
        melds=[(1, "4D JK(5D) 6D")],
        turn=0,
        phase="play",
        rest="drop",
    )
    assert state.cycle.opened == (False, True)
    # Laying the joker in a new meld is not an opening (R51-28): the exchange is refused because
    # only a player who has opened may exchange (R51-27), not for the opening's run or points.
    error = refused(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "5D")]), "not_opened")
    assert error.rule == "R51-41"
    # An exchange alone, by a player who has not opened: the player has not opened.
    refused(state, 0, play(exchanges=[(1, "5D")]), "not_opened")
    # With a lay-off beside the joker's meld, too.
    refused(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "5D")], layoffs=[(1, "2C")]), "not_opened")


def test_r51_27_exchanged_joker_must_go_into_a_new_meld_in_the_same_move() -> None:
    state = position(
        R51,
        hands=["5D 9S 9H 2C 3C", "KC"],
        melds=[(1, "4D JK(5D) 6D")],
        opened=[True, True],
        turn=0,
        phase="play",
        rest="drop",
    )
    refused(state, 0, play(exchanges=[(1, "5D")]), "exchanged_joker_not_melded")
    # A new meld that does not hold the joker does not satisfy it.
    other = position(
        R51,
        hands=["5D 9S 9H 9D 2C", "KC"],
        melds=[(1, "4D JK(5D) 6D")],
        opened=[True, True],
        turn=0,
        phase="play",
        rest="drop",
    )
    refused(other, 0, play("9S 9H 9D", exchanges=[(1, "5D")]), "exchanged_joker_not_melded")
    new = apply_move(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "5D")])).state
    assert table_cards(new, 1) == "4D 5D 6D"
    assert table_cards(new, 2) == "9S 9H JK(9D)"
    assert new.meld_by_id(1).placed_by == (1, 0, 1)  # type: ignore[union-attr]
    assert faces(new.hands[0]) == ["2C", "3C"]


def test_r51_28_exchange_in_the_opening_turn_but_its_meld_does_not_count_toward_51() -> None:
    # 9S TS JS (29) + 5H 5D 5C (15) = 44; 9C 9H JK(9D) (27) holds the exchanged joker.
    state = position(
        R51,
        hands=["9S TS JS 5H 5D 5C 7D 9C 9H 2C", "KC"],
        melds=[(1, "6D JK(7D) 8D")],
        turn=0,
        phase="play",
        rest="drop",
    )
    error = refused(
        state,
        0,
        play("9S TS JS", "5H 5D 5C", "9C 9H JK(9D)", exchanges=[(1, "7D")]),
        "opening_too_low",
    )
    assert error.fields["points"] == 44
    opening = position(
        R51,
        hands=[f"{OPENER} 7D 9C 9H 2C", "KC"],
        melds=[(1, "6D JK(7D) 8D")],
        turn=0,
        phase="play",
        rest="drop",
    )
    new = apply_move(opening, 0, play("9S TS JS", "8H 8D 8C", "9C 9H JK(9D)", exchanges=[(1, "7D")])).state
    assert new.cycle.opened[0] is True
    assert table_cards(new, 1) == "6D 7D 8D"
    assert faces(new.hands[0]) == ["2C"]


def test_r51_q14_several_jokers_exchanged_in_one_turn_including_from_own_meld() -> None:
    state = position(
        R51,
        hands=["5D 8S KH KD 2C", "QC"],
        melds=[(1, "4D JK(5D) 6D"), (0, "7S JK(8S) 9S")],
        turn=0,
        phase="play",
        rest="drop",
    )
    new = apply_move(state, 0, play("KH KD JK(KS) JK(KC)", exchanges=[(1, "5D"), (2, "8S")])).state
    assert table_cards(new, 1) == "4D 5D 6D"
    assert table_cards(new, 2) == "7S 8S 9S"
    assert table_cards(new, 3) == "KH KD JK(KS) JK(KC)"
    assert faces(new.hands[0]) == ["2C"]


def test_r51_q4_the_card_a_group_joker_stands_for_cannot_be_laid_off() -> None:
    state = position(
        R51,
        hands=["QD QC 9S 9H 2C", "KC"],
        melds=[(1, "QS QH JK(QD)")],
        opened=[True, True],
        turn=0,
        phase="play",
        rest="drop",
    )
    error = refused(state, 0, play(layoffs=[(1, "QD")]), "cannot_lay_off")
    assert error.rule == "R51-Q4"
    # The other missing suit is an ordinary lay-off: a group of four.
    four = apply_move(state, 0, play(layoffs=[(1, "QC")])).state
    assert table_cards(four, 1) == "QS QH JK(QD) QC"
    # Only the declared card exchanges the joker (R51-Q4 (a)).
    refused(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "QC")]), "bad_joker_exchange")
    swapped = apply_move(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "QD")])).state
    assert table_cards(swapped, 1) == "QS QH QD"


def test_r51_q6_a_declared_joker_may_be_laid_off() -> None:
    state = position(
        R51,
        hands=["JK 2C 3C", "KC"],
        melds=[(1, "4D 5D 6D")],
        opened=[True, True],
        turn=0,
        phase="play",
        rest="drop",
    )
    new = apply_move(state, 0, play(layoffs=[(1, "JK(7D)")])).state
    assert table_cards(new, 1) == "4D 5D 6D JK(7D)"
    assert view_for(new, 1)["melds"][0]["points"] == 22


def test_r51_39_40_lay_offs_extend_runs_at_either_end_and_groups_to_four_only() -> None:
    state = position(
        R51,
        hands=["3D 7D QC QD 2S 5H 9C", "KC"],
        melds=[(1, "4D 5D 6D"), (1, "QS QH QD"), (1, "QS KS AS"), (1, "5S 5D 5C 5H")],
        opened=[True, True],
        turn=0,
        phase="play",
        rest="drop",
    )
    new = apply_move(state, 0, play(layoffs=[(1, "3D 7D"), (2, "QC")])).state
    assert table_cards(new, 1) == "3D 4D 5D 6D 7D"
    assert table_cards(new, 2) == "QS QH QD QC"
    # R51-40: no run through the ace, no repeated suit, no fifth card in a group.
    refused(state, 0, play(layoffs=[(3, "2S")]), "cannot_lay_off")
    refused(state, 0, play(layoffs=[(2, "QD")]), "cannot_lay_off")
    refused(state, 0, play(layoffs=[(4, "5H")]), "cannot_lay_off")
    refused(state, 0, play(layoffs=[(1, "9C")]), "cannot_lay_off")
    # The whole play is atomic: one bad lay-off refuses the good one with it.
    refused(state, 0, play(layoffs=[(1, "7D"), (3, "2S")]), "cannot_lay_off")


def test_r51_q6_23_a_joker_laid_off_may_not_end_up_next_to_another_joker() -> None:
    state = position(
        R51,
        hands=["JK 2C 3C", "KC"],
        melds=[(1, "JK(4D) 5D 6D")],
        opened=[True, True],
        turn=0,
        phase="play",
        rest="drop",
    )
    refused(state, 0, play(layoffs=[(1, "JK(3D)")]), "cannot_lay_off")
    new = apply_move(state, 0, play(layoffs=[(1, "JK(7D)")])).state
    assert table_cards(new, 1) == "JK(4D) 5D 6D JK(7D)"


def test_r51_37_top_discard_before_opening_only_when_going_out_that_turn() -> None:
    hand = f"{OPENER} KS KH 2C 3D"
    state = position(R51, hands=[hand, "4C 5C"], discard="7H KC", stock="6S", turn=0, first=1, rest="drop")
    refused(state, 0, take(None, "9S TS JS", "8H 8D 8C", "KS KH KC"), "cannot_take_discard")
    assert [c.face for c in state.discard] == ["7H", "KC"]
    # Going out: everything but the one card to discard is laid in the same turn.
    out = position(R51, hands=[f"{OPENER} KS KH 2C", "4C 5C"], discard="7H KC", turn=0, first=1, rest="drop")
    new = apply_move(out, 0, take(None, "9S TS JS", "8H 8D 8C", "KS KH KC")).state
    assert [c.face for c in new.discard] == ["7H"]
    assert faces(new.hands[0]) == ["2C"]
    new = apply_move(new, 0, discard("2C")).state
    last = new.results[-1]
    assert (last.winner, last.lines[1].multiplier, last.lines[1].points) == (0, 2, 18)


def test_r51_q7_before_opening_the_taken_discard_must_be_in_a_new_meld() -> None:
    state = position(R51, hands=[f"{OPENER} 2C", "4C 5C"], discard="7H KC", turn=0, first=1, rest="drop")
    # The KC would be left as the card to discard: refused.
    refused(state, 0, take(None, "9S TS JS", "8H 8D 8C"), "taken_card_not_melded")
    refused(state, 0, take(None), "taken_card_not_melded")


def test_r51_36_after_opening_the_taken_discard_must_go_into_a_new_meld() -> None:
    state = position(
        R51,
        hands=["KS KH 7C 2C", "4C 5C"],
        melds=[(1, "4D 5D 6D")],
        opened=[True, True],
        discard="3H 7D",
        turn=0,
        rest="drop",
    )
    # R51-Q8: a lay-off does not satisfy it.
    refused(state, 0, take(None, layoffs=[(1, "7D")]), "taken_card_not_melded")
    refused(state, 0, take(None), "taken_card_not_melded")
    top_king = position(
        R51,
        hands=["KS KH 7C 2C", "4C 5C"],
        melds=[(1, "4D 5D 6D")],
        opened=[True, True],
        discard="3H KC",
        turn=0,
        rest="drop",
    )
    new = apply_move(top_king, 0, take(None, "KS KH KC")).state
    assert [c.face for c in new.discard] == ["3H"]
    assert table_cards(new, 2) == "KS KH KC"
    assert faces(new.hands[0]) == ["2C", "7C"]
    assert new.phase == "play"


def test_r51_35_only_the_top_discard_may_be_taken() -> None:
    state = position(
        R51,
        hands=["KS KH 2C", "4C 5C"],
        opened=[True, True],
        discard="KC 7D",
        turn=0,
        rest="drop",
    )
    error = refused(state, 0, take("KC", "KS KH KC"), "cannot_take_discard")
    assert error.rule == "R51-35"
    assert "take" in view_for(state, 0)["you"]["moves"]
    assert view_for(state, 0)["you"]["takeable"] == ["7D#1"]


def test_r51_43_the_last_card_must_be_discarded() -> None:
    state = position(
        R51,
        hands=["KS KH KC", "4C 5C"],
        opened=[True, True],
        turn=0,
        phase="play",
        rest="drop",
    )
    refused(state, 0, play("KS KH KC"), "must_keep_discard")
    # Also for a one-go lay-down of all 14 cards.
    full = position(
        R51,
        hands=[f"{OPENER} 2C 3C 4C 5C KS KH KD", "4C"],
        turn=0,
        phase="play",
        rest="drop",
    )
    refused(full, 0, play("9S TS JS", "8H 8D 8C", "2C 3C 4C 5C", "KS KH KD"), "must_keep_discard")


def test_r51_38_q9_reshuffle_keeps_the_top_discard_when_a_player_must_draw() -> None:
    state = position(R51, hands=["2C 3C", "4C 5C"], discard="9S 9H 9D KC", stock="", turn=0, rest="drop")
    result = apply_move(state, 0, DrawStock())
    new = result.state
    assert [c.face for c in new.discard] == ["KC"]
    drawn = [c for c in new.hands[0] if c.face not in ("2C", "3C")]
    assert len(drawn) == 1
    assert Counter(c.face for c in (*new.stock, *drawn)) == Counter(["9S", "9H", "9D"])
    assert len(new.stock) == 2
    assert new.cycle.reshuffles == 1
    assert result.events[0].kind == "stock_rebuilt"


def test_r51_q9_the_stock_is_rebuilt_only_when_a_player_must_draw_from_it() -> None:
    state = position(R51, hands=["2C 3C", "4C 5C"], discard="9S 9H KC", stock="6D", turn=0, rest="drop")
    state = apply_move(state, 0, DrawStock()).state
    # The last stock card is drawn: nothing is rebuilt yet.
    assert state.stock == ()
    assert [c.face for c in state.discard] == ["9S", "9H", "KC"]
    state = apply_move(state, 0, discard("2C")).state
    assert state.stock == ()
    state = apply_move(state, 1, DrawStock()).state
    assert [c.face for c in state.discard] == ["2C"]
    assert len(state.stock) == 2
    assert state.cycle.reshuffles == 1


def test_r51_q9_with_an_empty_stock_the_top_discard_may_still_be_taken() -> None:
    state = position(
        R51,
        hands=["KS KH 2C", "4C 5C"],
        opened=[True, True],
        discard="9S 9H 9D KC",
        stock="",
        turn=0,
        rest="drop",
    )
    new = apply_move(state, 0, take(None, "KS KH KC")).state
    assert [c.face for c in new.discard] == ["9S", "9H", "9D"]
    assert new.stock == ()
    assert new.cycle.reshuffles == 0


def test_r51_q9_degenerate_void_round_scores_nothing_and_the_deal_passes() -> None:
    state = position(
        R51,
        hands=["2C 3C AD", "4C 5C JK"],
        discard="KC",
        stock="",
        turn=1,
        first=0,
        totals=[10, 20],
        rest="drop",
    )
    new = apply_move(state, 1, DrawStock()).state
    last = new.results[-1]
    assert (last.ended, last.winner) == ("void", None)
    assert points(new) == [0, 0]
    assert new.totals == (10, 20)
    assert new.round_no == 2
    assert (new.first, new.turn, new.phase) == (1, 1, "play")
    assert [len(h) for h in new.hands] == [13, 14]


def test_r51_45_going_out_in_one_go_doubles_every_other_player() -> None:
    hand = f"{OPENER} 2C 3C 4C 5C KS KH KD"
    state = position(
        R51,
        hands=["JK 7C", hand, "AD 9H"],
        stock="6D",
        turn=1,
        first=0,
        rest="drop",
    )
    state = run(
        state,
        (1, DrawStock()),
        (1, play("9S TS JS", "8H 8D 8C", "2C 3C 4C 5C", "KS KH KD")),
        (1, discard("6D")),
    )
    last = state.results[-1]
    assert last.winner == 1
    assert [(ln.hand, ln.multiplier, ln.points) for ln in last.lines] == [
        (37, 2, 74),
        (0, 1, 0),
        (20, 2, 40),
    ]
    assert state.totals == (74, 0, 40)


def test_r51_45_a_player_who_laid_melds_in_an_earlier_turn_does_not_double() -> None:
    state = position(
        R51,
        hands=["JK 7C", "KS KH KD", "AD 9H"],
        melds=[(1, "9S TS JS")],
        stock="6D",
        turn=1,
        first=0,
        rest="drop",
    )
    state = run(state, (1, DrawStock()), (1, play("KS KH KD")), (1, discard("6D")))
    assert [(ln.multiplier, ln.points) for ln in state.results[-1].lines] == [
        (1, 37),
        (1, 0),
        (1, 20),
    ]


def test_r51_44_the_dealer_may_go_out_in_one_go_in_the_first_turn() -> None:
    hand = f"{OPENER} 2C 3C 4C 5C KS KH KD 6D"
    state = position(R51, hands=[hand, "JK AD 7C"], turn=0, first=0, phase="play", rest="drop")
    state = run(
        state,
        (0, play("9S TS JS", "8H 8D 8C", "2C 3C 4C 5C", "KS KH KD")),
        (0, discard("6D")),
    )
    assert points(state) == [0, 96]


def test_r51_51_q10_the_match_ends_strictly_over_the_limit_and_the_lowest_wins() -> None:
    rules = variant("remik51", penalty_limit=300)
    state = position(
        rules,
        hands=["5D", "KS", "2C"],
        melds=[(0, "2S 3S 4S")],
        turn=0,
        phase="play",
        totals=[250, 290, 120],
    )
    over = apply_move(state, 0, discard("5D")).state
    assert over.totals == (250, 300, 122)
    assert over.phase == "play"  # 300 is not over 300
    state = position(
        rules,
        hands=["5D", "KS 2H", "2C"],
        melds=[(0, "2S 3S 4S")],
        turn=0,
        phase="play",
        totals=[250, 290, 120],
    )
    over = apply_move(state, 0, discard("5D")).state
    assert over.totals == (250, 302, 122)
    assert over.phase == "over"
    assert over.winners == (2,)
    assert view_for(over, None)["winners"] == [2]
    refused(over, over.turn, DrawStock(), "game_over")


def _tied_limit_position(rules_tie: str) -> GameState:
    # Seat 0 goes out; seat 1 catches up to 100; seat 2 passes 500: the lowest total is shared.
    return position(
        variant("remik51", lowest_tie=rules_tie),
        hands=["5D", "5H 5C", "KS"],
        melds=[(0, "2S 3S 4S")],
        turn=0,
        first=2,
        phase="play",
        totals=[100, 90, 495],
    )


def test_r51_52_shared_lowest_total_wins_together_by_default() -> None:
    state = apply_move(_tied_limit_position("shared"), 0, discard("5D")).state
    assert state.totals == (100, 100, 505)
    assert state.phase == "over"
    assert state.winners == (0, 1)


def test_r51_q11_extra_round_plays_on_while_the_lowest_total_is_tied() -> None:
    state = apply_move(_tied_limit_position("extra_round"), 0, discard("5D")).state
    assert state.totals == (100, 100, 505)
    assert state.phase == "play"
    assert state.round_no == 2
    assert state.winners == ()
    rules = variant("remik51", lowestTie="extraRound")
    # The extra round: the tie persists (both tied players gain 5) -> yet another round.
    again = position(
        rules,
        hands=["5D", "5H", "KS"],
        melds=[(2, "2S 3S 4S")],
        opened=[False, False, True],
        turn=2,
        first=0,
        phase="play",
        totals=[100, 100, 505],
        round_no=2,
    )
    again = apply_move(again, 2, discard("KS")).state
    assert again.totals == (105, 105, 505)
    assert (again.phase, again.round_no) == ("play", 3)
    # The tie is broken: the match ends and the single lowest total wins.
    broken = position(
        rules,
        hands=["5D", "7H", "KS"],
        melds=[(2, "2S 3S 4S")],
        opened=[False, False, True],
        turn=2,
        first=0,
        phase="play",
        totals=[100, 100, 505],
        round_no=2,
    )
    broken = apply_move(broken, 2, discard("KS")).state
    assert broken.totals == (105, 107, 505)
    assert broken.phase == "over"
    assert broken.winners == (0,)


@pytest.mark.parametrize(
    "options",
    [
        {"colour": "red"},
        {"jokers_per_deck": 4},
        {"joker_penalty": 40},
        {"penalty_limit": 49},
        {"penalty_limit": 10_001},
        {"lowest_tie": "coin_toss"},
        {"max_players": 7},
        {"max_players": 1},
        {"penalty_limit": "lots"},
    ],
    ids=lambda o: f"R51-options {o}",
)
def test_r51_table_options_unknown_or_out_of_range_raise_value_error(options: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError):  # noqa: PT011
        variant("remik51", **options)


def test_r51_table_options_defaults_and_camel_case() -> None:
    assert R51.options == {
        "jokers_per_deck": 2,
        "joker_penalty": 30,
        "penalty_limit": 500,
        "lowest_tie": "shared",
        "max_players": 5,
    }
    rules = variant("remik51", penaltyLimit=300, jokerPenalty=25, lowestTie="extraRound")
    assert rules.options["penalty_limit"] == 300
    assert rules.options["joker_penalty"] == 25
    assert rules.options["lowest_tie"] == "extra_round"
    with pytest.raises(ValueError):  # noqa: PT011
        new_game(R51, 6, seed=1)
    assert len(new_game(variant("remik51", max_players=6), 6, seed=1).hands) == 6
    with pytest.raises(ValueError):  # noqa: PT011
        new_game(R51, 1, seed=1)


def test_r51_46_cards_left_in_hand_count_even_when_they_form_a_meld() -> None:
    state = position(R51, hands=["5D", "KS KH KD AS"], melds=[(0, "2S 3S 4S")], turn=0, phase="play")
    state = apply_move(state, 0, discard("5D")).state
    assert points(state) == [0, 41]


# =================================================================================================
# Remi
# =================================================================================================


def test_rmi_13_18_first_player_is_dealt_15_and_starts_with_the_discard() -> None:
    state = new_game(REMI, 3, seed=11, first=1)
    assert [len(h) for h in state.hands] == [14, 15, 14]
    assert state.cycle.atu is not None
    assert len(state.stock) == 106 - 43 - 1
    assert (state.turn, state.phase, state.discard) == (1, "play", ())
    assert {type(m).__name__ for m in legal_moves(state, 1)} == {"Discard"}
    refused(state, 1, DrawStock(), "wrong_phase")
    refused(state, 1, Play(melds=(state.hands[1][:3],)), "first_turn")
    state = apply_move(state, 1, Discard(state.hands[1][0])).state
    assert (state.turn, state.phase) == (2, "draw")


def test_rmi_19_in_the_first_turn_a_player_only_draws_and_discards() -> None:
    state = new_game(REMI, 3, seed=11, first=1)
    state = apply_move(state, 1, Discard(state.hands[1][0])).state
    assert view_for(state, 2)["you"]["first_turn"] is True
    refused(state, 2, TakeDiscard(None, Play(melds=(state.hands[2][:3],))), "first_turn")
    assert legal_moves(state, 2) == [DrawStock()]
    state = apply_move(state, 2, DrawStock()).state
    refused(state, 2, Play(melds=(state.hands[2][:3],)), "first_turn")
    assert {type(m).__name__ for m in legal_moves(state, 2)} == {"Discard"}
    state = apply_move(state, 2, Discard(state.hands[2][0])).state
    assert state.turn == 0
    assert state.turns_started == (1, 1, 1)


def test_rmi_26_no_opening_in_the_first_turn_even_with_a_valid_one_in_hand() -> None:
    state = position(
        REMI,
        hands=["2C 3C", "3H 4H 5H KS KH KD 9C"],
        atu="8D",
        turn=1,
        first=0,
        phase="play",
        turns_started=[2, 1],
        rest="drop",
    )
    refused(state, 1, play("3H 4H 5H", "KS KH KD"), "first_turn")
    second = position(
        REMI,
        hands=["2C 3C", "3H 4H 5H KS KH KD 9C"],
        atu="8D",
        turn=1,
        first=0,
        phase="play",
        turns_started=[2, 2],
        rest="drop",
    )
    assert apply_move(second, 1, play("3H 4H 5H", "KS KH KD")).state.cycle.opened == (False, True)


@pytest.mark.parametrize(
    ("opening", "melds", "code"),
    [
        pytest.param("classic", ["3H 4H 5H"], None, id="RMI-25 classic: a lone run opens"),
        pytest.param("classic", ["KS KH KD"], "opening_needs_run", id="RMI-25 classic needs a run"),
        pytest.param("classic", ["3H JK(4H) 5H"], None, id="RMI-Q5 classic: a joker run counts"),
        pytest.param("45", ["3H 4H 5H", "KS KH KD"], None, id="RMI-24 45: exactly 45"),
        pytest.param("45", ["3H JK(4H) 5H", "KS KH KD"], None, id="RMI-Q5 45: joker run worth 45 opens"),
        pytest.param("45", ["2H 3H 4H", "9S 9H 9D"], "opening_too_low", id="RMI-24 45: 30 is too low"),
        pytest.param("45", ["KS KH KD", "QS QH QD"], "opening_needs_run", id="RMI-25 45: 60 with no run"),
        pytest.param("51", ["3H 4H 5H 6H", "KS KH KD"], "opening_too_low", id="RMI-24 51: 50 is too low"),
        pytest.param("51", ["TS JS QS KS", "5H 6H 7H"], None, id="RMI-24 51: 55 opens"),
        pytest.param("51", ["TS JK(JS) QS KS", "5H 6H 7H"], None, id="RMI-Q5 51: joker run worth 55 opens"),
    ],
)
def test_rmi_24_25_opening_thresholds_with_a_run(opening: str, melds: list[str], code: str | None) -> None:
    rules = variant("remi", opening=opening)
    hand = " ".join(melds) + " 2C"
    state = position(rules, hands=[hand, "5S"], atu="8D", turn=0, phase="play", rest="drop")
    if code is None:
        result = apply_move(state, 0, play(*melds))
        assert result.state.cycle.opened == (True, False)
        assert faces(result.state.hands[0]) == ["2C"]
    else:
        refused(state, 0, play(*melds), code)


def test_rmi_q18_additions_in_the_opening_turn_do_not_count_toward_the_threshold() -> None:
    state = position(
        REMI,
        hands=["3H 4H 5H 9S 9H 9D KS KH KD 7D 8D 2C", "5S"],
        melds=[(1, "4D 5D 6D")],
        atu="QC",
        turn=0,
        phase="play",
        rest="drop",
    )
    error = refused(state, 0, play("3H 4H 5H", "9S 9H 9D", layoffs=[(1, "7D 8D")]), "opening_too_low")
    assert error.fields["points"] == 30
    new = apply_move(state, 0, play("3H 4H 5H", "KS KH KD", layoffs=[(1, "7D 8D")])).state
    assert table_cards(new, 1) == "4D 5D 6D 7D 8D"
    assert table_points(new) == (55, 15)


def test_rmi_31_deep_take_brings_the_pieces_above_into_the_hand_for_use() -> None:
    state = position(
        REMI,
        hands=["KC 2H", "5H"],
        melds=[(0, "KS KH KD")],
        discard="4S 9D 5S 6S",
        atu="QC",
        turn=0,
        rest="drop",
    )
    # The 5S and 6S came along with the 4S and complete its formation (RMI-Q7).
    new = apply_move(state, 0, take("4S", "4S 5S 6S")).state
    assert new.discard == ()
    assert table_cards(new, 2) == "4S 5S 6S"
    assert faces(new.hands[0]) == ["2H", "9D", "KC"]


def test_rmi_33_q7_picked_piece_not_in_a_new_formation_refuses_the_whole_move() -> None:
    state = position(
        REMI,
        hands=["7S KC 2H", "5H"],
        melds=[(0, "KS KH KD"), (1, "5D 6D 7D")],
        discard="4D 9D 5S 6S",
        atu="QC",
        turn=0,
        rest="drop",
    )
    row = [c.id for c in state.discard]
    # A new formation without the picked piece.
    refused(state, 0, take("4D", "5S 6S 7S"), "taken_card_not_melded")
    # The picked piece added to a formation already on the table (RMI-Q7).
    refused(state, 0, take("4D", layoffs=[(2, "4D")]), "taken_card_not_melded")
    refused(state, 0, take("4D", "5S 6S 7S", layoffs=[(2, "4D")]), "taken_card_not_melded")
    assert [c.id for c in state.discard] == row
    assert faces(state.hands[0]) == ["2H", "7S", "KC"]
    assert table_cards(state, 2) == "5D 6D 7D"


def test_rmi_q8_row_visible_depth_limits_the_deep_take() -> None:
    rules = variant("remi", row_visible_depth=2)
    state = position(
        rules,
        hands=["4H 5H", "5C"],
        melds=[(0, "KS KH KD")],
        discard="3H 6D 7S",
        atu="QC",
        turn=0,
        rest="drop",
    )
    error = refused(state, 0, take("3H", "3H 4H 5H"), "cannot_take_discard")
    assert error.rule == "RMI-Q8"
    assert view_for(state, 0)["you"]["takeable"] == ["6D#1", "7S#1"]
    unlimited = position(
        REMI,
        hands=["4H 5H", "5C"],
        melds=[(0, "KS KH KD")],
        discard="3H 6D 7S",
        atu="QC",
        turn=0,
        rest="drop",
    )
    assert view_for(unlimited, 0)["you"]["takeable"] == ["3H#1", "6D#1", "7S#1"]


def test_rmi_34_before_opening_only_the_head_with_a_valid_opening_that_uses_it() -> None:
    state = position(CLASSIC, hands=["4H 5H 2C", "5C"], discard="9D 3H", atu="QC", turn=0, rest="drop")
    new = apply_move(state, 0, take(None, "3H 4H 5H")).state
    assert new.cycle.opened == (True, False)
    assert [c.face for c in new.discard] == ["9D"]
    remi45 = position(REMI, hands=["4H 5H 2C", "5C"], discard="9D 3H", atu="QC", turn=0, rest="drop")
    refused(remi45, 0, take(None, "3H 4H 5H"), "opening_too_low")
    assert [c.face for c in remi45.discard] == ["9D", "3H"]


def test_rmi_36_pieces_added_to_anothers_formation_score_for_the_placer() -> None:
    state = position(
        REMI,
        hands=["6H 7H 2C", "9C"],
        melds=[(0, "KS KH KD"), (1, "3H 4H 5H")],
        atu="QC",
        turn=0,
        phase="play",
        rest="drop",
    )
    state = apply_move(state, 0, play(layoffs=[(2, "6H 7H")])).state
    assert table_cards(state, 2) == "3H 4H 5H 6H 7H"
    assert state.meld_by_id(2).placed_by == (1, 1, 1, 0, 0)  # type: ignore[union-attr]
    assert view_for(state, 1)["melds"][1]["owner"] == 1
    state = apply_move(state, 0, discard("2C")).state
    p0, p1 = state.results[-1].lines
    assert (p0.table, p0.bonus, p0.points) == (40, 50, 90)
    assert (p1.table, p1.hand, p1.points) == (15, 5, 10)


def test_rmi_35_additions_extend_a_run_or_bring_a_set_of_three_to_four() -> None:
    state = position(
        REMI,
        hands=["2H 6H 7C 9C 3S", "5C"],
        melds=[(1, "3H 4H 5H"), (1, "7S 7H 7D"), (1, "9S 9H 9D 9C")],
        opened=[True, True],
        atu="QC",
        turn=0,
        phase="play",
        rest="drop",
    )
    new = apply_move(state, 0, play(layoffs=[(1, "2H 6H"), (2, "7C")])).state
    assert table_cards(new, 1) == "2H 3H 4H 5H 6H"
    assert table_cards(new, 2) == "7S 7H 7D 7C"
    assert table_points(new) == (15, 50)
    refused(state, 0, play(layoffs=[(3, "9C")]), "cannot_lay_off")
    refused(state, 0, play(layoffs=[(1, "3S")]), "cannot_lay_off")


def test_rmi_27_no_additions_before_opening() -> None:
    state = position(
        REMI,
        hands=["6H 2C 3C", "5C"],
        melds=[(1, "3H 4H 5H")],
        atu="QC",
        turn=0,
        phase="play",
        rest="drop",
    )
    refused(state, 0, play(layoffs=[(1, "6H")]), "not_opened")
    classic = position(
        CLASSIC,
        hands=["6H 2C 3C", "5C"],
        melds=[(1, "3H 4H 5H")],
        atu="QC",
        turn=0,
        phase="play",
        rest="drop",
    )
    refused(classic, 0, play(layoffs=[(1, "6H")]), "not_opened")  # RMI-Q6


def test_rmi_27_no_buy_back_before_opening() -> None:
    state = position(
        REMI,
        hands=["JS 2C 3C", "5C"],
        melds=[(1, "TS JK(JS) QS")],
        atu="QC",
        turn=0,
        phase="play",
        rest="drop",
    )
    assert state.cycle.opened == (False, True)
    refused(state, 0, play(exchanges=[(1, "JS")]), "not_opened")


def test_rmi_40_q11_buy_back_from_own_formation_joker_may_stay_in_hand() -> None:
    state = position(
        REMI,
        hands=["8S 2C 3C", "5C"],
        melds=[(0, "7S JK(8S) 9S")],
        atu="QC",
        turn=0,
        phase="play",
        rest="drop",
    )
    new = apply_move(state, 0, play(exchanges=[(1, "8S")])).state
    assert table_cards(new, 1) == "7S 8S 9S"
    assert faces(new.hands[0]) == ["2C", "3C", "JK"]
    assert len(new.cycle.consumed) == 1
    # The joker does not have to be used this turn (unlike Remik 51).
    assert apply_move(new, 0, discard("2C")).state.turn == 1


def test_rmi_q11_buy_back_in_the_opening_turn_after_the_opening_is_laid() -> None:
    state = position(
        REMI,
        hands=["3H 4H 5H KS KH KD JS 2C", "5C"],
        melds=[(1, "TS JK(JS) QS")],
        atu="QC",
        turn=0,
        phase="play",
        rest="drop",
    )
    new = apply_move(state, 0, play("3H 4H 5H", "KS KH KD", exchanges=[(1, "JS")])).state
    assert new.cycle.opened == (True, True)
    assert table_cards(new, 1) == "TS JS QS"
    assert faces(new.hands[0]) == ["2C", "JK"]


def test_rmi_q10_q23_set_joker_bought_by_either_missing_suit_until_an_addition_fixes_it() -> None:
    state = position(
        REMI,
        hands=["7D 7C 7D 2C", "5C"],
        melds=[(1, "7S 7H JK(7D)")],
        opened=[True, True],
        atu="QC",
        turn=0,
        phase="play",
        rest="drop",
    )
    # RMI-Q10: a set of three's joker is bought by either missing suit.
    by_club = apply_move(state, 0, play(exchanges=[(1, "7C")])).state
    assert faces(by_club.meld_by_id(1).cards) == ["7C", "7H", "7S"]  # type: ignore[union-attr]
    by_diamond = apply_move(state, 0, play(exchanges=[(1, "7D")])).state
    assert faces(by_diamond.meld_by_id(1).cards) == ["7D", "7H", "7S"]  # type: ignore[union-attr]
    # RMI-Q23: adding 7D instead fixes the joker as the 7C; then only the 7C buys it.
    added = apply_move(state, 0, play(layoffs=[(1, "7D")])).state
    assert table_cards(added, 1) == "7S 7H JK(7C) 7D"
    refused(added, 0, play(exchanges=[(1, "7D")]), "bad_joker_exchange")
    bought = apply_move(added, 0, play(exchanges=[(1, "7C")])).state
    assert table_cards(bought, 1) == "7S 7H 7C 7D"


def test_rmi_42_a_consumed_joker_cannot_be_bought_back_again_even_by_its_buyer() -> None:
    state = position(
        REMI,
        hands=["8S 8S 7H 9H 2C 3C", "5C"],
        melds=[(0, "7S JK(8S) 9S")],
        atu="QC",
        turn=0,
        phase="play",
        rest="drop",
    )
    state = apply_move(state, 0, play(exchanges=[(1, "8S")])).state
    state = apply_move(state, 0, play("7H JK 9H")).state
    assert table_cards(state, 2) == "7H JK(8H) 9H"
    refused(state, 0, play(exchanges=[(2, "8H")]), "card_not_in_hand")
    other = position(
        REMI,
        hands=["8S 8H 7H 9H 2C 3C", "5C"],
        melds=[(0, "7S JK(8S) 9S")],
        atu="QC",
        turn=0,
        phase="play",
        rest="drop",
    )
    other = apply_move(other, 0, play(exchanges=[(1, "8S")])).state
    other = apply_move(other, 0, play("7H JK 9H")).state
    error = refused(other, 0, play(exchanges=[(2, "8H")]), "bad_joker_exchange")
    assert error.rule == "RMI-42"


def test_rmi_37_a_joker_can_never_be_added_to_a_formation_on_the_table() -> None:
    state = position(
        REMI,
        hands=["JK 2C 3C", "5C"],
        melds=[(1, "7H 8H 9H"), (1, "QS QH QD")],
        opened=[True, True],
        atu="KC",
        turn=0,
        phase="play",
        rest="drop",
    )
    for layoff in [(1, "JK(TH)"), (1, "JK(6H)"), (1, "JK"), (2, "JK(QC)"), (2, "JK")]:
        error = refused(state, 0, play(layoffs=[layoff]), "cannot_lay_off")
        assert error.rule == "RMI-37"
    # Inside a new formation it is fine.
    state = position(
        REMI,
        hands=["JK 2C 3C 9D", "5C"],
        opened=[True, True],
        atu="KC",
        turn=0,
        phase="play",
        rest="drop",
    )
    assert table_cards(apply_move(state, 0, play("2C 3C JK")).state, 1) == "2C 3C JK(4C)"


def test_rmi_q17_the_atu_cannot_be_added_to_a_formation_already_on_the_table() -> None:
    state = position(
        REMI,
        hands=["5D 6S", "4H"],
        melds=[(0, "7C 8C 9C")],
        atu="TC",
        turn=0,
        phase="play",
        rest="drop",
    )
    error = refused(state, 0, play(layoffs=[(1, "TC")]), "atu_not_allowed")
    assert error.rule == "RMI-Q17"


def test_rmi_q17_the_atu_counts_toward_an_opening_made_in_the_going_out_turn() -> None:
    state = position(
        REMI,
        hands=["3H 4H 5H KS KH 5D", "4C"],
        atu="KD",
        turn=0,
        phase="play",
        rest="drop",
    )
    refused(state, 0, play("3H 4H 5H"), "opening_too_low")
    new = apply_move(state, 0, play("3H 4H 5H", "KS KH KD")).state
    assert (new.cycle.opened[0], new.cycle.atu_taken_by) == (True, 0)
    new = apply_move(new, 0, discard("5D")).state
    p0, p1 = new.results[-1].lines
    assert (p0.table, p0.bonus, p0.points) == (45, 50, 95)
    assert p1.points == -100


def test_rmi_49_50_57_empty_stock_ends_the_round_on_a_draw_without_reshuffle_or_bonus() -> None:
    state = position(
        REMI,
        hands=["KC 2D", "9C 9D", "QS"],
        melds=[(0, "3S 4S 5S"), (1, "TH JH QH")],
        discard="2S 6H 7H 8D 4C",
        stock="",
        atu="QC",
        turn=0,
        rest="drop",
    )
    result = apply_move(state, 0, DrawStock())
    new = result.state
    last = new.results[-1]
    assert (last.ended, last.winner) == ("stock_out", None)
    assert [(ln.table, ln.hand, ln.bonus, ln.points) for ln in last.lines] == [
        (15, 15, 0, 0),
        (30, 10, 0, 20),
        (0, 0, 0, -100),
    ]
    assert "stock_rebuilt" not in [e.kind for e in result.events]
    assert new.round_no == 2


def test_rmi_q9_with_an_empty_stock_the_player_may_still_break_the_row() -> None:
    state = position(
        REMI,
        hands=["5H 5D 2C 3C", "9C"],
        melds=[(0, "3S 4S 5S")],
        discard="2S 6H 5C",
        stock="",
        atu="QC",
        turn=0,
        rest="drop",
    )
    new = apply_move(state, 0, take(None, "5H 5D 5C")).state
    assert (new.round_no, new.phase) == (1, "play")
    new = apply_move(new, 0, discard("2C")).state
    assert (new.turn, new.phase) == (1, "draw")
    ended = apply_move(new, 1, DrawStock()).state
    assert ended.results[-1].ended == "stock_out"
    assert points(ended) == [25, -100]


def _going_out(hand: str, *moves: Move, atu: str = "QC", melds: tuple = ()) -> GameState:  # type: ignore[type-arg]
    state = position(
        REMI,
        hands=[hand, "4C"],
        melds=[(0, "KS KH KD"), *melds],
        atu=atu,
        turn=0,
        phase="play",
        rest="drop",
    )
    return run(state, *((0, m) for m in moves))


def test_rmi_55_going_out_bonus_is_50() -> None:
    state = _going_out("5D", discard("5D"))
    p0 = state.results[-1].lines[0]
    assert (p0.table, p0.hand, p0.bonus, p0.points) == (30, 0, 50, 80)


def test_rmi_55_q14_going_out_with_a_joker_in_a_new_formation_that_turn_is_100() -> None:
    state = _going_out("7H JK 9H 5D", play("7H JK 9H"), discard("5D"))
    p0 = state.results[-1].lines[0]
    assert (p0.table, p0.bonus, p0.points) == (45, 100, 145)


def test_rmi_55_q14_discarding_a_joker_as_the_last_piece_is_100() -> None:
    state = _going_out("JK", discard("JK"))
    p0 = state.results[-1].lines[0]
    assert (p0.table, p0.hand, p0.bonus, p0.points) == (30, 0, 100, 130)


def test_rmi_q14_a_joker_laid_in_an_earlier_turn_does_not_make_it_100() -> None:
    state = _going_out("5D", discard("5D"), melds=((0, "7H JK(8H) 9H"),))
    p0 = state.results[-1].lines[0]
    assert (p0.table, p0.bonus, p0.points) == (45, 50, 95)
    # The same across real turns: the joker is laid in one turn, the player goes out in the next.
    state = position(
        REMI,
        hands=["7H JK 9H 5D", "4C 8C"],
        melds=[(0, "KS KH KD"), (1, "2S 3S 4S")],
        stock="TC JC KC",
        atu="QC",
        turn=0,
        rest="drop",
    )
    state = run(
        state,
        (0, DrawStock()),
        (0, play("7H JK 9H")),
        (0, discard("TC")),
        (1, DrawStock()),
        (1, discard("JC")),
        (0, DrawStock()),
        (0, play(layoffs=[(1, "KC")])),
        (0, discard("5D")),
    )
    p0, p1 = state.results[-1].lines
    assert (p0.table, p0.bonus, p0.points) == (55, 50, 105)
    assert (p1.table, p1.hand, p1.points) == (15, 10, 5)


def test_rmi_q14_a_bought_back_joker_laid_in_the_going_out_turn_makes_it_100() -> None:
    state = _going_out(
        "JS 7H 9H 5D",
        play("7H JK 9H", exchanges=[(2, "JS")]),
        discard("5D"),
        melds=((1, "TS JK(JS) QS"),),
    )
    p0, p1 = state.results[-1].lines
    # 30 + 15 (7H JK 9H) + 10 (the JS placed by buying back) = 55.
    assert (p0.table, p0.bonus, p0.points) == (55, 100, 155)
    assert (p1.table, p1.points) == (20, 15)


def test_rmi_q15_a_joker_atu_taken_into_the_going_out_formation_is_100_and_doubled() -> None:
    state = _going_out("7H 9H 5D", play("7H JK 9H"), atu="JK")
    assert state.cycle.atu_taken_by == 0
    assert table_cards(state, 2) == "7H JK(8H) 9H"
    state = apply_move(state, 0, discard("5D")).state
    p0, p1 = state.results[-1].lines
    assert (p0.table, p0.bonus, p0.multiplier, p0.points) == (45, 100, 2, 290)
    assert p1.points == -200  # laid nothing: -100, doubled


def test_rmi_58_never_laying_a_formation_scores_minus_100_whatever_the_hand() -> None:
    state = position(
        REMI,
        hands=["5D", "JK JK AS AH AD KS", "2C"],
        melds=[(0, "KS KH KD")],
        atu="QC",
        turn=0,
        phase="play",
        rest="drop",
    )
    state = apply_move(state, 0, discard("5D")).state
    assert points(state) == [80, -100, -100]


def test_rmi_58_q16_minus_100_is_doubled_and_gets_no_atu_pair_bonus() -> None:
    # Atu AC: a doubled round. Seat 1 was dealt the other AC but never laid anything.
    state = position(
        REMI,
        hands=["5D", "AC 9S"],
        melds=[(0, "KS KH KD")],
        atu="AC",
        turn=0,
        phase="play",
        rest="drop",
    )
    assert state.cycle.atu_pair_seats == (1,)
    state = apply_move(state, 0, discard("5D")).state
    p0, p1 = state.results[-1].lines
    assert (p0.multiplier, p0.points) == (2, 160)
    assert (p1.atu_bonus, p1.multiplier, p1.points) == (0, 2, -200)


def test_rmi_47_atu_pair_bonus_is_50_for_the_player_dealt_the_twin() -> None:
    state = position(
        REMI,
        hands=["5D", "7D 9S"],
        melds=[(0, "KS KH KD"), (1, "2H 3H 4H")],
        atu="7D",
        turn=0,
        phase="play",
        rest="drop",
    )
    assert state.cycle.atu_pair_seats == (1,)
    state = apply_move(state, 0, discard("5D")).state
    p0, p1 = state.results[-1].lines
    assert (p0.atu_bonus, p0.points) == (0, 80)
    # 15 on the table - 10 in hand (the twin still costs 5) + 50.
    assert (p1.table, p1.hand, p1.atu_bonus, p1.points) == (15, 10, 50, 55)


def test_rmi_48_q16_joker_atu_doubles_the_round_and_the_other_joker_is_its_pair() -> None:
    state = position(
        REMI,
        hands=["5D", "JK 9S"],
        melds=[(0, "KS KH KD"), (1, "2H 3H 4H")],
        atu="JK",
        turn=0,
        phase="play",
        rest="drop",
    )
    assert state.cycle.atu_pair_seats == (1,)
    state = apply_move(state, 0, discard("5D")).state
    p0, p1 = state.results[-1].lines
    assert (p0.multiplier, p0.points) == (2, 160)
    # (15 - 55 + 50) * 2 = 20.
    assert (p1.hand, p1.atu_bonus, p1.multiplier, p1.points) == (55, 50, 2, 20)


def test_rmi_48_ace_atu_doubles_every_round_total() -> None:
    state = position(
        REMI,
        hands=["5D", "9S", "2C"],
        melds=[(0, "KS KH KD"), (1, "2H 3H 4H")],
        atu="AS",
        turn=0,
        phase="play",
        rest="drop",
    )
    state = apply_move(state, 0, discard("5D")).state
    assert points(state) == [160, 20, -200]


def test_rmi_q4_an_ace_left_in_hand_costs_25() -> None:
    assert REMI.hand_points("AS") == 25
    assert REMI.hand_points("JK AS KD 5C") == 90


def test_rmi_62_q19_fixed_rounds_end_the_match_and_equal_totals_are_co_winners() -> None:
    rules = variant("remi", rounds=2)
    state = new_game(rules, 2, seed=3, first=0)
    state = draw_discard_to_stock_out(state)
    assert (state.round_no, state.phase, state.first) == (2, "play", 1)  # RMI-Q1
    assert state.totals == (-100, -100)
    state = draw_discard_to_stock_out(state)
    assert state.phase == "over"
    assert len(state.results) == 2
    assert all(r.ended == "stock_out" for r in state.results)
    assert state.totals == (-200, -200)
    assert state.winners == (0, 1)


def test_rmi_62_q19_target_reached_ends_the_match_highest_wins() -> None:
    rules = variant("remi", target=300)
    below = position(
        rules,
        hands=["5D", "9S"],
        melds=[(0, "KS KH KD")],
        atu="QC",
        turn=0,
        phase="play",
        totals=[215, 250],
        rest="drop",
    )
    below = apply_move(below, 0, discard("5D")).state
    assert below.totals == (295, 150)
    assert below.phase == "play"
    reached = position(
        rules,
        hands=["5D", "9S"],
        melds=[(0, "KS KH KD")],
        atu="QC",
        turn=0,
        phase="play",
        totals=[220, 250],
        rest="drop",
    )
    reached = apply_move(reached, 0, discard("5D")).state
    assert reached.totals == (300, 150)
    assert reached.phase == "over"
    assert reached.winners == (0,)


def test_rmi_61_q19_endless_room_plays_on_until_end_match_with_co_winners() -> None:
    state = position(
        REMI,
        hands=["5D", "9S"],
        melds=[(0, "KS KH KD")],
        atu="QC",
        turn=0,
        phase="play",
        totals=[20, 200],
        rest="drop",
    )
    state = apply_move(state, 0, discard("5D")).state
    assert state.totals == (100, 100)
    assert (state.phase, state.round_no) == ("play", 2)
    closed = end_match(state).state
    assert closed.phase == "over"
    assert closed.totals == (100, 100)
    assert closed.winners == (0, 1)
    assert len(closed.results) == 1  # the round in progress is abandoned unscored
    with pytest.raises(IllegalMoveError) as info:
        end_match(closed)
    assert info.value.code == "game_over"
    refused(closed, closed.turn, DrawStock(), "game_over")
    ahead = end_match(position(REMI, hands=["5D", "9S"], atu="QC", totals=[40, 30])).state
    assert ahead.winners == (0,)


def test_rmi_7_q3_short_game_one_deck_two_jokers_ten_and_eleven_pieces() -> None:
    rules = variant("remi", short_game=True)
    pack = rules.pack()
    assert len(pack) == 54
    assert sum(c.is_joker for c in pack) == 2
    assert set(Counter(c.face for c in pack if not c.is_joker).values()) == {1}
    state = new_game(rules, 2, seed=5, first=1)
    assert [len(h) for h in state.hands] == [10, 11]
    assert state.cycle.atu is not None
    assert len(state.stock) == 54 - 21 - 1
    with pytest.raises(ValueError):  # noqa: PT011
        new_game(rules, 3, seed=5)


def test_rmi_q3_q16_short_game_atu_pair_only_through_the_jokers() -> None:
    rules = variant("remi", short_game=True)
    natural = position(rules, hands=["7D 2C", "JK 3C"], atu="7H", turn=0, rest="drop")
    assert natural.cycle.atu_pair_seats == ()
    jokers = position(rules, hands=["7D 2C", "JK 3C"], atu="JK", turn=0, rest="drop")
    assert jokers.cycle.atu_pair_seats == (1,)


def test_rmi_6_q2_standard_game_106_pieces_up_to_four_players() -> None:
    pack = REMI.pack()
    assert len(pack) == 106
    assert sum(c.is_joker for c in pack) == 2
    state = new_game(REMI, 4, seed=9, first=0)
    assert [len(h) for h in state.hands] == [15, 14, 14, 14]
    assert len(state.stock) == 48
    with pytest.raises(ValueError):  # noqa: PT011
        new_game(REMI, 5, seed=9)


@pytest.mark.parametrize(
    "options",
    [
        {"opening": "60"},
        {"opening": 40},
        {"rounds": 0},
        {"target": 0},
        {"rounds": 3, "target": 500},
        {"short_game": "yes"},
        {"max_players": 5},
        {"row_visible_depth": 0},
        {"speed": "fast"},
    ],
    ids=lambda o: f"RMI-options {o}",
)
def test_rmi_table_options_unknown_or_out_of_range_raise_value_error(options: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError):  # noqa: PT011
        variant("remi", **options)


def test_rmi_table_options_defaults_and_synonyms() -> None:
    assert REMI.options["opening"] == "45"
    assert (REMI.options["rounds"], REMI.options["target"]) == (None, None)
    assert variant("remi", opening=0).options["opening"] == "classic"
    assert variant("remi", opening=51).options["opening"] == "51"
    assert variant("remi", rowVisibleDepth=3).options["row_visible_depth"] == 3
