"""The analysis of a round in words, in the viewer's language (docs/learn.md).

The engine stores each decision as data (``games.engine.analysis.Decision.to_json``: the move
played, the best one, the expected points lost, the mark); this module says it to people:

>>> from django.utils import translation
>>> decision = {"step": 3, "kind": "discard", "verdict": "mistake", "mark": "mistake", "missed": "",
...             "loss": 75.0, "error": 2.5, "played": {"kind": "discard", "card": "TH#1"},
...             "best": {"kind": "discard", "card": "4D#1"}}
>>> with translation.override("en"):
...     decision_words(decision)["text"]
'Mistake: you discarded 10♥; about 75 points lost (± 3) against the best other move found: discard 4♦.'

The ``±`` is the half-width of the interval the verdict was reached at (95% confidence,
``games.engine.analysis.CONFIDENCE``), rounded up to a whole point.
"""

from __future__ import annotations

import math
from typing import Any

from django.utils.translation import gettext, ngettext

from games.shared.card_labels import card_text


def _cards(cards: list[str]) -> str:
    """Cards as the table writes them ("Q♥ K♥ A♥", "★(Q♦)"): never codes, in every language."""
    return " ".join(card_text(str(card)) for card in cards)


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


def mark_label(verdict: str) -> str:
    """The verdict's label: "Mistake", "Questionable", "Good" or "Unclear" (the samples did not
    settle it; docs/learn.md, "Analysis of a round")."""
    return {
        "mistake": gettext("Mistake"),
        "questionable": gettext("Questionable"),
        "good": gettext("Good"),
    }.get(verdict, gettext("Unclear"))


def decision_verdict(decision: dict[str, Any]) -> str:
    """The decision's verdict; a report stored before verdicts existed had only a mark, and its
    unmarked moves were never shown to be good: they read "unclear"."""
    verdict = str(decision.get("verdict") or "")
    if verdict in ("good", "unclear", "questionable", "mistake"):
        return verdict
    return str(decision.get("mark") or "") or "unclear"


def missed_label(missed: str) -> str:
    return {"missed_opening": gettext("Missed opening"), "missed_knock": gettext("Missed knock")}.get(
        missed, ""
    )


def decision_words(decision: dict[str, Any]) -> dict[str, Any]:
    """A decision for the replay: its step, verdict, label and sentence, with the loss and its error
    ("about 12 points lost (± 3)")."""
    mark = str(decision.get("mark") or "")
    verdict = decision_verdict(decision)
    loss = float(decision.get("loss") or 0.0)
    points = max(0, round(loss))
    error = float(decision.get("error") or 0.0)
    plus_minus = max(1, math.ceil(error)) if math.isfinite(error) else 999
    text = ngettext(
        "%(mark)s: %(played)s; about %(points)s point lost (± %(error)s) against the best other move found: %(best)s.",  # noqa: E501
        "%(mark)s: %(played)s; about %(points)s points lost (± %(error)s) against the best other move found: %(best)s.",  # noqa: E501
        points,
    ) % {
        "mark": mark_label(verdict),
        "played": played_words(decision["played"]),
        "points": points,
        "error": plus_minus,
        "best": move_words(decision["best"]),
    }
    missed = missed_label(str(decision.get("missed") or ""))
    if missed:
        text = f"{missed}. {text}"
    return {
        "step": int(decision["step"]),
        "mark": mark,
        "verdict": verdict,
        "label": mark_label(verdict),
        "missed": str(decision.get("missed") or ""),
        "loss": round(loss, 1),
        "error": plus_minus,
        "text": text,
        "jump": gettext("move %(step)s") % {"step": int(decision["step"])},
    }
