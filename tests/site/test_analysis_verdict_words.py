"""What a player reads about a decision the analysis could not settle, or a joker thrown away
(issue 37; docs/learn.md, "Analysis of a round"): never "Good" without the evidence, always the
loss with its error ("about 12 points lost (± 3)")."""

from __future__ import annotations

from django.utils import translation

from games.engine import Discard, apply_move, parse_card, position, variant
from games.engine.analysis import analyse_round
from games.learn.analysis_text import decision_words


def test_a_joker_thrown_away_in_remik51_does_not_read_good_and_shows_its_error() -> None:
    state = position(
        variant("remik51"),
        hands=["JK 9C 2D", "3C 8H"],
        melds=[(0, "4S 5S 6S 7S"), (1, "QD QH QC")],
        turn=0,
        phase="play",
    )
    joker = Discard(parse_card("JK"))
    after = apply_move(state, 0, joker).state
    report = analyse_round([(state, None, None), (after, 0, joker)], 0, seed="known")
    with translation.override("en"):
        words = decision_words(report.decisions[0].to_json())
    assert words["label"] != "Good", words
    assert "±" in words["text"], words


def test_an_unmarked_decision_stored_before_verdicts_reads_unclear_not_good() -> None:
    old = {
        "step": 4,
        "kind": "discard",
        "mark": "",
        "missed": "",
        "loss": 28.0,
        "error": 14.0,
        "played": {"kind": "discard", "card": "JK#1"},
        "best": {"kind": "discard", "card": "9C#1"},
    }
    with translation.override("en"):
        words = decision_words(old)
    assert words["label"] == "Unclear"
    assert words["text"].startswith("Unclear: you discarded ★; about 28 points lost (± 14)")
