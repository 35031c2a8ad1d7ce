"""Cards, their text notation and the physical copies of a pack.

Notation (``docs/rules/README.md``): a card is rank + suit (``7H``, ``TS``, ``AC``), a joker is
``JK``. The engine's own records carry a copy id after ``#`` (``7H#1``, ``7H#2``, ``JK#3``), because
two-deck packs hold identical cards. A joker may carry the card it stands for in parentheses:
``JK(8H)``, ``JK#3(8H)``.

>>> parse_cards("TS JS QS JK(8H)")
(Card('TS'), Card('JS'), Card('QS'), Card('JK(8H)'))
>>> format_cards(parse_cards("7H#2  jk#3(9d)"))
'7H#2 JK#3(9D)'
>>> parse_card("JK(8H)").stands_for
Card('8H')
>>> parse_card("JK#1") == parse_card("JK#1(9S)")  # a declaration is not part of identity
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from .errors import MalformedCardError

RANKS = "23456789TJQKA"
SUITS = "SHDC"
JOKER = "JK"

#: Natural rank order with the ace high (2 → 2 … K → 13, A → 14). Variants decide where the ace stands.
RANK_NUMBER = {rank: number for number, rank in enumerate(RANKS, start=2)}

_CARD_RE = re.compile(
    r"^(?:(?P<rank>[2-9TJQKA])(?P<suit>[SHDC])|(?P<joker>JK))"
    r"(?:#(?P<copy>[1-9][0-9]*))?"
    r"(?:\((?P<as_rank>[2-9TJQKA])(?P<as_suit>[SHDC])\))?$"
)
_TEN_RE = re.compile(r"^10(?=[SHDC])")


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card, or a card written in notation without a copy id (``copy == 0``).

    ``rank`` is one of ``RANKS`` or ``"JK"`` for a joker (then ``suit`` is ``""``). ``stands_for`` is
    the declared card a joker represents; it is an annotation, not part of the card's identity.
    """

    rank: str
    suit: str
    copy: int = 0
    stands_for: Card | None = field(default=None, compare=False)

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __str__(self) -> str:
        text = self.rank + self.suit  # a joker's suit is "": "JK" (the face, written out: it is hot)
        if self.copy:
            text += f"#{self.copy}"
        if self.stands_for is not None:
            text += f"({self.stands_for.face})"
        return text

    @property
    def face(self) -> str:
        """The card without copy id or declaration: ``7H`` or ``JK``."""
        return self.rank + self.suit

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def id(self) -> str:
        """The physical id (``7H#2``); only meaningful for dealt cards."""
        return f"{self.face}#{self.copy}"

    def bare(self) -> Card:
        """The same physical card without a declaration."""
        return Card(self.rank, self.suit, self.copy) if self.stands_for is not None else self

    def declared(self, natural: Card) -> Card:
        """This joker declared as standing for ``natural``."""
        return Card(self.rank, self.suit, self.copy, Card(natural.rank, natural.suit))

    def same_face(self, other: Card) -> bool:
        return self.rank == other.rank and self.suit == other.suit

    def matches(self, other: Card) -> bool:
        """True if this (possibly copy-less) card names the physical card ``other``."""
        return self.same_face(other) and (self.copy == 0 or self.copy == other.copy)


def joker(copy: int = 0) -> Card:
    return Card(JOKER, "", copy)


def natural(rank: str, suit: str, copy: int = 0) -> Card:
    return Card(rank, suit, copy)


#: Cards already parsed, by their text: a stored state is read back on every move (a hundred
#: cards and more), always from the same few hundred texts. A ``Card`` is immutable, so one
#: instance serves every reader. Bounded: texts from outside (moves) cannot make it grow for ever.
_PARSED: dict[str, Card] = {}
_PARSED_LIMIT = 4096


def parse_card(text: str) -> Card:
    """Parse one card: ``7H``, ``10H``, ``7H#2``, ``JK``, ``JK#3``, ``JK(8H)``."""
    card = _PARSED.get(text)
    if card is None:
        card = _parse_card(text)
        if len(_PARSED) < _PARSED_LIMIT:
            _PARSED[text] = card
            PACK_TEXTS[id(card)] = str(card)  # kept for good, like a pack's cards: see PACK_TEXTS
    return card


def _parse_card(text: str) -> Card:
    raw = text.strip().upper()
    match = _CARD_RE.match(_TEN_RE.sub("T", raw))
    if match is None:
        raise MalformedCardError(text)
    copy = int(match["copy"]) if match["copy"] else 0
    stands_for = None
    if match["as_rank"]:
        if not match["joker"]:
            raise MalformedCardError(text, "only a joker can declare the card it stands for")
        stands_for = Card(match["as_rank"], match["as_suit"])
    if match["joker"]:
        return Card(JOKER, "", copy, stands_for)
    return Card(match["rank"], match["suit"], copy)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse cards separated by white space (or an iterable of card texts)."""
    parts = text.split() if isinstance(text, str) else list(text)
    return tuple(parse_card(part) for part in parts)


def optional_card(text: str | None) -> Card | None:
    """The card ``text`` names, or None for None or an empty text (a state's JSON field that may
    be empty: an atu, an up-card, a card just taken)."""
    return parse_card(text) if text else None


def optional_text(card: Card | None) -> str | None:
    """``str(card)``, or None for no card: the other way of :func:`optional_card`."""
    return str(card) if card is not None else None


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in notation, separated by single spaces."""
    return " ".join(str(card) for card in cards)


def sort_key(card: Card) -> tuple[int, int, int]:
    """Suit-major display order (jokers last)."""
    if card.is_joker:
        return (len(SUITS), 0, card.copy)
    return (SUITS.index(card.suit), RANK_NUMBER[card.rank], card.copy)


#: The text (``str``) of every card of the packs :func:`build_pack` made and of every card
#: :func:`parse_card` keeps, by the card object's identity: those cards live as long as the
#: program, so no other object can have their ``id``. The events of every draw and discard name
#: their card: ``PACK_TEXTS.get(id(card)) or str(card)`` costs a third of ``str(card)`` (``make
#: bench-peers``); a card made elsewhere takes ``str``. A server reads every state back from JSON
#: (``parse_card``), so its views and hint keys find their cards here too, and share the texts.
PACK_TEXTS: dict[int, str] = {}


def card_texts(cards: Iterable[Card]) -> list[str]:
    """``[str(card) for card in cards]``, the texts of known cards (``PACK_TEXTS``) looked up.

    >>> card_texts(parse_cards("7H#2 JK#1(8S) 10D"))
    ['7H#2', 'JK#1(8S)', 'TD']
    """
    get = PACK_TEXTS.get
    return [get(id(card)) or str(card) for card in cards]


@cache
def build_pack(decks: int, jokers: int) -> tuple[Card, ...]:
    """Every physical card of ``decks`` 52-card decks plus ``jokers`` jokers, in a fixed order.

    The same tuple of the same cards for the same arguments (cards are immutable): a deal shuffles
    it, and what is known of a card (its text, its bit in a mask) can be kept by its identity.
    """
    cards = [Card(rank, suit, copy) for copy in range(1, decks + 1) for suit in SUITS for rank in RANKS]
    cards.extend(Card(JOKER, "", copy) for copy in range(1, jokers + 1))
    for card in cards:
        PACK_TEXTS[id(card)] = str(card)
    return tuple(cards)
