"""What a seat may do now in the rummy cycle: its legal moves and the hints its view carries.

Simple moves (draw, every discard) are listed in full. Composite moves (plays, takes from the
discard pile) have too many forms to list, so ``legal_moves`` lists the ones the engine's search
finds — an opening, each meld in the hand, each single lay-off, each joker exchange, each way to
take a discard — and every move it lists has been checked to be accepted by ``apply_move``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .. import errors
from ..cards import Card, card_texts, parse_card
from ..cycle import apply
from ..melds import may_extend, position_rank, set_recovery_cards
from ..moves import Discard, DrawStock, Exchange, LayOff, Move, Play, TakeDiscard
from ..rules import Rules
from ..search import (
    arrangement_value,
    best_arrangement,
    find_opening,
    kept_searches,
    melds_with,
    out_of_reach,
)
from ..state import GameState
from .play import may_build, rummy


def _accepted(state: GameState, seat: int, move: Move) -> bool:
    try:
        apply(state, seat, move)
    except errors.IllegalMoveError:
        return False
    return True


def _dedupe(moves: list[Move]) -> list[Move]:
    seen: set[str] = set()
    out: list[Move] = []
    for move in moves:
        key = repr(move)
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out


def take_options(state: GameState, seat: int) -> list[TakeDiscard]:
    """Ways to take from the discard pile/row that the search finds, one per reachable card."""
    rules = state.rules
    if state.phase != "draw" or not state.discard:
        return []
    if rules.first_turn_locked and state.turns_started[seat] <= 1:
        return []
    depths = [1]
    if rules.discard_take == "row" and may_build(state, seat):
        limit = rules.row_depth or len(state.discard)
        depths = list(range(1, min(limit, len(state.discard)) + 1))
    hand = list(state.hands[seat])
    out: list[TakeDiscard] = []
    for depth in depths:
        index = len(state.discard) - depth
        picked = state.discard[index]
        pool = hand + list(state.discard[index:])
        candidates: list[Play] = []
        if may_build(state, seat):
            # R500-9: a deep-taken card is melded only with cards from the hand.
            holders = [*hand, picked] if rules.deep_take_from_hand else pool
            for meld in melds_with(rules, holders, picked):
                candidates.append(Play(melds=(meld.cards,)))
            if rules.taken_card_layoff:  # R500-Q5, R40-Q5: or laid off onto a table meld
                for table_meld in state.melds:
                    if may_extend(table_meld.meld, picked):
                        candidates.append(Play(layoffs=(LayOff(table_meld.id, (picked,)),)))
        else:
            must_go_out = rules.take_before_opening_must_go_out
            opening = find_opening(rules, pool, include=picked, keep=1, cover=must_go_out)
            if opening is not None:
                candidates.append(Play(melds=tuple(m.cards for m in opening)))
        for play in candidates:
            move = TakeDiscard(picked, play)
            if _accepted(state, seat, move):
                out.append(move)
                break
    return out


def play_options(state: GameState, seat: int) -> list[Play]:
    """Plays the search finds from this position (each accepted by apply_move)."""
    rules = state.rules
    if state.phase != "play" or (rules.first_turn_locked and state.turns_started[seat] <= 1):
        return []
    hand = list(state.hands[seat])
    out: list[Play] = []
    if not may_build(state, seat):
        opening = find_opening(rules, hand, keep=1)
        if opening is not None:
            out.append(Play(melds=tuple(m.cards for m in opening)))
        return [p for p in out if _accepted(state, seat, p)]
    melds, _ = best_arrangement(rules, hand)
    for meld in melds:
        out.append(Play(melds=(meld.cards,)))
    for card in hand:
        for table_meld in state.melds:
            if may_extend(table_meld.meld, card):  # most pairs cannot fit: not tried by apply
                out.append(Play(layoffs=(LayOff(table_meld.id, (card,)),)))
    for table_meld in state.melds:
        meld = table_meld.meld
        for slot, rep in zip(meld.cards, meld.represented, strict=True):
            if not slot.is_joker:
                continue
            if meld.kind == "set" and rules.set_joker_exchange == "all_missing":
                naturals = set_recovery_cards(meld, hand)  # R40-22: both missing cards
            else:
                natural = next(
                    (c for c in hand if not c.is_joker and _can_replace(state, table_meld.meld, rep, c)),
                    None,
                )
                naturals = [natural] if natural is not None else []
            if not naturals:
                continue
            exchanges = tuple(Exchange(table_meld.id, natural) for natural in naturals)
            if rules.joker_exchange == "buyback":
                out.append(Play(exchanges=exchanges))
            else:
                rest = [c for c in hand if c not in naturals] + [slot.bare()]
                for holder in melds_with(rules, rest, slot.bare()):
                    out.append(Play(exchanges=exchanges, melds=(holder.cards,)))
                if rules.exchanged_joker_layoff:  # R40-21: or laid off onto a table meld
                    for other in state.melds:
                        for spot in _joker_spots(other.meld):
                            joker = slot.bare().declared(spot)
                            out.append(Play(exchanges=exchanges, layoffs=(LayOff(other.id, (joker,)),)))
    return [p for p in _dedupe(list(out)) if _accepted(state, seat, p)]  # type: ignore[misc]


def _joker_spots(meld: Any) -> list[Card]:
    """The cards a joker laid off onto ``meld`` could stand for (the run's ends, a set's free suits)."""
    if meld.kind == "run":
        spots = []
        if meld.start > 1:
            spots.append(Card(position_rank(meld.start - 1), meld.suit))
        if meld.end < 14:
            spots.append(Card(position_rank(meld.end + 1), meld.suit))
        return spots
    taken = {rep.suit for rep in meld.represented}
    return [Card(meld.rank, suit) for suit in "SHDC" if suit not in taken][:1]


def _can_replace(state: GameState, meld: Any, rep: Card, card: Card) -> bool:
    if meld.kind == "run" or state.rules.policy.set_declaration_binding:
        return rep.same_face(card)
    return card.rank == meld.rank and card.suit not in {c.suit for c in meld.cards if not c.is_joker}


def legal_moves(state: GameState, seat: int) -> list[Move]:
    """Moves ``seat`` (the seat to move) may make now (see the module note on composite moves)."""
    moves: list[Move] = []
    if state.phase == "draw":
        moves.append(DrawStock())
        moves.extend(take_options(state, seat))
        return moves
    seen: set[Card] = set()
    for card in state.hands[seat]:
        if card not in seen:
            seen.add(card)
            moves.append(Discard(card))
    moves.extend(play_options(state, seat))
    return moves


def opening_progress(state: GameState, seat: int) -> dict[str, Any]:
    """For a seat that has not opened: the best opening the hand holds and what is missing.

    It depends only on the rules and the hand, and a hand changes only when its seat moves, so
    the search runs once per hand (``_opening_progress``, memoised); every call gets new lists.
    """
    (required_points, required_run, points, has_run, ready, missing, melds) = _opening_progress(
        state.rules, tuple(card_texts(state.hands[seat]))
    )
    return {
        "required_points": required_points,
        "required_run": required_run,
        "best_points": points,
        "has_run": has_run,
        "ready": ready,
        "missing": list(missing),
        "melds": [list(meld) for meld in melds],
    }


#: Hands whose opening hints are kept: every seat of a few hundred tables, several times over.
OPENING_CACHE_SIZE = 8192

_Progress = tuple[int, str, int, bool, bool, tuple[str, ...], tuple[tuple[str, ...], ...]]


@lru_cache(maxsize=OPENING_CACHE_SIZE)
def _opening_progress(rules: Rules, hand: tuple[str, ...]) -> _Progress:
    """``opening_progress`` as immutable values, for one rule set and one hand (in its order).

    The hand is keyed by its cards' text, not by ``Card`` objects: a cache of plain strings is
    invisible to the garbage collector, whose full passes over a server's heap are what a move
    waits for when one lands in the middle of them (``make loadtest``).
    """
    cards = [parse_card(text) for text in hand]
    # A table's hands change by a card or two a move: their searches meet the same positions,
    # which a memo kept from hand to hand answers (docs/benchmarks.md, "The opening hint's search").
    with kept_searches():
        melds, _ = best_arrangement(rules, cards)
        best_points = arrangement_value(rules, melds)
        # None below the minimum (search.out_of_reach), asked with the value in hand rather than
        # by find_opening, which would value the melds again.
        found = (
            None
            if out_of_reach(rules, len(cards), best_points)
            else find_opening(rules, cards, keep=1, arranged=melds)
        )
    has_run = any(m.kind == "run" and (m.is_pure or rules.opening_run != "pure") for m in (found or melds))
    points = arrangement_value(rules, found) if found else best_points
    missing = []
    if rules.opening_run != "none" and not has_run:
        missing.append("pure_run" if rules.opening_run == "pure" else "run")
    if points < rules.opening_minimum:
        missing.append("points")
    return (
        rules.opening_minimum,
        rules.opening_run,
        points,
        has_run,
        found is not None,
        tuple(missing),
        tuple(tuple(card_texts(m.cards)) for m in (found or melds)),
    )


def seat_options(state: GameState, seat: int) -> dict[str, Any]:
    """The ``you`` part of a seat's view: what it may do now, without revealing anything hidden."""
    rules = state.rules
    my_turn = state.phase != "over" and seat == state.turn
    locked = rules.first_turn_locked and state.turns_started[seat] <= 1 and my_turn
    kinds: list[str] = []
    if my_turn and state.phase == "draw":
        kinds.append("draw")
        if state.discard and not locked:
            kinds.append("take")
    elif my_turn and state.phase == "play":
        kinds.append("discard")
        if not locked:
            kinds.append("play")
    reachable: list[str] = []
    if my_turn and state.phase == "draw" and state.discard and not locked:
        if rules.discard_take == "row" and may_build(state, seat):
            limit = rules.row_depth or len(state.discard)
            reachable = [str(c) for c in state.discard[-limit:]]
        else:
            reachable = [str(state.discard[-1])]
    return {
        "my_turn": my_turn,
        "moves": kinds,
        "discards": card_texts(state.hands[seat]) if my_turn and state.phase == "play" else [],
        "takeable": reachable,
        "first_turn": state.turns_started[seat] <= 1,
        "opened": rummy(state).opened[seat],
        "opening": None if may_build(state, seat) else opening_progress(state, seat),
        "stock_empty": not state.stock,
    }
