"""Remik 40's hard level: the shared hard bot (:mod:`.hard`) tuned for a race to go out.

One deal decides a Remik 40 game: the first player to go out wins (R40-25, R40-Q11), and the
penalty points of the others only share out the rest of the pool (R40-29). Speed, not points, wins,
so this bot leaves out what the shared hard bot does for penalty variants and adds a look-ahead:

* **no holding back**: it opens as soon as it can (R40-18) instead of keeping the opening for a
  one-go "Remik" (R40-28): an open seat builds onto the table (R40-19) and takes discards freely
  (R40-Q5);
* **no shedding of points** when an opponent is near the end: a card's penalty value does not
  change who wins;
* **nothing laid from a short hand** (at most :data:`LOOK_MAX` cards) unless the play goes out
  (no new meld, no building; joker exchanges aside), and never a joker built before that: a meld
  or a card that fits a table meld can still be laid in the turn the hand goes out (R40-17,
  R40-19, R40-25), and kept it may still meld in hand (a joker with any pair or near pair);
* **before opening**, of two cards of the same use the higher goes first (the shared bot keeps the
  high ones for the opening points);
* **after opening**, a discard keeps the most cards in the hand's melds (then the most points);
  with at most :data:`LOOK_MAX` cards in hand every discard is weighed over every unseen card it
  may draw next (by its live copies): first the chance that the draw lets it go out, then the
  cards expected to be stuck (in no meld of the hand and fitting no meld on the table).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from ...cards import SUITS, Card
from ...moves import Move, Play
from ...search import _BITS, _index, _Searcher
from .hard import HardBot, _face_at
from .normal import Seen, _rank_distance, _without, discard_choices

__all__ = ["LOOK_MAX", "HardRemik40", "candidates"]

#: The look-ahead weighs the discards of an open hand of at most this many cards (before the
#: discard). Measured against the normal bot (400 matches, seeds 0 and 1): 7 cards 53.0%, every
#: hand (14) 52.8%, none 51.2%; 7 keeps the CPU p99 lower.
LOOK_MAX = 7
#: The searcher's bonus per melded card: its best arrangement melds the most cards, then points.
_COVER = 1000


class HardRemik40(HardBot):
    """The shared hard bot without the penalty-variant habits, with a one-draw look-ahead."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        super().__init__(view)
        # One search memo for every hand weighed in this decision.
        self.searcher = _Searcher(self.unseen.rules, 0, card_bonus=_COVER)

    def near_end(self, seen: Seen) -> bool:
        return False  # points left in hand do not decide the game (R40-25): nothing to shed

    def holds(self, seen: Seen, play: Play) -> bool:
        return False  # open at once (R40-18): a "Remik" pays more (R40-28) but wins no more often

    def _plays(self, seen: Seen) -> Iterator[Move]:
        for move in super()._plays(seen):
            if isinstance(move, Play) and self.builds_too_soon(seen, move):
                continue
            yield move

    def builds_too_soon(self, seen: Seen, play: Play) -> bool:
        """Does ``play`` lay cards without going out (R40-25): any meld or building from a hand of
        at most :data:`LOOK_MAX` cards, or a joker built onto the table (R40-19)? Kept, such cards
        still count as placeable for the look-ahead and may meld otherwise; laid, they only
        shrink the hand."""
        if play.exchanges or len(play.cards_from_hand()) >= len(seen.hand) - 1:
            return False
        return self.keeps(seen, play)

    def keeps(self, seen: Seen, play: Play) -> bool:
        """Keep in hand what ``play`` (which does not go out) would lay?"""
        if len(seen.hand) <= LOOK_MAX:
            return True
        return any(card.is_joker for layoff in play.layoffs for card in layoff.cards)

    def value_key(self, seen: Seen, value: int) -> int:
        """A discard's value in its key (higher goes first): the higher of two cards of the same use."""
        return value

    def looks_ahead(self, seen: Seen) -> bool:
        """Weigh the discards over the next draw (:meth:`lookahead`)?"""
        return seen.opened and len(seen.hand) <= LOOK_MAX

    def discard_order(self, seen: Seen) -> list[Card]:
        hand = list(seen.hand)
        if len(hand) == 1:
            return hand
        rules = seen.rules
        scored: list[tuple[tuple[int, ...], Card]] = []
        for card, rest, melds in discard_choices(rules, hand):
            points = sum(rules.meld_value(m) for m in melds)
            used = sum(len(m.cards) for m in melds)
            keep = self.live_potential(card, rest)
            value = self.value_key(seen, rules.hand_value(card))
            if seen.opened:
                key: tuple[int, ...] = (used, points, -keep, value)
            else:
                key = (points, -keep, value)  # the opening's 40 points (R40-18) come from melds
            scored.append((key, card))
        scored.sort(key=lambda item: (item[0], item[1].face), reverse=True)
        order = [card for _, card in scored]
        if self.looks_ahead(seen):
            order = self.lookahead(seen, order)
        return order

    # The look-ahead --------------------------------------------------------------------------------

    def fitting_faces(self, seen: Seen) -> set[str]:
        """Faces one card of which could be built onto a table meld now (R40-19, R40-Q14)."""
        probes: dict[str, Card] = {}
        for meld in (m.meld for m in seen.table):
            if meld.kind == "run":
                for position in (meld.start - 1, meld.end + 1):
                    if 1 <= position <= 14:
                        face = _face_at(position, meld.suit or "")
                        probes.setdefault(face, Card(face[0], face[1]))
            else:
                for suit in SUITS:
                    probes.setdefault(str(meld.rank) + suit, Card(str(meld.rank), suit))
        probes["JK"] = Card("JK", "")
        return {
            face
            for face, card in probes.items()
            if any(self._extend(seen, m.meld, card) is not None for m in seen.table)
        }

    def melded(self, cards: list[Card]) -> int:
        """How many of ``cards`` their best arrangement melds (the most cards covered)."""
        counts = 0
        jokers = 0
        for card in cards:
            if card.is_joker:
                jokers += 1
            else:
                counts += 1 << (_index(card) * _BITS)
        return self.searcher.best(counts, jokers)[0] // _COVER

    def stuck(self, cards: list[Card], fits: set[str]) -> int:
        """Cards of ``cards`` that can neither be melded nor built onto the table: the fewer of
        melding all it can (building nothing) and building what fits, then melding the rest."""
        loose = [c for c in cards if c.face not in fits]
        everything = len(cards) - self.melded(cards)
        if len(loose) == len(cards):
            return everything
        return min(everything, len(loose) - self.melded(loose))

    def lookahead(self, seen: Seen, order: list[Card]) -> list[Card]:
        """The discards by the chance that the next stock draw lets the hand go out (at most one
        card stuck: the last discard, R40-25), then by the cards expected to be stuck after it,
        over every unseen card by its live copies; ties keep ``order``."""
        hand = list(seen.hand)
        fits = self.fitting_faces(seen)
        faces = self.unseen.faces
        cards = {c.face: c for c in self.unseen.cards}
        total = sum(faces.values()) or 1
        ranked: list[tuple[tuple[float, float, int], Card]] = []
        for index, card in enumerate(order):
            rest = _without(hand, [card])
            base = self.stuck(rest, fits)
            naturals = [c for c in rest if not c.is_joker]
            outs = 0.0
            expected = 0.0
            for face, count in faces.items():
                if not count:
                    continue
                drawn = cards[face]
                if face in fits:
                    left = base
                elif drawn.is_joker or any(_near(drawn, c) for c in naturals):
                    left = self.stuck([*rest, drawn], fits)
                else:
                    left = base + 1  # it melds with nothing: it is the next discard
                if left <= 1:
                    outs += count
                expected += count * left
            ranked.append(((outs / total, -expected / total, -index), card))
        ranked.sort(key=lambda item: item[0], reverse=True)
        return [card for _, card in ranked]


def _near(a: Card, b: Card) -> bool:
    """May ``a`` meld with ``b``: same rank, or same suit within two ranks (the ace at both ends)."""
    if a.rank == b.rank:
        return True
    if a.suit != b.suit:
        return False
    return _rank_distance(a, b) <= 2


def candidates(view: Mapping[str, Any], rng: random.Random) -> Iterator[Move]:
    """The hard bot's Remik 40 moves for the seat whose view this is, best first."""
    del rng  # every choice here is deterministic given the view
    yield from HardRemik40(view).candidate_moves(view)
