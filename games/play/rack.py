"""The rack's read-only question to the engine: which of my blocks are melds, and can I lay them down?

Asked by the table for the live game over HTTP (``games/play/views/table.py``, ``GET
/matches/<id>/rack/?q=<json>``) and, in practice, of the engine in the browser's worker
(``games.practice.game``): one function, :func:`check`, answers both. Pure Python, no Django.

The query is ``{"groups": [[card id, ...], ...], "move": {...}}``:

* ``groups``: the blocks of three or more cards the player has put side by side on their rack
  (RMI-UI-5), each in rack order. Only cards of the asking seat's own hand may be named, plus the
  public cards the move being built brings in (the discard cards a take reaches, the atu, a joker
  freed by an exchange of this move written ``JK``); anything else is answered ``card_not_in_hand``
  without looking further, so the answer never says anything about another hand or the stock.
* ``move`` (optional): the rest of the move being built on the table, in the wire form of
  docs/protocol.md (``{"kind": "take", "card": ...}`` and/or ``melds``, ``layoffs``, ``exchanges``).

The answer, for the asking seat only::

    {"seat": 0,
     "groups": [{"meld": true, "kind": "run", "pure": true, "points": 29, "cards": ["9S", "TS", "JS"]},
                {"meld": false, "code": "not_consecutive", "message": "..."}],
     "lay_down": {"possible": false, "points": 29, "code": "opening_too_low", "message": "...",
                  "move": {...}}}

``lay_down`` is the move the "lay down everything" button would send (the move being built plus
every block that is a meld, RMI-UI-6) and whether the engine accepts it now: the engine applies it
to a copy of the state (``apply_move`` leaves the state it is given alone), so every condition
— first turn, opening minimum, pure run, the taken card used, a card kept to discard — is the
engine's, and its stable error code says which one is missing (RMI-UI-7). No rule is decided here
or in the browser. Nothing is stored.

>>> from games import engine
>>> state = engine.new_game(engine.variant("remik51"), ["Ana", "Bob"], seed=2026)
>>> answer = check(state, state.turn, {"groups": [], "move": {"kind": "play"}})
>>> answer["lay_down"]["possible"], answer["lay_down"]["code"]
(False, 'nothing_to_lay')
>>> check(state, state.turn, {"groups": "no"})
Traceback (most recent call last):
...
games.play.rack.MalformedQueryError: q is a JSON object with groups of card ids and a move
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from games import engine
from games.engine import Card, IllegalMoveError, InvalidMeldError, Play, TakeDiscard, parse_card

MAX_GROUPS = 12
MAX_CARDS = 40


class MalformedQueryError(ValueError):
    """The query is not ``{"groups": [[card id, ...], ...], "move": {...}}``."""

    code: ClassVar[str] = "malformed_query"

    def __init__(self) -> None:
        super().__init__("q is a JSON object with groups of card ids and a move")


def _english(error: IllegalMoveError) -> str:
    return str(error)


def check(
    state: engine.GameState,
    seat: int,
    query: Any,
    *,
    said: Callable[[IllegalMoveError], str] = _english,
) -> dict[str, Any]:
    """The engine's answer to ``query`` (parsed JSON) for ``seat``; ``said`` words a refusal
    (the site: in the page's language, ``games/shared/i18n_errors.py``; by default the engine's English).

    Raises :class:`MalformedQueryError` for a query that cannot be read.
    """
    groups, base = _read_query(query)
    rules = state.rules
    allowed = _allowed_cards(state, seat, base)
    answers: list[dict[str, Any]] = []
    found: list[tuple[Card, ...]] = []
    points = 0
    for group in groups:
        if not _within(group, allowed):
            answers.append(
                {
                    "meld": False,
                    "code": "card_not_in_hand",
                    "message": "a card of this block is not yours to use",
                }
            )
            continue
        answer, meld = _read_block(rules, group, said)
        answers.append(answer)
        if meld is not None:
            found.append(meld.cards)
            points += int(answer["points"])

    play = base.play if isinstance(base, TakeDiscard) else base
    for meld_cards in play.melds:
        with contextlib.suppress(InvalidMeldError):
            points += rules.meld_points(meld_cards)
    full = Play(melds=play.melds + tuple(found), layoffs=play.layoffs, exchanges=play.exchanges)
    move = TakeDiscard(base.card, full) if isinstance(base, TakeDiscard) else full
    lay_down: dict[str, Any] = {"points": points, "move": engine.move_to_json(move), "melds": len(full.melds)}
    if full.is_empty:
        lay_down.update(possible=False, code="nothing_to_lay", message="no meld on the rack yet")
    else:
        try:
            engine.apply_move(state, seat, move)
        except IllegalMoveError as error:
            lay_down.update(possible=False, code=error.code, message=said(error))
        else:
            lay_down.update(possible=True)
    return {"seat": seat, "groups": answers, "lay_down": lay_down}


def read_block(rules: Any, cards: Sequence[Card]) -> Any:
    """The meld a block of cards makes as the rack reads it (``Rules.meld_reading``: as it lies,
    else in an order that makes it a meld, a joker declared where its place says what it stands
    for). Raises the engine's ``InvalidMeldError`` of the block as it lies."""
    return rules.meld_reading(cards)


def read_move(rules: Any, move: engine.Move) -> engine.Move:
    """``move`` with each of its new melds read as the rack reads a block (:func:`read_block`),
    so that a move built card by card ("New meld from selected", a joker left on "★ = auto")
    means what the same cards side by side on the rack mean; a meld the rack cannot read stays
    as it was, for the engine to refuse. Lay-offs and exchanges are left alone.

    >>> from games import engine
    >>> move = read_move(engine.variant("remik51"), engine.move_from_json(
    ...     {"kind": "play", "melds": [["2C", "3C", "AC"], ["JH", "JK", "JC"]]}))
    >>> engine.move_to_json(move)["melds"]
    [['AC', '2C', '3C'], ['JH', 'JC', 'JK(JS)']]
    """
    play = move.play if isinstance(move, TakeDiscard) else move
    if not isinstance(play, Play) or not play.melds:
        return move
    melds: list[tuple[Card, ...]] = []
    for cards in play.melds:
        try:
            melds.append(tuple(read_block(rules, cards).cards))
        except InvalidMeldError:
            melds.append(tuple(cards))
    read = dataclasses.replace(play, melds=tuple(melds))
    return dataclasses.replace(move, play=read) if isinstance(move, TakeDiscard) else read


def _read_query(query: Any) -> tuple[list[list[Card]], Play | TakeDiscard]:
    try:
        if not isinstance(query, dict):
            raise ValueError("query")
        groups_raw = query.get("groups", [])
        move_raw = query.get("move") or {"kind": "play"}
        if not isinstance(groups_raw, list) or len(groups_raw) > MAX_GROUPS:
            raise ValueError("groups")
        if not all(
            isinstance(g, list) and len(g) <= MAX_CARDS and all(isinstance(c, str) for c in g)
            for g in groups_raw
        ):
            raise ValueError("groups")
        groups = [[parse_card(text) for text in group] for group in groups_raw]
        base = engine.move_from_json(move_raw)
        if not isinstance(base, Play | TakeDiscard):
            raise ValueError("move")
    except (ValueError, AttributeError, IllegalMoveError):
        raise MalformedQueryError() from None
    return groups, base


def _allowed_cards(state: Any, seat: int, base: Any) -> Counter[str]:
    """The physical cards this seat may put in a block: its hand and the public cards of the move."""
    allowed: Counter[str] = Counter(str(card.bare()) for card in state.hands[seat])
    if isinstance(base, TakeDiscard) and state.discard:
        row = [str(card.bare()) for card in state.discard]
        wanted = str(base.card.bare()) if base.card is not None else row[-1]
        if wanted in row:
            index = len(row) - 1 - row[::-1].index(wanted)
            allowed.update(row[index:])
    atu = engine.free_atu(state)
    if atu is not None:
        allowed[str(atu.bare())] += 1
    play = base.play if isinstance(base, TakeDiscard) else base
    allowed["JK"] += len(play.exchanges)  # a joker freed by this move's exchanges
    return allowed


def _within(group: list[Card], allowed: Counter[str]) -> bool:
    need = Counter(str(card.bare()) for card in group)
    return all(allowed[text] >= count for text, count in need.items())


def _read_block(
    rules: Any, group: list[Card], said: Callable[[IllegalMoveError], str]
) -> tuple[dict[str, Any], Any]:
    """The engine's reading of a block: as it lies on the rack, else in an order that makes it a meld."""
    try:
        meld = read_block(rules, group)
    except InvalidMeldError as error:
        return {"meld": False, "code": error.code, "message": said(error)}, None
    answer = {
        "meld": True,
        "kind": meld.kind,
        "pure": meld.is_pure,
        "points": rules.meld_value(meld),
        "cards": [str(card) for card in meld.cards],
    }
    return answer, meld


__all__ = ["MAX_CARDS", "MAX_GROUPS", "MalformedQueryError", "check", "read_block", "read_move"]
