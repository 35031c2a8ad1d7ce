"""The rules' own English words, so that the catalogs carry them (``makemessages`` reads this file).

The engine is pure Python and speaks English: a variant's title and ``summary``, its
``end_condition()`` and each option's label and ``help`` (``option_specs()``). The site shows them
through ``gettext`` (the domains' views, games/play/forms.py), which finds these texts in locale/*.po. An
end condition depends on the table's options: only the defaults are listed, and a text not in the
catalog (a table with other numbers) is shown in English. Regenerate with
``python -m games.shared.i18n_rules`` when the engine's texts change; a test checks they are current.
"""

# ruff: noqa: E501  (the texts are the engine's, one string each, as makemessages extracts them)
import re
from typing import Any

from django.utils.html import format_html
from django.utils.translation import gettext, gettext_noop, ngettext

from games.engine import read_note
from games.shared.card_labels import card_label

TEXTS = [
    # --- gin ---
    gettext_noop("Gin rummy"),
    gettext_noop(
        "Two players, one deck, ten cards each; the 21st card is offered face up. Melds stay in the hand: knock with at most 10 loose points, or go gin with none. The opponent lays off onto a knocker's melds; an undercut and gin earn 25. The game goes to 100, with a 100 game bonus and 25 for each deal won more than the opponent."
    ),
    gettext_noop(
        "The game ends when a player's score reaches 100 (GIN-23); the winner adds a 100-point game bonus and 25 for each deal won more than the opponent, minus the opponent's score (GIN-24)."
    ),
    gettext_noop("Target"),
    gettext_noop("The game ends when a player's score reaches this many points (GIN-23)."),
    # --- knock108 ---
    gettext_noop("Knock-108"),
    gettext_noop(
        "Knock rummy for 2 to 6 players with two decks and four jokers (108 cards). 10 cards each, the dealer 11 and the first discard. Knock with at most 5 points in loose cards, or end the deal with gin, a flush or figures (and, if agreed, a full sequence); after a knock everyone else may exchange one more card. Loose cards are minus points on each player's record; over 100 a player drops out and may buy back in for three stakes. The last player left takes the pool of chips."
    ),
    gettext_noop(
        "A player whose minus points go over 100 drops out (and may buy back in for three stakes); the last player left wins and takes the pool."
    ),
    gettext_noop("Stake"),
    gettext_noop(
        "The stake in site chips (even: a knock is paid in half stakes). Each player pays one into the pool before the first deal."
    ),
    gettext_noop("Full sequence"),
    gettext_noop(
        "Also play the full sequence: ten cards of one suit in a row (40 off the record, four stakes from each opponent)."
    ),
    gettext_noop("Joker limits"),
    gettext_noop(
        "Jokers in melds: remik (a set of 3 holds one joker, a set of 4 two, no two jokers side by side in a run) or none (no limit)."
    ),
    gettext_noop("Special hand stakes"),
    gettext_noop("Stakes each opponent pays for a flush or figures."),
    gettext_noop("Max players"),
    gettext_noop("Seats at the table (2 to 6)."),
    # --- oklahoma ---
    gettext_noop("Oklahoma gin (three columns)"),
    gettext_noop(
        "Gin rummy where the first up-card sets the most loose points a knock may keep (its pips, 10 for a ten or a face card; an ace means gin only) and a spade up-card doubles the deal. A player's first win is scored in column 1, the second in columns 1 and 2, every later one in all three; a column ends when someone reaches the target, the game when all three have, and each column is settled as a gin game."
    ),
    gettext_noop(
        "Each of the three columns ends when a player's score in it reaches 150; the match ends when all three have, and each column is settled as a gin game (game bonus and deals won); the higher settlement wins."
    ),
    gettext_noop(
        "A column is finished when a player's score in it reaches this (usually 150 or 200, OKL-7)."
    ),
    # --- remi ---
    gettext_noop("Remi"),
    gettext_noop(
        "Romanian rummy with 106 pieces (two decks and two jokers) and an atu turned up beside the stock. 14 pieces each, 15 for the first player. Nothing is laid in a player's first turn; the opening must hold a run. The discard row may be broken at any depth after opening. Everything laid scores for whoever laid it, everything left in hand is subtracted, going out earns 50 (100 with a joker); the highest total wins."
    ),
    gettext_noop(
        "No round limit or target: the match goes on until the table is closed; the highest total wins."
    ),
    gettext_noop("Opening"),
    gettext_noop("Opening requirement: classic (a run, no minimum), 45 or 51 points including a run."),
    gettext_noop("Short game"),
    gettext_noop("Short game for two players: one deck, ten pieces (eleven for the first player)."),
    gettext_noop("Row visible depth"),
    gettext_noop("How many of the newest discards can be reached when breaking the row (empty: all)."),
    gettext_noop("Rounds"),
    gettext_noop("End the match after this many rounds (empty: no round limit)."),
    gettext_noop("End the match when a total reaches this score (empty: no target)."),
    gettext_noop("Seats at the table (2 to 4; the short game seats exactly 2)."),
    # --- remik40 ---
    gettext_noop("Remik 40"),
    gettext_noop(
        "Polish rummy of the card rooms: two decks and 2 jokers, 2 to 4 players, 13 cards each. The first lay-down is worth at least 40 points; a card taken from the discard pile goes onto the table in the same move; a joker on the table is recovered by the card it stands for (a set of three: both missing cards; never from a set of four). Going out in one go (Remik) adds 25 to every loser's penalty. One game is one round; the winner takes most of the prize pool, the rest goes to the losers under 50 penalty points."
    ),
    gettext_noop(
        'One game is one deal: it ends when a player goes out, by stages or all at once ("Remik", +25 to the others); the winner takes at least 75% of the pool, the rest goes to players under 50 penalty points.'
    ),
    gettext_noop("Low ace value"),
    gettext_noop(
        "What an ace at the low end of a run (A-2-3) counts towards the 40 (R40-5, R40-Q2: 11 by default; 1 as many tables play)."
    ),
    gettext_noop("Max jokers per meld"),
    gettext_noop("Jokers one meld may hold (R40-Q7)."),
    gettext_noop("Chips each player puts into the prize pool."),
    gettext_noop("Winner share 2"),
    gettext_noop("Percent of the pool the winner takes at a table of two (at least 75)."),
    gettext_noop("Winner share 3"),
    gettext_noop("Percent of the pool the winner takes at a table of three (at least 75)."),
    gettext_noop("Winner share 4"),
    gettext_noop("Percent of the pool the winner takes at a table of four (at least 75)."),
    gettext_noop("Seats at the table (2 to 4)."),
    # --- remik51 ---
    gettext_noop("Remik 51"),
    gettext_noop(
        "Polish rummy with two decks and jokers. 13 cards (the dealer 14, who starts without drawing). The first meld is worth at least 51 points and holds a run without jokers. Cards left in hand are penalty points; a player going out in one go doubles everyone else's. The match ends when someone passes the penalty limit; the lowest total wins."
    ),
    gettext_noop("The match ends when a player's total goes over 500 penalty points; the lowest total wins."),
    gettext_noop("Jokers per deck"),
    gettext_noop("Jokers per deck: 2 (4 in the pack) or 3 (6)."),
    gettext_noop("Joker penalty"),
    gettext_noop("What a joker left in hand costs."),
    gettext_noop("Penalty limit"),
    gettext_noop("The match ends when a total goes over this many penalty points."),
    gettext_noop("Lowest tie"),
    gettext_noop(
        "When several players share the lowest total: they win together (shared), or play one more round (extra_round) until the tie is broken."
    ),
    # --- rummy500 ---
    gettext_noop("Rummy 500"),
    gettext_noop(
        "2 to 8 players, no jokers; one deck for up to four players, two from five. 13 cards each with two players, 7 with more; the stock's top card starts the discard pile, which is fanned: a card may be taken from any depth, with every card above it, if the card reached for is laid on the table at once with cards from the hand. Every card laid or laid off scores for whoever laid it; cards left in hand count against. First past 500 wins."
    ),
    gettext_noop(
        "The match ends when a player's total goes over 500 points after a deal; the highest total wins (a tie at the top plays one more deal)."
    ),
    gettext_noop("Two decks for four"),
    gettext_noop("With exactly four players, play with two decks instead of one (R500-Q2)."),
    gettext_noop("The match ends after the deal in which a total goes over this many points (R500-17)."),
    gettext_noop("Seats at the table (2 to 8)."),
]


#: The end conditions with their numbers as placeholders: ``end_condition(rules)`` uses the one
#: that gives the engine's English text exactly, so any table's numbers are translated.
END_CONDITIONS = [
    gettext_noop(
        "The match ends when a player's total goes over %(limit)s penalty points; the lowest total wins."
    ),
    gettext_noop(
        "The match ends when a player's total goes over %(limit)s penalty points; the highest total wins."
    ),
    gettext_noop("The match ends when a player's total reaches %(target)s points; the lowest total wins."),
    gettext_noop("The match ends when a player's total reaches %(target)s points; the highest total wins."),
    gettext_noop(
        "No round limit or target: the match goes on until the table is closed; the lowest total wins."
    ),
    gettext_noop(
        "The match ends when a player's total goes over %(target)s points after a deal; the highest total wins (a tie at the top plays one more deal)."
    ),
    gettext_noop(
        "The game ends when a player's score reaches %(target)s (GIN-23); the winner adds a 100-point game bonus and 25 for each deal won more than the opponent, minus the opponent's score (GIN-24)."
    ),
    gettext_noop(
        "Each of the three columns ends when a player's score in it reaches %(target)s; the match ends when all three have, and each column is settled as a gin game (game bonus and deals won); the higher settlement wins."
    ),
    gettext_noop(
        'One game is one deal: it ends when a player goes out, by stages or all at once ("Remik", +25 to the others); the winner takes at least %(share)s of the pool, the rest goes to players under 50 penalty points.'
    ),
]
#: (singular, plural) of the end conditions that count rounds.
END_CONDITIONS_ROUNDS = [
    (
        "The match ends after %(n)s round; the lowest total wins.",
        "The match ends after %(n)s rounds; the lowest total wins.",
    ),
    (
        "The match ends after %(n)s round; the highest total wins.",
        "The match ends after %(n)s rounds; the highest total wins.",
    ),
]


def _plural_messages() -> None:  # pragma: no cover - never called: it shows makemessages the pairs
    ngettext(
        "The match ends after %(n)s round; the lowest total wins.",
        "The match ends after %(n)s rounds; the lowest total wins.",
        0,
    )
    ngettext(
        "The match ends after %(n)s round; the highest total wins.",
        "The match ends after %(n)s rounds; the highest total wins.",
        0,
    )


def end_condition(rules: Any) -> str:
    """``rules.end_condition()`` in the active language, with this table's numbers."""
    english = rules.end_condition()
    options = rules.options
    values = {
        "limit": options.get("penalty_limit"),
        "target": options.get("target"),
        "share": f"{options.get('winner_share_2')}%",
    }
    for template in END_CONDITIONS:
        if template % values == english:
            return gettext(template) % values
    rounds = options.get("rounds")
    if rounds is not None:
        for singular, plural in END_CONDITIONS_ROUNDS:
            if (singular if rounds == 1 else plural) % {"n": rounds} == english:
                return ngettext(singular, plural, rounds) % {"n": rounds}
    return gettext(english)


def current_texts() -> list[str]:
    """The texts above as the engine says them now (for the regeneration and its test)."""
    from games import engine

    texts: list[str] = []
    for name in engine.variant_names():
        rules = engine.variant(name)
        texts += [rules.title, rules.summary, rules.end_condition()]
        for spec in type(rules).option_specs():
            texts += [spec["name"].replace("_", " ").capitalize(), spec["help"]]
    return list(dict.fromkeys(texts))


#: The values of the options that are words (``Option.choices``), as the room pages show them.
OPTION_VALUES = {
    "classic": gettext_noop("classic"),
    "shared": gettext_noop("shared win"),
    "extra_round": gettext_noop("one more round"),
    "remik": gettext_noop("as in Remik"),
    "none": gettext_noop("none"),
}


def option_value(value: str) -> str:
    """An option's word value in the active language (``OPTION_VALUES``); numbers as they are."""
    return gettext(OPTION_VALUES[value]) if value in OPTION_VALUES else value


#: What an empty value of an option means, as its help says ("empty: all"); "none" otherwise.
EMPTY_VALUES = {
    "row_visible_depth": gettext_noop("the whole row"),
    "rounds": gettext_noop("no round limit"),
    "target": gettext_noop("no target"),
}


def empty_value(option: str) -> str:
    """The words for an option left empty, in the active language."""
    return gettext(EMPTY_VALUES.get(option, OPTION_VALUES["none"]))


_RULE_ID = r"(?:R51|RMI|R40|R500|GIN|OKL|K108)-Q?\d+"
_RULE_LIST = rf"{_RULE_ID}(?:(?:, |/){_RULE_ID}|/Q?\d+)*"
#: Rule ids in a sentence: a whole "(GIN-23)", "(R40-5, R40-Q2: " opening a parenthesis, or
#: ", OKL-7)" closing one.
_RULE_GROUPS = (
    re.compile(rf"\s?\(({_RULE_LIST})\)"),
    re.compile(rf"(?<=\()({_RULE_LIST}): "),
    re.compile(rf", ({_RULE_LIST})(?=\))"),
)


def split_rules(text: str) -> tuple[str, tuple[str, ...]]:
    """A sentence with its rule ids taken out, and the ids (shown apart, as a tag).

    >>> split_rules("The game ends when a player's score reaches this many points (GIN-23).")
    ("The game ends when a player's score reaches this many points.", ('GIN-23',))
    >>> split_rules("What an ace counts (R40-5, R40-Q2: 11 by default).")
    ('What an ace counts (11 by default).', ('R40-5', 'R40-Q2'))
    """
    rules: list[str] = []
    for pattern in _RULE_GROUPS:
        rules += [rule for match in pattern.finditer(text) for rule in match.group(1).split(", ")]
        text = pattern.sub("", text)
    return text, tuple(rules)


def help_text(english: str) -> str:
    """An option's help (the engine's English) in the active language, its rule ids as a tag
    after the sentence rather than inside it (docs/i18n.md: the rules' own words)."""
    sentence, rules = split_rules(gettext(english))
    if not rules:
        return sentence
    return format_html('{} <small class="rule-ref">{}</small>', sentence, ", ".join(rules))


#: The sentence of each kind of score-line note (games/engine/notes.py, ``NOTE_KINDS``): the
#: engine's English with its rule ids taken out, which the catalogs translate. The rule ids are
#: shown apart from the sentence, as a small tag (``score_note_rules``). A test fails when the
#: engine has a kind without its sentence here or without approved Polish and Romanian text.
NOTE_SENTENCES = {
    "went_out": gettext_noop("went out"),
    "went_out_joker": gettext_noop("went out with a joker"),
    "rmi_never_laid": gettext_noop("never laid a formation: %(points)s"),
    "rmi_atu_twin": gettext_noop("dealt the atu's twin"),
    "rmi_doubled": gettext_noop("doubled round: the atu is a joker or an ace"),
    "r40_no_winner": gettext_noop("no winner: the pool is returned"),
    "r40_remik": gettext_noop("Remik: out in one go"),
    "r40_went_out": gettext_noop("went out"),
    "r40_remik_penalty": gettext_noop("+%(points)s after a Remik"),
    "r40_prize": gettext_noop("prize: %(chips)s of %(pool)s chips"),
    "r51_void": gettext_noop("void round"),
    "r51_doubled": gettext_noop("doubled: the winner went out in one go"),
    "r500_stock_out": gettext_noop("the stock ran out"),
    "gin_best_arrangement": gettext_noop(
        "counted at the best arrangement, %(points)s, not %(shown)s as laid"
    ),
    "gin_gin": gettext_noop("gin: the opponent's %(points)s + %(bonus)s"),
    "gin_knock": gettext_noop("knocked with %(points)s against %(opponent)s: %(score)s"),
    "gin_undercut": gettext_noop(
        "undercut: %(points)s against the knock with %(knock)s: %(score)s + %(bonus)s"
    ),
    "gin_undercut_knocker": gettext_noop("knocked with %(points)s and was undercut"),
    "okl_doubled": gettext_noop("doubled: the first up-card %(card)s is a spade"),
    "okl_entered": gettext_noop("win no. %(win)s: entered in column(s) %(columns)s"),
    "okl_finished": gettext_noop("win no. %(win)s: its columns are finished"),
    "gin_void": gettext_noop("void deal: two cards left in the stock and nobody knocked"),
    "gin_game_won": gettext_noop(
        "game won by %(name)s: %(points)s + %(game_bonus)s game bonus + %(box)s for deals won (%(box_bonus)s x (%(won)s - %(lost)s)) - %(opponent)s = %(result)s"
    ),
    "okl_column_won": gettext_noop(
        "column %(column)s won by %(name)s: %(points)s + %(game_bonus)s game bonus + %(box)s for deals won (%(box_bonus)s x (%(won)s - %(lost)s)) - %(opponent)s = %(result)s"
    ),
    "okl_net": gettext_noop("net over the three columns: %(name)s %(net)s, %(name2)s %(net2)s"),
    "k108_entry": gettext_noop("entry stake: %(chips)s chips into the pool"),
    "k108_no_winner": gettext_noop("no winner: the pool is returned"),
    "k108_void": gettext_noop("void deal: two cards left in the stock"),
    "k108_out": gettext_noop("out of the game"),
    "k108_knock": gettext_noop("knocked with %(points)s"),
    "k108_gin": gettext_noop("gin: %(credit)s off the record"),
    "k108_flush": gettext_noop("flush: %(credit)s off the record"),
    "k108_figures": gettext_noop("figures: %(credit)s off the record"),
    "k108_full_sequence": gettext_noop("full sequence: %(credit)s off the record"),
    "k108_late_gin": gettext_noop("gin after the deal ended: nothing loose, no credit"),
    "k108_late_flush": gettext_noop("flush after the deal ended: nothing loose, no credit"),
    "k108_late_figures": gettext_noop("figures after the deal ended: nothing loose, no credit"),
    "k108_late_full_sequence": gettext_noop("full sequence after the deal ended: nothing loose, no credit"),
    "k108_chips_none": gettext_noop("chips 0"),
    "k108_chips_paid": gettext_noop("chips -%(paid)s (%(per)s to %(name)s)"),
    "k108_chips_paid_pool": gettext_noop("chips -%(paid)s (%(per)s to %(name)s, %(half)s to the pool)"),
    "k108_chips_pool": gettext_noop("chips -%(paid)s (%(half)s to the pool)"),
    "k108_chips_gained": gettext_noop("chips +%(gained)s (%(per)s from each of %(players)s)"),
    "k108_over": gettext_noop("over %(limit)s: out of the game"),
    "k108_takes_pool": gettext_noop("takes the pool: +%(chips)s chips"),
    "k108_bought_back": gettext_noop(
        "bought back in for %(cost)s chips (%(stakes)s stakes); record %(record)s -> %(new_record)s"
    ),
}


def _note_values(values: dict[str, str]) -> dict[str, str]:
    """A note's values as a sentence shows them: a card by its face ("7♠"), the rest as written."""
    shown = dict(values)
    if shown.get("card"):
        shown["card"] = card_label(shown["card"])["label"]
    return shown


def score_note(text: str) -> str:
    """A score line's note as a sentence in the active language, without its rule ids; a text
    the engine's notes never take (``read_note`` finds no kind) stays as written."""
    found = read_note(text)
    if found is None or found.code not in NOTE_SENTENCES:
        return text
    return gettext(NOTE_SENTENCES[found.code]) % _note_values(found.values)


def score_note_rules(text: str) -> tuple[str, ...]:
    """The rule ids a score line's note cites (shown as a tag beside its sentence)."""
    found = read_note(text)
    return found.rules if found is not None else ()


def notes_js() -> str:
    """static/js/table/note_kinds.js, made from the engine's kinds of note and their sentences
    (``DJANGO_DEBUG=1 DJANGO_SETTINGS_MODULE=remi_site.settings python -m games.shared.i18n_rules --notes-js``; a test checks the
    file is current). Each
    sentence is written literally inside ``t()`` so that ``makemessages -d djangojs`` finds it."""
    import json

    from games.engine import NOTE_KINDS
    from games.engine import NOTE_TEXT_FIELDS as TEXT_FIELDS
    from games.engine import note_rules as rules_of

    def js(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    rows = "\n".join(
        f"  {code}: [{js(NOTE_KINDS[code])}, {js(list(rules_of(code)))}, (v) => t({js(NOTE_SENTENCES[code])}, v)],"
        for code in NOTE_KINDS
    )
    return (
        "// GENERATED by `python -m games.shared.i18n_rules --notes-js > static/js/table/note_kinds.js` from\n"
        "// games/engine/notes.py and games/shared/i18n_rules.py (NOTE_SENTENCES); a test checks it is current.\n"
        "// Read by notes.js (docs/i18n.md, score notes).\n\n"
        'import { t } from "../i18n.js";\n\n'
        "/** code: [the engine's English with {fields}, its rule ids, its sentence in the page's language]. */\n"
        f"export const KINDS = {{\n{rows}\n}};\n\n"
        "/** Fields holding words (a name, a card, columns); the others are whole numbers. */\n"
        f"export const TEXT_FIELDS = new Set({js(sorted(TEXT_FIELDS))});\n"
    )


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--notes-js"]:
        print(notes_js(), end="")
    else:
        for text in current_texts():
            print(f"    gettext_noop({text!r}),")
