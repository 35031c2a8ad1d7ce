"""The hard bot of the gin family (gin and Oklahoma), from one seat's view only.

Hands are 52-bit masks (:mod:`games.engine.gin.deadwood`), cheap enough to look at every card the bot might
draw and at many hands the opponent might hold. What the bot has not seen (:mod:`games.engine.bots.unseen`:
not in its hand, not in the discard pile, not the first up-card the opponent took, which it knows is in that
hand) is what the stock and the opponent's hand are made of.

* **Knocking** (the change that pays most: docs/benchmarks.md, "The bots"): the normal bot knocks
  as soon as the deal's limit allows (GIN-15 / OKL-2). The hard bot first deals the opponent
  :data:`SAMPLES` hands consistent with the view: its known cards, the rest drawn from the unseen
  cards, then improved by as many greedy draws as the opponent has had turns (a hand that has been
  played for six turns is much better than a random one). It scores its knock against each (the
  opponent's lay-offs onto its melds, the undercut bonus, GIN-16 to GIN-20) and knocks only when the
  average is above :data:`KNOCK_MARGIN`; otherwise it discards and plays on, to knock lower or go
  gin. Gin is always taken.
* **Discards by look-ahead**: among the normal bot's :data:`TRIED` best discards (least deadwood
  left, the highest card), the ten cards kept are scored by the deadwood they are expected to have
  after the next draw and its best discard, over every unseen card: a pair whose third card is
  dead in the pile counts for nothing, a run fragment open at both ends with live cards for a lot.
* **Taking** the face-up card (the up-card offer, GIN-8, and every draw, GIN-9; the change that
  pays most in Oklahoma): the normal bot takes any card that lowers its deadwood. The hard bot
  takes it only when the hand it keeps is expected to hold less deadwood one draw later than after
  a blind stock draw: the take's best ten cards (the taken card kept, GIN-Q5) scored as above,
  against the average over every card the stock may give of that draw's best discard (among the
  three that leave the least deadwood) scored the same way. A card that saves a point or two now is
  left for a stock card that may save more or start a meld; a card that makes a meld is taken.
  Hard vs normal, 400 matches (seeds 0 and 1 of 200): Oklahoma 55.6% (was 49.8%), gin 67.3% (was
  61.0%).
* The defender's reply (its lay-offs are already optimal) is the normal bot's.

The sampled hands are drawn with the ``rng`` the level gives (:mod:`games.engine.bots.levels`: seeded from the
view itself), so the same view always gives the same move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ...bots.unseen import Unseen
from ...cards import Card, parse_card, parse_cards
from ...moves import Discard, DrawStock, Knock, Move, Pass, TakeDiscard
from ..deadwood import VALUES, arrangement, bit_of, deadwood, deadwood_after_discard, mask_of, with_layoffs
from . import normal

__all__ = ["KNOCK_MARGIN", "SAMPLES", "TRIED", "TRIED_AFTER_DRAW", "candidates"]

#: Opponent hands sampled for the knock decision.
SAMPLES = 16
#: Knock when the knock's average points over the samples are above this (lost points negative).
KNOCK_MARGIN = 0.0
#: Discards compared by look-ahead (the normal bot's best few).
TRIED = 4
#: After each possible stock draw, the discards (least deadwood first) compared by look-ahead.
TRIED_AFTER_DRAW = 3
#: The undercut bonus (GIN-20), the deal's factor applies to it as to the rest (OKL).
UNDERCUT_BONUS = 25


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _value(bit: int) -> int:
    return VALUES[(bit.bit_length() - 1) % 13]


def _greedy(hand: int, keep: int = 0) -> tuple[int, int]:
    """(deadwood, bit) of the discard of ``hand`` that leaves the least deadwood (the highest card
    on ties), never a card of ``keep``."""
    best = (1 << 30, 0, 0)
    for bit in _bits(hand & ~keep):
        key = (deadwood(hand ^ bit), -_value(bit), bit)
        if key < best:
            best = key
    return best[0], best[2]


class _Deal:
    """What one seat knows of the deal, and what it may guess of the rest."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.view = view
        seat = int(view["seat"])
        self.opponent = 1 - seat
        unseen = Unseen.from_view(view)
        self.known = mask_of(list(unseen.known.get(self.opponent, ())))
        #: The cards the stock may give (the unseen ones the opponent is not known to hold).
        self.draws = sorted({bit_of(card) for card in unseen.cards} - set(_bits(self.known)))
        self.limit = int(view["gin"]["knock_limit"])
        #: ``deadwood_after_discard`` of the eleven-card hands met so far: the look-aheads meet the
        #: same hand many times (hand + a + b, less c, whichever of a and b came first).
        self.after_discard: dict[int, int] = {}

    def outlook(self, rest: int) -> float:
        """The deadwood the ten cards ``rest`` are expected to leave after one more draw and its
        best discard, over every card the stock may give (lower is better)."""
        draws = [bit for bit in self.draws if not bit & rest]
        if not draws:
            return float(deadwood(rest))
        known = self.after_discard
        total = 0
        for bit in draws:
            eleven = rest | bit
            value = known.get(eleven)
            if value is None:
                value = known[eleven] = deadwood_after_discard(eleven)
            total += value
        return total / len(draws)

    def opponent_hands(self, rng: random.Random) -> list[int]:
        """Hands the opponent may hold: its known cards and unseen ones, improved by as many greedy
        draws (draw a card, drop the one that leaves the least deadwood) as it has had turns."""
        view = self.view
        size = min(10, int(view["hand_sizes"][self.opponent]))
        turns = int(view["turns_started"][self.opponent])
        known = self.known
        need = max(0, size - len(_bits(known)))
        hands = []
        for _ in range(SAMPLES):
            pool = list(self.draws)
            rng.shuffle(pool)
            hand = known
            for bit in pool[:need]:
                hand |= bit
            for bit in pool[need : need + turns]:
                _, out = _greedy(hand | bit, keep=known)
                hand = (hand | bit) ^ out
            hands.append(hand)
        return hands

    def knock_worth(self, rest: int, points: int, rng: random.Random) -> float:
        """The average points of knocking now with ``rest`` (``points`` deadwood) over sampled
        opponent hands: what they lay off onto our melds counts for them, an undercut against us."""
        _, melds = arrangement(rest)
        hands = self.opponent_hands(rng)
        total = 0
        for hand in hands:
            defended = with_layoffs(hand, melds)[0]
            total += defended - points if points < defended else -(points - defended + UNDERCUT_BONUS)
        return total / len(hands)


def _discards(hand: Sequence[Card], mask: int, keep: int, deal: _Deal) -> list[Card]:
    """The hand's discards, best first: the normal bot's few best by look-ahead, then the rest."""
    allowed = [card for card in hand if not bit_of(card) & keep]
    cards = list(hand)

    def normal_key(card: Card) -> tuple[int, int, int, str]:
        bit = bit_of(card)
        return deadwood(mask ^ bit), -_value(bit), normal._links(card, cards), str(card)

    ranked = sorted(allowed, key=normal_key)
    head = ranked[:TRIED]
    scored = sorted((deal.outlook(mask ^ bit_of(card)), i, card) for i, card in enumerate(head))
    return [card for _, _, card in scored] + ranked[TRIED:]


def _take_is_better(hand: int, up: int, deal: _Deal) -> bool:
    """Is taking the face-up card ``up`` better than a blind stock draw? Both are scored by the
    deadwood expected one draw later (:meth:`_Deal.outlook`): after the take, of its best ten cards
    (``up`` kept: it may not be discarded at once, GIN-Q5); after a stock draw, of that draw's best
    ten cards, averaged over every card the stock may give."""
    take = min(deal.outlook((hand | up) ^ bit) for bit in _bits(hand))
    draws = [bit for bit in deal.draws if not bit & hand]
    if not draws:
        return False
    total = 0.0
    for draw in draws:
        eleven = hand | draw
        tried = sorted(_bits(eleven), key=lambda bit: deadwood(eleven ^ bit))[:TRIED_AFTER_DRAW]
        total += min(deal.outlook(eleven ^ bit) for bit in tried)
    return take < total / len(draws)


def candidates(view: Mapping[str, Any], rng: random.Random) -> Iterator[Move]:
    """The hard bot's moves for the seat whose view this is, best first."""
    block = view["gin"]
    step = block["step"]
    if step == "reply":
        yield from normal.candidates(view, rng)
        return
    if step == "offer" or view["phase"] == "draw":
        if step == "offer" or (not block["stock_only"] and view["discard"]):
            up = parse_card(view["discard"][-1])
            if _take_is_better(mask_of(parse_cards(view["hand"])), bit_of(up), _Deal(view)):
                yield TakeDiscard(up)
            if step == "offer":
                yield Pass()
                return
        yield DrawStock()
        return
    hand = list(parse_cards(view["hand"]))
    mask = mask_of(hand)
    deal = _Deal(view)
    taken = block["taken"]
    keep = bit_of(parse_card(taken)) if taken else 0
    order = _discards(hand, mask, keep, deal)
    knock = min(order, key=lambda card: (deadwood(mask ^ bit_of(card)), -_value(bit_of(card))))
    points = deadwood(mask ^ bit_of(knock))
    if points <= deal.limit and (
        points == 0 or deal.knock_worth(mask ^ bit_of(knock), points, rng) > KNOCK_MARGIN
    ):
        yield Knock(knock)
    for card in order:
        yield Discard(card)
