"""The gin family's bot: it decides from one seat's view (``view_for``), never from the state.

Policy (``gin.md``; the same for Oklahoma, whose knock limit is in the view):

* **up-card offer / draw** - take the face-up card when it lowers the best deadwood the hand can
  reach after its discard (the taken card itself may not be discarded, GIN-Q5); otherwise pass the
  offer or draw from the stock.
* **after drawing** - knock as soon as it is legal (within the deal's limit, GIN-15 / OKL-2),
  with the discard that leaves the least deadwood, gin whenever possible; otherwise discard the
  card that leaves the least deadwood, the highest of those, and among equals the one that helps
  the fewest other cards (no neighbour of its suit within two ranks, no card of its rank).
* **the defender's reply** - lay the best melds and lay-offs onto the knocker's melds (none onto
  a gin hand, GIN-21) in one play, then pass to be counted.

The last candidates are always simple legal moves (a pass, a draw, every allowed discard).

>>> from games.engine import variant, view_for
>>> from games.engine.positions import gin_position
>>> state = gin_position(variant("gin"), hands=["AD 2D 3D 6C 7C 8C 9C KS KH KD 5H", "2S 3S"],
...                      discard="QH", stock="4H 5S 6S", turn=0, phase="play", rest="drop")
>>> describe_move(next(iter(candidates(view_for(state, 0)))))
'knock, discarding 5H'
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from ...cards import Card, parse_card, parse_cards
from ...moves import Discard, DrawStock, Knock, LayOff, Move, Pass, Play, TakeDiscard, describe_move
from ..deadwood import VALUES, bit_of, deadwood, index_of, mask_of, with_layoffs

__all__ = ["candidates", "describe_move"]


def _value(card: Card) -> int:
    return VALUES[index_of(card) % 13]


def _best_after(hand: list[Card], exclude: str | None) -> int:
    """The least deadwood of ``hand`` after one discard (not the card ``exclude``)."""
    mask = mask_of(hand)
    return min(deadwood(mask ^ bit_of(card)) for card in hand if str(card) != exclude)


def _helps(hand: list[Card], card_id: str) -> bool:
    """Does taking ``card_id`` lower the deadwood the hand reaches after its discard?"""
    card = parse_card(card_id)
    return _best_after([*hand, card], card_id) < deadwood(mask_of(hand))


def _links(card: Card, hand: list[Card]) -> int:
    """How many other cards ``card`` could meld with (same rank, or same suit within two ranks)."""
    rank = index_of(card) % 13
    count = 0
    for other in hand:
        if other is card:
            continue
        other_rank = index_of(other) % 13
        if other.rank == card.rank or (other.suit == card.suit and abs(other_rank - rank) <= 2):
            count += 1
    return count


def _reply(view: Mapping[str, Any], hand: list[Card]) -> Iterator[Move]:
    knock = view["gin"]["knock"]
    targets = [
        meld
        for meld in view["melds"]
        if not (knock is not None and knock["gin"] and meld["owner"] == knock["seat"])
    ]
    _, laid, own = with_layoffs(mask_of(hand), [mask_of(parse_cards(m["cards"])) for m in targets])
    by_bit = {bit_of(card): card for card in hand}

    def cards(mask: int) -> tuple[Card, ...]:
        out = []
        while mask:
            low = mask & -mask
            out.append(by_bit[low])
            mask ^= low
        return tuple(out)

    melds = tuple(cards(mask) for mask in own)
    layoffs = tuple(
        LayOff(int(meld["id"]), cards(mask)) for meld, mask in zip(targets, laid, strict=True) if mask
    )
    if melds or layoffs:
        yield Play(melds=melds, layoffs=layoffs)
    yield Pass()


def candidates(view: Mapping[str, Any], rng: random.Random | None = None) -> Iterator[Move]:
    """The bot's moves for the seat whose view this is, best first (see the module docstring)."""
    block = view["gin"]
    hand = list(parse_cards(view["hand"]))
    step = block["step"]
    if step == "reply":
        yield from _reply(view, hand)
        return
    if step == "offer":
        up = view["discard"][-1]
        if _helps(hand, up):
            yield TakeDiscard(parse_card(up))
        yield Pass()
        return
    if view["phase"] == "draw":
        if not block["stock_only"] and view["discard"] and _helps(hand, view["discard"][-1]):
            yield TakeDiscard(parse_card(view["discard"][-1]))
        yield DrawStock()
        return
    taken = block["taken"]
    mask = mask_of(hand)
    allowed = [card for card in hand if str(card) != taken]
    ranked = sorted(
        allowed,
        key=lambda card: (deadwood(mask ^ bit_of(card)), -_value(card), _links(card, hand), str(card)),
    )
    best = ranked[0]
    if deadwood(mask ^ bit_of(best)) <= int(block["knock_limit"]):
        yield Knock(best)
    for card in ranked:
        yield Discard(card)
