"""The rummy family's hard bot. It decides from one seat's view only, like every bot.

It plays Remik 51 (the registry, :mod:`games.engine.bots.registry`, gives Remik 40 :mod:`.hard_remik40`, a
subclass tuned for the race to go out, and Remi and Rummy 500 :mod:`.hard_remi_rummy500`, that
race with plus points; the other families have their own) with :class:`HardBot`: the normal
bot's move generation (:class:`~games.engine.rummy.bots.normal.NormalBot`, every move checked on the
shadow state) with better judgement where it counts:

* **danger**: how soon an opponent may end the round, read from the view (an opponent who has
  opened, or needs no opening, with few cards left). When the end is near, the hand left is what
  gets counted (R51-46, RMI-56), so the bot sheds points: it discards the costliest card that
  breaks no meld, lays off jokers (30 penalty points in Remik 51) and lays every meld it can;
* **card counting** (:mod:`games.engine.bots.unseen`): a card's potential is what the unseen cards can still
  make of it: a pair whose other copies are all in sight, or a run fragment whose completing cards are all on
  the table or in the discard pile, is worth nothing, where the normal bot counts shapes;
* **before opening** in a variant that needs one, a low card goes before a high one of the same
  use: high cards make the opening points (51 in Remik 51, 45 in Remi);
* **holding back** in penalty variants (``lower_wins``): a seat that has not opened keeps its
  opening in hand while no opponent has opened and the opening would leave at most
  :data:`HOLD_LEFT` cards, to go out in one go later, which doubles everyone else's penalty
  (R51-45; Remik 40's "Remik" pays more too, R40-28).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from ...bots.unseen import Unseen
from ...cards import RANK_NUMBER, Card
from ...moves import Move, Play
from . import normal
from .normal import NormalBot, Seen, discard_choices

__all__ = ["HOLD_LEFT", "NEAR_END", "HardBot", "candidates"]

#: An opponent who may end the round holds at most this many cards: the end is near.
NEAR_END = 3
#: Hold the opening back when, after laying it and discarding, at most this many cards would be
#: left in hand (penalty variants only, while no opponent has opened): going out in one go later
#: doubles the others' penalties (R51-45). Measured in Remik 51 (60 matches against normal,
#: docs/benchmarks.md, "The bots"): no holding 51.7%, at most 3 cards 58.3%, at most 8 cards 60.0%.
HOLD_LEFT = 8


def _positions(card: Card, ace_low: bool, ace_high: bool) -> list[int]:
    if card.rank == "A":
        return [p for p, ok in ((1, ace_low), (14, ace_high)) if ok]
    return [RANK_NUMBER[card.rank]]


def _face_at(position: int, suit: str) -> str:
    rank = "A" if position in (1, 14) else "23456789TJQK"[position - 2]
    return rank + suit


class HardBot(NormalBot):
    """The normal bot's move generation with counted cards and the end of the round in view."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        super().__init__()
        self.view = view
        self.unseen = Unseen.from_view(view)
        self.seat = int(view["seat"])

    # The end of the round ------------------------------------------------------------------------

    def near_end(self, seen: Seen) -> bool:
        """May an opponent end the round within a turn or so?"""
        return self.opponent_within(NEAR_END)

    def opponent_within(self, cards: int) -> bool:
        """Does an opponent who may go out (opened, or no opening needed) hold at most ``cards``?"""
        view = self.view
        need_open = self.unseen.rules.opening_required
        for other, size in enumerate(view["hand_sizes"]):
            if other == self.seat:
                continue
            ready = bool(view["opened"][other]) or not need_open
            if ready and int(size) <= cards:
                return True
        return False

    # Potential, counted ----------------------------------------------------------------------------

    def live_potential(self, card: Card, rest: list[Card]) -> int:
        """The normal bot's potential, counting only partners that unseen cards can complete."""
        if card.is_joker:
            return normal.JOKER_POTENTIAL
        live = self.unseen.live
        jokers = live("JK")
        policy = self.unseen.rules.policy
        score = 0
        for other in rest:
            if other.is_joker or other.same_face(card):
                continue
            if other.rank == card.rank:
                outs = sum(live(card.rank + s) for s in "SHDC" if s not in (card.suit, other.suit))
                score += 2 if outs + jokers else 0
            elif other.suit == card.suit:
                best = 0
                for a in _positions(card, policy.ace_low, policy.ace_high):
                    for b in _positions(other, policy.ace_low, policy.ace_high):
                        low, high = min(a, b), max(a, b)
                        if high - low == 1:
                            faces = [_face_at(p, card.suit) for p in (low - 1, high + 1) if 1 <= p <= 14]
                            weight = 2
                        elif high - low == 2:
                            faces = [_face_at(low + 1, card.suit)]
                            weight = 1
                        else:
                            continue
                        if sum(live(f) for f in faces) + jokers:
                            best = max(best, weight)
                score += best
        return score

    def discard_order(self, seen: Seen) -> list[Card]:
        hand = list(seen.hand)
        if len(hand) == 1:
            return hand
        rules = seen.rules
        before_opening = rules.opening_required and not seen.opened
        ending = self.near_end(seen)
        scored: list[tuple[tuple[int, int, int, str], Card]] = []
        for card, rest, melds in discard_choices(rules, hand):
            points = sum(rules.meld_value(m) for m in melds)
            value = rules.hand_value(card)
            if ending and rules.lower_wins:
                # Every card left is counted soon (R51-46): shed the costliest card that breaks no meld.
                key = (points, value, -self.live_potential(card, rest), card.face)
            else:
                keep = self.live_potential(card, rest)
                key = (points, -keep, -value if before_opening else value, card.face)
            scored.append((key, card))
        scored.sort(key=lambda item: item[0], reverse=True)
        return [card for _, card in scored]

    # Plays ---------------------------------------------------------------------------------------

    def _plays(self, seen: Seen) -> Iterator[Move]:
        if self.near_end(seen) and seen.opened:
            # Shed what fits on the table, jokers included, before the normal plays.
            layoffs, _ = self.plan_layoffs(seen, list(seen.hand), keep=1, jokers=True)
            plays = list(super()._plays(seen))
            going_out = [
                p for p in plays if isinstance(p, Play) and len(p.cards_from_hand()) == len(seen.hand) - 1
            ]
            yield from going_out
            if layoffs:
                yield Play(layoffs=layoffs)
            yield from plays
            return
        for move in super()._plays(seen):
            if isinstance(move, Play) and self.holds(seen, move):
                continue
            yield move

    def holds(self, seen: Seen, play: Play) -> bool:
        """Keep this opening in hand, to go out in one go later (R51-45)?"""
        rules = seen.rules
        if not rules.lower_wins or not rules.opening_required or seen.opened:
            return False
        left = len(seen.hand) - len(play.cards_from_hand())
        if left <= 1:
            return False  # this play goes out: never hold that
        view = self.view
        for other in range(int(view["players"])):
            if other != self.seat and view["opened"][other]:
                return False
        return left - 1 <= HOLD_LEFT


def candidates(view: Mapping[str, Any], rng: random.Random) -> Iterator[Move]:
    """The hard bot's moves for the seat whose view this is, best first (the rummy family; the
    registry, :mod:`games.engine.bots.registry`, gives the other families and the tuned variants their
    own)."""
    yield from HardBot(view).candidate_moves(view)
