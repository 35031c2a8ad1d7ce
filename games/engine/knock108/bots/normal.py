"""The Knock-108 bot: decides from one seat's view (``view_for``) and nothing else.

* **draw** — take the top discard when it lowers the hand's worth (loose points after the best
  discard, or the distance to a flush or figures) by 3 or more, or makes the hand ready to end the
  deal; otherwise draw from the stock.
* **play** — end the deal when the hand allows it (the view's ``you.knock`` hint: the best result
  over the possible discards, K108-Q7): a special hand or gin always, a knock with at most 5
  always (there is no undercut, K108-Q11, and a knock is paid half a stake by everyone). Otherwise
  discard the card whose loss leaves the best hand: jokers are kept, then the cards with partners.
* **extra exchange** (K108-16) — take the top discard if it lowers the loose points; otherwise
  draw from the stock (never worse: the drawn card may be discarded); pass only when neither can
  help. Then discard the card that leaves the fewest loose points.
* **buy-back** (K108-26) — come back when the record to take leaves room (at most
  ``BUY_BACK_RECORD``) and the bot has bought back fewer than ``BUY_BACK_TIMES`` times.

>>> from games.engine import variant, new_game, view_for
>>> from games.engine.bots import choose_move
>>> state = new_game(variant("knock108"), 3, seed=4)
>>> choose_move(view_for(state, state.turn)).__class__.__name__   # the dealer's first discard
'Discard'
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ...cards import RANK_NUMBER, Card, parse_card, parse_cards
from ...moves import Discard, DrawStock, Knock, Move, Pass, TakeDiscard
from ...rules import Rules, variant
from ...search import best_arrangement
from ..rules import KNOCK_LIMIT, deadwood, special_hand

__all__ = ["BUY_BACK_RECORD", "BUY_BACK_TIMES", "candidates"]

#: The highest record the bot is willing to come back with.
BUY_BACK_RECORD = 75
#: How many times the bot buys back in during one match.
BUY_BACK_TIMES = 2
#: What one missing card of a flush or figures is worth, against loose points.
_SPECIAL_STEP = 7


def candidates(view: Mapping[str, Any], rng: random.Random | None = None) -> Iterator[Move]:
    """Moves in order of preference for the seat whose view this is; the last ones are simple."""
    you = view.get("you") or {}
    if view.get("phase") == "over" or not you.get("my_turn"):
        return
    rules = variant(view["variant"], **view["options"])
    stage = view["stage"]
    if stage == "buy_back":
        offer = you.get("buy_back") or {}
        seat = int(view["seat"])
        times = int(view["stakes"]["buy_backs"][seat])
        if offer and int(offer["record"]) <= BUY_BACK_RECORD and times < BUY_BACK_TIMES:
            yield Knock()
        yield Pass()
        return
    hand = parse_cards(view["hand"])
    top = parse_card(view["discard"][-1]) if view["discard"] else None
    if view["phase"] == "draw":
        yield from _draws(rules, hand, top, exchange=stage == "exchange", stock=view["stock_size"] > 0)
        return
    allowed = [parse_card(text) for text in you["discards"]]
    if stage == "play":
        knock = you.get("knock")
        if knock is not None and knock["points"] <= KNOCK_LIMIT:
            yield Knock(parse_card(knock["card"]))
        for card in _discard_order(rules, hand, allowed, final=False):
            yield Discard(card)
        return
    for card in _discard_order(rules, hand, allowed, final=True):
        yield Discard(card)


def _worth(rules: Rules, cards: Sequence[Card], *, final: bool) -> int:
    """Lower is better: the loose points, or (while the deal goes on) how far a flush or figures is."""
    if special_hand(rules, cards) is not None:
        return -1
    points = deadwood(rules, cards)
    if final:
        return points
    return min(points, _special_distance(cards) * _SPECIAL_STEP)


def _special_distance(cards: Sequence[Card]) -> int:
    """How many cards are missing for a flush or figures (K108-12)."""
    naturals = [c for c in cards if not c.is_joker]
    suits = max(sum(1 for c in naturals if c.suit == suit) for suit in "SHDC")
    figures = sum(1 for c in naturals if c.rank in "JQKA")
    return len(naturals) - max(suits, figures)


def _best_after_discard(
    rules: Rules, cards: Sequence[Card], keep: Card | None, *, final: bool
) -> tuple[int, Card | None]:
    best: tuple[int, Card | None] = (10**6, None)
    for card in _unique(cards):
        if keep is not None and card.face == keep.face:
            continue
        rest = list(cards)
        rest.remove(card)
        worth = _worth(rules, rest, final=final)
        if worth < best[0]:
            best = (worth, card)
    return best


def _draws(
    rules: Rules, hand: Sequence[Card], top: Card | None, *, exchange: bool, stock: bool
) -> Iterator[Move]:
    now = _worth(rules, hand, final=exchange)
    if top is not None:
        after, discard = _best_after_discard(rules, [*hand, top], top, final=exchange)
        if exchange:
            # The deal is over after this exchange: any sure gain beats a blind draw.
            wanted = after < now
        else:
            # In play, a low card only replacing a high one is no better than the stock: take the
            # top when it goes into a meld or towards the special hand, or when it lets us knock.
            rest = [c for c in hand if c is not discard] + [top]
            wanted = (after <= KNOCK_LIMIT and after < now) or (
                now - after >= 3
                and (_melds(rules, rest, top) or _special_distance(rest) < _special_distance(hand))
            )
        if wanted:
            yield TakeDiscard()
    if stock and (not exchange or now > 0):
        yield DrawStock()
    if exchange:
        yield Pass()
    if stock:
        yield DrawStock()
    if top is not None:
        yield TakeDiscard()


def _melds(rules: Rules, cards: Sequence[Card], card: Card) -> bool:
    """Is ``card`` in a meld of the best arrangement of ``cards``?"""
    _, loose = best_arrangement(rules, cards)
    return not any(c.face == card.face for c in loose)


def _discard_order(rules: Rules, hand: Sequence[Card], allowed: Sequence[Card], *, final: bool) -> list[Card]:
    """The allowed discards, best first: the hand left is worth most, jokers kept, loners first."""
    scored = []
    for card in allowed:
        rest = list(hand)
        rest.remove(next(c for c in rest if c.face == card.face))
        key = (
            _worth(rules, rest, final=final),
            card.is_joker,
            _partners(card, rest),
            -rules.hand_value(card),
            card.face,
        )
        scored.append((key, card))
    scored.sort(key=lambda item: item[0])
    return [card for _, card in scored]


def _partners(card: Card, rest: Sequence[Card]) -> int:
    """How many cards might make a meld with ``card``: the same rank, or the same suit close by."""
    if card.is_joker:
        return 99

    def near(other: Card) -> bool:
        if other.is_joker:
            return True
        if other.rank == card.rank:
            return other.suit != card.suit
        return other.suit == card.suit and abs(RANK_NUMBER[other.rank] - RANK_NUMBER[card.rank]) <= 2

    return sum(1 for other in rest if near(other))


def _unique(cards: Sequence[Card]) -> list[Card]:
    seen: set[str] = set()
    out = []
    for card in cards:
        if card.face not in seen:
            seen.add(card.face)
            out.append(card)
    return out
