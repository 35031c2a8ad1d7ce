"""Card ids as labels for people, on the server's pages (the match page, replays, history).

>>> card_label("TD#2")
{'id': 'TD#2', 'label': '10♦', 'red': True, 'joker': False}
>>> card_label("JK#1(9S)")["label"]
'Joker (9♠)'
"""

from __future__ import annotations

from typing import Any

from games.shared.messages import card_label as _text

_SUITS = {"S": ("♠", False), "H": ("♥", True), "D": ("♦", True), "C": ("♣", False)}
_RANKS = {"T": "10"}


def card_label(card_id: str) -> dict[str, Any]:
    """A card id ("TD#2", "JK#1", "JK#1(9D)") as a label for people, keeping its id."""
    base, _, declared = card_id.partition("(")
    face = base.partition("#")[0]
    stands_for = declared.rstrip(")")
    if face == "JK":
        label = "Joker" + (f" ({_face_label(stands_for)[0]})" if stands_for else "")
        return {"id": card_id, "label": label, "red": False, "joker": True}
    label, red = _face_label(face)
    return {"id": card_id, "label": label, "red": red, "joker": False}


def card_text(card_id: str) -> str:
    """A card in running text, as the table writes it in every language (static/js/table/cards.js
    ``cardShort``): "TD#2" -> "10♦", "QH" -> "Q♥", "JK#1(QD)" -> "★(Q♦)", "JK" -> "★".

    >>> card_text("TD#2"), card_text("JK#1(QD)")
    ('10♦', '★(Q♦)')
    """
    return _text(card_id)


def _face_label(face: str) -> tuple[str, bool]:
    rank, suit = face[:-1], face[-1:]
    symbol, red = _SUITS.get(suit, (suit, False))
    return _RANKS.get(rank, rank) + symbol, red
