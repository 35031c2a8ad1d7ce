"""Knock-108 (``docs/rules/knock108.md``): every derived example (the source gives no numeric
example for this variant, so there is no K108-EX) and the rules and decisions, each named after
its id.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.engine import (
    Discard,
    DrawStock,
    GameState,
    Knock,
    Pass,
    Play,
    TakeDiscard,
    apply_move,
    legal_moves,
    new_game,
    parse_card,
    parse_cards,
    position,
    variant,
    view_for,
)
from games.engine.knock108.rules import declaration, special_hand
from tests.engine.helpers import refused, run

# Hands that end the deal when the last card named is discarded.
KNOCK_4 = "2S 3S 4S 5H 6H 7H 9C 9D 9H 4C KD"  # loose 4C after discarding KD
GIN = "2S 3S 4S 5H 6H 7H 9C 9D 9H 9S KD"
FLUSH = "2H 5H 7H 9H JH KH 3H 8H QH AH 4C"
FIGURES = "JS QS KS AS JH QH KD AD AC JC 4C"
FULL_SEQUENCE = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH 4C"
# Ten cards each, loose points as noted.
LOOSE_17 = "7C QD 5S 5D 5C TC JC QC KC AC"
LOOSE_12 = "AS 2S 6D 7D 8D 9D TH TS TD TC"
LOOSE_14 = "AS 2S 2C 5H 6H 7H 8H 9C 9D 9H"
LOOSE_8 = "8C 4D 5D 6D 3H 3S 3C JS JH JD"
ALL_IN_MELDS = "3D 4D 5D 6D KS KH KC 8C 8S 8D"


def rules(**options: Any) -> Any:
    return variant("knock108", **options)


def table(
    hands: list[str],
    *,
    turn: int = 0,
    totals: list[int] | None = None,
    active: list[bool] | None = None,
    stock: str = "",
    discard: str = "",
    rest: str = "stock",
    **options: Any,
) -> GameState:
    """A position with ``turn`` to move after drawing (11 cards); the dealer is ``turn``."""
    state = position(
        rules(**options),
        hands=hands,
        turn=turn,
        phase="play",
        totals=totals,
        stock=stock,
        discard=discard,
        rest=rest,
        seed=1,
    )
    if active is not None:
        state = replace(state, cycle=replace(state.cycle, active=tuple(active)))
    return state


def knock(card: str | None = None) -> Knock:
    return Knock(parse_card(card) if card else None)


def everyone_passes(state: GameState) -> GameState:
    while state.cycle.stage == "exchange":
        state = apply_move(state, state.turn, Pass()).state
    return state


def chips(state: GameState) -> list[int]:
    return list(state.cycle.chips)


# --- K108-DX1..DX6 -------------------------------------------------------------------------------


def test_k108_dx1_knock_stakes_half_to_the_knocker_half_to_the_pool() -> None:
    state = table([KNOCK_4, LOOSE_17, LOOSE_12, ALL_IN_MELDS], stake=10)
    assert state.cycle.pool == 40  # four stakes before the first deal (K108-22)
    state = everyone_passes(apply_move(state, 0, knock("KD")).state)
    assert state.cycle.pool == 55
    # Each player paid 10 into the pool before the deal; in the deal P1 gains 15, the others lose 10.
    assert chips(state) == [-10 + 15, -10 - 10, -10 - 10, -10 - 10]
    kinds = [(e.kind, e.source, e.target, e.amount) for e in state.cycle.ledger if e.round == 1]
    assert ("knock", 1, 0, 5) in kinds
    assert ("knock", 1, "pool", 5) in kinds
    # The score lines carry each seat's chips of the deal (the first deal: with the entry stake).
    lines = state.results[-1].lines
    assert [line.chips for line in lines] == chips(state)
    assert "entry stake: 10 chips into the pool (K108-22)" in lines[1].notes


def test_k108_dx2_gin_one_stake_and_full_sequence_four_stakes_from_each_opponent() -> None:
    state = table([GIN, LOOSE_17, LOOSE_12, ALL_IN_MELDS], stake=10)
    state = apply_move(state, 0, knock("KD")).state
    assert chips(state)[0] == -10 + 30
    assert state.cycle.pool == 40
    state = table([FULL_SEQUENCE, LOOSE_17, LOOSE_12, ALL_IN_MELDS], stake=10, full_sequence=True)
    state = apply_move(state, 0, knock("4C")).state
    assert chips(state)[0] == -10 + 120
    assert chips(state)[1:] == [-50, -50, -50]


def test_k108_dx3_records_after_a_knock() -> None:
    r = rules()
    # The loose cards of the example, as the record counts them (K108-18, ace 10 by K108-Q4).
    assert r.hand_points("7C QD JK") == 37
    assert r.hand_points("AS 2S") == 12
    # In a dealt hand of ten a loose joker always joins one of the melds (a set of 3 takes it as
    # the fourth card, a run at one end), so P2's 7C QD JK cannot be left loose in a real deal:
    # here P2 holds 7C QD and two melds.
    state = table([KNOCK_4, LOOSE_17, LOOSE_12, ALL_IN_MELDS])
    state = everyone_passes(apply_move(state, 0, knock("KD")).state)
    lines = state.results[-1].lines
    assert [line.points for line in lines] == [4, 17, 12, 0]
    assert [line.hand for line in lines] == [4, 17, 12, 0]
    assert state.totals == (4, 17, 12, 0)


@pytest.mark.parametrize(
    ("hand", "discard", "options", "credit"),
    [
        (GIN, "KD", {}, 10),
        (FLUSH, "4C", {}, 25),
        (FIGURES, "4C", {}, 25),
        (FULL_SEQUENCE, "4C", {"full_sequence": True}, 40),
    ],
    ids=["gin", "flush", "figures", "full-sequence"],
)
def test_k108_dx4_credits_lower_the_declarers_record(
    hand: str, discard: str, options: dict[str, Any], credit: int
) -> None:
    state = table([hand, LOOSE_17, LOOSE_12], totals=[43, 0, 0], **options)
    state = apply_move(state, 0, knock(discard)).state
    assert state.totals[0] == 43 - credit
    line = state.results[-1].lines[0]
    assert (line.points, line.hand, line.bonus) == (-credit, 0, -credit)


def test_k108_dx5_buying_back_in_at_the_record_closest_to_100() -> None:
    # P2 (seat 1) knocks with 4; afterwards: P1 104, P2 60, P3 88, P4 97.
    state = table([LOOSE_14, KNOCK_4, LOOSE_8, ALL_IN_MELDS], turn=1, totals=[90, 56, 80, 97])
    state = everyone_passes(apply_move(state, 1, knock("KD")).state)
    assert state.results[-1].totals == (104, 60, 88, 97)
    assert state.cycle.active == (False, True, True, True)
    # The next deal starts with P1's decision (K108-Q14); the deal passed on to P3.
    assert (state.cycle.stage, state.turn, state.first) == ("buy_back", 0, 2)
    assert state.hands[0] == ()
    pool = state.cycle.pool
    state = apply_move(state, 0, Knock()).state
    assert state.totals[0] == 97
    assert state.cycle.pool == pool + 30
    assert state.cycle.chips[0] == -10 - 10 - 30
    assert state.cycle.active == (True, True, True, True)
    assert len(state.hands[0]) == 10
    assert (state.cycle.stage, state.turn, state.phase) == ("play", 2, "play")
    # The jump shows in the next deal's line, so the lines keep adding up to the records.
    state = replace(state, hands=(*state.hands[:2], parse_cards(GIN), state.hands[3]))
    state = apply_move(state, 2, knock("KD")).state
    line = state.results[-1].lines[0]
    assert line.points == state.totals[0] - 104
    assert "bought back in for 30 chips (3 stakes); record 104 -> 97 (K108-26)" in line.notes
    assert [sum(r.lines[s].points for r in state.results) for s in range(4)] == [
        t - start for t, start in zip(state.totals, (90, 56, 80, 97), strict=True)
    ]


def test_k108_dx6_the_last_player_in_wins_the_whole_pool() -> None:
    # P1 is already out (and stayed out); P3 and P4 go over 100 in this deal.
    state = table(
        ["", KNOCK_4, LOOSE_17, LOOSE_12],
        turn=1,
        totals=[120, 56, 95, 99],
        active=[False, True, True, True],
    )
    state = everyone_passes(apply_move(state, 1, knock("KD")).state)
    assert state.totals == (120, 60, 112, 111)
    assert state.phase == "over"
    assert state.winners == (1,)
    assert state.cycle.pool == 0
    # The pool: 4 entry stakes + the knock's half stakes into it, all to P2.
    assert chips(state)[1] == -10 + 10 + 40 + 10
    assert sum(chips(state)) == 0
    line = state.results[-1].lines[1]
    assert line.chips == chips(state)[1]
    assert "takes the pool: +50 chips (K108-28)" in line.notes


# --- cards, melds, values -------------------------------------------------------------------------


def test_k108_2_the_pack_is_two_decks_and_four_jokers() -> None:
    pack = rules().pack()
    assert len(pack) == 108
    assert sum(card.is_joker for card in pack) == 4


@pytest.mark.parametrize(
    ("cards", "loose"),
    [
        ("AH 2H 3H", 0),
        ("QH KH AH", 0),
        ("KH AH 2H", 22),  # no wrap-around
        ("JH QH KH AH 2H", 2),
    ],
)
def test_k108_q2_the_ace_is_low_or_high_but_runs_do_not_wrap(cards: str, loose: int) -> None:
    assert rules().hand_points(cards) == loose


def test_k108_q3_a_set_holds_three_or_four_cards_of_different_suits() -> None:
    r = rules()
    assert r.hand_points("7H 7S 7D") == 0
    assert r.hand_points("7H 7H 7S") == 21
    assert r.hand_points("7H 7S 7D 7C 7H") == 7


def test_k108_18_and_q4_loose_card_values() -> None:
    r = rules()
    assert [r.hand_value(c) for c in parse_cards("2C 9D TS JH QC KS AD JK")] == [2, 9, 10, 10, 10, 10, 10, 20]
    assert r.hand_points("9S TS JS 8H 8D 8C 2C 3C 4C KD") == 10  # cards in melds count 0


def test_k108_q5_joker_limits_remik_or_none() -> None:
    limited, free = rules(), rules(joker_limits="none")
    # AH JK JK: a set of 3 holds one joker, and A-2-3 or Q-K-A would put the jokers side by side.
    assert limited.hand_points("AH JK JK") == 50
    assert free.hand_points("AH JK JK") == 0
    # 5H JK JK 8H: the run needs the two jokers side by side; JK 8H JK leaves 5H.
    assert limited.hand_points("5H 8H JK JK") == 5
    assert free.hand_points("5H 8H JK JK") == 0


# --- the deal and the turn ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_k108_5_and_6_ten_cards_the_dealer_eleven_and_the_first_discard(players: int) -> None:
    state = new_game(rules(), players, seed=players)
    dealer = state.first
    assert [len(h) for h in state.hands] == [11 if s == dealer else 10 for s in range(players)]
    assert len(state.stock) == 108 - 10 * players - 1
    assert state.discard == ()
    assert (state.turn, state.phase) == (dealer, "play")
    refused(state, dealer, DrawStock(), "wrong_phase")  # no draw: the dealer discards first
    assert {type(m) for m in legal_moves(state, dealer)} <= {Discard, Knock}


def test_k108_q1_two_to_six_players() -> None:
    for count in (1, 7):
        with pytest.raises(ValueError, match="2 to 6"):
            new_game(rules(), count, seed=1)
    with pytest.raises(ValueError, match="2 to 4"):
        new_game(rules(max_players=4), 5, seed=1)


def test_k108_8_draw_or_take_then_discard() -> None:
    state = table([KNOCK_4, LOOSE_17, LOOSE_12])
    state = apply_move(state, 0, Discard(parse_card("KD"))).state
    assert (state.turn, state.phase) == (1, "draw")
    refused(state, 1, Discard(parse_card("7C")), "wrong_phase")
    after = apply_move(state, 1, TakeDiscard()).state
    assert parse_card("KD").same_face(after.hands[1][-1])
    assert after.phase == "play"


def test_k108_q18_only_the_top_card_and_not_discarded_in_the_same_turn() -> None:
    state = table([KNOCK_4, LOOSE_17, LOOSE_12], discard="2D")
    state = apply_move(state, 0, Discard(parse_card("KD"))).state
    refused(state, 1, TakeDiscard(parse_card("2D")), "cannot_take_discard")
    taken = apply_move(state, 1, TakeDiscard(parse_card("KD"))).state
    error = refused(taken, 1, Discard(parse_card("KD")), "discard_taken_card")
    assert error.rule == "K108-Q18"
    assert all(not (isinstance(m, Discard) and m.card.face == "KD") for m in legal_moves(taken, 1))
    # Nothing is laid with the take (K108-29).
    refused(state, 1, TakeDiscard(None, Play(melds=(parse_cards("5S 5H 5D"),))), "wrong_phase")


def test_k108_29_nothing_reaches_the_table_during_play() -> None:
    state = table([KNOCK_4, LOOSE_17, LOOSE_12])
    refused(state, 0, Play(melds=(parse_cards("2S 3S 4S"),)), "wrong_phase")
    refused(state, 0, Pass(), "wrong_phase")


# --- knocking, gin and the special hands ------------------------------------------------------------


def test_k108_14_knock_with_at_most_five_loose_points() -> None:
    state = table(["2S 3S 4S 5H 6H 7H 9C 9D 9H 6C KD", LOOSE_17, LOOSE_12])
    error = refused(state, 0, knock("KD"), "knock_too_high")
    assert error.rule == "K108-14"
    state = table([KNOCK_4, LOOSE_17, LOOSE_12])
    after = apply_move(state, 0, knock("KD")).state
    assert after.cycle.stage == "exchange"
    assert after.cycle.knock.points == 4


def test_k108_14_a_knock_without_a_card_discards_the_best_card() -> None:
    state = table([KNOCK_4, LOOSE_17, LOOSE_12])
    after = apply_move(state, 0, Knock()).state
    assert after.discard[-1].face == "KD"
    assert after.cycle.knock.points == 4


def test_k108_14_the_knockers_melds_go_on_the_table_and_may_be_named() -> None:
    state = table([KNOCK_4, LOOSE_17, LOOSE_12])
    named = Knock(parse_card("KD"), (parse_cards("2S 3S 4S"), parse_cards("9C 9D 9H")))
    after = apply_move(state, 0, named).state
    assert sorted(" ".join(sorted(c.face for c in m.cards)) for m in after.melds) == [
        "2S 3S 4S",
        "5H 6H 7H",
        "9C 9D 9H",
    ]
    assert [c.face for c in after.hands[0]] == ["4C"]
    view = view_for(after, 1)
    assert view["knock"]["loose"] == ["4C"]
    refused(state, 0, Knock(parse_card("KD"), (parse_cards("2S 3S 5H"),)), "not_a_meld")
    refused(state, 0, Knock(parse_card("KD"), (parse_cards("2S 3S KD"),)), "card_not_in_hand")


def test_k108_q7_the_dealer_may_end_the_deal_with_the_first_discard() -> None:
    state = position(rules(), hands=[GIN, LOOSE_17, LOOSE_12], turn=0, phase="play", seed=1)
    assert state.discard == ()
    after = apply_move(state, 0, knock("KD")).state
    assert after.results[-1].lines[0].bonus == -10


def test_k108_q7_the_best_result_applies() -> None:
    r = rules(full_sequence=True)
    # A ten-card run of one suit is also a flush and gin: the full sequence wins.
    result = declaration(r, parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH"))
    assert result is not None
    assert result.kind == "full_sequence"
    # Without the option it is a flush (better than gin).
    result = declaration(rules(), parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH"))
    assert result is not None
    assert result.kind == "flush"
    # Figures that are also gin score as figures.
    result = declaration(r, parse_cards("JS JH JD QS QH QD KS KH KD AS"))
    assert result is not None
    assert (result.kind, result.credit) == ("figures", 25)


def test_k108_12_and_q6_special_hands_with_jokers() -> None:
    r = rules()
    assert special_hand(r, parse_cards("2H 5H 7H 9H JH KH 3H JK 8H JK")) == "flush"
    assert special_hand(r, parse_cards("JS QS KS AS JH JK KD AD AC JK")) == "figures"
    assert special_hand(r, parse_cards("JS QS KS AS JH TH KD AD AC JC")) is None
    assert special_hand(r, parse_cards("2H 5H 7H 9H JH KH 3H 4H 8H")) is None  # nine cards


def test_k108_13_the_full_sequence_is_a_table_option() -> None:
    on = rules(full_sequence=True)
    assert special_hand(on, parse_cards("5S 6S 7S 8S 9S TS JS QS KS AS")) == "full_sequence"
    assert special_hand(on, parse_cards("AS 2S 3S 4S 5S 6S JK 8S 9S TS")) == "full_sequence"
    assert special_hand(on, parse_cards("5S 6S 7S 8S 9S TS JS QS KS 2S")) == "flush"  # K-A-2 is no run
    assert special_hand(on, parse_cards("5S JK JK 8S 9S TS JS QS KS AS")) == "flush"  # jokers side by side
    assert special_hand(rules(), parse_cards("5S 6S 7S 8S 9S TS JS QS KS AS")) == "flush"
    free = rules(full_sequence=True, joker_limits="none")
    assert special_hand(free, parse_cards("5S JK JK 8S 9S TS JS QS KS AS")) == "full_sequence"


def test_k108_17_and_q8_no_extra_exchange_after_gin_or_a_special_hand() -> None:
    for hand, card, options in (
        (GIN, "KD", {}),
        (FLUSH, "4C", {}),
        (FIGURES, "4C", {}),
        (FULL_SEQUENCE, "4C", {"full_sequence": True}),
    ):
        state = table([hand, LOOSE_17, LOOSE_12], **options)
        after = apply_move(state, 0, knock(card)).state
        assert len(after.results) == 1, hand
        assert after.cycle.stage == "play"
        assert after.round_no == 2


def test_k108_q9_stakes_for_a_flush_or_figures_are_a_table_option() -> None:
    for stakes, gain in ((1, 20), (0, 0), (3, 60)):
        state = table([FLUSH, LOOSE_17, LOOSE_12], special_hand_stakes=stakes)
        after = apply_move(state, 0, knock("4C")).state
        assert chips(after)[0] == -10 + gain


# --- the extra exchange -----------------------------------------------------------------------------


def test_k108_15_16_and_q12_the_extra_exchange_goes_round_from_the_knockers_left() -> None:
    state = table([LOOSE_17, LOOSE_12, KNOCK_4, ALL_IN_MELDS], turn=2)
    state = apply_move(state, 2, knock("KD")).state
    assert (state.turn, state.phase, state.cycle.stage) == (3, "draw", "exchange")
    refused(state, 3, Knock(), "wrong_phase")
    refused(state, 3, Play(melds=(parse_cards("3D 4D 5D"),)), "wrong_phase")  # no lay-offs (K108-15)
    # Seat 3 takes the knocker's discard and may not throw it straight back.
    taken = apply_move(state, 3, TakeDiscard()).state
    refused(taken, 3, Discard(parse_card("KD")), "discard_taken_card")
    refused(taken, 3, Pass(), "wrong_phase")
    state = apply_move(taken, 3, Discard(parse_card("8C"))).state
    assert (state.turn, state.discard[-1].face) == (0, "8C")
    # Seat 0 draws from the stock and discards; seat 1 declines.
    state = run(state, (0, DrawStock()))
    state = run(state, (0, Discard(state.hands[0][-1])))
    assert state.turn == 1
    state = apply_move(state, 1, Pass()).state
    assert len(state.results) == 1
    # Seat 3 took KD into KS KH KC KD and threw 8C: 8S 8D are loose now.
    assert state.results[-1].lines[3].hand == 16


def test_k108_q11_an_opponent_below_the_knocker_gets_no_bonus() -> None:
    state = table([KNOCK_4, ALL_IN_MELDS, LOOSE_12])
    state = everyone_passes(apply_move(state, 0, knock("KD")).state)
    lines = state.results[-1].lines
    assert [line.points for line in lines] == [4, 0, 12]
    assert [line.bonus for line in lines] == [0, 0, 0]


def test_an_opponent_holding_a_special_hand_at_the_end_has_nothing_loose_and_no_credit() -> None:
    state = table([KNOCK_4, "2H 5H 7H 9H JH KH 3H 8H QH AH", LOOSE_12])
    state = everyone_passes(apply_move(state, 0, knock("KD")).state)
    line = state.results[-1].lines[1]
    assert (line.points, line.hand, line.bonus) == (0, 0, 0)
    assert chips(state)[1] == -10 - 10


# --- records, elimination, buy-back, the end ----------------------------------------------------------


def test_k108_19_and_20_each_record_adds_the_points_lost() -> None:
    state = table([KNOCK_4, LOOSE_17, LOOSE_12], totals=[10, 20, 30])
    state = everyone_passes(apply_move(state, 0, knock("KD")).state)
    assert state.totals == (14, 37, 42)
    assert sum(line.points for line in state.results[-1].lines) == 4 + 17 + 12


def test_k108_q13_exactly_100_stays_in_over_100_is_out() -> None:
    state = table([KNOCK_4, LOOSE_17, LOOSE_12], totals=[0, 83, 89])
    state = everyone_passes(apply_move(state, 0, knock("KD")).state)
    assert state.totals == (4, 100, 101)
    assert state.cycle.active == (True, True, False)
    assert "over 100: out of the game (K108-25)" in state.results[-1].lines[2].notes


def test_k108_q14_nobody_left_the_lowest_record_of_the_deal_wins() -> None:
    state = table([KNOCK_4, LOOSE_17], totals=[98, 90])
    state = everyone_passes(apply_move(state, 0, knock("KD")).state)
    assert state.totals == (102, 107)
    assert (state.phase, state.winners) == ("over", (0,))


def test_k108_q14_ties_split_the_pool() -> None:
    state = table([KNOCK_4, LOOSE_12], totals=[100, 92])
    state = everyone_passes(apply_move(state, 0, knock("KD")).state)
    assert state.totals == (104, 104)
    assert state.winners == (0, 1)
    # Pool: 2 stakes + the knock's half stake = 25: 13 and 12 (the odd chip to the first seat).
    assert chips(state) == [-10 + 5 + 13, -10 - 10 + 12]


def test_k108_q14_a_player_who_is_out_may_stay_out_and_is_asked_again() -> None:
    state = table(
        ["", KNOCK_4, LOOSE_17, LOOSE_12], turn=1, active=[False, True, True, True], totals=[105, 0, 0, 0]
    )
    state = everyone_passes(apply_move(state, 1, knock("KD")).state)
    assert (state.cycle.stage, state.turn) == ("buy_back", 0)
    assert state.cycle.knock is None
    view = view_for(state, 0)
    assert view["you"]["buy_back"] == {"cost": 30, "record": 17, "rule": "K108-26"}
    assert legal_moves(state, 0) == [Knock(), Pass()]
    refused(state, 0, DrawStock(), "wrong_phase")
    refused(state, 0, Knock(parse_card("2C")), "wrong_phase")
    state = apply_move(state, 0, Pass()).state
    assert state.cycle.active[0] is False
    assert (state.cycle.stage, state.turn) == ("play", state.first)


def test_k108_27_a_player_may_buy_back_in_again() -> None:
    state = table(
        ["", KNOCK_4, LOOSE_17, LOOSE_12], turn=1, active=[False, True, True, True], totals=[105, 0, 0, 0]
    )
    state = replace(state, cycle=replace(state.cycle, buy_backs=(1, 0, 0, 0)))
    state = everyone_passes(apply_move(state, 1, knock("KD")).state)
    state = apply_move(state, 0, Knock()).state
    assert state.totals[0] == 17  # the highest record of those in: P3's 17
    assert state.cycle.buy_backs == (2, 0, 0, 0)


def test_k108_q15_the_deal_passes_to_the_next_player_in() -> None:
    state = table(["", KNOCK_4, LOOSE_17, LOOSE_12], turn=1, active=[False, True, True, True])
    state = everyone_passes(apply_move(state, 1, knock("KD")).state)
    # Seat 0 is out and decides first; the deal went from seat 1 to seat 2.
    assert state.first == 2


def test_k108_q16_two_cards_left_the_deal_is_void() -> None:
    state = table([LOOSE_17, LOOSE_12, ALL_IN_MELDS], turn=0, stock="2C 3C 4C", rest="drop", totals=[5, 6, 7])
    state = replace(state, phase="draw")
    pool = state.cycle.pool
    state = apply_move(state, 0, DrawStock()).state
    assert len(state.stock) == 2
    # The player whose draw left two cards may still end the deal; discarding voids it.
    after = apply_move(state, 0, Discard(parse_card("2C"))).state
    result = after.results[-1]
    assert (result.ended, result.winner) == ("void", None)
    assert [line.points for line in result.lines] == [0, 0, 0]
    assert after.totals == (5, 6, 7)
    assert after.cycle.pool == pool
    assert (after.round_no, after.first) == (2, 0)  # the same dealer deals again


def test_k108_q17_a_record_may_go_below_zero() -> None:
    state = table([GIN, LOOSE_17, LOOSE_12])
    state = apply_move(state, 0, knock("KD")).state
    assert state.totals[0] == -10


def test_k108_q19_the_stake_is_even() -> None:
    with pytest.raises(ValueError, match="even"):
        rules(stake=5)
    assert rules(stake=2).options["stake"] == 2


def test_the_score_lines_tell_the_chips() -> None:
    state = table([KNOCK_4, LOOSE_17, LOOSE_12], stake=20)
    state = everyone_passes(apply_move(state, 0, knock("KD")).state)
    notes = [line.notes for line in state.results[-1].lines]
    assert "chips +20 (10 from each of 2, K108-23)" in notes[0]
    assert "chips -20 (10 to P1, 10 to the pool, K108-23)" in notes[1]


def test_k108_q16_a_match_ended_by_its_round_limit_after_void_deals_only_has_no_winner() -> None:
    # docs/engine.md "Round limit": the deal of the day plays one deal (rounds=1). When every deal
    # of the match was void (K108-Q16) nobody won: no winners, and each stake goes back from the pool.
    state = table(
        [LOOSE_17, LOOSE_12, ALL_IN_MELDS], turn=0, stock="2C 3C 4C", rest="drop", stake=10, rounds=1
    )
    state = replace(state, phase="draw")
    assert state.cycle.pool == 30
    assert chips(state) == [-10, -10, -10]
    state = apply_move(state, 0, DrawStock()).state
    result = apply_move(state, 0, Discard(parse_card("2C")))
    after = result.state
    assert after.phase == "over"
    assert after.winners == ()
    over = next(e for e in result.events if e.kind == "match_over")
    assert over.data["winners"] == []
    assert view_for(after, None)["winners"] == []
    assert after.cycle.pool == 0
    assert chips(after) == [0, 0, 0]
    assert [line.chips for line in after.results[-1].lines] == [0, 0, 0]


def test_k108_14_moves_offer_a_knock_only_when_a_knock_is_possible() -> None:
    # docs/protocol.md: ``you.moves`` are the kinds of move one may send now. Issue 32: the view
    # listed "knock" while ``you.knock`` was null, and the knock was then refused.
    state = table([LOOSE_17 + " KD", LOOSE_12, ALL_IN_MELDS])
    you = view_for(state, 0)["you"]
    assert you["knock"] is None
    assert you["moves"] == ["discard"]
    assert not [m for m in legal_moves(state, 0) if isinstance(m, Knock)]
    state = table([KNOCK_4, LOOSE_12, ALL_IN_MELDS])
    you = view_for(state, 0)["you"]
    assert you["moves"] == ["discard", "knock"]
    assert you["knock"] is not None
    apply_move(state, 0, knock(you["knock"]["card"].split("#")[0]))
