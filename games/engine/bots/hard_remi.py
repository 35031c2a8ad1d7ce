"""Remi's hard level: a race to go out that keeps its points high (``../shared/rules/remi.md``).

Measured between the bots (README "Bots"): the player who goes out wins the deal by about 120
points, the bonus (RMI-55) and the other's hand (RMI-56) included, and nearly every deal ends that
way (the stock rarely runs out, RMI-50). So this bot is Remik 40's race bot (:mod:`.hard_remik40`:
it opens at once, sheds nothing, weighs a short open hand's discards by the chance that the next
draw goes out) with what the plus scoring of Remi asks for on top:

* **high cards are kept**: of two discards that keep the same melds, the lower card goes, before
  the opening (the 45 or 51 points, RMI-24, come sooner) and after it (everything laid scores its
  value for whoever laid it, RMI-54, and a ten is worth two fives);
* **nothing is laid early while the opponent is far from going out**: once open, the bot lays
  no meld and no card onto the table (the opening itself and joker buy-backs aside, RMI-40) unless
  the play goes out, while every opponent who could go out holds at least :data:`SAFE_HAND`
  cards. Kept, the cards still meld or fit in the turn the hand goes out (RMI-51), the opponent
  cannot build onto them (RMI-35), and a joker kept can be the last discard, which doubles the
  bonus (RMI-43). When an opponent who has opened holds fewer cards, everything that can be laid
  is laid: a card laid counts for the player, the same card in hand against them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from ..cards import Card
from ..moves import Move, Play
from .basic import Seen, discard_choices
from .hard_remik40 import HardRemik40

__all__ = ["SAFE_HAND", "HardRemi", "candidates"]

#: An opponent who has opened goes out from a hand of at most three cards (at the start of the
#: turn) once in every 4 to 14 turns, and almost never from four or more (600 deals between normal
#: bots: 1 card 23%, 2 cards 7%, 3 cards 14%, 4 and 5 cards 1.5%, 6 or more 0%). While every
#: such opponent holds at least this many, the bot keeps what it could lay.
SAFE_HAND = 4


class HardRemi(HardRemik40):
    """Remik 40's race bot with Remi's points: high cards kept, melds held while it is safe."""

    def safe(self) -> bool:
        """Is every opponent far from going out (not opened, or holding :data:`SAFE_HAND`+ cards)?"""
        view = self.view
        for other, size in enumerate(view["hand_sizes"]):
            if other != self.seat and view["opened"][other] and int(size) < SAFE_HAND:
                return False
        return True

    def builds_too_soon(self, seen: Seen, play: Play) -> bool:
        """Does ``play`` lay cards early: a meld or a card onto the table by a seat that has opened,
        without going out (RMI-51), while every opponent is far from going out?"""
        if play.exchanges or len(play.cards_from_hand()) >= len(seen.hand) - 1:
            return False
        if not seen.opened:
            return False  # the opening itself (RMI-24/25): it unlocks building and deep takes
        return self.safe()

    def discard_order(self, seen: Seen) -> list[Card]:
        hand = list(seen.hand)
        if len(hand) == 1:
            return hand
        rules = seen.rules
        shedding = not self.safe()
        scored: list[tuple[tuple[int, ...], Card]] = []
        for card, rest, melds in discard_choices(rules, hand):
            points = sum(rules.meld_value(m) for m in melds)
            keep = self.live_potential(card, rest)
            value = rules.hand_value(card)
            if seen.opened:
                # The lower of two cards of the same use goes, the higher once the end is near.
                used = sum(len(m.cards) for m in melds)
                key: tuple[int, ...] = (used, points, -keep, value if shedding else -value)
            else:
                key = (points, -keep, -value)  # the opening's points (RMI-24) come sooner
            scored.append((key, card))
        scored.sort(key=lambda item: (item[0], item[1].face), reverse=True)
        order = [card for _, card in scored]
        if seen.opened:
            order = self.lookahead(seen, order)
        return order


def candidates(view: Mapping[str, Any], rng: random.Random) -> Iterator[Move]:
    """The hard bot's Remi moves for the seat whose view this is, best first."""
    del rng  # every choice here is deterministic given the view
    yield from HardRemi(view).candidate_moves(view)
