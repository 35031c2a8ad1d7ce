"""The defender's reply after a knock in the gin family (GIN-16..18, GIN-21, GIN-Q8).

The defender lays melds from the hand and lays off onto the table's melds (never onto loose cards,
GIN-17; not onto the knocker's melds after gin, GIN-21) in one or more plays, then passes: the
engine lays what is left as well as it can and the deal is scored. ``reply_plays`` lists the plays
``legal_moves`` offers. The turn cycle around it is :mod:`.gin`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import errors, steps
from ..cards import Card
from ..events import Event, public
from ..melds import extend_meld, read_meld
from ..moves import LayOff, Move, Pass, Play
from ..rules import Rules
from ..state import GameState, Transition, evolve
from .deadwood import bit_of, mask_of, with_layoffs
from .deal import card_ids, knock_of, score

__all__ = ["reply_done", "reply_play", "reply_plays"]


def cards_of(mask: int, hand: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` in ``mask``, suit by suit and low to high (a run in meld order)."""
    by_bit = {bit_of(card): card for card in hand}
    out = []
    while mask:
        low = mask & -mask
        out.append(by_bit[low])
        mask ^= low
    return out


def _lay_off(rules: Rules, target: Any, cards: Sequence[Card], seat: int) -> Any:
    return steps.lay_off(rules.policy, target, cards, seat, rule="GIN-16")


def _targets(state: GameState) -> list[Any]:
    """The table melds the defender may lay off onto (none of a gin hand's, GIN-21)."""
    knock = knock_of(state)
    return [m for m in state.melds if not (knock.gin and m.owner == knock.seat)]


def reply_play(state: GameState, seat: int, play: Play) -> Transition:
    rules = state.rules
    if play.exchanges:
        raise errors.JokerExchangeError("there are no jokers in gin (GIN-2)", rule="GIN-2")
    if play.is_empty:
        raise errors.MalformedMoveError("a play lays melds or lays off cards (or pass)")
    knock = knock_of(state)
    pool = list(state.hands[seat])
    new_melds = [read_meld(steps.take_cards(pool, written, "meld"), rules.policy) for written in play.melds]
    table = {m.id: m for m in state.melds}
    events: list[Event] = []
    for layoff in play.layoffs:
        target = table.get(layoff.meld)
        if target is None:
            raise errors.UnknownMeldError(
                f"there is no meld {layoff.meld} on the table (lay-offs go onto melds only, GIN-17)",
                meld=layoff.meld,
            )
        if knock.gin and target.owner == knock.seat:
            raise errors.CannotLayOffError(
                "nothing may be laid off onto a gin hand", rule="GIN-21", meld=layoff.meld
            )
        cards = steps.take_cards(pool, layoff.cards, "lay-off")
        table[target.id] = _lay_off(rules, target, cards, seat)
        events.append(public("laid_off", seat=seat, meld=target.id, cards=card_ids(cards)))
    next_id = state.next_meld_id
    melds = [table[m.id] for m in state.melds]
    for meld in new_melds:
        melds.append(steps.meld_on_table(seat, next_id, meld))
        events.append(public("melded", seat=seat, meld=next_id, cards=card_ids(meld.cards), points=0))
        next_id += 1
    new = evolve(state, hands=steps.with_hand(state, seat, pool), melds=tuple(melds), next_meld_id=next_id)
    if not pool:
        return score(new, events)  # nothing left to lay: the reply is over
    return Transition(new, tuple(events))


def reply_done(state: GameState, seat: int, move: Pass) -> Transition:
    """Pass: the engine lays the rest of the defender's hand as well as it can, then scores."""
    rules = state.rules
    hand = list(state.hands[seat])
    targets = _targets(state)
    events: list[Event] = []
    _, laid, own = with_layoffs(mask_of(hand), [mask_of(m.cards) for m in targets])
    table = {m.id: m for m in state.melds}
    used = 0
    for target, mask in zip(targets, laid, strict=True):
        if mask:
            cards = cards_of(mask, hand)
            table[target.id] = _lay_off(rules, target, cards, seat)
            events.append(public("laid_off", seat=seat, meld=target.id, cards=card_ids(cards)))
            used |= mask
    melds = [table[m.id] for m in state.melds]
    next_id = state.next_meld_id
    for mask in own:
        meld = read_meld(cards_of(mask, hand), rules.policy)
        melds.append(steps.meld_on_table(seat, next_id, meld))
        events.append(public("melded", seat=seat, meld=next_id, cards=card_ids(meld.cards), points=0))
        next_id += 1
        used |= mask
    left = tuple(card for card in hand if not bit_of(card) & used)
    new = evolve(state, hands=steps.with_hand(state, seat, left), melds=tuple(melds), next_meld_id=next_id)
    return score(new, events)


def reply_plays(state: GameState, seat: int) -> list[Move]:
    """Plays the engine offers the defender: its best melds and lay-offs, and each one alone."""
    hand = list(state.hands[seat])
    targets = _targets(state)
    _, laid, own = with_layoffs(mask_of(hand), [mask_of(m.cards) for m in targets])
    melds = tuple(tuple(cards_of(mask, hand)) for mask in own)
    layoffs = tuple(
        LayOff(target.id, tuple(cards_of(mask, hand)))
        for target, mask in zip(targets, laid, strict=True)
        if mask
    )
    candidates: list[Play] = []
    if melds or layoffs:
        candidates.append(Play(melds=melds, layoffs=layoffs))
    several = len(melds) + len(layoffs) > 1
    candidates += [Play(melds=(meld,)) for meld in melds] if several else []
    candidates += [Play(layoffs=(layoff,)) for layoff in layoffs] if several else []
    for target in targets:  # single cards that fit, whether or not the best count uses them
        for card in hand:
            try:
                extend_meld(target.meld, card, state.rules.policy)
            except errors.InvalidMeldError:
                continue
            candidates.append(Play(layoffs=(LayOff(target.id, (card,)),)))
    out: list[Move] = []
    seen: set[str] = set()
    for play in candidates:
        key = repr(play)
        if key in seen:
            continue
        seen.add(key)
        try:
            reply_play(state, seat, play)
        except errors.IllegalMoveError:
            continue
        out.append(play)
    return out
