"""Moves: plain data with a JSON form (the same JSON travels over the WebSocket).

A turn is *draw* (``DrawStock``, or ``TakeDiscard`` which carries the play that uses the taken card),
then any number of ``Play`` moves, then ``Discard``. A ``Play`` is atomic: its exchanges, new melds
and lay-offs are checked together and either all happen or nothing does, which is how the rules'
"in the same move" conditions (opening, joker exchange, taking a discard) are kept.

>>> move = move_from_json({"kind": "play", "melds": [["9S", "TS", "JS"], ["8H", "8D", "8C"]]})
>>> move_to_json(move)
{'kind': 'play', 'melds': [['9S', 'TS', 'JS'], ['8H', '8D', '8C']]}
>>> move_from_json({"kind": "fly"})
Traceback (most recent call last):
...
games.engine.errors.MalformedMoveError: unknown move kind 'fly' (draw, take, play, discard, pass, knock)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import JOKER, Card, parse_card, parse_cards
from .errors import MalformedMoveError


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add ``cards`` from the hand to the table meld ``meld`` (its id)."""

    meld: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Exchange:
    """Put the natural ``card`` from the hand in place of the joker standing for it in ``meld``."""

    meld: int
    card: Card


@dataclass(frozen=True, slots=True)
class Play:
    """Lay new melds, lay off and exchange jokers, all at once (one atomic move)."""

    melds: tuple[tuple[Card, ...], ...] = ()
    layoffs: tuple[LayOff, ...] = ()
    exchanges: tuple[Exchange, ...] = ()

    @property
    def is_empty(self) -> bool:
        return not (self.melds or self.layoffs or self.exchanges)

    def cards_from_hand(self) -> list[Card]:
        out = [card for meld in self.melds for card in meld]
        out += [card for layoff in self.layoffs for card in layoff.cards]
        out += [exchange.card for exchange in self.exchanges]
        return out


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Draw the top card of the stock."""


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take ``card`` from the discard pile/row (``None``: the top) and play it in a new meld at once.

    In a row (Remi) every card above the chosen one comes along into the hand.
    """

    card: Card | None = None
    play: Play = field(default_factory=Play)


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard ``card``, ending the turn (and the round, if it was the last card)."""

    card: Card


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline: the up-card offer (gin family), a reply or extra exchange one does not want."""


@dataclass(frozen=True, slots=True)
class Knock:
    """End the round by knocking (knock family): discard ``card`` (if the variant discards on a
    knock) and lay ``melds`` from the hand (empty: the engine lays the best arrangement).
    """

    card: Card | None = None
    melds: tuple[tuple[Card, ...], ...] = ()


Move = DrawStock | TakeDiscard | Play | Discard | Pass | Knock

KINDS = ("draw", "take", "play", "discard", "pass", "knock")


def cards_named(move: Move) -> tuple[Card, ...]:
    """Every card ``move`` names (for the common checks made before a family sees the move).

    >>> move = move_from_json({"kind": "take", "card": "3H", "melds": [["3H", "JK", "5H"]]})
    >>> [str(c) for c in cards_named(move)]
    ['3H', '3H', 'JK', '5H']
    """
    match move:
        case Discard(card=card):
            return (card,)
        case Play():
            return tuple(move.cards_from_hand())
        case TakeDiscard(card=card, play=play):
            return ((card,) if card is not None else ()) + tuple(play.cards_from_hand())
        case Knock(card=card, melds=melds):
            return ((card,) if card is not None else ()) + tuple(c for meld in melds for c in meld)
    return ()


def names_a_joker(move: Move) -> bool:
    """Does ``move`` name a joker anywhere (see :func:`cards_named`)?"""
    if isinstance(move, Discard):  # the most frequent moves name one card, or none (``is_joker``, inlined)
        return move.card.rank == JOKER
    if isinstance(move, TakeDiscard) and move.play.is_empty:
        return move.card is not None and move.card.rank == JOKER
    return any(card.is_joker for card in cards_named(move))


def _cards(value: Any, what: str) -> tuple[Card, ...]:
    if isinstance(value, str):
        return parse_cards(value)
    if isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
        return parse_cards(value)
    raise MalformedMoveError(f"{what} must be a list of cards")


def _play_from_json(data: Mapping[str, Any]) -> Play:
    melds_raw = data.get("melds", [])
    layoffs_raw = data.get("layoffs", [])
    exchanges_raw = data.get("exchanges", [])
    if (
        not isinstance(melds_raw, list)
        or not isinstance(layoffs_raw, list)
        or not isinstance(exchanges_raw, list)
    ):
        raise MalformedMoveError("melds, layoffs and exchanges must be lists")
    melds = tuple(_cards(meld, "a meld") for meld in melds_raw)
    layoffs = []
    for item in layoffs_raw:
        if (
            not isinstance(item, Mapping)
            or not isinstance(item.get("meld"), int)
            or isinstance(item.get("meld"), bool)
        ):
            raise MalformedMoveError('a lay-off is {"meld": <id>, "cards": [...]}')
        layoffs.append(LayOff(item["meld"], _cards(item.get("cards"), "a lay-off's cards")))
    exchanges = []
    for item in exchanges_raw:
        if (
            not isinstance(item, Mapping)
            or not isinstance(item.get("meld"), int)
            or not isinstance(item.get("card"), str)
        ):
            raise MalformedMoveError('an exchange is {"meld": <id>, "card": "5D"}')
        exchanges.append(Exchange(item["meld"], parse_card(item["card"])))
    return Play(melds, tuple(layoffs), tuple(exchanges))


def move_from_json(data: Any) -> Move:
    """Read a move from its JSON form; raises MalformedMoveError (code ``malformed_move``)."""
    if not isinstance(data, Mapping):
        raise MalformedMoveError("a move is a JSON object with a 'kind'")
    kind = data.get("kind")
    if kind == "draw":
        return DrawStock()
    if kind == "discard":
        card = data.get("card")
        if not isinstance(card, str):
            raise MalformedMoveError("a discard names its 'card'")
        return Discard(parse_card(card))
    if kind == "play":
        return _play_from_json(data)
    if kind == "take":
        card = data.get("card")
        if card is not None and not isinstance(card, str):
            raise MalformedMoveError("'card' must be a card or absent")
        return TakeDiscard(parse_card(card) if card else None, _play_from_json(data))
    if kind == "pass":
        return Pass()
    if kind == "knock":
        card = data.get("card")
        if card is not None and not isinstance(card, str):
            raise MalformedMoveError("'card' must be a card or absent")
        melds_raw = data.get("melds", [])
        if not isinstance(melds_raw, list):
            raise MalformedMoveError("melds must be a list")
        return Knock(parse_card(card) if card else None, tuple(_cards(m, "a meld") for m in melds_raw))
    raise MalformedMoveError(f"unknown move kind {kind!r} ({', '.join(KINDS)})")


def _play_to_json(play: Play, data: dict[str, Any]) -> dict[str, Any]:
    if play.melds:
        data["melds"] = [[str(c) for c in meld] for meld in play.melds]
    if play.layoffs:
        data["layoffs"] = [{"meld": lo.meld, "cards": [str(c) for c in lo.cards]} for lo in play.layoffs]
    if play.exchanges:
        data["exchanges"] = [{"meld": ex.meld, "card": str(ex.card)} for ex in play.exchanges]
    return data


def move_to_json(move: Move) -> dict[str, Any]:
    """The JSON form of a move (cards in notation, with copy ids where the move has them)."""
    match move:
        case DrawStock():
            return {"kind": "draw"}
        case Discard(card=card):
            return {"kind": "discard", "card": str(card)}
        case Play():
            return _play_to_json(move, {"kind": "play"})
        case TakeDiscard(card=card, play=play):
            data: dict[str, Any] = {"kind": "take"}
            if card is not None:
                data["card"] = str(card)
            return _play_to_json(play, data)
        case Pass():
            return {"kind": "pass"}
        case Knock(card=card, melds=melds):
            data = {"kind": "knock"}
            if card is not None:
                data["card"] = str(card)
            if melds:
                data["melds"] = [[str(c) for c in meld] for meld in melds]
            return data
    raise MalformedMoveError(f"not a move: {move!r}")


def describe_move(move: Move) -> str:
    """A short description in card notation, without copy ids (for logs and the terminal game).

    >>> describe_move(move_from_json({"kind": "take", "card": "3H#2", "melds": [["3H#2", "4H", "JK#1(5H)"]]}))
    'take 3H, meld [3H 4H JK(5H)]'
    """

    def show(cards: Sequence[Card]) -> str:
        return " ".join(
            c.face + (f"({c.stands_for.face})" if c.stands_for is not None else "") for c in cards
        )

    match move:
        case DrawStock():
            return "draw from the stock"
        case Discard(card=card):
            return f"discard {show([card])}"
        case Play(melds=melds, layoffs=layoffs, exchanges=exchanges):
            parts = [f"exchange {show([ex.card])} for the joker in meld {ex.meld}" for ex in exchanges]
            parts += [f"meld [{show(m)}]" for m in melds]
            parts += [f"add {show(lo.cards)} to meld {lo.meld}" for lo in layoffs]
            return ", ".join(parts) or "nothing"
        case TakeDiscard(card=card, play=play):
            taken = show([card]) if card is not None else "the top discard"
            return f"take {taken}, " + describe_move(play)
        case Pass():
            return "pass"
        case Knock(card=card, melds=melds):
            text = "knock" + (f", discarding {show([card])}" if card is not None else "")
            return text + "".join(f", meld [{show(m)}]" for m in melds)
    return repr(move)


def card_text(card: Card | str) -> str:
    """A card as a player reads it: ``7H``, ``JK(8H)`` (no copy ids)."""
    if isinstance(card, str):
        card = parse_card(card)
    if card.is_joker and card.stands_for is not None:
        return f"JK({card.stands_for.face})"
    return card.face


def cards_text(cards: Sequence[Card | str]) -> str:
    return " ".join(card_text(card) for card in cards)


def move_text(move: Move) -> str:
    """A move in words, for the game log (card faces without copy ids).

    >>> move_text(move_from_json({"kind": "take", "card": "3H#2", "melds": [["3H#2", "4H", "JK#1(5H)"]]}))
    'takes 3H and melds [3H 4H JK(5H)]'
    """
    match move:
        case DrawStock():
            return "draws from the stock"
        case Discard(card=card):
            return f"discards {card_text(card)}"
        case TakeDiscard(card=card, play=play):
            taken = card_text(card) if card is not None else "the top discard"
            if play.is_empty:  # gin and its cousins take a card into the hand
                return f"takes {taken}"
            return f"takes {taken} and {_play_words(play)}"
        case Play():
            return _play_words(move)
        case Pass():
            return "passes"
        case Knock(card=card, melds=melds):
            text = "knocks" + (f", discarding {card_text(card)}" if card is not None else "")
            return text + "".join(f", melds [{cards_text(meld)}]" for meld in melds)
    return repr(move)


def _play_words(play: Play) -> str:
    parts = [f"swaps {card_text(ex.card)} for the joker in meld {ex.meld}" for ex in play.exchanges]
    parts += [f"melds [{cards_text(meld)}]" for meld in play.melds]
    parts += [f"adds {cards_text(lo.cards)} to meld {lo.meld}" for lo in play.layoffs]
    return ", ".join(parts) or "does nothing"
