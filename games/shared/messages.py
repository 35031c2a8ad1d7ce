"""Wording a refusal from its code and fields, whatever the catalog: the pure part of
``games/shared/i18n_errors.py``, shared with practice in the browser (docs/practice.md).

The site words an error frame with Django's catalogs (``i18n_errors.translated_message``); the
practice worker has no Django, so the practice page hands it the same texts already translated
into the page's language, and it words its refusals here with the same choice of text.

>>> catalog = {"opening_too_low": "Too low.", "opening_too_low+points+needed": "%(points)s of %(needed)s."}
>>> word({"code": "opening_too_low", "message": "...", "points": 29, "needed": 51, "rule": "R51-31"}, catalog)
'29 of 51. (R51-31)'
>>> word({"code": "card_not_in_hand", "message": "KS is not in your hand", "card": "KS#1"}, {})
'KS is not in your hand'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_label(text: str) -> str:
    """A card in notation as people read it in any language: "TH#2" -> "10♥", "JK(5D)" -> "★(5♦)"."""
    base, _, declared = str(text).partition("(")
    face = base.partition("#")[0]
    if face == "JK":
        return "★" + (f"({card_label(declared.rstrip(')'))})" if declared else "")
    rank, suit = face[:-1], face[-1:]
    if suit not in _SUITS or not rank:
        return str(text)
    return ("10" if rank == "T" else rank) + _SUITS[suit]


def display_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields as a message shows them (cards as people read them)."""
    shown = dict(fields)
    if isinstance(shown.get("card"), str):
        shown["card"] = card_label(shown["card"])
    cards = shown.get("cards")
    if isinstance(cards, str):
        shown["cards"] = " ".join(card_label(card) for card in cards.split())
    elif isinstance(cards, list | tuple):
        shown["cards"] = " ".join(card_label(str(card)) for card in cards)
    return shown


def template_key(code: str, fields: Mapping[str, Any], keys: Iterable[str]) -> str | None:
    """Which text of ``keys`` words error ``code``: ``code:rule``, then ``code:phase``, then the
    longest ``code+field+field`` whose fields are all given, then the code alone (None: none)."""
    keys = list(keys)
    for qualifier in ("rule", "phase"):
        value = fields.get(qualifier)
        if value and f"{code}:{value}" in keys:
            return f"{code}:{value}"
    best: str | None = None
    best_count = -1
    for key in keys:
        name, *needed = key.split("+")
        given = all(fields.get(f) is not None for f in needed)
        if name == code and ":" not in key and given and len(needed) > best_count:
            best, best_count = key, len(needed)
    return best


def fill(text: str, fields: Mapping[str, Any]) -> str | None:
    """``text`` with its ``%(name)s`` filled from ``fields``; None if it names a field not given."""
    if "%(" not in text:
        return text
    try:
        return text % display_fields(fields)
    except (KeyError, ValueError, TypeError):
        return None


def word(frame: Mapping[str, Any], catalog: Mapping[str, str]) -> str:
    """An error frame's message from ``catalog`` (key -> text, in the reader's language, as
    ``i18n_errors.MESSAGES`` names them); the frame's own (English) message where no text fits."""
    code = str(frame.get("code", ""))
    message = str(frame.get("message") or "")
    key = template_key(code, frame, catalog)
    if key is None:
        return message
    text = fill(catalog[key], frame)
    if text is None:
        text = catalog.get(code) or message
    return text  # the rule id is shown apart, as a tag beside the sentence (docs/i18n.md)


__all__ = ["card_label", "display_fields", "fill", "template_key", "word"]
