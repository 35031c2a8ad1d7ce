"""Gin's rules of play, rule by rule (``docs/rules/gin.md`` with its open questions' decisions):
the deal and the up-card offer, the turn, the knock, the defender's reply, void deals, the views.
"""

from __future__ import annotations

import json

import pytest

from games.engine import (
    Discard,
    DrawStock,
    Knock,
    LayOff,
    Pass,
    Play,
    TakeDiscard,
    apply_move,
    legal_moves,
    new_game,
    parse_card,
    parse_cards,
    state_from_json,
    state_to_json,
    variant,
    verify_deal,
    view_for,
)
from games.engine.deal import deal_cards, deal_seed
from games.engine.errors import DiscardTakenCardError, InvalidMeldError, KnockTooHighError
from games.engine.moves import move_from_json, move_to_json
from games.engine.positions import gin_position
from games.engine.tools.cli import gin_lines
from tests.engine.helpers import faces, refused

GIN = variant("gin")
A, B = 0, 1


def test_error_codes_of_the_gin_family_are_pinned() -> None:
    assert KnockTooHighError.code == "knock_too_high"
    assert DiscardTakenCardError.code == "discard_taken_card"


def test_gin_is_for_two_players_with_one_deck_and_ten_cards() -> None:
    # GIN-1, GIN-2, GIN-6, GIN-7.
    with pytest.raises(ValueError, match="2 to 2 players"):
        new_game(GIN, 3, seed=1)
    state = new_game(GIN, ["Ala", "Bartek"], seed=1)
    assert [len(h) for h in state.hands] == [10, 10]
    assert len(state.discard) == 1
    assert len(state.stock) == 31
    assert len(GIN.pack()) == 52
    assert not any(card.is_joker for card in GIN.pack())
    assert str(state.cycle.upcard) == str(state.discard[0])


def test_the_deal_can_be_verified_from_the_revealed_seed() -> None:
    state = new_game(GIN, 2, seed="verify me")
    report = verify_deal(GIN, 2, deal_seed(state.secret, 1), state.first, hands=state.hands)
    assert report["ok"]
    assert report["hands_ok"]


@pytest.mark.parametrize("name", ["gin", "oklahoma"])
def test_every_deal_is_the_shared_deal_cards_of_its_seed(name: str) -> None:
    # The flow deals by slicing the shuffled pack; it must be exactly turn.deal_cards' deal.
    rules = variant(name)
    for seed in range(12):
        state = new_game(rules, 2, seed=seed, first=seed % 2)
        for _ in range(3):
            hands, _, rest = deal_cards(rules, 2, deal_seed(state.secret, state.round_no), state.first)
            assert state.hands == hands
            assert (state.discard, state.stock) == (rest[:1], rest[1:])
            deals = len(state.results)
            while len(state.results) == deals:  # draw and discard the first card until it is void
                state = apply_move(
                    state,
                    state.turn,
                    legal_moves(state, state.turn)[-1 if state.cycle.step == "offer" else 0],
                ).state


def test_the_up_card_is_offered_to_the_non_dealer_then_the_dealer_then_the_non_dealer_draws() -> None:
    # GIN-7, GIN-8 with GIN-Q4.
    state = new_game(GIN, 2, seed=7)
    first, dealer = state.first, 1 - state.first
    assert (state.turn, state.phase, state.cycle.step) == (first, "draw", "offer")
    assert legal_moves(state, first) == [TakeDiscard(state.discard[-1]), Pass()]
    refused(state, first, DrawStock(), "wrong_phase")
    refused(state, first, Discard(state.hands[first][0]), "wrong_phase")
    state = apply_move(state, first, Pass()).state
    assert (state.turn, state.cycle.step) == (dealer, "offer")
    state = apply_move(state, dealer, Pass()).state
    assert (state.turn, state.phase, state.cycle.step) == (first, "draw", "turn")
    # The declined up-card cannot be taken now: the non-dealer draws from the stock.
    assert legal_moves(state, first) == [DrawStock()]
    refused(state, first, TakeDiscard(), "cannot_take_discard")
    state = apply_move(state, first, DrawStock()).state
    assert len(state.hands[first]) == 11
    card = state.hands[first][0]
    state = apply_move(state, first, Discard(card)).state
    assert (state.turn, state.phase) == (dealer, "draw")
    # Now the top card (the non-dealer's discard) may be taken as usual.
    assert TakeDiscard(card) in legal_moves(state, dealer)


def test_a_non_dealer_who_takes_the_up_card_discards_and_the_dealer_plays_next() -> None:
    state = new_game(GIN, 2, seed=8)
    first, dealer = state.first, 1 - state.first
    up = state.discard[-1]
    state = apply_move(state, first, TakeDiscard()).state
    assert up in state.hands[first]
    assert (state.turn, state.phase) == (first, "play")
    state = apply_move(state, first, Discard(state.hands[first][0])).state
    assert (state.turn, state.phase) == (dealer, "draw")


def test_the_dealer_may_take_the_up_card_the_non_dealer_declined_then_the_non_dealer_plays() -> None:
    state = new_game(GIN, 2, seed=9)
    first, dealer = state.first, 1 - state.first
    state = apply_move(state, first, Pass()).state
    state = apply_move(state, dealer, TakeDiscard(state.discard[-1])).state
    assert len(state.hands[dealer]) == 11
    state = apply_move(state, dealer, Discard(state.hands[dealer][0])).state
    assert (state.turn, state.phase, state.cycle.stock_only) == (first, "draw", False)
    assert len(legal_moves(state, first)) == 2


def test_a_taken_card_may_not_be_melded_with_the_take() -> None:
    # GIN-26: nothing is laid during play.
    state = new_game(GIN, 2, seed=9)
    take = TakeDiscard(None, Play(melds=(parse_cards("2S 3S 4S"),)))
    refused(state, state.turn, take, "wrong_phase")


def test_only_the_top_face_up_card_may_be_taken() -> None:
    state = gin_position(GIN, hands=["2S 3S", "4S 5S"], discard="9H TD", turn=A, phase="draw")
    refused(state, A, TakeDiscard(parse_card("9H")), "cannot_take_discard")
    assert apply_move(state, A, TakeDiscard(parse_card("TD"))).state.hands[A][-1].face == "TD"


def test_the_card_just_taken_may_not_be_discarded_or_knocked_with() -> None:
    # GIN-Q5.
    state = gin_position(
        GIN, hands=["2S 3S 4S 6H 7H 8H 9C 9D KC QC", "5D 6D"], discard="KD", turn=A, phase="draw"
    )
    state = apply_move(state, A, TakeDiscard()).state
    assert str(state.cycle.taken) == "KD#1"
    error = refused(state, A, Discard(parse_card("KD")), "discard_taken_card")
    assert error.rule == "GIN-Q5"
    refused(state, A, Knock(parse_card("KD")), "discard_taken_card")
    assert Discard(parse_card("KD")) not in [
        Discard(parse_card(str(m.card).split("#")[0]))
        for m in legal_moves(state, A)
        if isinstance(m, Discard)
    ]
    assert apply_move(state, A, Discard(parse_card("KC"))).state.cycle.taken is None


def test_moves_out_of_their_step_are_refused_with_wrong_phase() -> None:
    state = gin_position(GIN, hands=["2S 3S 4S", "4D 5D"], discard="KD", stock="7C 8C 9C", turn=A)
    for move in (
        Discard(parse_card("2S")),
        Knock(parse_card("2S")),
        Pass(),
        Play(melds=(parse_cards("2S 3S 4S"),)),
    ):
        refused(state, A, move, "wrong_phase")
    drawn = apply_move(state, A, DrawStock()).state
    for move in (DrawStock(), TakeDiscard(), Pass(), Play(melds=(parse_cards("2S 3S 4S"),))):
        refused(drawn, A, move, "wrong_phase")
    refused(drawn, B, Discard(parse_card("4D")), "not_your_turn")


def test_a_draw_is_private_and_a_take_is_public() -> None:
    state = gin_position(GIN, hands=["2S 3S", "4D 5D"], discard="KD", stock="7C 8C 9C", turn=A)
    events = apply_move(state, A, DrawStock()).events
    public = [e for e in events if e.to is None]
    private = [e for e in events if e.to == A]
    assert all("7C" not in json.dumps(e.to_json()) for e in public)
    assert [e.data["card"] for e in private] == ["7C#1"]
    events = apply_move(state, A, TakeDiscard()).events
    assert [e.to for e in events] == [None]


# --- the knock -----------------------------------------------------------------------------------------


KNOCK_HANDS = ["7H 8H 9H TH JC JD JS AC 2D 3C KD", "2H 3H 4H 5H QD QC QH QS 9C KS"]


def test_the_engine_lays_the_best_arrangement_when_the_knocker_gives_none() -> None:
    state = gin_position(GIN, hands=KNOCK_HANDS, discard="6C", turn=A, phase="play")
    knocked = apply_move(state, A, Knock(parse_card("KD"))).state
    assert sorted(" ".join(faces(m.cards)) for m in knocked.melds) == ["7H 8H 9H TH", "JC JD JS"]
    assert faces(knocked.hands[A]) == faces(parse_cards("AC 2D 3C"))
    assert knocked.cycle.knock.to_json() | {"best": 0} == {
        "seat": A,
        "discard": "KD#1",
        "points": 6,
        "gin": False,
        "melds": [1, 2],
        "best": 0,
    }
    assert (knocked.turn, knocked.phase, knocked.cycle.step) == (B, "play", "reply")
    assert knocked.discard[-1].face == "KD"


def test_the_knocker_may_lay_an_arrangement_of_their_own() -> None:
    # GIN-Q8: the knocker chooses. 7H-9H and TH kept loose: 6 + 10 = 16 > 10 is refused...
    state = gin_position(GIN, hands=KNOCK_HANDS, discard="6C", turn=A, phase="play")
    worse = (parse_cards("7H 8H 9H"), parse_cards("JC JD JS"))
    refused(state, A, Knock(parse_card("KD"), worse), "knock_too_high")
    # ... while 7H-TH laid by hand is the same as the engine's.
    mine = (parse_cards("7H 8H 9H TH"), parse_cards("JS JD JC"))
    knocked = apply_move(state, A, Knock(parse_card("KD"), mine)).state
    assert knocked.cycle.knock.points == 6
    refused(state, A, Knock(parse_card("KD"), (parse_cards("TH 9H 8H"),)), "not_consecutive")
    refused(
        state,
        A,
        Knock(parse_card("KD"), (parse_cards("7H 8H 9H TH"), parse_cards("TH JC JD"))),
        {"card_not_in_hand", "not_a_meld"},
    )


def test_a_knock_without_a_card_discards_the_card_that_leaves_the_least_deadwood() -> None:
    state = gin_position(GIN, hands=KNOCK_HANDS, discard="6C", turn=A, phase="play")
    knocked = apply_move(state, A, Knock()).state
    assert knocked.cycle.knock.discard == "KD#1"


def test_legal_moves_list_every_discard_and_every_knocking_discard() -> None:
    state = gin_position(GIN, hands=KNOCK_HANDS, discard="6C", turn=A, phase="play")
    moves = legal_moves(state, A)
    assert [m for m in moves if isinstance(m, Discard)] == [Discard(c) for c in state.hands[A]]
    knocks = {str(m.card) for m in moves if isinstance(m, Knock)}
    # KD (6), AC (5+... no: 2D 3C KD = 15 > 10), ... the ones within 10:
    expected = {
        str(c) for c in state.hands[A] if GIN.hand_points([x for x in state.hands[A] if x != c]) <= 10
    }
    assert knocks == expected
    assert "KD#1" in knocks


def test_a_knock_with_no_loose_card_is_gin_and_takes_no_lay_offs() -> None:
    # GIN-20, GIN-21, GIN-Q7.
    state = gin_position(
        GIN,
        hands=["7H 8H 9H TH JC JD JS 2C 3C 4C KD", "6H JH 5C 9S 9D QS QD 2S 3S 4D"],
        discard="6C",
        turn=A,
        phase="play",
    )
    knocked = apply_move(state, A, Knock(parse_card("KD"))).state
    assert knocked.cycle.knock.gin is True
    assert knocked.hands[A] == ()
    run = next(m.id for m in knocked.melds if m.cards[0].face == "7H")
    error = refused(knocked, B, Play(layoffs=(LayOff(run, parse_cards("6H")),)), "cannot_lay_off")
    assert error.rule == "GIN-21"
    # The defender still melds their own cards: 2S 3S 4S... no 4S: none here; all loose count.
    done = apply_move(knocked, B, Pass()).state
    result = done.results[-1]
    defender = GIN.hand_points("6H JH 5C 9S 9D QS QD 2S 3S 4D")
    assert [line.points for line in result.lines] == [defender + 25, 0]
    assert result.lines[A].bonus == 25
    assert any("gin" in note for note in result.lines[A].notes)


def test_the_defender_is_never_counted_above_their_optimum() -> None:
    # GIN-Q8: B's best is the run 7C-TC (9D 9S loose) and 6H laid off: 34. B lays the nines
    # 9C 9D 9S by hand instead, which leaves 7C 8C TC loose: 41 as laid, counted 34.
    state = gin_position(
        GIN,
        hands=["7H 8H 9H TH JC JD JS AC 2D 3D KD", "6H 7C 8C 9C TC 9D 9S 2S 4S KS"],
        discard="KC",
        turn=A,
        phase="play",
    )
    knocked = apply_move(state, A, Knock(parse_card("KD"))).state
    assert knocked.cycle.knock.points == 6
    poor = apply_move(knocked, B, Play(melds=(parse_cards("9C 9D 9S"),))).state
    assert poor.cycle.step == "reply"
    done = apply_move(poor, B, Pass()).state
    line = done.results[-1].lines[B]
    assert GIN.hand_points("7C 8C 9C TC 9D 9S 2S 4S KS") == 34  # 6H laid off onto 7H-TH
    assert line.hand == 34
    assert faces(done.results[-1].hands[B]) == faces(parse_cards("7C 8C TC 2S 4S KS"))  # as laid: 41
    assert any("GIN-Q8" in note for note in line.notes)


def test_the_reply_ends_at_once_when_the_defender_lays_every_card() -> None:
    state = gin_position(
        GIN,
        hands=["7H 8H 9H TH JC JD JS AC 2D 3D KD", "6H 7C 8C 9C 2S 3S 4S 5S QD QS"],
        discard="KC",
        turn=A,
        phase="play",
    )
    knocked = apply_move(state, A, Knock(parse_card("KD"))).state
    run = next(m.id for m in knocked.melds if m.cards[0].face == "7H")
    jacks = next(m.id for m in knocked.melds if m.cards[0].rank == "J")
    refused(knocked, B, Play(layoffs=(LayOff(jacks, parse_cards("QD")),)), "cannot_lay_off")
    play = Play(
        melds=(parse_cards("7C 8C 9C"), parse_cards("2S 3S 4S 5S")),
        layoffs=(LayOff(run, parse_cards("6H")),),
    )
    # QD QS are left, so it continues; laying everything would end the deal.
    after = apply_move(knocked, B, play).state
    assert after.cycle.step == "reply"
    assert faces(after.hands[B]) == ["QD", "QS"]
    done = apply_move(after, B, Pass()).state
    assert [line.hand for line in done.results[-1].lines] == [6, 20]
    assert [line.points for line in done.results[-1].lines] == [14, 0]


def test_legal_moves_in_the_reply_are_accepted_and_start_with_pass() -> None:
    state = gin_position(GIN, hands=KNOCK_HANDS, discard="6C", turn=A, phase="play")
    knocked = apply_move(state, A, Knock(parse_card("KD"))).state
    moves = legal_moves(knocked, B)
    assert moves[0] == Pass()
    for move in moves:
        apply_move(knocked, B, move)


# --- the end of a deal -----------------------------------------------------------------------------------


def test_a_discard_leaving_two_cards_in_the_stock_voids_the_deal_and_the_dealer_deals_again() -> None:
    # GIN-22 with GIN-Q6: the player whose draw leaves two cards may still knock.
    state = gin_position(
        GIN,
        hands=["7H 8H 9H TH JC JD JS AC 2D 3C", "2H 3H 4H 5H QD QC QH QS 9C KS"],
        discard="6C",
        stock="KD 4S 5S",
        turn=A,
        dealer=B,
        rest="drop",
    )
    drawn = apply_move(state, A, DrawStock()).state
    assert len(drawn.stock) == 2
    assert any(isinstance(m, Knock) for m in legal_moves(drawn, A))  # still allowed
    transition = apply_move(drawn, A, Discard(parse_card("KD")))
    after = transition.state
    result = after.results[-1]
    assert (result.ended, result.winner) == ("void", None)
    assert [line.points for line in result.lines] == [0, 0]
    assert after.totals == (0, 0)
    assert after.round_no == 2
    assert after.first == state.first  # the same dealer deals again
    assert [e.kind for e in transition.events][-2:] == ["round_over", "round_started"]


def test_the_winner_of_a_deal_deals_the_next() -> None:
    state = gin_position(GIN, hands=KNOCK_HANDS, discard="6C", turn=A, phase="play", dealer=A)
    knocked = apply_move(state, A, Knock(parse_card("KD"))).state
    done = apply_move(knocked, B, Pass()).state
    assert done.results[-1].winner == A
    assert (done.first + 1) % 2 == A  # A deals, so B is offered the up-card first
    assert (done.turn, done.cycle.step) == (B, "offer")


def test_the_game_ends_when_a_score_reaches_the_target() -> None:
    rules = variant("gin", target=10)
    state = gin_position(rules, hands=KNOCK_HANDS, discard="6C", turn=A, phase="play")
    knocked = apply_move(state, A, Knock(parse_card("KD"))).state
    done = apply_move(knocked, B, Pass()).state
    assert done.phase == "over"
    assert done.winners == (A,)
    assert legal_moves(done, done.turn) == []
    refused(done, done.turn, Pass(), "game_over")
    settlement = done.cycle.settlement
    assert settlement["points"] == done.totals[A] + 100 + 25 - 0


# --- views ---------------------------------------------------------------------------------------------


def test_views_carry_the_gin_block_and_hide_the_other_hand_and_the_defenders_optimum() -> None:
    state = gin_position(GIN, hands=KNOCK_HANDS, discard="6C", turn=A, phase="play")
    knocked = apply_move(state, A, Knock(parse_card("KD"))).state
    for seat in (None, A, B):
        view = view_for(knocked, seat)
        block = view["gin"]
        assert block["step"] == "reply"
        assert block["knock"]["deadwood"] == [str(c) for c in knocked.hands[A]]
        assert "best" not in block["knock"]
        text = json.dumps(view)
        for card in knocked.hands[B]:
            if seat != B:
                assert str(card) not in text
    you = view_for(knocked, B)["you"]
    assert you["moves"] == ["play", "pass"]
    assert you["deadwood"] == GIN.hand_points(knocked.hands[B])


def test_the_you_block_tells_the_seat_its_deadwood_and_knocking_discards() -> None:
    state = gin_position(GIN, hands=KNOCK_HANDS, discard="6C", turn=A, phase="play")
    you = view_for(state, A)["you"]
    assert you["my_turn"]
    assert you["moves"] == ["discard", "knock"]
    assert you["deadwood"] == 6
    assert "KD#1" in you["knock_discards"]
    assert sorted(" ".join(faces(m)) for m in you["best_melds"]) == ["7H 8H 9H TH", "JC JD JS"]
    other = view_for(state, B)["you"]
    assert not other["my_turn"]
    assert other["knock_discards"] == []


def test_the_terminal_shows_the_deal_the_knock_and_the_scores() -> None:
    state = gin_position(GIN, hands=KNOCK_HANDS, discard="6C", turn=A, phase="play")
    knocked = apply_move(state, A, Knock(parse_card("KD"))).state
    lines = gin_lines(view_for(knocked, B))
    assert any(line.startswith("Deal   : up-card 6C, knock with up to 10") for line in lines)
    assert any("knocked with 6; loose cards: AC 2D 3C" in line for line in lines)
    assert any(line.startswith("Reply  :") for line in lines)


def test_states_and_moves_of_every_step_round_trip_through_json() -> None:
    state = gin_position(GIN, hands=KNOCK_HANDS, discard="6C", turn=A, phase="play")
    mine = (parse_cards("7H 8H 9H TH"), parse_cards("JC JD JS"))
    knocked = apply_move(state, A, Knock(parse_card("KD"), mine)).state
    for one in (state, knocked):
        again = state_from_json(json.loads(json.dumps(state_to_json(one))))
        assert again == one
    for move in (Pass(), Knock(parse_card("KD")), Knock(None, (parse_cards("7H 8H 9H"),)), TakeDiscard()):
        assert move_from_json(json.loads(json.dumps(move_to_json(move)))) == move


def test_rules_helpers_hand_points_best_melds_meld_points() -> None:
    assert GIN.hand_points("AD 2D 3D 6C 7C 8C 9C KS KH 5H") == 25
    assert GIN.meld_points("6C 7C 8C 9C") == 30
    melds, loose = GIN.best_melds("AD 2D 3D 6C 7C 8C 9C KS KH 5H")
    assert [str(m) for m in melds] == ["AD 2D 3D", "6C 7C 8C 9C"]
    assert faces(loose) == ["5H", "KH", "KS"]
    assert not GIN.lower_wins
    assert "Gin" in GIN.describe()


@pytest.mark.parametrize("name", ["gin", "oklahoma"])
def test_gin_2_there_are_no_jokers_a_meld_or_move_naming_one_is_refused(name: str) -> None:
    rules = variant(name)
    with pytest.raises(InvalidMeldError) as info:
        rules.meld_points("JK 2S 3S")
    assert (info.value.code, info.value.rule) == ("no_jokers", "GIN-2")
    state = gin_position(
        rules, hands=["AD 2D 3D 6C 7C 8C 9C KS KH KD 5H", "2S 3S"], discard="QH", turn=A, phase="play"
    )
    refused(state, A, Discard(parse_card("JK")), "no_jokers")
    refused(state, A, Knock(parse_card("5H"), (parse_cards("AD 2D JK"),)), "no_jokers")
    refused(state, A, Knock(parse_card("JK")), "no_jokers")
