"""The hard level of the plus-scoring variants, Remi and Rummy 500: a race to go out that keeps
its points high (``docs/rules/remi.md``, ``docs/rules/rummy500.md``).

Measured between the bots (docs/benchmarks.md, "The bots"): in Remi the player who goes out wins the
deal by about 120 points, the bonus (RMI-55) and the other's hand (RMI-56) included, and nearly
every deal ends that way (the stock rarely runs out, RMI-50); in Rummy 500 going out pays no bonus
(R500-16), but it ends the others' scoring and counts their hands against them (R500-15). So this
bot is Remik 40's race bot (:mod:`.hard_remik40`: it opens at once, sheds nothing, weighs an open
hand's discards by the chance that the next draw goes out, then by the cards expected to be stuck)
with what plus points ask for on top:

* **the look-ahead on every open hand**, not only short ones: the melds it keeps in hand (below)
  make hands long;
* **high cards are kept**: of two cards of the same use the lower goes, before the opening (Remi's
  45 or 51 points come sooner, RMI-24) and after it (a card laid scores its value for whoever laid
  it, RMI-54, R500-12: a ten is worth two fives), unless an opponent is near going out;
* **nothing is laid early while the opponents are far from going out**: once open, the bot lays
  no meld and no card onto the table (the opening itself and joker buy-backs aside, RMI-40) unless
  the play goes out, while every opponent who could go out holds at least :data:`SAFE_HAND`
  cards. Kept, the cards still meld or fit in the turn the hand goes out (RMI-51), no opponent can
  build onto them (RMI-35, R500-10), and a kept joker can be Remi's last discard, which doubles
  the bonus (RMI-43). Once an opponent who may go out holds fewer cards, everything that can be
  laid is laid and the higher of two loose cards goes first: a card laid counts for the player,
  the same card in hand against them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from ...moves import Move, Play
from .hard_remik40 import HardRemik40
from .normal import Seen

__all__ = ["SAFE_HAND", "HardPlus", "candidates"]

#: A Remi opponent who has opened goes out from a hand of at most three cards (at the start of
#: the turn) once in every 4 to 14 turns, and almost never from four or more (600 deals between
#: normal bots: 1 card 23%, 2 cards 7%, 3 cards 14%, 4 and 5 cards 1.5%, 6 or more 0%). While
#: every opponent who may go out holds at least this many, the bot keeps what it could lay.
#: Measured hard vs normal over 800 Remi deal pairs (seed 2): 3 cards +15.9 points a deal,
#: 4 cards +16.9, 5 cards +15.1 (before the look-ahead covered every open hand).
SAFE_HAND = 4


class HardPlus(HardRemik40):
    """Remik 40's race bot with plus points: high cards kept, melds held while it is safe."""

    def safe(self) -> bool:
        """Is every opponent far from going out (not opened, or holding :data:`SAFE_HAND`+ cards)?"""
        return not self.opponent_within(SAFE_HAND - 1)

    def keeps(self, seen: Seen, play: Play) -> bool:
        """Keep what ``play`` (which does not go out) would lay: a meld or a card onto the table by a
        seat that has opened, while every opponent is far from going out?"""
        return seen.opened and self.safe()  # the opening itself (RMI-24/25) unlocks building

    def value_key(self, seen: Seen, value: int) -> int:
        """The lower of two cards of the same use goes; once open, the higher near the end."""
        return value if seen.opened and not self.safe() else -value

    def looks_ahead(self, seen: Seen) -> bool:
        return seen.opened  # every open hand: the melds it keeps make hands long


def candidates(view: Mapping[str, Any], rng: random.Random) -> Iterator[Move]:
    """The hard bot's moves in Remi or Rummy 500 for the seat whose view this is, best first."""
    del rng  # every choice here is deterministic given the view
    yield from HardPlus(view).candidate_moves(view)
