"""Knock-108's hard level: the normal bot (:mod:`.normal`) with counted cards and a
one-draw look-ahead.

From the seat's view only (:mod:`games.engine.bots.unseen` counts the cards it has not seen, K108-2: two packs
and four jokers; the knocker's loose cards shown during the extra exchange count as seen):

* **draw** (K108-8, and the extra exchange K108-16) — takes the top discard only when the hand it
  leaves is better than the hand expected from a stock draw, averaged over every unseen card
  (weighted by its live copies); otherwise draws from the stock (never worse than passing).
* **discard** — knocks exactly when the normal bot would (at most 5 loose points, K108-14; a
  special hand or gin always). Otherwise, among the normal bot's ``LOOKAHEAD`` best discards,
  the one whose ten cards are best expected after the next draw, over every unseen card: loose
  points, or the distance to a flush or figures (K108-12) if nearer; a draw after which the deal
  can end (a knock with at most 5, K108-14, or a special hand) counts ``END_BONUS`` points better,
  since the deal's loser is caught for ~30 points and a knocker pays ~3 (K108-20). The same bonus
  goes to a top discard that lets it knock at once.
* **buy-back** (K108-26) — the normal bot's.

The look-ahead keeps the hand's best melds, arranges each unseen face that may meld with the loose
cards together with them, and drops the costliest loose card (a card that melds with nothing only
replaces a costlier loose card), so a decision stays within a few milliseconds.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from ...bots.unseen import Unseen
from ...cards import RANK_NUMBER, Card, parse_card, parse_cards
from ...moves import Discard, DrawStock, Knock, Move, Pass, TakeDiscard
from ...rules import Rules, variant
from ...search import best_arrangement
from ..rules import KNOCK_LIMIT
from .normal import _SPECIAL_STEP, _special_distance, _worth
from .normal import candidates as normal

__all__ = ["END_BONUS", "LOOKAHEAD", "candidates"]

#: How many of the normal bot's first discards the look-ahead weighs.
LOOKAHEAD = 3
#: What being able to end the deal after the next draw is worth, against loose points.
END_BONUS = 30


def candidates(view: Mapping[str, Any], rng: random.Random) -> Iterator[Move]:
    """The moves of the seat whose view this is, best first (then the normal bot's)."""
    del rng  # every choice here is deterministic given the view
    you = view.get("you") or {}
    stage = view.get("stage")
    if view.get("phase") == "over" or not you.get("my_turn") or stage == "buy_back":
        yield from normal(view)
        return
    rules = variant(view["variant"], **view["options"])
    hand = parse_cards(view["hand"])
    live = _live(view)
    final = stage == "exchange"
    if view["phase"] == "draw":
        yield from _draw(rules, view, hand, live, final=final)
        yield from normal(view)
        return
    if stage == "play":
        knock = you.get("knock")
        if knock is not None and knock["points"] <= KNOCK_LIMIT:
            yield Knock(parse_card(knock["card"]))
            return
        firsts = [m for m in normal(view) if isinstance(m, Discard)][:LOOKAHEAD]
        if firsts and live:
            yield min(firsts, key=lambda m: _expected(rules, _without(hand, m.card), live, final=False))
    yield from normal(view)


def _live(view: Mapping[str, Any]) -> dict[Card, int]:
    """Unseen copies of each face (one card per face stands for them)."""
    unseen = Unseen.from_view(view)
    shown = [parse_card(text).face for text in ((view.get("knock") or {}).get("loose") or [])]
    faces: dict[str, tuple[Card, int]] = {}
    for card in unseen.cards:
        if card.face in shown:
            shown.remove(card.face)  # this copy is face up in the knocker's hand
            continue
        old = faces.get(card.face)
        faces[card.face] = (old[0] if old else card, (old[1] if old else 0) + 1)
    return dict(faces.values())


def _draw(
    rules: Rules, view: Mapping[str, Any], hand: Sequence[Card], live: Mapping[Card, int], *, final: bool
) -> Iterator[Move]:
    stock = int(view["stock_size"]) > 0
    top = parse_card(view["discard"][-1]) if view["discard"] else None
    blind = _expected(rules, hand, live, final=final) if stock and live else None
    if top is not None:
        taken = _after_best_discard(rules, [*hand, top], keep=top, final=final)
        if not final and taken <= KNOCK_LIMIT:
            taken -= END_BONUS  # the deal can end at once
        if blind is None or taken < blind:
            yield TakeDiscard()
    if stock:
        yield DrawStock()
    elif final:
        yield Pass()


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(next(c for c in rest if c.face == card.face))
    return rest


def _after_best_discard(rules: Rules, cards: Sequence[Card], *, keep: Card | None, final: bool) -> int:
    best = 10**6
    for card in {c.face: c for c in cards}.values():
        if keep is not None and card.face == keep.face:
            continue
        best = min(best, _worth(rules, _without(cards, card), final=final))
    return best


@lru_cache(maxsize=1 << 15)
def _arranged(rules: Rules, faces: tuple[str, ...]) -> tuple[int, int, tuple[Card, ...]]:
    """Loose points of the cards, the value of the costliest loose card, and the loose cards."""
    _, loose = best_arrangement(rules, [parse_card(face) for face in faces])
    values = [rules.hand_value(card) for card in loose]
    return sum(values), max(values, default=0), tuple(loose)


def _near(card: Card, loose: Sequence[Card], jokers: int) -> bool:
    """Can ``card`` make a meld with the hand's ``loose`` cards (same rank, or same suit close by)?

    Cards that would only extend a meld already made are left out (they free a card only rarely).
    """
    if card.is_joker or jokers >= 2:
        return True
    for other in loose:
        if other.is_joker:
            continue
        if other.rank == card.rank:
            return True
        if other.suit == card.suit and abs(RANK_NUMBER[other.rank] - RANK_NUMBER[card.rank]) <= 2:
            return True
    return False


def _expected(rules: Rules, hand: Sequence[Card], live: Mapping[Card, int], *, final: bool) -> float:
    """The worth (lower is better) of ``hand`` expected after one draw from the unseen cards and
    the best discard (K108-8)."""
    faces = tuple(sorted(card.face for card in hand))
    points, costliest, loose_cards = _arranged(rules, faces)
    jokers = sum(1 for c in hand if c.is_joker)
    loose_faces = tuple(card.face for card in loose_cards)
    total = 0.0
    count = 0
    for card, copies in live.items():
        value = rules.hand_value(card)
        if _near(card, loose_cards, jokers):
            # The hand's melds stay; the drawn card is arranged with the loose cards.
            after, worst, _ = _arranged(rules, tuple(sorted((*loose_faces, card.face))))
            loose = after - worst
        else:
            loose = points - max(costliest, value) + value
        if not final:
            special = max(0, _special_distance([*hand, card]) - 1)
            if special == 0 or loose <= KNOCK_LIMIT:
                loose = -1 - END_BONUS if special == 0 else loose - END_BONUS
            else:
                loose = min(loose, special * _SPECIAL_STEP)
        total += loose * copies
        count += copies
    return total / count if count else float(points)
