"""Small helpers shared by the rule tests: build moves from card text, play them, check refusals."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from games.engine import (
    Discard,
    Exchange,
    GameState,
    IllegalMoveError,
    LayOff,
    Move,
    Play,
    TakeDiscard,
    apply_move,
    parse_card,
    parse_cards,
    state_to_json,
)


def play(
    *melds: str,
    layoffs: Iterable[tuple[int, str]] = (),
    exchanges: Iterable[tuple[int, str]] = (),
) -> Play:
    """A play from card text: new melds, lay-offs ``(meld id, cards)``, exchanges ``(meld id, card)``."""
    return Play(
        melds=tuple(parse_cards(m) for m in melds),
        layoffs=tuple(LayOff(meld_id, parse_cards(cards)) for meld_id, cards in layoffs),
        exchanges=tuple(Exchange(meld_id, parse_card(c)) for meld_id, c in exchanges),
    )


def take(
    card: str | None,
    *melds: str,
    layoffs: Iterable[tuple[int, str]] = (),
    exchanges: Iterable[tuple[int, str]] = (),
) -> TakeDiscard:
    """Take ``card`` (``None``: the top) from the discard pile with the play that uses it."""
    return TakeDiscard(parse_card(card) if card else None, play(*melds, layoffs=layoffs, exchanges=exchanges))


def discard(text: str) -> Discard:
    return Discard(parse_card(text))


def run(state: GameState, *steps: tuple[int, Move]) -> GameState:
    """Play ``(seat, move)`` steps in order."""
    for seat, move in steps:
        state = apply_move(state, seat, move).state
    return state


def refused(state: GameState, seat: int, move: Move, code: str | set[str]) -> IllegalMoveError:
    """The move raises ``code`` (or one of a set of codes); the state tried is unchanged."""
    before = state_to_json(state)
    with pytest.raises(IllegalMoveError) as info:
        apply_move(state, seat, move)
    codes = {code} if isinstance(code, str) else code
    assert info.value.code in codes, info.value
    assert state_to_json(state) == before
    return info.value


def faces(cards: Iterable[object]) -> list[str]:
    """Card faces without copy ids or declarations, sorted."""
    return sorted(str(c).split("#")[0].split("(")[0] for c in cards)


def table_cards(state: GameState, meld_id: int) -> str:
    """A table meld's cards as text, with joker declarations, without copy ids."""
    meld = state.meld_by_id(meld_id)
    assert meld is not None
    return " ".join(c.face + (f"({c.stands_for.face})" if c.stands_for else "") for c in meld.cards)


def points(state: GameState) -> list[int]:
    """Each seat's points in the last scored round."""
    return [line.points for line in state.results[-1].lines]
