"""Rummy 500 rules of play (``docs/rules/rummy500.md``), one test per rule or decision, by id."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    DrawStock,
    apply_move,
    legal_moves,
    new_game,
    position,
    variant,
    view_for,
)
from games.engine.cards import Card
from games.engine.errors import InvalidMeldError
from games.engine.moves import TakeDiscard
from games.engine.rules import Rules
from tests.engine.helpers import discard, faces, play, points, refused, run, table_cards, take
from tests.engine.strategies import brute_force_points, meldy_hands

R500 = variant("rummy500")


def test_r500_1_two_to_eight_players() -> None:
    assert (R500.min_players, R500.max_players) == (2, 8)
    with pytest.raises(ValueError, match="2 to 8"):
        new_game(R500, 9, seed=1)
    with pytest.raises(ValueError, match="2 to 8"):
        new_game(R500, 1, seed=1)


@pytest.mark.parametrize(
    ("players", "two_for_four", "cards"),
    [(2, False, 52), (3, False, 52), (4, False, 52), (4, True, 104), (5, False, 104), (8, True, 104)],
)
def test_r500_2_q2_one_deck_up_to_four_players_two_from_five(
    players: int, two_for_four: bool, cards: int
) -> None:
    rules = variant("rummy500", two_decks_for_four=two_for_four)
    pack = rules.pack_for(players)
    assert len(pack) == cards
    assert not any(card.is_joker for card in pack)  # R500-2, R500-19: no jokers
    state = new_game(rules, players, seed=players)
    dealt = [c for hand in state.hands for c in hand] + list(state.stock) + list(state.discard)
    assert Counter(c.id for c in dealt) == Counter(c.id for c in pack)


@pytest.mark.parametrize(("players", "size"), [(2, 13), (3, 7), (5, 7), (8, 7)])
def test_r500_5_thirteen_cards_for_two_players_seven_for_more(players: int, size: int) -> None:
    state = new_game(R500, players, seed=3)
    assert [len(hand) for hand in state.hands] == [size] * players


def test_r500_6_the_stock_top_is_turned_up_and_the_player_left_of_the_dealer_starts_by_drawing() -> None:
    state = new_game(R500, 3, seed=11)
    assert len(state.discard) == 1
    assert len(state.stock) == 52 - 21 - 1
    assert (state.turn, state.phase) == (state.first, "draw")
    view = view_for(state, state.turn)
    assert view["you"]["moves"] == ["draw", "take"]
    assert view["you"]["takeable"] == [str(state.discard[0])]
    # The deal passes to the left (R500-Q9): the next deal's first player is the next seat.
    moves = {type(m) for m in legal_moves(state, state.turn)}
    assert DrawStock in moves


def test_r500_q9_the_deal_passes_to_the_left() -> None:
    state = position(R500, hands=["5S", "4C 4D 4H 2S", "QS"], turn=1, first=0, phase="play")
    state = run(state, (1, play("4C 4D 4H")), (1, discard("2S")))
    assert (state.round_no, state.first, state.turn, state.phase) == (2, 1, 1, "draw")
    assert len(state.discard) == 1  # a new up-card


def test_r500_8_q5_a_card_taken_from_the_pile_goes_to_the_table_in_the_same_move() -> None:
    state = position(R500, hands=["7H 8H 2C", "5D 5S"], discard="3S 9H", turn=0, phase="draw")
    refused(state, 0, TakeDiscard(None), "taken_card_not_melded")
    refused(state, 0, take("9H", "7H 8H 2C"), {"not_consecutive", "not_a_meld"})
    refused(state, 0, take("9H", layoffs=[(9, "9H")]), "unknown_meld")
    new = apply_move(state, 0, take(None, "7H 8H 9H")).state
    assert table_cards(new, 1) == "7H 8H 9H"
    # R500-Q3: a turn that began with a take still ends with a discard.
    assert new.phase == "play"
    assert "discard" in view_for(new, 0)["you"]["moves"]


def test_r500_q5_the_top_card_may_be_laid_off_onto_anyones_meld() -> None:
    state = position(
        R500, hands=["2C 3C", "5D 5S"], discard="3S TH", melds=[(1, "7H 8H 9H")], turn=0, phase="draw"
    )
    new = apply_move(state, 0, take("TH", layoffs=[(1, "TH")])).state
    assert table_cards(new, 1) == "7H 8H 9H TH"
    assert new.melds[0].placed_by == (1, 1, 1, 0)


def test_r500_9_a_deep_take_needs_no_opening_and_nothing_is_left_above_the_card() -> None:
    state = position(R500, hands=["QD KD 2S", "5D 5S"], discard="JD 3C 4C", turn=0, phase="draw")
    assert state.cycle.opened == (False, False)
    result = apply_move(state, 0, take("JD", "JD QD KD"))
    assert result.state.discard == ()
    assert faces(result.state.hands[0]) == ["2S", "3C", "4C"]
    offered = [m for m in legal_moves(state, 0) if isinstance(m, TakeDiscard)]
    assert [m.card.face for m in offered if m.card is not None] == ["JD"]


def test_r500_10_19_melds_and_lay_offs_on_anyones_melds_from_the_first_turn() -> None:
    state = position(
        R500,
        hands=["7S 8S 9S 5S 2C 2D 2H KC QD JD 6H 4H 3D", "TS JS QS 3C 4C 5C AH AS AD 9D 8D 7D 6D"],
        melds=[(1, "2S 3S 4S")],
        turn=0,
        phase="play",
        turns_started=[1, 0],
    )
    new = apply_move(state, 0, play("7S 8S 9S", "2C 2D 2H", layoffs=[(1, "5S")])).state
    assert table_cards(new, 1) == "2S 3S 4S 5S"
    assert [m.owner for m in new.melds] == [1, 0, 0]
    view = view_for(new, 1)
    assert view["you"]["opening"] is None  # R500-19: no opening to reach
    assert view["running_totals"] == [24 + 6 + 5, 9]


def test_r500_12_each_card_scores_for_the_player_who_laid_it() -> None:
    state = position(
        R500,
        hands=["5H 6H 9C", "KD"],
        melds=[(1, "2H 3H 4H"), (1, "TC JC QC")],
        turn=0,
        phase="play",
    )
    state = apply_move(state, 0, play(layoffs=[(1, "5H 6H")])).state
    state = apply_move(state, 0, discard("9C")).state
    # Seat 0: 5 + 6 laid off = 11. Seat 1: 9 + 30 on the table, KD in hand = 29.
    assert points(state) == [11, 29]


def test_r500_15_q7_an_empty_stock_ends_the_deal_when_the_player_to_move_draws() -> None:
    state = position(
        R500,
        hands=["9C 9D", "KD 2H"],
        melds=[(0, "5S 6S 7S")],
        discard="9H",
        stock="",
        turn=1,
        phase="draw",
        rest="drop",
    )
    # The player to move may still take from the pile instead (R500-Q7 (b)) -- here it cannot meld
    # the 9H, so the only move is to draw, which ends the deal with no one out.
    assert all(not isinstance(m, TakeDiscard) for m in legal_moves(state, 1))
    new = apply_move(state, 1, DrawStock()).state
    result = new.results[-1]
    assert (result.ended, result.winner) == ("stock_out", None)
    assert points(new) == [18 - 18, -12]
    # With a pile card it can meld, seat 0 may take it rather than draw.
    state = position(
        R500,
        hands=["9C 9D 3H", "KD 2H"],
        discard="9H",
        stock="",
        turn=0,
        phase="draw",
        rest="drop",
    )
    assert any(isinstance(m, TakeDiscard) for m in legal_moves(state, 0))
    new = apply_move(state, 0, take("9H", "9H 9C 9D")).state
    assert new.results == ()


def test_r500_15_q4_melding_every_card_ends_the_deal_without_a_discard() -> None:
    state = position(R500, hands=["5S 6S 7S 8S", "KD 2H"], turn=0, phase="play", totals=[10, 20])
    result = apply_move(state, 0, play("5S 6S 7S 8S"))
    new = result.state
    last = new.results[-1]
    assert (last.ended, last.winner) == ("went_out", 0)
    assert points(new) == [26, -12]
    assert new.totals == (36, 8)


def test_r500_q1_a_set_is_three_or_four_cards_of_different_suits() -> None:
    rules = variant("rummy500", two_decks_for_four=True)
    state = position(rules, hands=["9H 9H 9S 9D 9C 2C", "5D", "5C", "5S"], turn=0, phase="play")
    refused(state, 0, play("9H 9H 9S"), "repeated_suit")
    refused(state, 0, play("9H 9S 9D 9C 9H"), {"set_too_large", "repeated_suit"})
    new = apply_move(state, 0, play("9H 9S 9D 9C")).state
    assert table_cards(new, 1) == "9H 9S 9D 9C"


def test_r500_a_refused_take_leaves_the_pile_and_the_hand_unchanged() -> None:
    state = position(R500, hands=["9H 4S", "2C 3C"], discard="4C 9S 9D 2D KC", turn=0, phase="draw")
    refused(state, 0, take("9S", "9S 9D 9H"), "cannot_take_discard")
    refused(state, 0, take("QS", "QS KS AS"), "cannot_take_discard")


_R500_TABLES = st.sampled_from([{}, {"two_decks_for_four": True}]).map(lambda o: variant("rummy500", **o))


@given(_R500_TABLES.flatmap(lambda rules: st.tuples(st.just(rules), meldy_hands(rules, 4, 9, max_jokers=0))))
def test_r500_best_melds_match_a_brute_force_referee_with_the_ace_low_only(
    case: tuple[Rules, tuple[Card, ...]],
) -> None:
    rules, hand = case
    melds, leftover = rules.best_melds(hand)
    assert sum(rules.meld_points(m.cards) for m in melds) == brute_force_points(rules, hand)
    assert not any(m.kind == "run" and m.end == 14 for m in melds)  # R500-3: never Q-K-A
    laid = Counter(c.id for m in melds for c in m.cards)
    assert laid + Counter(c.id for c in leftover) == Counter(c.id for c in hand)


def test_r500_2_r500_19_there_are_no_jokers_a_meld_or_move_naming_one_is_refused() -> None:
    with pytest.raises(InvalidMeldError) as info:
        R500.meld_points("JK 5D 6D")
    assert (info.value.code, info.value.rule) == ("no_jokers", "R500-2/19")
    state = position(R500, hands=["5D 6D 7D 2C", "KC 3H"], turn=0, phase="play")
    refused(state, 0, play("JK 5D 6D"), "no_jokers")
    refused(state, 0, play("5D 6D 7D", layoffs=[(1, "JK")]), "no_jokers")
    refused(state, 0, discard("JK"), "no_jokers")
    drawing = position(R500, hands=["5D 6D 2C", "KC 3H"], discard="7D", turn=0, phase="draw")
    refused(drawing, 0, take("7D", "5D 6D 7D JK"), "no_jokers")
