"""Every sentence a Polish or Romanian player reads about the game, compared with approved text
kept in the repository (issue 33, "Must show"; docs/i18n.md, approved texts).

Each kind of score-line note (games/engine/notes.py) is rendered in Polish and Romanian with
sample values and compared, line for line, with ``tests/approved/table_score_notes.txt``: a new
kind of note without a reviewed sentence fails here. No sentence may hold an English word of the
note or a rule id; the rule ids are shown beside it, as a tag. After reviewing a change, rewrite
the file with ``APPROVE=1 pytest tests/site/test_i18n_approved.py``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from pytest_django.fixtures import Settings

from games.engine.notes import NOTE_KINDS, TEXT_FIELDS, note, read_note, rules_of
from games.shared import i18n_rules
from tests.approved_texts import APPROVED, approve, render_with_node

ROOT = Path(__file__).resolve().parents[2]
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
        "static/js/table/note_kinds.js is stale: DJANGO_DEBUG=1 DJANGO_SETTINGS_MODULE=remi_site.settings "
        "python -m games.shared.i18n_rules --notes-js > static/js/table/note_kinds.js"
    )


def test_every_kind_of_note_has_its_sentence() -> None:
    assert set(i18n_rules.NOTE_SENTENCES) == set(NOTE_KINDS)


# --- the options of a table: their names, helps and word values ------------------------------

#: The engine's word values of options; none may be shown as it is on a Polish or Romanian page.
RAW_VALUES = ("shared", "extra_round", "classic", "remik", "none")


def rendered_options() -> list[str]:
    from games import engine
    from games.play.forms import _option_field

    lines = []
    for name in engine.variant_names():
        for spec in type(engine.variant(name)).option_specs():
            for language in LANGUAGES:
                with translation.override(language):
                    field = _option_field(spec)
                    key = f"{name}.{spec['name']} {language}"
                    lines.append(f"{key} label: {field.label}")
                    lines.append(f"{key} help: {re.sub(r'<[^>]+>', '|', str(field.help_text))}")
                    for value, shown in getattr(field, "choices", ()):
                        lines.append(f"{key} value {value or '(empty)'}: {shown}")
    return lines


def test_every_option_name_help_and_value_in_polish_and_romanian_is_the_approved_text() -> None:
    approve("table_options.txt", "\n".join(rendered_options()) + "\n")


def test_no_option_text_keeps_a_rule_id_or_a_raw_value_in_its_sentence() -> None:
    for line in rendered_options():
        key, _, text = line.partition(": ")
        sentence = text.split("|")[0]  # what follows "|" is the rule tag
        assert not RULE_ID.search(sentence), line
        if " value " in key:
            assert text not in RAW_VALUES, line


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_create_room_page_shows_no_raw_value_and_no_rule_id_in_a_help(ala: object, language: str) -> None:
    from tests.site.site_helpers import client_for

    ala.language = language  # type: ignore[attr-defined]
    ala.save()  # type: ignore[attr-defined]
    client = client_for(ala)
    for variant in ("remik51", "knock108", "gin", "remi", "rummy500"):
        text = client.get(f"/rooms/new/?variant={variant}").content.decode()
        for raw in RAW_VALUES:
            assert f">{raw}</option>" not in text, (variant, raw)
        for helptext in re.findall(r'<span class="helptext">(.*?)</span>', text, re.S):
            sentence = re.sub(r'<small class="rule-ref">.*?</small>', "", helptext)
            assert not RULE_ID.search(sentence), (variant, helptext)


@pytest.mark.django_db
def test_an_empty_row_depth_reads_as_the_whole_row_on_a_romanian_room_page(ala: object) -> None:
    from tests.site.site_helpers import client_for, make_room

    room = make_room(ala, variant="remi")
    ala.language = "ro"  # type: ignore[attr-defined]
    ala.save()  # type: ignore[attr-defined]
    client = client_for(ala)
    text = client.get(f"/rooms/{room.pk}/").content.decode()
    assert "tot rândul" in text
    assert "rândului: fără" not in text
    assert "fără</strong>" not in text
    assert not re.search(r"rândului:? (?:fără|—)", text)


# --- refusals: what a player reads when a move is refused --------------------------------------


def rendered_refusals() -> list[str]:
    from games.shared.i18n_errors import MESSAGES

    lines = []
    for key, english in MESSAGES.items():
        for language in LANGUAGES:
            with translation.override(language):
                lines.append(f"{key} {language}: {translation.gettext(english)}")
    return lines


def test_every_refusal_in_polish_and_romanian_is_the_approved_text() -> None:
    approve("table_refusals.txt", "\n".join(rendered_refusals()) + "\n")


def test_no_refusal_keeps_a_rule_id_or_its_code_in_its_sentence() -> None:
    from games.shared.i18n_errors import MESSAGES, translated_message

    codes = {key.split(":")[0].split("+")[0] for key in MESSAGES}
    for line in rendered_refusals():
        text = line.partition(": ")[2]
        assert not RULE_ID.search(text), line
        assert not set(re.findall(r"\b[a-z]+_[a-z_]+\b", text)) & codes, line
    fields = {"points": 29, "needed": 51, "rule": "R51-31", "message": "the opening is worth 29 (R51-31)"}
    for language in LANGUAGES:
        assert not RULE_ID.search(translated_message("opening_too_low", fields, language))


def test_the_refusal_bubble_shows_the_rule_as_a_tag_and_never_the_code() -> None:
    source = (ROOT / "static" / "js" / "table" / "render.js").read_text()
    bubble = source[source.index("export function errorHere") :]
    bubble = bubble[: bubble.index("\n}\n")]
    assert 'h("code"' not in bubble  # the code is only the bubble's data-code, never its text
    assert "code: model.error ? model.error.code : null" in bubble
    assert "ruleRef(model.error)" in bubble


# --- the table's event lines, rendered by the table's own JavaScript --------------------------

NAMES = ["Ala", "Bartek"]
#: The views of the three families (static/js/table/families/index.js, familyOf).
VIEWS: dict[str, dict[str, Any]] = {
    "remik51": {"variant": "remik51", "names": NAMES},
    "remik40": {"variant": "remik40", "names": NAMES},
    "gin": {"variant": "gin", "names": NAMES, "gin": {}},
    "knock108": {"variant": "knock108", "names": NAMES, "stakes": {}, "stage": "play"},
}
OUT = {"kind": "round_over", "ended": "went_out"}
#: One sample of every event kind a frame carries (a seat's own, then another's where both are
#: told); the kinds no line tells ("turn", "dealt", ...) render nothing.
EVENTS: list[tuple[str, str, dict[str, object]]] = [
    ("drew", "remik51", {"kind": "drew", "source": "stock"}),
    ("drew_card", "remik51", {"kind": "drew_card", "card": "8H#1"}),
    ("took", "remik51", {"kind": "took", "card": "3H#1", "cards": ["3H#1"], "depth": 1}),
    ("took deep", "remik51", {"kind": "took", "card": "QS#1", "cards": ["QS#1", "4D#1", "KC#2"], "depth": 3}),
    ("took joker", "remik51", {"kind": "took", "card": "JK#1", "cards": ["JK#1"], "depth": 1}),
    ("melded", "remik51", {"kind": "melded", "meld": 3, "cards": ["7H#1", "8H#1", "9H#1"], "points": 24}),
    ("laid_off", "remik51", {"kind": "laid_off", "meld": 2, "cards": ["TH#1"]}),
    ("joker_exchanged", "remik51", {"kind": "joker_exchanged", "meld": 6, "card": "6S#1", "joker": "JK#1"}),
    ("discarded", "remik51", {"kind": "discarded", "card": "8H#2"}),
    ("discarded queen", "remik51", {"kind": "discarded", "card": "QD#1"}),
    ("discarded ace", "remik51", {"kind": "discarded", "card": "AS#1"}),
    ("discarded joker", "remik51", {"kind": "discarded", "card": "JK#2(5D)"}),
    ("opened", "remik51", {"kind": "opened", "points": 51}),
    ("stock_rebuilt", "remik51", {"kind": "stock_rebuilt"}),
    ("round_over went out", "remik51", {"kind": "round_over", "round": 1, "ended": "went_out", "winner": 1}),
    (
        "round_over one go",
        "remik51",
        {"kind": "round_over", "round": 2, "ended": "went_out", "winner": 1, "one_go": True},
    ),
    (
        "round_over Remik",
        "remik40",
        {"kind": "round_over", "round": 1, "ended": "went_out", "winner": 1, "one_go": True},
    ),
    ("round_over void", "remik51", {"kind": "round_over", "round": 3, "ended": "void", "winner": None}),
    ("round_over gin", "gin", {"kind": "round_over", "round": 1, "ended": "went_out", "winner": 1}),
    ("round_over knock108", "knock108", {"kind": "round_over", "round": 1, "winner": 1, "result": "flush"}),
    ("match_over", "remik51", {"kind": "match_over", "winners": [1]}),
    ("stuck", "remik40", {"kind": "stuck"}),
    ("passed up-card", "gin", {"kind": "passed", "card": "QD#1"}),
    ("passed exchange", "knock108", {"kind": "passed"}),
    ("knocked", "gin", {"kind": "knocked", "gin": False, "points": 9}),
    ("knocked gin", "gin", {"kind": "knocked", "gin": True, "points": 0}),
    ("declared", "knock108", {"kind": "declared", "result": "figures", "points": 0}),
    ("extra_exchange", "knock108", {"kind": "extra_exchange", "order": [1]}),
    ("bought_back", "knock108", {"kind": "bought_back", "cost": 30, "record": 55, "pool": 115}),
    ("bought_back one", "knock108", {"kind": "bought_back", "cost": 1, "record": 55, "pool": 115}),
    ("stayed_out", "knock108", {"kind": "stayed_out"}),
    ("eliminated", "knock108", {"kind": "eliminated", "record": 103}),
    ("turn", "remik51", {"kind": "turn"}),
    ("dealt", "remik51", {"kind": "dealt", "cards": ["7H#1"]}),
    ("round_started", "remik51", {"kind": "round_started", "round": 2, "first": 1, "dealer": 0}),
    ("buy_back_offer", "knock108", {"kind": "buy_back_offer", "seats": [0, 1], "cost": 30, "record": 55}),
    ("round_abandoned", "remik51", {"kind": "round_abandoned"}),
]
#: Kinds a seat is told only of its own (a private event).
OWN_ONLY = {"drew_card"}


def _cases() -> list[tuple[str, dict[str, Any]]]:
    cases: list[tuple[str, dict[str, Any]]] = []
    for name, variant, event in EVENTS:
        view = {**VIEWS[variant], "seat": 0}
        for who, seat in (("own", 0), ("other", 1)):
            if who == "other" and name.split()[0] in OWN_ONLY:
                continue
            cases.append((f"{name} [{who}]", {"view": view, "events": [{**event, "seat": seat}]}))
    # A stand-in's move for this very seat (Ala is away): the bot is the subject, never "you".
    standin = [
        {"kind": "drew", "seat": 0, "source": "stock"},
        {"kind": "drew_card", "seat": 0, "card": "5C#1"},
    ]
    view = {**VIEWS["remik51"], "seat": 0}
    cases.append(("stand-in draws", {"view": view, "events": standin, "standin": 0}))
    discard = [{"kind": "discarded", "seat": 0, "card": "6C#1"}]
    cases.append(("stand-in discards", {"view": view, "events": discard, "standin": 0}))
    return cases


#: A score line of each family as the engine writes it (one with notes that cite rules).
SCORE_LINES: list[tuple[str, str, dict[str, object]]] = [
    (
        "remik51 line",
        "remik51",
        {
            "seat": 1,
            "points": 198,
            "hand": 99,
            "table": 0,
            "multiplier": 2,
            "notes": ["doubled: the winner went out in one go (R51-45)"],
        },
    ),
    (
        "remi line",
        "remik51",
        {
            "seat": 1,
            "points": 120,
            "hand": 30,
            "table": 50,
            "bonus": 50,
            "atu_bonus": 50,
            "notes": ["went out with a joker", "dealt the atu's twin"],
        },
    ),
    (
        "remik40 line",
        "remik40",
        {
            "seat": 1,
            "points": 52,
            "hand": 27,
            "table": 0,
            "bonus": 25,
            "chips": 10,
            "notes": ["+25 after a Remik (R40-28)", "prize: 10 of 40 chips (R40-29)"],
        },
    ),
    (
        "gin line",
        "gin",
        {
            "seat": 0,
            "points": 150,
            "hand": 2,
            "table": 0,
            "notes": [
                "knocked with 2 against 27: 25 (GIN-19)",
                "game won by marek: 25 + 100 game bonus + 25 for deals won (25 x (1 - 0)) - 0 = 150 (GIN-24)",
            ],
        },
    ),
    (
        "knock108 line",
        "knock108",
        {
            "seat": 0,
            "points": 2,
            "hand": 2,
            "bonus": 0,
            "chips": 5,
            "notes": [
                "entry stake: 10 chips into the pool (K108-22)",
                "knocked with 2 (K108-14, K108-20)",
                "chips +5 (5 from each of 1, K108-23)",
            ],
        },
    ),
]


def rendered_events() -> list[str]:
    lines = [
        (name, {"view": {**VIEWS[variant], "seat": 0}, "line": line}) for name, variant, line in SCORE_LINES
    ]
    names = [(f"{name} {language}", case) for language in LANGUAGES for name, case in [*_cases(), *lines]]
    cases = [{"language": n.rsplit(" ", 1)[1], **case} for n, case in names]
    texts = render_with_node("render_texts.mjs", "the table's sentences", LANGUAGES, cases)
    return [f"{name}: {text}" for (name, _), text in zip(names, texts, strict=True)]


@pytest.mark.django_db
def test_every_event_line_in_polish_and_romanian_is_the_approved_text() -> None:
    approve("table_events.txt", "\n".join(rendered_events()) + "\n")


#: English words of the table's event lines that must never reach a Polish or Romanian one.
ENGLISH = re.compile(
    r"\b(?:you|drew|took|laid|added|discarded|stock|discards|round|deal|over|passed|knocked|bot for|"
    r"went|opened|stayed|out|of|hearts|spades|clubs|diamonds|queen|king|jack|ace|seven|eight)\b"
)
#: Polish forms that were read as machine-made: a card in the nominative after a verb, a
#: feminine verb with "rozdanie", a nominal line with an empty object (issue 33, item 4).
MACHINE_MADE = re.compile(
    r"(?:odrzucenie|odrzucasz|odrzuca|bierze|bierzesz|dobierasz|dobiera) "
    r"(?:as|dwójka|trójka|czwórka|piątka|szóstka|siódemka|ósemka|dziewiątka|dziesiątka|walet|dama|król|joker)\b"
    r"|[Rr]ozdanie \d+ się skończyła|: wyłożenie\.?$|\(a\)|\bstos(?:u|ie)?\b(?! odrzucon)"
)


@pytest.mark.django_db
def test_no_event_line_has_english_machine_made_grammar_or_a_rule_id() -> None:
    for line in rendered_events():
        name, _, text = line.partition(": ")
        sentence = re.sub(r" \[[^\]]*\]$", "", text)  # a score line's rule tag comes apart
        assert not RULE_ID.search(sentence), line
        assert not ENGLISH.search(sentence.lower()), line
        assert not re.search(r"\b(?:hand|loose|credit|chips|game won|from each)\b", sentence), line
        assert not MACHINE_MADE.search(text), line
        if name.startswith("stand-in"):
            assert text.lower().count("ala") == 1, line  # the player named once, the bot the subject


def test_every_event_kind_the_engine_sends_has_an_approved_sample() -> None:
    """Bots play a few deals of every variant; each kind of event they cause is among EVENTS, so a
    new kind cannot reach the table without its reviewed sentences (or an explicit silence)."""
    from games import engine
    from games.engine.bots import choose_move

    seen: set[str] = set()
    for name in engine.variant_names():
        rules = engine.variant(name)
        state = engine.new_game(rules, min(rules.max_players, 3), seed=7)
        for _ in range(600):
            if state.is_over:
                break
            transition = engine.apply_move(state, state.turn, choose_move(engine.view_for(state, state.turn)))
            state = transition.state
            seen |= {event.kind for event in transition.events}
    sampled = {event["kind"] for _, _, event in EVENTS}
    assert seen - sampled == set(), "event kinds without approved sentences"
    assert {"drew", "discarded", "round_over", "knocked"} <= seen  # the play did reach them


def test_no_approved_polish_sentence_guesses_a_players_gender() -> None:
    """A Polish past tense says the speaker's or subject's gender ("rozegrałeś", "wyłożył(a)"):
    lines about or to a player use the present tense or a noun instead (docs/i18n.md)."""
    gendered = re.compile(r"\w+(?:łeś|łaś)\b|\(a\)|\b(?:zwycięzca|przeciwnik|gracz) \w+ł\b|\b\w+ł\(a\)")
    for path in sorted(APPROVED.glob("table_*.txt")):
        for line in path.read_text().splitlines():
            key, _, text = line.partition(": ")
            if " pl" in key:
                assert not gendered.search(text), f"{path.name}: {line}"


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_rule_id_inside_a_sentence_on_the_polish_and_romanian_room_pages(
    ala: Any, language: str, settings: Settings
) -> None:
    """The lobby, practice, the create-room form of every variant and a room of every variant:
    outside the rule tags (``rule-ref``) no text cites a rule id, and no option value is a code."""
    from games import engine
    from tests.site.site_helpers import client_for, make_room

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    ala.language = language
    ala.save()
    client = client_for(ala)
    pages = ["/", "/practice/"]
    for name in engine.variant_names():
        pages.append(f"/rooms/new/?variant={name}")
        pages.append(f"/rooms/{make_room(ala, name, seats=engine.variant(name).min_players).pk}/")
    for path in pages:
        html = client.get(path).content.decode()
        body = re.sub(r"<script.*?</script>|<style.*?</style>", "", html, flags=re.S)
        body = re.sub(r'<small class="rule-ref">.*?</small>', "", body)
        text = re.sub(r"<[^>]+>", " ", body)
        cited = RULE_ID.search(text)
        assert cited is None, (path, text[max(0, cited.start() - 80) : cited.end()])
        for raw in RAW_VALUES:
            assert f">{raw}<" not in body, (path, raw)
