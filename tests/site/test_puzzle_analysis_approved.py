"""What a Polish or Romanian player reads in puzzles and in the analysis of a round, compared with
approved text kept in the repository (issue 32, item 7; docs/learn.md; docs/i18n.md, approved
texts): cards as the table writes them ("Q♥ K♥ A♥", "10♦", "★(Q♦)"; never the codes "QH KH AH",
"TD", "JK(QD)", and never a face letter in lower case, "k♣"), numbers in the language's own format
("2,5"), each verdict said once ("Solved!", not "Solved! Solved. solved").

``tests/approved/analysis_texts.txt``: the analysis's sentences (``games.learn.analysis_text``).
``tests/approved/puzzles_texts.txt``: the puzzle endpoint's messages and the verdict's lines as
the page shows them (``static/js/puzzles/verdict.js``, rendered by node with the real catalogs).
After reviewing a change, rewrite them with ``APPROVE=1 pytest tests/site/test_puzzle_analysis_approved.py``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from games.learn.analysis_text import decision_words
from games.learn.views import puzzles as puzzle_views
from tests.approved_texts import approve, render_with_node

LANGUAGES = ("pl", "ro")

#: A card code in running text ("QH", "TD", "JK", "5D"), or a face letter in lower case before a suit.
CARD_CODE = re.compile(r"(?<![\w#])(?:[2-9TJQKA][SHDC]|JK)(?![\w])|\b[jqka][♠♥♦♣]")
#: A decimal written with a point (Polish and Romanian write a comma).
POINT_DECIMAL = re.compile(r"\d\.\d")

DECISIONS: list[tuple[str, dict[str, Any]]] = [
    (
        "discard mistake",
        {
            "step": 7,
            "kind": "discard",
            "verdict": "mistake",
            "mark": "mistake",
            "missed": "",
            "loss": 12.4,
            "error": 2.6,
            "played": {"kind": "discard", "card": "KC#1"},
            "best": {"kind": "discard", "card": "TD#2"},
        },
    ),
    (
        "discard good",
        {
            "step": 9,
            "kind": "discard",
            "verdict": "good",
            "mark": "",
            "missed": "",
            "loss": 0.0,
            "error": 3.2,
            "played": {"kind": "discard", "card": "KC#1"},
            "best": {"kind": "discard", "card": "TD#2"},
        },
    ),
    (
        "take questionable",
        {
            "step": 4,
            "kind": "take",
            "verdict": "questionable",
            "mark": "questionable",
            "missed": "",
            "loss": 7.0,
            "error": 4.5,
            "played": {"kind": "take", "card": "QD#1", "melds": [["QD#1", "KD#1", "JK#1(AD)"]]},
            "best": {"kind": "draw"},
        },
    ),
    (
        "missed opening",
        {
            "step": 12,
            "kind": "play",
            "mark": "mistake",
            "missed": "missed_opening",
            "loss": 31.5,
            "error": 11.0,
            "played": {"kind": "discard", "card": "5D#1"},
            "best": {
                "kind": "play",
                "melds": [["QH#1", "KH#2", "AH#1"], ["7S#1", "7C#1", "JK#2(7D)"]],
                "layoffs": [{"meld": 3, "cards": ["TD#1"]}],
                "exchanges": [{"meld": 2, "card": "5D#2"}],
            },
        },
    ),
    (
        "missed knock",
        {
            "step": 15,
            "kind": "knock",
            "mark": "mistake",
            "missed": "missed_knock",
            "loss": 8.0,
            "error": 0.0,
            "played": {"kind": "discard", "card": "5D#1"},
            "best": {"kind": "knock", "card": "5D#1"},
        },
    ),
    (
        "joker unclear",
        {
            "step": 2,
            "kind": "discard",
            "verdict": "unclear",
            "mark": "",
            "missed": "",
            "loss": 44.2,
            "error": 61.3,
            "played": {"kind": "discard", "card": "JK#1"},
            "best": {"kind": "discard", "card": "9C#1"},
        },
    ),
    (
        "pass unclear (a report stored before verdicts)",
        {
            "step": 1,
            "kind": "pass",
            "mark": "",
            "missed": "",
            "loss": 2.0,
            "error": 6.4,
            "played": {"kind": "pass"},
            "best": {"kind": "take", "card": "AS#1"},
        },
    ),
]

OPENING = {
    "melds": [
        {"cards": ["QH#2", "KH#1", "AH#1"], "points": 31},
        {"cards": ["TD#1", "TC#2", "JK#1(TS)"], "points": 30},
    ],
    "points": 61,
    "required_points": 51,
    "exchanges": [],
}
KNOCK = {
    "alternatives": [
        {"move": {"kind": "knock", "card": "5D#1"}, "choice": "knock", "points": 12.5},
        {"move": {"kind": "discard", "card": "5D#1"}, "choice": "draw_on", "points": 7.25},
    ],
    "margin": 5.25,
    "error": 1.04,
    "samples": 16,
}
DISCARD = {
    "alternatives": [
        {"move": {"kind": "discard", "card": "KS#1"}, "choice": "draw_on", "points": 3.5, "card": "KS"},
        {"move": {"kind": "discard", "card": "TD#1"}, "choice": "draw_on", "points": -1.25, "card": "TD"},
        {"move": {"kind": "discard", "card": "7H#1"}, "choice": "draw_on", "points": -2.0, "card": "7H"},
    ],
    "margin": 4.75,
    "error": 1.5,
    "samples": 192,
    "top": 3,
    "required_margin": 3.0,
}
VERDICTS: list[tuple[str, dict[str, Any]]] = [
    (
        "opening solved rated",
        {
            "kind": "opening",
            "played": None,
            "answer": {
                "correct": True,
                "code": "solved",
                "message": "Solved.",
                "explanation": OPENING,
                "rated": True,
                "rating": 1138,
                "rating_change": 138,
            },
        },
    ),
    (
        "opening missed rated",
        {
            "kind": "opening",
            "played": None,
            "answer": {
                "correct": False,
                "code": "opening_too_low",
                "message": "…",
                "answer_explanation": {**OPENING, "exchanges": [{"meld": 2, "card": "5D#1"}]},
                "rated": True,
                "rating": 962,
                "rating_change": -38,
            },
        },
    ),
    (
        "opening missed visitor",
        {
            "kind": "opening",
            "played": None,
            "answer": {
                "correct": False,
                "code": "not_an_opening",
                "message": "…",
                "answer_explanation": None,
                "rated": False,
                "rating": None,
            },
        },
    ),
    (
        "knock solved again",
        {
            "kind": "knock",
            "played": {"kind": "knock", "card": "5D#1"},
            "answer": {
                "correct": True,
                "code": "solved",
                "message": "Solved.",
                "explanation": KNOCK,
                "rated": False,
                "rating": 1010,
            },
        },
    ),
    (
        "discard missed rated",
        {
            "kind": "discard",
            "played": {"kind": "discard", "card": "2C#1"},
            "answer": {
                "correct": False,
                "code": "wrong_choice",
                "message": "…",
                "answer_explanation": DISCARD,
                "rated": True,
                "rating": 990,
                "rating_change": -10,
            },
        },
    ),
    (
        "discard played second",
        {
            "kind": "discard",
            "played": {"kind": "discard", "card": "TD#1"},
            "answer": {
                "correct": False,
                "code": "wrong_choice",
                "message": "…",
                "answer_explanation": DISCARD,
                "rated": False,
                "rating": 990,
            },
        },
    ),
]


def analysis_lines() -> list[str]:
    lines = []
    for language in LANGUAGES:
        with translation.override(language):
            for name, decision in DECISIONS:
                words = decision_words(decision)
                lines.append(f"{name} {language}: {words['text']} · {words['jump']}")
    return lines


def server_puzzle_lines() -> list[str]:
    lines = []
    for language in LANGUAGES:
        with translation.override(language):
            for kind, code in [
                ("opening", "solved"),
                ("opening", "not_an_opening"),
                ("joker", "no_joker_bought"),
                ("knock", "wrong_choice"),
                ("discard", "wrong_choice"),
            ]:
                lines.append(f"message {kind} {code} {language}: {puzzle_views._result_message(code, kind)}")
    return lines


def verdict_lines() -> list[str]:
    names = [
        (f"{name} {language}", {"language": language, **case})
        for language in LANGUAGES
        for name, case in VERDICTS
    ]
    rendered = render_with_node(
        "render_puzzle_texts.mjs", "the puzzle verdict's sentences", LANGUAGES, [case for _, case in names]
    )
    return [f"{name}: {line}" for (name, _), lines in zip(names, rendered, strict=True) for line in lines]


@pytest.mark.django_db
def test_every_analysis_sentence_in_polish_and_romanian_is_the_approved_text() -> None:
    approve("analysis_texts.txt", "\n".join(analysis_lines()) + "\n")


@pytest.mark.django_db
def test_every_puzzle_sentence_in_polish_and_romanian_is_the_approved_text() -> None:
    approve("puzzles_texts.txt", "\n".join([*server_puzzle_lines(), *verdict_lines()]) + "\n")


@pytest.mark.django_db
def test_no_puzzle_or_analysis_sentence_writes_card_codes_point_decimals_or_the_verdict_twice() -> None:
    for line in [*analysis_lines(), *server_puzzle_lines(), *verdict_lines()]:
        _, _, text = line.partition(": ")
        assert not CARD_CODE.search(text), line
        assert not POINT_DECIMAL.search(text), line
        assert "solved" not in text.lower().split(), line  # the stable code is data, never words
    verdicts = verdict_lines()
    first = next(line for line in verdicts if line.startswith("opening solved rated pl: "))
    assert first == "opening solved rated pl: Rozwiązane!"
