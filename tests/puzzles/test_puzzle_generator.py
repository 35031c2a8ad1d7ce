"""The puzzle generator and checker (games/learn/puzzles.py): pure, on the engine only, no database."""

from __future__ import annotations

import itertools
import json

import pytest

from games import engine
from games.engine import analysis
from games.learn import puzzles

SAMPLE = 24
OPENING_KINDS = ("opening", "joker")


@pytest.fixture(scope="module")
def sample() -> list[puzzles.Puzzle]:
    return list(itertools.islice(puzzles.generate("sample", kinds=OPENING_KINDS), SAMPLE))


def test_every_generated_answer_is_what_the_engine_accepts(sample: list[puzzles.Puzzle]) -> None:
    for puzzle in sample:
        result = puzzles.check(puzzle.state, puzzle.seat, puzzle.kind, puzzle.answer)
        assert result["correct"], (puzzle.key, result)
        after = engine.apply_move(puzzle.state, puzzle.seat, engine.move_from_json(puzzle.answer)).state
        assert engine.opened_seats(after)[puzzle.seat]
        assert not engine.opened_seats(puzzle.state)[puzzle.seat]
        assert puzzle.state.phase == "play"
        assert puzzle.state.turn == puzzle.seat
        if puzzle.kind == "joker":
            assert puzzle.answer.get("exchanges")


def test_no_generated_opening_is_trivially_open(sample: list[puzzles.Puzzle]) -> None:
    assert sample
    assert all(not puzzles.trivially_open(p.state, p.seat) for p in sample)


def test_the_generator_is_deterministic_from_its_seed(sample: list[puzzles.Puzzle]) -> None:
    again = list(itertools.islice(puzzles.generate("sample", kinds=OPENING_KINDS), 8))
    assert [(p.key, p.answer, p.source) for p in again] == [(p.key, p.answer, p.source) for p in sample[:8]]
    other = list(itertools.islice(puzzles.generate("another seed", kinds=OPENING_KINDS), 8))
    assert {p.key for p in other}.isdisjoint({p.key for p in sample})


def test_the_sample_covers_every_opening_variant(sample: list[puzzles.Puzzle]) -> None:
    assert {(p.variant, p.state.rules.options.get("opening")) for p in sample} >= {
        ("remik51", None),
        ("remik40", None),
        ("remi", "45"),
        ("remi", "51"),
    }


def _remik51_position(hand: str) -> engine.GameState:
    return engine.position(
        engine.variant("remik51"),
        hands=[hand, "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"],
        turn=0,
        phase="play",
    )


def test_r51_31_a_hand_whose_sorted_runs_open_is_trivial() -> None:
    # "Sort: runs" puts 9S-TS-JS-QS-KS and 8H-9H-TH apart: laid as they stand they make 76 with a pure run.
    state = _remik51_position("9S TS JS QS KS 8H 9H TH 2D 5C 7D 3H 4S 6D 2H")
    assert puzzles.trivially_open(state, 0)
    assert puzzles.find_opening(state, 0) is None


def test_r51_31_a_hand_that_needs_a_card_moved_between_melds_is_kept() -> None:
    # The runs sort shows QH-KH-AH (36 with the ace high) and 2S-3S-4S...; the 51 needs the three
    # queens as a set beside the pure run 9S-TS-JS (the sorted order puts QS with the spades).
    state = _remik51_position("9S TS JS QS QH QD 2C 5D 7C 8H 3D 4C 6H KD 2H")
    assert not puzzles.trivially_open(state, 0)
    answer = puzzles.find_opening(state, 0)
    assert answer is not None
    assert puzzles.check(state, 0, "opening", answer)["code"] == "solved"


def test_r51_31_wrong_answers_get_stable_codes() -> None:
    state = _remik51_position("9S TS JS QS QH QD 2C 5D 7C 8H 3D 4C 6H KD 2H")
    low = puzzles.check(state, 0, "opening", {"kind": "play", "melds": [["9S", "TS", "JS"]]})
    assert (low["correct"], low["code"]) == (False, "opening_too_low")
    no_run = puzzles.check(state, 0, "opening", {"kind": "play", "melds": [["QS", "QH", "QD"]]})
    assert no_run["code"] == "opening_needs_run"
    discard = puzzles.check(state, 0, "opening", {"kind": "discard", "card": "2C"})
    assert discard["code"] == "not_an_opening"
    assert puzzles.check(state, 0, "opening", {"kind": "fly"})["code"] == "malformed_move"
    assert puzzles.check(state, 0, "opening", "nonsense")["code"] == "malformed_move"
    other = puzzles.check(state, 0, "opening", {"kind": "play", "melds": [["2C", "3C", "4C"]]})
    assert other["correct"] is False
    assert other["code"] == "card_not_in_hand"


def test_r51_27_the_joker_kind_wants_the_buy_back_in_the_same_move() -> None:
    rules = engine.variant("remik51")
    state = engine.position(
        rules,
        hands=["9S TS JS QS QH QD 7C 8H 3D 4C 6H KD 2H 5D", "2C 3C"],
        melds=[(1, "4H 5H JK")],
        opened=[False, True],
        turn=0,
        phase="play",
    )
    answer = puzzles.find_joker(state, 0)
    assert answer is not None
    assert answer["exchanges"]
    assert puzzles.check(state, 0, "joker", answer)["code"] == "solved"
    plain = {"kind": "play", "melds": [["9S", "TS", "JS"], ["QS", "QH", "QD"]]}
    assert puzzles.check(state, 0, "opening", plain)["code"] == "solved"
    assert puzzles.check(state, 0, "joker", plain)["code"] == "no_joker_bought"


def test_r51_28_the_explanation_counts_the_opening_points() -> None:
    state = _remik51_position("9S TS JS QS QH QD 2C 5D 7C 8H 3D 4C 6H KD 2H")
    result = puzzles.check(
        state, 0, "opening", {"kind": "play", "melds": [["9S", "TS", "JS"], ["QS", "QH", "QD"]]}
    )
    assert result["explanation"]["points"] == 59  # 9 + 10 + 10, and 3 x 10
    assert result["explanation"]["required_points"] == 51
    assert [m["points"] for m in result["explanation"]["melds"]] == [29, 30]


@pytest.fixture(scope="module")
def knock() -> puzzles.Puzzle:
    # Game 4 of the seed "t1" is a gin game (SOURCES[4]) whose first seat to knock gives a puzzle.
    found = list(puzzles.game_puzzles("t1", 4, kinds=("knock",)))
    assert found
    return found[0]


def test_gin_15_a_knock_puzzle_keeps_only_a_clear_choice_of_the_evaluator(knock: puzzles.Puzzle) -> None:
    figures = knock.explanation
    assert knock.variant in {"gin", "oklahoma"}
    assert next(a["choice"] for a in figures["alternatives"]) == puzzles.choice_of(
        engine.move_from_json(knock.answer)
    )
    assert figures["margin"] >= puzzles.KNOCK_MARGIN
    assert figures["margin"] >= 2 * figures["error"]
    assert figures["samples"] == puzzles.KNOCK_SAMPLES
    view = engine.view_for(knock.state, knock.seat)
    assert view["you"]["knock_discards"]
    assert view["you"]["deadwood"] > 0


def test_gin_15_the_knock_puzzles_answer_is_checked_by_the_choice(knock: puzzles.Puzzle) -> None:
    answer = engine.move_from_json(knock.answer)
    assert puzzles.check(knock.state, knock.seat, "knock", knock.answer, knock.answer)["code"] == "solved"
    card = answer.card if isinstance(answer, (engine.Knock, engine.Discard)) else None
    assert card is not None
    other = (
        {"kind": "discard", "card": str(card)}
        if isinstance(answer, engine.Knock)
        else {"kind": "knock", "card": str(card)}
    )
    assert puzzles.check(knock.state, knock.seat, "knock", other, knock.answer)["code"] == "wrong_choice"


def test_the_knock_evaluation_is_deterministic(knock: puzzles.Puzzle) -> None:
    again = puzzles.find_knock(knock.state, knock.seat)
    assert again == (knock.answer, knock.explanation)


@pytest.fixture(scope="module")
def discard() -> puzzles.Puzzle:
    # Game 16 of the seed "y" is a gin game (SOURCES[4]) with a best-discard position.
    found = list(puzzles.game_puzzles("y", 16, kinds=("discard",)))
    assert found
    return found[0]


def test_gin_9_a_discard_puzzle_keeps_only_a_clear_best_of_the_hard_bots_discards(
    discard: puzzles.Puzzle,
) -> None:
    figures = discard.explanation
    assert discard.variant in {"gin", "oklahoma"}
    view = engine.view_for(discard.state, discard.seat)
    assert view["you"]["moves"] == ["discard"]  # no knock: that is the knock kind's question
    # The alternatives are the hard bot's best discards, one per face, the stored answer first.
    candidates = puzzles.discard_candidates(discard.state, discard.seat)
    assert [a["card"] for a in figures["alternatives"]] != []
    assert {a["card"] for a in figures["alternatives"]} == {m.card.face for m in candidates}
    assert figures["top"] == len(candidates) == puzzles.DISCARD_TOP
    assert figures["alternatives"][0]["move"] == discard.answer
    points = [a["points"] for a in figures["alternatives"]]
    assert points == sorted(points, reverse=True)
    assert figures["margin"] == pytest.approx(points[0] - points[1], abs=0.01)
    assert figures["margin"] >= puzzles.DISCARD_MARGIN == figures["required_margin"]
    assert figures["margin"] >= 2 * figures["error"]
    assert figures["samples"] == puzzles.DISCARD_SAMPLES


def test_gin_9_the_stored_best_discard_is_what_the_engine_says(discard: puzzles.Puzzle) -> None:
    # The position as the site stores it (its JSON), evaluated again: the same best discard and
    # the same figures (the deals are seeded by the position's key).
    stored = engine.state_from_json(json.loads(json.dumps(engine.state_to_json(discard.state))))
    assert puzzles.find_discard(stored, discard.seat) == (discard.answer, discard.explanation)
    # The same candidates evaluated on other deals (another seed) still put the answer first.
    again = analysis.evaluate(
        stored,
        discard.seat,
        puzzles.discard_candidates(stored, discard.seat),
        samples=puzzles.DISCARD_SAMPLES,
        seed="another deal of the unseen cards",
    )
    assert again.best.move == engine.move_from_json(discard.answer)


def test_gin_9_the_discard_puzzles_answer_is_checked_by_the_card(discard: puzzles.Puzzle) -> None:
    state, seat = discard.state, discard.seat
    assert puzzles.check(state, seat, "discard", discard.answer, discard.answer)["code"] == "solved"
    others = [a["move"] for a in discard.explanation["alternatives"][1:]]
    for other in others:
        wrong = puzzles.check(state, seat, "discard", other, discard.answer)
        assert (wrong["correct"], wrong["code"]) == (False, "wrong_choice")
    considered = {a["card"] for a in discard.explanation["alternatives"]}
    rest = next(c for c in state.hands[seat] if c.face not in considered)
    outside = puzzles.check(state, seat, "discard", {"kind": "discard", "card": str(rest)}, discard.answer)
    assert outside["code"] == "wrong_choice"
    knock = puzzles.check(state, seat, "discard", {"kind": "knock", "card": str(rest)}, discard.answer)
    assert knock["correct"] is False
    assert knock["code"] not in {"solved", "wrong_choice"}  # the engine refuses a knock here


def test_a_discard_is_the_same_decision_whichever_copy_of_the_card() -> None:
    # Two decks (Remik 51): 7H#1 and 7H#2 are one answer, as for the evaluator's move_key.
    state = _remik51_position("7H#1 7H#2 9S TS 2C 5D 7C 8H 3D 4C 6H KD 2H QS QH")
    expected = {"kind": "discard", "card": "7H#1"}
    twin = puzzles.check(state, 0, "discard", {"kind": "discard", "card": "7H#2"}, expected)
    assert twin["code"] == "solved"
    other = puzzles.check(state, 0, "discard", {"kind": "discard", "card": "8H"}, expected)
    assert other["code"] == "wrong_choice"
