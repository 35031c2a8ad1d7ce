"""The rules' own English words, so that the catalogs carry them (``makemessages`` reads this file).

The engine is pure Python and speaks English: a variant's title and ``summary``, its
``end_condition()`` and each option's label and ``help`` (``option_specs()``). The site shows them
through ``gettext`` (games/views/, games/forms.py), which finds these texts in locale/*.po. An
end condition depends on the table's options: only the defaults are listed, and a text not in the
catalog (a table with other numbers) is shown in English. Regenerate with
``python -m games.i18n_rules`` when the engine's texts change; a test checks they are current.
"""

# ruff: noqa: E501  (the texts are the engine's, one string each, as makemessages extracts them)
import re
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext

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


if __name__ == "__main__":
    for text in current_texts():
        print(f"    gettext_noop({text!r}),")


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


#: The notes of the engine's score lines, their numbers as %(n1)s, %(n2)s, ... in the order
#: they come (``score_note``); the notes not listed here (names inside them) stay in English.
SCORE_NOTES = [
    gettext_noop("went out"),
    gettext_noop("went out with a joker"),
    gettext_noop("never laid a formation: %(n1)s (RMI-58)"),
    gettext_noop("dealt the atu's twin"),
    gettext_noop("doubled round: the atu is a joker or an ace (RMI-48)"),
    gettext_noop("no winner: the pool is returned (R40-Q15)"),
    gettext_noop("Remik: out in one go (R40-26)"),
    gettext_noop("went out (R40-26)"),
    gettext_noop("void round (R51-Q9)"),
    gettext_noop("doubled: the winner went out in one go (R51-45)"),
    gettext_noop("the stock ran out (R500-Q7)"),
    gettext_noop("counted at the best arrangement, %(n1)s (GIN-Q8), not %(n2)s as laid"),
    gettext_noop("gin: the opponent's %(n1)s + %(n2)s (GIN-20)"),
    gettext_noop("knocked with %(n1)s against %(n2)s: %(n3)s (GIN-19)"),
    gettext_noop("undercut: %(n1)s against the knock with %(n2)s: %(n3)s + %(n4)s (GIN-19, GIN-Q2)"),
    gettext_noop("knocked with %(n1)s and was undercut"),
    gettext_noop("win no. %(n1)s: its columns are finished (OKL-Q3)"),
    gettext_noop("void deal: two cards left in the stock and nobody knocked (GIN-22)"),
    gettext_noop("void deal: two cards left in the stock (K108-Q16)"),
    gettext_noop("takes the pool: %(n1)s chips (K108-28)"),
    gettext_noop("no winner: the pool is returned"),
    gettext_noop("out of the game"),
    gettext_noop("bought back in for %(n1)s chips (%(n2)s stakes); record %(n3)s -> %(n4)s (K108-26)"),
]

#: A number in a note: not part of a rule id (R51-45) or a word.
_NUMBER = re.compile(r"(?<![\w-])[+-]?\d+(?![\w])")


def note_template(note: str) -> tuple[str, dict[str, str]]:
    """The note with its numbers taken out, and the numbers.

    >>> note_template("knocked with 5 against 12: 7 (GIN-19)")
    ('knocked with %(n1)s against %(n2)s: %(n3)s (GIN-19)', {'n1': '5', 'n2': '12', 'n3': '7'})
    """
    values: dict[str, str] = {}

    def take(match: re.Match[str]) -> str:
        name = f"n{len(values) + 1}"
        values[name] = match.group(0)
        return f"%({name})s"

    return _NUMBER.sub(take, note.replace("%", "%%")), values


def score_note(note: str) -> str:
    """A score line's note in the active language (``SCORE_NOTES``), else as the engine wrote it."""
    template, values = note_template(note)
    if template not in _KNOWN_NOTES:
        return note
    return gettext(template) % values


_KNOWN_NOTES = frozenset(SCORE_NOTES)
