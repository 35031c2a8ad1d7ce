"""Oklahoma worked examples (``docs/rules/oklahoma.md``, worked examples): OKL-EX1, OKL-DX1 and OKL-DX2.

Each deal is set up on the match state the engine carries (totals, deals won, the three columns)
with the example's up-card, which sets the knock limit and the doubling, and is played through
``apply_move``: the knock (or gin) and the defender's reply.
"""

from __future__ import annotations

import pytest

from games.engine import GameState, Knock, Pass, apply_move, new_game, parse_card, variant, view_for
from games.engine.positions import gin_position
from tests.engine.helpers import refused
from tests.engine.test_gin_examples import deal_hands, knock_deal, points

A, B = 0, 1

EX1_DEALS = [
    # (up-card, limit, factor, knocker, knocker's loose, defender's loose, deal score A-B, columns)
    ("6H", 6, 1, A, 4, 22, (18, 0), (1,)),
    ("8D", 8, 1, A, 2, 8, (6, 0), (1, 2)),
    ("JC", 10, 1, A, 8, 19, (11, 0), (1, 2, 3)),
    ("4D", 4, 1, A, 2, 1, (0, 26), (1,)),
    ("7S", 7, 2, B, 7, 16, (0, 18), (1, 2)),
    ("8H", 8, 1, B, 0, 17, (0, 42), (1, 2, 3)),
    ("AC", 0, 1, A, 0, 23, (48, 0), (1, 2, 3)),
]

#: Running totals after each deal: (column 1 A-B, column 2 A-B, column 3 A-B).
EX1_COLUMNS = [
    ((18, 0), (0, 0), (0, 0)),
    ((24, 0), (6, 0), (0, 0)),
    ((35, 0), (17, 0), (11, 0)),
    ((35, 26), (17, 0), (11, 0)),
    ((35, 44), (17, 18), (11, 0)),
    ((35, 86), (17, 60), (11, 42)),
    ((83, 86), (65, 60), (59, 42)),
]


def columns(state: GameState) -> tuple[tuple[int, int], ...]:
    return tuple((c.scores[0], c.scores[1]) for c in state.cycle.columns)


def play_ex1(target: int = 150) -> list[GameState]:
    state = new_game(variant("oklahoma", target=target), ["A", "B"], seed="okl-ex1", first=A)
    states = [state]
    for upcard, limit, factor, knocker, knock, defend, _, _ in EX1_DEALS:
        ten, discard, other = deal_hands(knock, defend, upcard)
        hands = [[*ten, discard], other] if knocker == A else [other, [*ten, discard]]
        position = gin_position(
            state.rules, hands=hands, discard=upcard, turn=knocker, phase="play", base=state
        )
        assert (position.cycle.limit, position.cycle.factor) == (limit, factor)
        knocked = apply_move(position, knocker, Knock(parse_card(discard))).state
        state = apply_move(knocked, 1 - knocker, Pass()).state
        states.append(state)
    return states


def test_okl_ex1_seven_deals_fill_the_three_columns_as_the_source_says() -> None:
    states = play_ex1()
    for deal, (after, row, expected) in enumerate(zip(states[1:], EX1_DEALS, EX1_COLUMNS, strict=True), 1):
        assert tuple(points(after)) == row[6], f"deal {deal}"
        assert columns(after) == expected, f"deal {deal}"
        winner = A if row[6][0] else B
        notes = after.results[-1].lines[winner].notes
        listed = ", ".join(str(c) for c in row[7])
        assert any(f"entered in column(s) {listed}" in note for note in notes), (deal, notes)
    final = states[-1]
    # "In the first column B leads, in the other two A" (the source's missing table, OKL-EX1).
    assert columns(final) == ((83, 86), (65, 60), (59, 42))
    assert final.totals == (83, 86)
    assert final.phase != "over"  # with a target of 150 no column is finished
    assert [c.winner for c in final.cycle.columns] == [None, None, None]
    view = view_for(final, A)
    assert [c["scores"] for c in view["gin"]["columns"]] == [[83, 86], [65, 60], [59, 42]]


def test_okl_ex1_the_spade_up_card_doubles_the_whole_deal_score() -> None:
    fifth = play_ex1()[5]
    line = fifth.results[-1].lines[B]
    assert (line.points, line.multiplier, line.hand, line.bonus) == (18, 2, 7, 0)  # (16 - 7) x 2
    assert any("spade" in note for note in line.notes)


def test_okl_ex1_an_undercut_is_one_plus_25() -> None:
    fourth = play_ex1()[4]
    line = fourth.results[-1].lines[B]
    assert (line.points, line.bonus) == (26, 25)


def test_okl_dx1_the_up_card_sets_the_knock_limit() -> None:
    rules = variant("oklahoma")
    assert [rules.knock_limit(parse_card(c)) for c in ("4D", "KH", "TS", "9C", "2H", "AS")] == [
        4,
        10,
        10,
        9,
        2,
        0,
    ]
    # Up-card 4D: knocking with 4 is legal, with 5 it is not.
    for knock, legal in ((4, True), (5, False)):
        ten, discard, other = deal_hands(knock, 30, "4D")
        state = gin_position(rules, hands=[[*ten, discard], other], discard="4D", turn=A, phase="play")
        if legal:
            assert apply_move(state, A, Knock(parse_card(discard))).state.cycle.step == "reply"
        else:
            assert refused(state, A, Knock(parse_card(discard)), "knock_too_high").rule == "OKL-2"
    # Up-card KH: 10.
    ten, discard, other = deal_hands(10, 30, "KH")
    state = gin_position(rules, hands=[[*ten, discard], other], discard="KH", turn=A, phase="play")
    assert state.cycle.limit == 10
    assert apply_move(state, A, Knock(parse_card(discard))).state.cycle.knock.points == 10


def test_okl_dx1_an_ace_up_card_allows_only_gin_and_a_spade_ace_doubles_it_to_84() -> None:
    rules = variant("oklahoma")
    ten, discard, other = deal_hands(1, 30, "AS")
    state = gin_position(rules, hands=[[*ten, discard], other], discard="AS", turn=A, phase="play")
    error = refused(state, A, Knock(parse_card(discard)), "knock_too_high")
    assert "gin" in str(error)
    assert state.cycle.factor == 2
    # Gin against 17 with the AS turned up: (17 + 25) x 2.
    state = knock_deal(new_game(rules, ["A", "B"], seed=1, first=A), A, 0, 17, upcard="AS")
    line = state.results[-1].lines[A]
    assert (line.points, line.bonus, line.multiplier) == (84, 25, 2)


def test_okl_dx2_with_target_80_column_one_closes_after_deal_six_and_settles_151_for_b() -> None:
    states = play_ex1(target=80)
    sixth, seventh = states[6], states[7]
    assert columns(sixth) == ((35, 86), (17, 60), (11, 42))
    assert [c.winner for c in sixth.cycle.columns] == [B, None, None]
    # Deal 7 (A's 4th win, 48) goes into columns 2 and 3 only.
    assert columns(seventh) == ((35, 86), (65, 60), (59, 42))
    assert [c.deals for c in seventh.cycle.columns] == [(3, 3), (3, 2), (2, 1)]
    notes = seventh.results[-1].lines[A].notes
    assert any("entered in column(s) 2, 3" in note for note in notes)
    # Column 1 settled as a gin game: 86 + 100 + 25 x (3 - 3) - 35 = 151 for B.
    column = view_for(seventh, None)["gin"]["columns"][0]
    assert column["result"] == {"winner": B, "points": 151}
    assert seventh.phase != "over"


def test_okl_the_game_ends_when_the_third_column_closes_and_is_settled_over_all_three() -> None:
    states = play_ex1(target=80)
    state = states[-1]
    # A's 5th win of 40 closes columns 2 and 3 (105-60, 99-42).
    state = knock_deal(state, A, 2, 42, upcard="QD")
    assert state.phase == "over"
    assert [c.winner for c in state.cycle.columns] == [B, A, A]
    settlement = state.cycle.settlement
    results = [c["points"] for c in settlement["columns"]]
    # Column 2: 105 + 100 + 25 x (4 - 2) - 60 = 195; column 3: 99 + 100 + 25 x (3 - 1) - 42 = 207.
    assert results == [151, 195, 207]
    assert settlement["net"] == [195 + 207 - 151, 151 - 195 - 207]
    assert state.winners == (A,)


@pytest.mark.parametrize("target", [150, 200])
def test_okl_usual_targets_are_options(target: int) -> None:
    rules = variant("oklahoma", target=target)
    assert rules.options["target"] == target
    assert variant("oklahoma").options["target"] == 150
