"""The notes of score lines: one kind per thing a note can say, each with a stable ``code``.

A score line's notes (``ScoreLine.notes``) are the engine's English, as the logs, the match
records and the command line show them ("knocked with 5 against 12: 7 (GIN-19)"). Every note is
written through :func:`note` from a kind listed here, never composed in place, so that the site
can read any note back into its kind and values (:func:`read_note`) and say it in the player's
language with the rule ids apart from the sentence (docs/i18n.md: score notes). A new kind of
note is one line here plus its sentence in ``games/i18n_rules.NOTE_SENTENCES`` and its approved
Polish and Romanian text (tests/approved/); a test fails until all three exist.

>>> note("gin_knock", points=5, opponent=12, score=7)
'knocked with 5 against 12: 7 (GIN-19)'
>>> read_note("knocked with 5 against 12: 7 (GIN-19)")
Note(code='gin_knock', values={'points': '5', 'opponent': '12', 'score': '7'}, rules=('GIN-19',))
>>> read_note("something the engine never says") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

__all__ = ["NOTE_KINDS", "TEXT_FIELDS", "Note", "note", "read_note"]

#: code -> the English note with its {fields} and its rule ids where they stand in the sentence.
NOTE_KINDS: dict[str, str] = {
    # the rummy cycle
    "went_out": "went out",
    "went_out_joker": "went out with a joker",
    "rmi_never_laid": "never laid a formation: {points} (RMI-58)",
    "rmi_atu_twin": "dealt the atu's twin",
    "rmi_doubled": "doubled round: the atu is a joker or an ace (RMI-48)",
    "r40_no_winner": "no winner: the pool is returned (R40-Q15)",
    "r40_remik": "Remik: out in one go (R40-26)",
    "r40_went_out": "went out (R40-26)",
    "r40_remik_penalty": "+{points} after a Remik (R40-28)",
    "r40_prize": "prize: {chips} of {pool} chips (R40-29)",
    "r51_void": "void round (R51-Q9)",
    "r51_doubled": "doubled: the winner went out in one go (R51-45)",
    "r500_stock_out": "the stock ran out (R500-Q7)",
    # gin and Oklahoma
    "gin_best_arrangement": "counted at the best arrangement, {points} (GIN-Q8), not {shown} as laid",
    "gin_gin": "gin: the opponent's {points} + {bonus} (GIN-20)",
    "gin_knock": "knocked with {points} against {opponent}: {score} (GIN-19)",
    "gin_undercut": "undercut: {points} against the knock with {knock}: {score} + {bonus} (GIN-19, GIN-Q2)",
    "gin_undercut_knocker": "knocked with {points} and was undercut",
    "okl_doubled": "doubled: the first up-card {card} is a spade (OKL-4)",
    "okl_entered": "win no. {win}: entered in column(s) {columns} (OKL-6)",
    "okl_finished": "win no. {win}: its columns are finished (OKL-Q3)",
    "gin_void": "void deal: two cards left in the stock and nobody knocked (GIN-22)",
    "gin_game_won": (
        "game won by {name}: {points} + {game_bonus} game bonus + {box} for deals won "
        "({box_bonus} x ({won} - {lost})) - {opponent} = {result} (GIN-24)"
    ),
    "okl_column_won": (
        "column {column} won by {name}: {points} + {game_bonus} game bonus + {box} for deals won "
        "({box_bonus} x ({won} - {lost})) - {opponent} = {result} (OKL-Q4)"
    ),
    "okl_net": "net over the three columns: {name} {net}, {name2} {net2} (OKL-9)",
    # Knock-108
    "k108_entry": "entry stake: {chips} chips into the pool (K108-22)",
    "k108_no_winner": "no winner: the pool is returned",
    "k108_void": "void deal: two cards left in the stock (K108-Q16)",
    "k108_out": "out of the game",
    "k108_knock": "knocked with {points} (K108-14, K108-20)",
    "k108_gin": "gin: {credit} off the record (K108-21)",
    "k108_flush": "flush: {credit} off the record (K108-21)",
    "k108_figures": "figures: {credit} off the record (K108-21)",
    "k108_full_sequence": "full sequence: {credit} off the record (K108-21)",
    "k108_late_gin": "gin after the deal ended: nothing loose, no credit",
    "k108_late_flush": "flush after the deal ended: nothing loose, no credit",
    "k108_late_figures": "figures after the deal ended: nothing loose, no credit",
    "k108_late_full_sequence": "full sequence after the deal ended: nothing loose, no credit",
    "k108_chips_none": "chips 0",
    "k108_chips_paid": "chips -{paid} ({per} to {name}, K108-23)",
    "k108_chips_paid_pool": "chips -{paid} ({per} to {name}, {half} to the pool, K108-23)",
    "k108_chips_pool": "chips -{paid} ({half} to the pool, K108-23)",
    "k108_chips_gained": "chips +{gained} ({per} from each of {players}, K108-23)",
    "k108_over": "over {limit}: out of the game (K108-25)",
    "k108_takes_pool": "takes the pool: +{chips} chips (K108-28)",
    "k108_bought_back": (
        "bought back in for {cost} chips ({stakes} stakes); record {record} -> {new_record} (K108-26)"
    ),
}

#: Fields that hold words (a player's name, a card, a list of columns); every other field is a
#: whole number, written with its sign where the note has one.
TEXT_FIELDS = frozenset({"name", "name2", "card", "columns"})

#: A rule id as the notes cite it: GIN-19, R40-Q15, K108-14, OKL-Q4, R51-45 (docs/rules/).
_RULE = r"(?:R51|RMI|R40|R500|GIN|OKL|K108)-Q?\d+"
_RULES_GROUP = re.compile(rf"\s?\(({_RULE}(?:, {_RULE})*)\)|, ({_RULE})(?=\))")
_FIELD = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Note:
    """A note read back: its kind, its values (as written) and the rule ids it cites."""

    code: str
    values: dict[str, str]
    rules: tuple[str, ...]


def note(code: str, **values: int | str) -> str:
    """The English note of kind ``code`` with its values (``NOTE_KINDS``)."""
    template = NOTE_KINDS[code]
    fields = set(_FIELD.findall(template))
    if fields != set(values):
        raise ValueError(f"note {code!r} takes {sorted(fields)}, not {sorted(values)}")
    return template.format(**values)


def rules_of(code: str) -> tuple[str, ...]:
    """The rule ids a kind of note cites, in order."""
    return tuple(
        r for m in _RULES_GROUP.finditer(NOTE_KINDS[code]) for r in (m.group(1) or m.group(2)).split(", ")
    )


def sentence_of(code: str) -> str:
    """The kind's English with its rule ids taken out and ``%(field)s`` placeholders: the text
    the site's catalogs translate (``games/i18n_rules.NOTE_SENTENCES``)."""
    text = _RULES_GROUP.sub("", NOTE_KINDS[code]).replace("%", "%%")
    return _FIELD.sub(r"%(\1)s", text)


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    out = []
    # The kind with the most words of its own first: a name (any text) in a shorter kind could
    # otherwise swallow what a longer one says after it ("12 to Ala, 6 to the pool").
    by_words = sorted(NOTE_KINDS.items(), key=lambda item: -len(_FIELD.sub("", item[1])))
    for code, template in by_words:
        pattern = ""
        for index, part in enumerate(_FIELD.split(template)):
            if index % 2 == 0:
                pattern += re.escape(part)
            else:
                pattern += f"(?P<{part}>.+?)" if part in TEXT_FIELDS else rf"(?P<{part}>[+-]?\d+)"
        out.append((code, re.compile(pattern)))
    return tuple(out)


def read_note(text: str) -> Note | None:
    """The kind and values of a note the engine wrote (:func:`note`), or None for any other text."""
    for code, pattern in _patterns():
        match = pattern.fullmatch(text)
        if match is not None:
            return Note(code, dict(match.groupdict()), rules_of(code))
    return None
