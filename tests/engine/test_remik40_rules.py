"""Remik 40 rules of play (``docs/rules/remik40.md``), one test per rule or decision, by id."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    DrawStock,
    InvalidMeldError,
    apply_move,
    legal_moves,
    new_game,
    parse_cards,
    position,
    state_from_json,
    state_to_json,
    variant,
    view_for,
)
from games.engine.cards import Card
from games.engine.melds import read_meld
from games.engine.moves import Play, TakeDiscard
from games.engine.rules import Rules
from tests.engine.helpers import discard, faces, play, points, refused, run, table_cards, take
from tests.engine.strategies import brute_force_points, meldy_hands

R40 = variant("remik40")


# --- players, cards, deal -------------------------------------------------------------------------


def test_r40_3_two_to_four_players() -> None:
    assert (R40.min_players, R40.max_players) == (2, 4)
    with pytest.raises(ValueError, match="2 to 4"):
        new_game(R40, 5, seed=1)


def test_r40_4_two_decks_and_two_jokers_106_cards() -> None:
    pack = R40.pack_for(4)
    assert len(pack) == 106
    assert sum(card.is_joker for card in pack) == 2
    assert Counter(card.face for card in pack if not card.is_joker) == Counter(
        {f"{r}{s}": 2 for r in "23456789TJQKA" for s in "SHDC"}
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r40_9_q13_thirteen_cards_each_no_up_card_and_the_first_player_draws(players: int) -> None:
    state = new_game(R40, players, seed=players)
    assert [len(hand) for hand in state.hands] == [13] * players
    assert state.discard == ()
    assert len(state.stock) == 106 - 13 * players
    assert (state.turn, state.phase) == (state.first, "draw")
    # With an empty discard pile the only move is to draw.
    assert legal_moves(state, state.turn) == [DrawStock()]


def test_r40_11_q15_an_empty_stock_is_rebuilt_from_the_pile_minus_its_top_card() -> None:
    state = position(
        R40,
        hands=["2C 3C", "4H 5H"],
        discard="9S 9H 9D KC",
        stock="",
        turn=0,
        phase="draw",
        rest="drop",
    )
    result = apply_move(state, 0, DrawStock())
    new = result.state
    assert [c.face for c in new.discard] == ["KC"]
    assert len(new.stock) == 2
    assert len(new.hands[0]) == 3
    rebuilt = next(e for e in result.events if e.kind == "stock_rebuilt")
    assert rebuilt.data["rule"] == "R40-11"


def test_r40_q15_with_nothing_to_rebuild_the_stock_from_the_pool_is_returned() -> None:
    rules = variant("remik40", stake=50)
    state = position(
        rules, hands=["2C 3C", "4H 5H"], discard="KC", stock="", turn=0, phase="draw", rest="drop"
    )
    new = apply_move(state, 0, DrawStock()).state
    result = new.results[-1]
    assert (result.ended, result.winner) == ("void", None)
    assert [line.chips for line in result.lines] == [50, 50]
    assert new.phase == "over"
    assert view_for(new, None)["prize_pool"]["net"] == [0, 0]


def test_r40_q15_a_game_nobody_can_ever_finish_ends_void_and_the_pool_is_returned() -> None:
    # Two players with one card each; the table holds only four-card sets, so nothing can ever be
    # built on and no new meld can be made: without this, the reshuffled stock would go round for ever.
    sets = [(s % 2, f"{rank}S {rank}H {rank}D {rank}C") for s, rank in enumerate("23456789TJQKA")]
    sets += [(s % 2, f"{rank}S {rank}H {rank}D {rank}C") for s, rank in enumerate("3456789TJQ")]
    state = position(
        R40,
        hands=["2C 2D", "KH"],
        melds=sets,
        discard="JK",
        stock="AS",
        turn=0,
        phase="play",
        rest="stock",
    )
    assert [len(h) for h in state.hands] == [2, 1]
    result = apply_move(state, 0, discard("2D"))
    assert [e.kind for e in result.events][-3:] == ["stuck", "round_over", "match_over"]
    last = result.state.results[-1]
    assert (last.ended, last.winner) == ("void", None)
    assert [line.chips for line in last.lines] == [100, 100]
    # While a card could still be built on (the joker, onto a set of three), play goes on.
    state = position(
        R40,
        hands=["2C 2D", "KH"],
        melds=[*sets[:-1], (1, "QS QH QD")],
        discard="JK",
        stock="AS",
        turn=0,
        phase="play",
        rest="stock",
    )
    new = apply_move(state, 0, discard("2D")).state
    assert new.results == ()
    assert (new.turn, new.phase) == (1, "draw")


# --- values ---------------------------------------------------------------------------------------


def test_r40_q2_the_ace_is_low_or_high_never_round_the_corner_nor_at_both_ends() -> None:
    assert R40.meld_points("QS KS AS") == 31
    # R40-5 with R40-Q2: the ace counts 11 towards the 40 wherever it lies; a low ace at 1 is the
    # table option low_ace_value.
    assert R40.meld_points("AS 2S 3S") == 16
    assert variant("remik40", low_ace_value=1).meld_points("AS 2S 3S") == 6
    assert variant("remik40", lowAceValue=1).meld_points("QS KS AS") == 31
    for cards, code in (
        ("KS AS 2S", "wrap_around"),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "ace_both_ends"),
    ):
        with pytest.raises(InvalidMeldError) as info:
            read_meld(parse_cards(cards), R40.policy)
        assert info.value.code == code


def test_r40_q1_a_set_is_three_or_four_cards_of_one_rank_in_different_suits() -> None:
    with pytest.raises(InvalidMeldError) as info:
        read_meld(parse_cards("7H 7H 7S"), R40.policy)
    assert info.value.code == "repeated_suit"
    with pytest.raises(InvalidMeldError) as info:
        read_meld(parse_cards("7H 7S 7D 7C 7H"), R40.policy)
    assert info.value.code in {"set_too_large", "repeated_suit"}


def test_r40_q7_at_most_one_joker_per_meld_unless_the_table_allows_two() -> None:
    for cards in ("7H JK JK", "5H JK 7H JK", "7H 7S JK JK"):
        with pytest.raises(InvalidMeldError) as info:
            read_meld(parse_cards(cards), R40.policy)
        assert info.value.code == "too_many_jokers", cards
    two = variant("remik40", max_jokers_per_meld=2)
    assert two.meld_points("5H JK 7H JK") == 5 + 6 + 7 + 8
    assert two.meld_points("7H 7S JK JK") == 28
    # A joker cannot be built onto a meld that already holds one.
    state = position(
        R40, hands=["JK 2C 3C", "4H"], melds=[(0, "5H JK(6H) 7H"), (1, "9S 9H 9D")], turn=0, phase="play"
    )
    refused(state, 0, play(layoffs=[(1, "JK(8H)")]), "cannot_lay_off")
    new = apply_move(state, 0, play(layoffs=[(2, "JK")])).state
    assert faces(new.melds[1].cards) == ["9D", "9H", "9S", "JK"]


def test_r40_q7_the_best_arrangement_keeps_to_the_joker_limit() -> None:
    melds, _ = R40.best_melds("5H 7H JK JK 9C")
    assert all(meld.jokers <= 1 for meld in melds)
    melds, _ = variant("remik40", max_jokers_per_meld=2).best_melds("5H 7H JK JK 9C")
    assert [meld.jokers for meld in melds] == [2]


# --- the turn: drawing and taking ---------------------------------------------------------------------


def test_r40_13_q5_only_the_top_discard_and_it_goes_to_the_table_in_the_same_move() -> None:
    state = position(
        R40,
        hands=["7H 8H 5C 2S", "4H"],
        discard="9S 9H",
        melds=[(0, "TS JS QS")],
        turn=0,
        phase="draw",
    )
    refused(state, 0, take("9S", "9S 9H 9D"), "cannot_take_discard")
    refused(state, 0, TakeDiscard(None), "taken_card_not_melded")
    refused(state, 0, take("9H", "7H 8H JK"), "card_not_in_hand")
    new = apply_move(state, 0, take("9H", "7H 8H 9H")).state
    assert table_cards(new, 2) == "7H 8H 9H"
    # Built onto a table meld instead (R40-Q5), by a player who has opened.
    state = position(
        R40, hands=["7H 2S", "4H"], discard="9S KS", melds=[(0, "TS JS QS")], turn=0, phase="draw"
    )
    new = apply_move(state, 0, take("KS", layoffs=[(1, "KS")])).state
    assert table_cards(new, 1) == "TS JS QS KS"
    assert new.phase == "play"  # R40-14: the turn still ends with a discard


def test_r40_q5_before_opening_the_top_discard_is_taken_only_with_an_opening_of_40() -> None:
    state = position(
        R40,
        hands=["KS KH 5C 6C 7C 2D", "4H"],
        discard="9S KD",
        melds=[(1, "TS JS QS")],
        turn=0,
        phase="draw",
        rest="drop",
    )
    # Not opened: neither laid off alone ...
    refused(state, 0, take("KD", layoffs=[(1, "KD")]), "not_opened")
    # ... nor in melds worth less than 40 (30 + 18 = 48, but the run alone is 18) ...
    refused(state, 0, take("KD", "5C 6C 7C"), {"taken_card_not_melded", "opening_too_low"})
    # ... but with an opening that holds it: 30 + 18 = 48.
    result = apply_move(state, 0, take("KD", "KS KH KD", "5C 6C 7C"))
    assert [e.data["points"] for e in result.events if e.kind == "opened"] == [48]
    assert faces(result.state.hands[0]) == ["2D"]
    offered = [m for m in legal_moves(state, 0) if isinstance(m, TakeDiscard)]
    assert offered
    assert all(apply_move(state, 0, m).state.cycle.opened[0] for m in offered)


# --- laying down and building -------------------------------------------------------------------------


def test_r40_q6_q19_any_melds_worth_40_open_jokers_included_building_does_not_count() -> None:
    state = position(
        R40,
        hands=["7H JK 9H 4C 5C 6C 8S 2D", "3H"],
        melds=[(1, "9S TS JS")],
        turn=0,
        phase="play",
        rest="drop",
    )
    # 24 + 15 = 39, and the 8S built onto the spades does not count.
    error = refused(state, 0, play("7H JK(8H) 9H", "4C 5C 6C", layoffs=[(1, "8S")]), "opening_too_low")
    assert error.fields["points"] == 39
    # R40-19 / R40-Q8: building is allowed in the opening turn once the 40 are on the table.
    state = position(
        R40,
        hands=["7H JK 9H 4C 5C 6C 7C 8S 2D", "3H"],
        melds=[(1, "9S TS JS")],
        turn=0,
        phase="play",
        rest="drop",
    )
    new = apply_move(state, 0, play("7H JK(8H) 9H", "4C 5C 6C 7C", layoffs=[(1, "8S")])).state
    assert table_cards(new, 1) == "8S 9S TS JS"
    assert new.cycle.opened[0]


def test_r40_19_only_a_player_who_has_laid_melds_may_build() -> None:
    state = position(R40, hands=["8S 2D 3D", "3H"], melds=[(1, "9S TS JS")], turn=0, phase="play")
    refused(state, 0, play(layoffs=[(1, "8S")]), "not_opened")
    state = position(
        R40, hands=["8S 2D 3D", "3H"], melds=[(1, "9S TS JS"), (0, "4H 5H 6H")], turn=0, phase="play"
    )
    new = apply_move(state, 0, play(layoffs=[(1, "8S")])).state
    assert table_cards(new, 1) == "8S 9S TS JS"


def test_r40_14_the_last_card_is_always_discarded() -> None:
    state = position(R40, hands=["5S 6S 7S", "3H"], melds=[(0, "2D 3D 4D")], turn=0, phase="play")
    refused(state, 0, play("5S 6S 7S"), "must_keep_discard")
    refused(state, 0, play(layoffs=[(1, "5S")]), {"must_keep_discard", "cannot_lay_off"})


# --- jokers ---------------------------------------------------------------------------------------


def test_r40_q8_a_joker_is_recovered_only_after_opening_possibly_earlier_in_the_move() -> None:
    hand = "6D KS KH KC QS QH QC 9S 9H 2C"
    state = position(
        R40, hands=[hand, "4H 5H"], melds=[(1, "5D JK(6D) 7D")], turn=0, phase="play", rest="drop"
    )
    # R40-19/Q8: who may recover a joker; the meld holding it is no opening (R40-Q19).
    error = refused(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "6D")]), "not_opened")
    assert error.rule == "R40-19/Q8"
    refused(state, 0, play(exchanges=[(1, "6D")]), "not_opened")
    # The melds of the opening reach 60 without the joker's meld, which does not count (R40-Q19).
    result = apply_move(state, 0, play("KS KH KC", "QS QH QC", "9S 9H JK(9D)", exchanges=[(1, "6D")]))
    assert [e.data["points"] for e in result.events if e.kind == "opened"] == [87]
    assert table_cards(result.state, 1) == "5D 6D 7D"
    # With the joker's meld needed to reach 40, the recovery is refused.
    state = position(
        R40, hands=["6D KS KH KC 9S 9H 2C", "4H 5H"], melds=[(1, "5D JK(6D) 7D")], turn=0, phase="play"
    )
    error = refused(state, 0, play("KS KH KC", "9S 9H JK(9D)", exchanges=[(1, "6D")]), "opening_too_low")
    assert error.fields["points"] == 30


def test_r40_q9_a_joker_in_a_set_laid_with_four_cards_is_locked() -> None:
    state = position(
        R40,
        hands=["5C 9S 9H 2C", "4H 5H"],
        melds=[(1, "5S 5H 5D JK(5C)"), (0, "TS JS QS")],
        turn=0,
        phase="play",
        rest="drop",
    )
    refused(state, 0, play("9S 9H JK(9D)", exchanges=[(1, "5C")]), "bad_joker_exchange")


def test_r40_q10_a_set_joker_must_be_used_in_the_same_move() -> None:
    state = position(
        R40,
        hands=["3S 3D 9S 9H 2C", "4H 5H"],
        melds=[(1, "3H 3C JK"), (0, "TS JS QS")],
        turn=0,
        phase="play",
        rest="drop",
    )
    refused(state, 0, play(exchanges=[(1, "3S"), (1, "3D")]), "exchanged_joker_not_melded")
    new = apply_move(state, 0, play(exchanges=[(1, "3S"), (1, "3D")], layoffs=[(2, "JK(KS)")])).state
    assert table_cards(new, 2) == "TS JS QS JK(KS)"
    offered = [m for m in legal_moves(state, 0) if isinstance(m, Play) and m.exchanges]
    assert offered
    assert all(len(m.exchanges) == 2 for m in offered)


def test_r40_q14_a_joker_built_onto_a_run_must_say_which_end() -> None:
    state = position(R40, hands=["JK 2C 3C", "4H"], melds=[(0, "5H 6H 7H")], turn=0, phase="play")
    refused(state, 0, play(layoffs=[(1, "JK")]), "cannot_lay_off")
    new = apply_move(state, 0, play(layoffs=[(1, "JK(4H)")])).state
    assert table_cards(new, 1) == "JK(4H) 5H 6H 7H"


# --- the end of the game ------------------------------------------------------------------------------


def test_r40_q16_a_remik_may_build_onto_other_melds_in_the_winning_turn() -> None:
    hand = "9S TS JS 8H 8D 8C 2C 3C 4C KS KH KD 5D"
    state = position(
        R40, hands=[hand, "7C QD", "AS 2H"], melds=[(2, "5S 6S 7S")], stock="8S", turn=0, phase="draw"
    )
    state = run(
        state,
        (0, DrawStock()),
        (0, play("9S TS JS", "8H 8D 8C", "2C 3C 4C", "KS KH KD", layoffs=[(1, "8S")])),
    )
    assert faces(state.hands[0]) == ["5D"]
    state = apply_move(state, 0, discard("5D")).state
    lines = state.results[-1].lines
    assert [line.points for line in lines] == [0, 17 + 25, 13 + 25]
    assert lines[0].notes[0].startswith("Remik")


def test_r40_q4_q17_every_card_left_in_hand_counts_a_joker_always_15() -> None:
    state = position(
        R40,
        hands=["5D", "JK 7S 8S 9S", "AS AH AD"],
        melds=[(0, "2S JK(3S) 4S")],
        turn=0,
        phase="play",
    )
    state = apply_move(state, 0, discard("5D")).state
    assert points(state) == [0, 15 + 24, 33]


def test_r40_q11_one_game_is_one_round_and_its_ledger_is_in_the_results_and_the_views() -> None:
    rules = variant("remik40", stake=30, winner_share_3=80)
    state = position(
        rules, hands=["5D", "2C 3C", "KS KH KD QS QH"], melds=[(0, "2S 3S 4S")], turn=0, phase="play"
    )
    state = apply_move(state, 0, discard("5D")).state
    assert state.phase == "over"
    assert state.round_no == 1
    assert len(state.results) == 1
    # Pool 90: the winner 80% = 72, the one loser under 50 gets the other 18; the one at 50 nothing.
    assert [line.chips for line in state.results[-1].lines] == [72, 18, 0]
    assert points(state) == [0, 5, 50]
    again = state_from_json(json.loads(json.dumps(state_to_json(state))))
    assert [line.chips for line in again.results[-1].lines] == [72, 18, 0]
    view = view_for(state, 2)
    assert view["scores"]["rounds"][0]["lines"][1]["chips"] == 18
    assert view["prize_pool"] == {
        "stake": 30,
        "pool": 90,
        "winner_share": 80,
        "threshold": 50,
        "payouts": [72, 18, 0],
        "net": [42, -12, -30],
    }
    # Before the end the table shows its payout structure, with nothing paid yet.
    fresh = new_game(rules, 3, seed=9)
    assert view_for(fresh, None)["prize_pool"]["payouts"] is None


def test_r40_q12_rounding_remainders_go_to_the_winner() -> None:
    from games.engine.rummy.remik40 import split_pool

    for pool in range(0, 400, 7):
        for penalties in ([0, 10, 20, 30], [0, 10, 60, 20], [10, 0, 49, 50], [5, 60, 0]):
            for share in (75, 80, 99, 100):
                winner = penalties.index(0)
                payouts = split_pool(pool, winner=winner, penalties=penalties, winner_share=share)
                assert sum(payouts) == pool
                assert payouts[winner] * 100 >= pool * share
                losers = [p for s, p in enumerate(payouts) if s != winner and penalties[s] < 50]
                assert len(set(losers)) <= 1  # shared equally
                assert all(payouts[s] == 0 for s, p in enumerate(penalties) if s != winner and p >= 50)


# --- the search keeps to the meld rules -------------------------------------------------------------


@pytest.mark.parametrize(
    "hand",
    [
        "AS 2S 3S QS KS JK",
        "5H 6H 7H 8H 5S 5D JK",
        "7H 9H JK 7S 7D 7C",
        "AS AH AD 2S 3S JK",
        "QD KD AD JK 9C 9S",
        "4C 5C 6C 6S 6D 6H JK",
    ],
)
def test_r40_best_melds_lay_the_most_points_under_the_joker_limit(hand: str) -> None:
    cards = parse_cards(hand)
    melds, _ = R40.best_melds(cards)
    assert sum(R40.meld_points(m.cards) for m in melds) == brute_force_points(R40, cards)
    assert all(m.jokers <= 1 for m in melds)


_R40_TABLES = st.sampled_from([{}, {"low_ace_value": 1}, {"max_jokers_per_meld": 2}]).map(
    lambda options: variant("remik40", **options)
)


@given(_R40_TABLES.flatmap(lambda rules: st.tuples(st.just(rules), meldy_hands(rules, 4, 8))))
def test_r40_best_melds_match_a_brute_force_referee(case: tuple[Rules, tuple[Card, ...]]) -> None:
    rules, hand = case
    melds, leftover = rules.best_melds(hand)
    assert sum(rules.meld_points(m.cards) for m in melds) == brute_force_points(rules, hand)
    laid = Counter(c.id for m in melds for c in m.cards)
    assert laid + Counter(c.id for c in leftover) == Counter(c.id for c in hand)


@pytest.mark.parametrize("players", [2, 3])
def test_r40_q15_a_game_with_no_winner_names_no_winners(players: int) -> None:
    # docs/rules/remik40.md R40-Q15: the game ends without a winner and the pool goes back; the
    # match's winners (state, view, match_over) are empty, not every seat on its total of 0.
    state = position(
        R40,
        hands=["2C 3C", "4H 5H", "6D 7D"][:players],
        discard="KC",
        stock="",
        turn=0,
        phase="draw",
        rest="drop",
    )
    result = apply_move(state, 0, DrawStock())
    new = result.state
    assert new.phase == "over"
    assert new.winners == ()
    assert view_for(new, None)["winners"] == []
    assert view_for(new, 1)["winners"] == []
    over = next(e for e in result.events if e.kind == "match_over")
    assert over.data["winners"] == []
