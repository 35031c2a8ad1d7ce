"""Every sentence a Polish or Romanian player reads about the game, compared with approved text
kept in the repository (issue 33, "Must show"; docs/i18n.md, approved texts).

Each kind of score-line note (games/engine/notes.py) is rendered in Polish and Romanian with
sample values and compared, line for line, with ``tests/approved/table_score_notes.txt``: a new
kind of note without a reviewed sentence fails here. No sentence may hold an English word of the
note or a rule id; the rule ids are shown beside it, as a tag. After reviewing a change, rewrite
the file with ``APPROVE=1 pytest tests/site/test_i18n_approved.py``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.utils import translation

from games import i18n_rules
from games.engine.notes import NOTE_KINDS, TEXT_FIELDS, note, read_note, rules_of

ROOT = Path(__file__).resolve().parents[2]
APPROVED = ROOT / "tests" / "approved"
LANGUAGES = ("pl", "ro")
#: A rule id anywhere in a text (docs/rules/).
RULE_ID = re.compile(r"\b(?:R51|RMI|R40|R500|GIN|OKL|K108)-Q?\d+")
#: Sample values for the fields of a note: a word field its word, a number field a number.
#: Words Polish and Romanian players use as they are.
SHARED_WORDS = {"remik", "joker"}
WORDS = {"name": "Ala", "name2": "Bartek", "card": "7S", "columns": "2, 3"}


def sample(code: str) -> str:
    fields = re.findall(r"\{(\w+)\}", NOTE_KINDS[code])
    values: dict[str, int | str] = {}
    for index, field in enumerate(fields):
        values[field] = WORDS[field] if field in TEXT_FIELDS else 5 + 7 * index
    return note(code, **values)


def approve(name: str, text: str) -> None:
    path = APPROVED / name
    if os.environ.get("APPROVE"):
        path.write_text(text)
    approved = path.read_text() if path.exists() else ""
    assert text == approved, (
        f"{name} differs from the approved text (review, then APPROVE=1):\n"
        + "\n".join(
            f"- {a}\n+ {b}" for a, b in zip(approved.splitlines(), text.splitlines(), strict=False) if a != b
        )
        + ("" if len(approved.splitlines()) == len(text.splitlines()) else "\n(line counts differ)")
    )


def rendered_notes() -> dict[tuple[str, str], str]:
    out = {}
    for language in LANGUAGES:
        with translation.override(language):
            for code in NOTE_KINDS:
                out[(code, language)] = i18n_rules.score_note(sample(code))
    return out


def test_every_kind_of_score_note_reads_back_to_itself() -> None:
    for code in NOTE_KINDS:
        found = read_note(sample(code))
        assert found is not None, (code, sample(code))
        assert found.code == code, (code, sample(code), found)
        assert found.rules == rules_of(code)


def test_every_score_note_in_polish_and_romanian_is_the_approved_text() -> None:
    notes = rendered_notes()
    lines = []
    for code in NOTE_KINDS:
        rules = ", ".join(rules_of(code))
        lines.append(f"{code} [{rules}] en: {sample(code)}")
        lines += [f"{code} {language}: {notes[(code, language)]}" for language in LANGUAGES]
    approve("table_score_notes.txt", "\n".join(lines) + "\n")


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_score_note_keeps_english_or_a_rule_id_in_its_sentence(language: str) -> None:
    for (code, lang), text in rendered_notes().items():
        if lang != language:
            continue
        english = re.sub(r"\{\w+\}|\(.*?\)", " ", NOTE_KINDS[code])
        assert not RULE_ID.search(text), (code, text)
        if text != "gin" and code not in {"r40_remik"}:  # "gin" and "Remik" are the games' own names
            assert text != sample(code), (code, text)
        words = set(re.findall(r"[a-z]{4,}", english)) - SHARED_WORDS
        assert not words & set(re.findall(r"[a-z]{4,}", text.lower())), (code, text, words)


def test_the_match_pages_rule_ids_are_tags_beside_the_note() -> None:
    from games.templatetags.remi_i18n import score_notes

    with translation.override("pl"):
        html = str(score_notes([sample("gin_knock"), "went out"]))
    assert html == 'pukanie z 5 przeciw 12: 19 <small class="rule-ref">GIN-19</small>; zejście z kart'


def test_the_tables_kinds_of_note_are_the_engines_current_ones() -> None:
    current = (ROOT / "static" / "js" / "table" / "note_kinds.js").read_text()
    assert current == i18n_rules.notes_js(), (
        "static/js/table/note_kinds.js is stale: DJANGO_SETTINGS_MODULE=remi_site.settings "
        "python -m games.i18n_rules --notes-js > static/js/table/note_kinds.js"
    )


def test_every_kind_of_note_has_its_sentence() -> None:
    assert set(i18n_rules.NOTE_SENTENCES) == set(NOTE_KINDS)
