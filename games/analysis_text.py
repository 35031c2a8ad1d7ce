"""The analysis of a round in words, in the viewer's language (docs/learn.md).

The engine stores each decision as data (``games.engine.analysis.Decision.to_json``: the move
played, the best one, the expected points lost, the mark); this module says it to people:

>>> from django.utils import translation
>>> decision = {"step": 3, "kind": "discard", "mark": "mistake", "missed": "", "loss": 75.0,
...             "error": 2.5, "played": {"kind": "discard", "card": "TH#1"},
...             "best": {"kind": "discard", "card": "4D#1"}}
>>> with translation.override("en"):
...     decision_words(decision)["text"]
'Mistake: you discarded 10♥; expected 75 points lost against the better move: discard 4♦.'
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext

from games.card_labels import card_text


def _cards(cards: list[str]) -> str:
    """Cards as the table writes them ("Q♥ K♥ A♥", "★(Q♦)"): never codes, in every language."""
    return " ".join(card_text(str(card)) for card in cards)


def _first_upper(text: str) -> str:
    """The first letter in capitals, the rest as it is (``str.capitalize`` would write "k♣")."""
    return text[:1].upper() + text[1:]


def move_words(move: dict[str, Any]) -> str:
    """A move (its JSON) as an instruction: "discard 4♦", "draw from the stock", ..."""
    kind = move.get("kind")
    if kind == "draw":
        return gettext("draw from the stock")
    if kind == "pass":
        return gettext("pass")
    if kind == "discard":
        return gettext("discard %(card)s") % {"card": _cards([move["card"]])}
    if kind == "knock":
        if move.get("card"):
            return gettext("knock, discarding %(card)s") % {"card": _cards([move["card"]])}
        return gettext("knock")
    parts: list[str] = []
    if kind == "take":
        card = move.get("card")
        parts.append(
            gettext("take %(card)s") % {"card": _cards([card])} if card else gettext("take the discard")
        )
    for exchange in move.get("exchanges") or []:
        parts.append(gettext("swap %(card)s for a joker") % {"card": _cards([exchange["card"]])})
    for meld in move.get("melds") or []:
        parts.append(gettext("meld %(cards)s") % {"cards": _cards(meld)})
    for layoff in move.get("layoffs") or []:
        parts.append(gettext("lay off %(cards)s") % {"cards": _cards(layoff["cards"])})
    return ", ".join(parts) if parts else gettext("keep your cards")


def played_words(move: dict[str, Any]) -> str:
    """What the player did, in the past: "you discarded 10♥"."""
    kind = move.get("kind")
    if kind == "draw":
        return gettext("you drew from the stock")
    if kind == "pass":
        return gettext("you passed")
    if kind == "discard":
        return gettext("you discarded %(card)s") % {"card": _cards([move["card"]])}
    if kind == "knock":
        return gettext("you knocked")
    return gettext("you played: %(move)s") % {"move": move_words(move)}


def mark_label(mark: str) -> str:
    return {"mistake": gettext("Mistake"), "questionable": gettext("Questionable")}.get(mark, gettext("Good"))


def missed_label(missed: str) -> str:
    return {"missed_opening": gettext("Missed opening"), "missed_knock": gettext("Missed knock")}.get(
        missed, ""
    )


def decision_words(decision: dict[str, Any]) -> dict[str, Any]:
    """A decision for the replay: its step, mark, label and sentence."""
    mark = str(decision.get("mark") or "")
    loss = float(decision.get("loss") or 0.0)
    points = round(loss)
    if mark:
        text = ngettext(
            "%(mark)s: %(played)s; expected %(points)s point lost against the better move: %(best)s.",
            "%(mark)s: %(played)s; expected %(points)s points lost against the better move: %(best)s.",
            points,
        ) % {
            "mark": mark_label(mark),
            "played": played_words(decision["played"]),
            "points": points,
            "best": move_words(decision["best"]),
        }
        missed = missed_label(str(decision.get("missed") or ""))
        if missed:
            text = f"{missed}. {text}"
    else:
        text = gettext("%(played)s: %(points)s expected points from the best move found.") % {
            "played": _first_upper(played_words(decision["played"])),
            "points": points,
        }
    return {
        "step": int(decision["step"]),
        "mark": mark,
        "label": mark_label(mark),
        "missed": str(decision.get("missed") or ""),
        "loss": round(loss, 1),
        "text": text,
        "jump": gettext("move %(step)s") % {"step": int(decision["step"])},
    }
