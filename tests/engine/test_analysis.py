"""The decision evaluator (games/engine/analysis.py): sampled playouts, seeded, from one view."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    Discard,
    GameState,
    TakeDiscard,
    apply_move,
    new_game,
    parse_card,
    position,
    variant,
    view_for,
)
from games.engine.analysis import alternatives, determinize, evaluate, move_key


def planted_rummy500() -> GameState:
    """Rummy 500, seat 0 to discard; the opponent holds one card and has 7H 8H 9H on the table.
    Discarding TH lets it take the ten, lay it off (R500-9, taken_card_layoff) and go out at once."""
    return position(
        variant("rummy500"),
        hands=["TH 3S 4D KD QC 9C 5S", "2C"],
        melds=[(1, "7H 8H 9H")],
        discard="6C",
        turn=0,
        phase="play",
    )


def test_discarding_the_card_that_completes_the_opponents_meld_costs_the_whole_hand() -> None:
    state = planted_rummy500()
    result = evaluate(state, 0, samples=6, seed="planted")
    ten = Discard(parse_card("TH"))
    # Every sample: the opponent takes the ten, lays it off and goes out. The seat's margin is then
    # known exactly: its six cards left against the opponent's table.
    points = result.points_of(ten)
    assert points is not None
    found = next(a for a in result.alternatives if move_key(a.move) == move_key(ten))
    assert len(set(found.margins)) == 1  # the same in every sample: no luck left in it
    assert result.alternatives[-1].move == found.move  # the worst of all
    loss = result.loss(ten)
    assert loss is not None
    assert loss >= 50
    assert move_key(result.best.move) != move_key(ten)


def test_the_same_seed_gives_the_same_figures() -> None:
    state = planted_rummy500()
    first = evaluate(state, 0, samples=3, seed=7)
    assert evaluate(state, 0, samples=3, seed=7) == first


def test_the_figures_depend_on_the_view_only_not_on_where_the_hidden_cards_are() -> None:
    state = planted_rummy500()
    # The same position with the hidden cards (the opponent's hand and the stock) dealt again.
    other = determinize(state, 0, random.Random(99))
    assert (other.hands[1], other.stock) != (state.hands[1], state.stock)
    assert view_for(other, 0) == {**view_for(state, 0), "commitment": view_for(other, 0)["commitment"]}
    assert (
        evaluate(other, 0, samples=3, seed=5).alternatives
        == evaluate(state, 0, samples=3, seed=5).alternatives
    )


def test_a_sample_keeps_the_seats_hand_the_sizes_and_every_card() -> None:
    state = planted_rummy500()
    world = determinize(state, 0, random.Random(1))
    assert world.hands[0] == state.hands[0]
    assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
    assert len(world.stock) == len(state.stock)
    before = sorted(c.id for h in state.hands for c in h) + sorted(c.id for c in state.stock)
    after = sorted(c.id for h in world.hands for c in h) + sorted(c.id for c in world.stock)
    assert sorted(before) == sorted(after)
    assert world.secret != state.secret


def test_gin_keeps_the_up_card_the_opponent_took_in_its_hand() -> None:
    state = new_game(variant("gin"), players=2, seed=3)
    up = state.discard[-1]
    taker = state.turn
    state = apply_move(state, taker, TakeDiscard(up)).state
    # The taker discards another card (the up-card may not go straight back, GIN-Q5); now the
    # other seat knows where the up-card is.
    other_card = next(card for card in state.hands[taker] if card != up)
    state = apply_move(state, taker, Discard(other_card)).state
    seat = 1 - taker
    for number in range(5):
        world = determinize(state, seat, random.Random(number))
        assert up in world.hands[taker]


def test_the_alternatives_hold_every_discard_once_per_face_and_the_other_way_to_draw() -> None:
    state = planted_rummy500()
    moves = alternatives(state, 0)
    discards = {m.card.face for m in moves if isinstance(m, Discard)}
    assert discards == {"TH", "3S", "4D", "KD", "QC", "9C", "5S"}
    gin = new_game(variant("gin"), players=2, seed=3)
    kinds = {type(m).__name__ for m in alternatives(gin, gin.turn)}
    assert kinds == {"Pass", "TakeDiscard"}


def test_only_the_seat_to_move_is_evaluated() -> None:
    state = planted_rummy500()
    with pytest.raises(ValueError, match="not the one to move"):
        evaluate(state, 1, samples=1)
    with pytest.raises(ValueError, match="no legal move"):
        evaluate(state, 0, [Discard(parse_card("AS"))], samples=1)


def test_an_alternative_that_ends_the_round_is_scored_on_that_round() -> None:
    # Seat 0 holds its last card: discarding it goes out (Rummy 500), the round ends at once.
    # No stock: the opponent's three cards are all the seat has not seen, so every sample deals
    # them the same hand, and the round's score is known.
    state = position(
        variant("rummy500"),
        hands=["4D", "2C 9S KD"],
        melds=[(0, "7H 8H 9H")],
        discard="6C",
        turn=0,
        phase="play",
        rest="drop",
    )
    out = Discard(parse_card("4D"))
    ended = apply_move(state, 0, out).state
    line = {x.seat: x.points for x in ended.results[-1].lines}
    result = evaluate(state, 0, [out], samples=3, seed=1)
    assert result.best.margins == (line[0] - line[1],) * 3


def test_a_knockers_shown_cards_stay_in_its_hand_in_every_sample() -> None:
    from games.engine.bots import choose_move
    from games.engine.gin.state import GinState

    state = new_game(variant("gin"), players=2, seed=5)
    while not (isinstance(state.cycle, GinState) and state.cycle.step == "reply"):
        state = apply_move(state, state.turn, choose_move(view_for(state, state.turn))).state
    assert isinstance(state.cycle, GinState)
    knock = state.cycle.knock
    assert knock is not None
    defender = state.turn
    for number in range(4):
        world = determinize(state, defender, random.Random(number))
        # The knocker's melds are on the table and its loose cards shown: nothing of it is unseen.
        assert world.hands[knock.seat] == state.hands[knock.seat]
