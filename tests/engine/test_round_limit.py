"""The round limit (the ``rounds`` option, docs/engine.md "Round limit"): every variant ends its
match after that many rounds, the last one scored and no next round dealt.

Each variant plays whole rounds with bots in every seat; the move that ends the limit's last round
must say ``round_over`` then ``match_over`` and nothing after (no ``round_started``), and leave the
state over in that round (no second deal). Then the families' own match ends: gin and Oklahoma
settle no game (no game bonus) when the limit ends the match before a game is won, Knock-108 gives
the pool to the players still in with the lowest record, Remik 40's prize pool is its round's.
"""

from __future__ import annotations

import pytest

from games.engine import (
    GameState,
    Transition,
    apply_move,
    new_game,
    state_from_json,
    state_to_json,
    variant,
    variant_names,
    view_for,
)
from games.engine.bots import choose_move
from games.engine.rules import Rules

#: A round of bots ends well within this many moves.
MOVE_CAP = 5_000

SEATS = {"gin": 2, "oklahoma": 2}


def play_to_limit(rules: Rules, players: int, seed: str) -> tuple[GameState, Transition]:
    """Bots play the match from its first deal; returns the state before and the transition of the
    move that ended it."""
    state = new_game(rules, players, seed=seed)
    for _ in range(MOVE_CAP):
        move = choose_move(view_for(state, state.turn))
        transition = apply_move(state, state.turn, move)
        if transition.state.phase == "over":
            return state, transition
        state = transition.state
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("name", sorted(variant_names()))
@pytest.mark.parametrize("limit", [1, 2])
def test_rounds_limit_ends_the_match_after_its_last_round_with_no_next_deal(name: str, limit: int) -> None:
    rules = variant(name, rounds=limit)
    players = SEATS.get(name, 3)
    for seed in range(3):
        before, transition = play_to_limit(rules, players, f"limit-{name}-{seed}")
        state = transition.state
        kinds = [event.kind for event in transition.events]
        assert "round_started" not in kinds
        assert kinds[-1] == "match_over"
        assert kinds.index("round_over") < kinds.index("match_over")
        # Remik 40 (one round, R40-Q11) and a game won in the round may end a match earlier.
        assert len(state.results) <= limit
        assert state.round_no == before.round_no == len(state.results)
        if len(state.results) == limit and name != "remik40":
            assert transition.events[-1].data.get("round_limit") == limit
        assert state.phase == "over"
        assert state.winners
        # The finished match stores and loads as it is (the option travels with the state).
        assert state_from_json(state_to_json(state)) == state
        assert state_to_json(state)["rules"]["options"]["rounds"] == limit


def test_rounds_1_the_winners_are_the_best_totals_of_the_one_round() -> None:
    for name in ("remik51", "remi", "rummy500"):
        rules = variant(name, rounds=1)
        _, transition = play_to_limit(rules, 3, f"best-{name}")
        state = transition.state
        best = (min if rules.lower_wins else max)(state.totals)
        assert state.winners == tuple(seat for seat, total in enumerate(state.totals) if total == best)
        assert state.totals == state.results[0].totals


@pytest.mark.parametrize("name", ["gin", "oklahoma"])
def test_gin_24_the_round_limit_settles_no_game_before_the_target(name: str) -> None:
    rules = variant(name, rounds=1, target=10_000)
    _, transition = play_to_limit(rules, 2, f"settle-{name}")
    state = transition.state
    over = transition.events[-1]
    assert over.kind == "match_over"
    assert "settlement" not in over.data  # no game won: no game bonus, no deal bonus
    view = view_for(state, 0)
    assert view["gin"]["settlement"] is None
    assert not any("game bonus" in note for line in state.results[0].lines for note in line.notes)
    best = max(state.totals)
    assert state.winners == tuple(seat for seat, total in enumerate(state.totals) if total == best)


def test_gin_23_a_game_won_in_the_limits_last_round_is_settled_as_usual() -> None:
    # A target of 10 is reached by the first deal with a winner: the game is settled (GIN-24).
    rules = variant("gin", rounds=5, target=10)
    _, transition = play_to_limit(rules, 2, "settle-gin-target")
    over = transition.events[-1]
    assert over.data.get("settlement") is not None
    assert "round_limit" not in over.data


def test_k108_q14_the_round_limit_gives_the_pool_to_the_lowest_record_still_in() -> None:
    rules = variant("knock108", rounds=1)
    _, transition = play_to_limit(rules, 3, "pool-knock108")
    state = transition.state
    over = transition.events[-1]
    pool = over.data["pool"]
    assert pool > 0
    lowest = min(state.totals)
    assert state.winners == tuple(seat for seat, total in enumerate(state.totals) if total == lowest)
    taken = [line.chips or 0 for line in state.results[-1].lines]
    notes = [" ".join(line.notes) for line in state.results[-1].lines]
    for seat in state.winners:
        assert "takes the pool" in notes[seat]
    assert sum(taken[seat] for seat in state.winners) >= pool // len(state.winners) * len(state.winners)


def test_every_variant_takes_the_rounds_option_and_only_remi_offers_it_on_the_forms() -> None:
    for name in variant_names():
        rules = variant(name)
        assert rules.options["rounds"] is None
        assert rules.round_limit is None
        offered = [spec["name"] for spec in type(rules).option_specs()]
        assert ("rounds" in offered) == (name == "remi"), name
        with pytest.raises(ValueError, match="rounds must be at least 1"):
            variant(name, rounds=0)


def test_a_state_stored_without_the_rounds_option_loads_with_no_limit() -> None:
    for name in variant_names():
        document = state_to_json(new_game(variant(name), 2, seed=4))
        # Written only where the forms offer it (Remi) or where it is set.
        assert ("rounds" in document["rules"]["options"]) == (name == "remi")
        document["rules"]["options"].pop("rounds", None)
        state = state_from_json(document)
        assert state.rules.round_limit is None
        assert state == new_game(variant(name), 2, seed=4)
