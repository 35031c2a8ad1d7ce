"""A basic bot that plays any variant of the engine from one seat's view, and nothing else.

The bot is given ``view_for(state, seat)`` — the same dict a human in that seat receives — never the
state: it cannot see the other hands or the order of the stock (RMI-NET-2). From the view it
rebuilds the rules (``variant(view["variant"], **view["options"])``), its hand and the table, and a
*shadow* state: the visible part of the game with the hidden parts (other hands, the stock) left
empty. Whether a play or a take is legal depends only on visible things (the seat's hand, the table,
the discard pile, who has opened, the atu), so the bot checks every composite move it builds by
applying it to the shadow with :func:`~games.engine.game.apply_move`. What it returns is therefore
legal in the real game too, and a move the shadow refuses is simply dropped for the next candidate.

Policy, in order of preference:

* **draw phase** — take a discard when it helps: after opening, when the taken card goes into a new
  meld and the hand is no worse for it (Remi: the best depth of the row; R51-36, RMI-30/31); before
  opening, Remik 51 only to go out in the same turn (R51-37) and Remi only with an opening that uses
  the top card (RMI-34). Otherwise draw from the stock.
* **play phase** — go out if the whole hand but one card can be laid this turn (taking Remi's atu
  into a new meld when that is what it takes, RMI-45); before opening, lay the best opening found
  (``find_opening``); once opened, exchange a joker when that improves the hand (R51-27, RMI-40),
  lay the melds of ``best_melds``, lay off what fits on the table; never empty the hand by melding
  (R51-43, RMI-51); finally discard the least useful card.

>>> from games.engine import variant, position, view_for
>>> state = position(variant("remik51"), hands=["9S TS JS 8H 8D 8C 2C KD", "5D 6D"],
...                  turn=0, phase="play", rest="drop")
>>> print(describe(choose_move(view_for(state, 0))))
meld [9S TS JS], meld [8H 8D 8C]

The bot is deterministic: the same view always gives the same move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ... import errors
from ...cards import RANK_NUMBER, SUITS, Card, parse_card, parse_cards
from ...game import apply_move
from ...melds import Meld, extend_meld, meld_readings, position_rank, set_recovery_cards
from ...moves import Discard, DrawStock, Exchange, LayOff, Move, Play, TakeDiscard, describe_move
from ...rules import Rules, family_of, variant
from ...search import best_arrangement, find_opening, melds_with
from ...state import GameState, TableMeld
from ..state import RummyState

__all__ = ["NormalBot", "Seen", "candidate_moves", "choose_move", "describe", "read_view"]

#: How deep into a Remi discard row the bot looks (a bot's limit, not a rule: RMI-Q8 allows all).
ROW_LOOKAHEAD = 6
#: What a joker is worth to keep when choosing a discard: it goes only when every other card
#: holds up more of the hand's melds.
JOKER_POTENTIAL = 100


# --- reading the view --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seen:
    """What the bot knows, read from its view: the rules, its hand, the table, and a shadow state."""

    rules: Rules
    seat: int
    hand: tuple[Card, ...]
    phase: str
    #: The seat may lay off, exchange and take deep: it has opened, or the variant has no opening.
    opened: bool
    #: The visible game with the hidden parts (other hands, stock) empty: for legality checks only.
    shadow: GameState
    #: Cards the seat may take from the discard pile now, newest first.
    takeable: tuple[Card, ...]
    #: The atu while nobody has taken it (Remi), else None.
    atu: Card | None
    #: Nothing of this seat may reach the table this turn (Remi's first turn, RMI-19).
    locked: bool

    @property
    def table(self) -> tuple[TableMeld, ...]:
        return self.shadow.melds


def _table_meld(rules: Rules, data: Mapping[str, Any]) -> TableMeld:
    cards = parse_cards(data["cards"])
    kind = data["kind"]
    try:
        readings = [m for m in meld_readings(cards, rules.policy) if m.kind == kind]
    except errors.InvalidMeldError:
        readings = []
    if readings:
        meld = readings[0]
    elif kind == "set":
        rank = next(c.rank for c in cards if not c.is_joker)
        meld = Meld("set", cards, rank=rank)
    else:
        # A run the reader refused (should not happen): place it by its jokers' declarations.
        first = next(i for i, c in enumerate(cards) if not c.is_joker)
        natural = cards[first]
        position = 1 if natural.rank == "A" and first == 0 else RANK_NUMBER[natural.rank]
        if natural.rank == "A" and first > 0:
            position = 14
        meld = Meld("run", cards, start=position - first, suit=natural.suit)
    return TableMeld(int(data["id"]), int(data["owner"]), meld, tuple(data["placed_by"]))


def read_view(view: Mapping[str, Any]) -> Seen:
    """Read a seat's view (``view_for(state, seat)``) into what the bot works with."""
    seat = view.get("seat")
    if not isinstance(seat, int) or view.get("hand") is None:
        raise ValueError("the bot needs the view of a seat, not a spectator's")
    rules = variant(view["variant"], **view["options"])
    players = int(view["players"])
    hand = parse_cards(view["hand"])
    melds = tuple(_table_meld(rules, m) for m in view["melds"])
    atu = parse_card(view["atu"]) if view.get("atu") else None
    shadow = GameState(
        rules=rules,
        players=players,
        names=tuple(view["names"]),
        secret=b"shadow: the bot never knows the secret",
        round_no=int(view["round"]),
        first=int(view["first"]),
        hands=tuple(hand if s == seat else () for s in range(players)),
        stock=(),
        discard=parse_cards(view["discard"]),
        melds=melds,
        turn=int(view["turn"]),
        phase=view["phase"],
        turns_started=tuple(int(n) for n in view["turns_started"]),
        next_meld_id=max((m.id for m in melds), default=0) + 1,
        results=(),
        totals=tuple(view["scores"]["totals"]),
        winners=(),
        moves_played=int(view.get("version", 0)),
        cycle=RummyState(
            opened=tuple(bool(o) for o in view["opened"]),
            opened_at_turn_start=bool(view["opened"][view["turn"]]),
            atu=atu,
            atu_taken_by=view.get("atu_taken_by"),
            consumed=parse_cards(view.get("consumed_jokers", [])),
        ),
    )
    you = view.get("you") or {}
    takeable = tuple(reversed(parse_cards(you.get("takeable", []))))
    my_turn = bool(you.get("my_turn"))
    locked = my_turn and (
        (view["phase"] == "play" and "play" not in you.get("moves", []))
        or (view["phase"] == "draw" and "take" not in you.get("moves", []))
    )
    return Seen(
        rules=rules,
        seat=seat,
        hand=hand,
        phase=view["phase"],
        opened=bool(view["opened"][seat]) or not rules.opening_required,
        shadow=shadow,
        takeable=takeable,
        atu=atu if view.get("atu_taken_by") is None else None,
        locked=locked,
    )


# --- small helpers -----------------------------------------------------------------------------


def _without(cards: Sequence[Card], used: Sequence[Card]) -> list[Card]:
    """``cards`` minus ``used`` (physical identity; a joker's declaration does not matter)."""
    rest = list(cards)
    for card in used:
        for i, have in enumerate(rest):
            if have == card:
                del rest[i]
                break
    return rest


def discard_choices(
    rules: Rules, hand: Sequence[Card]
) -> Iterator[tuple[Card, list[Card], tuple[Meld, ...]]]:
    """Each face of ``hand`` once (its first copy), with the hand left without it and that rest's
    best melds: what every bot's discard order weighs."""
    faces: set[str] = set()
    for card in hand:
        if card.face in faces:
            continue
        faces.add(card.face)
        rest = _without(hand, [card])
        melds, _ = best_arrangement(rules, rest)
        yield card, rest, melds


def _melded(melds: Sequence[Meld]) -> list[Card]:
    return [card for meld in melds for card in meld.cards]


def _contains(melds: Sequence[Meld], card: Card) -> bool:
    return any(card == c for meld in melds for c in meld.cards)


def _rank_distance(a: Card, b: Card) -> int:
    low = {RANK_NUMBER[a.rank], 1 if a.rank == "A" else RANK_NUMBER[a.rank]}
    high = {RANK_NUMBER[b.rank], 1 if b.rank == "A" else RANK_NUMBER[b.rank]}
    return min(abs(x - y) for x in low for y in high)


def _use_joker(melds: Sequence[Meld], joker: Card) -> list[Meld]:
    """The melds with ``joker`` standing in for another joker they hold, if it is not in them.

    Jokers are alike on the table, but an exchanged joker itself must go into a new meld (R51-27).
    """
    out = list(melds)
    if _contains(out, joker):
        return out
    for i, meld in enumerate(out):
        for j, card in enumerate(meld.cards):
            if card.is_joker and card.stands_for is not None:
                cards = list(meld.cards)
                cards[j] = joker.declared(card.stands_for)
                out[i] = Meld(meld.kind, tuple(cards), meld.start, meld.suit, meld.rank)
                return out
    return out


describe = describe_move


# --- the bot ------------------------------------------------------------------------------------


class NormalBot:
    """A deterministic rule-of-thumb player. Stateless: every decision comes from the view.

    ``anomalies`` collects any unexpected exception the engine raised while the bot checked a
    candidate move (an engine bug); the bot skips such a candidate and carries on.
    """

    def __init__(self) -> None:
        self.anomalies: list[str] = []

    # The public interface ----------------------------------------------------------------------

    def choose_move(self, view: Mapping[str, Any]) -> Move:
        """The move the bot makes from ``view`` (a seat's view whose turn it is)."""
        for move in self.candidate_moves(view):
            return move
        raise ValueError("no move available: it is not this seat's turn")  # pragma: no cover

    def candidate_moves(self, view: Mapping[str, Any]) -> Iterator[Move]:
        """Moves in the bot's order of preference, each checked on the shadow state.

        The last ones are always simple (a draw, or every possible discard), so a caller that finds
        a move refused can take the next one and always ends with a legal move.
        """
        if view.get("phase") == "over" or not (view.get("you") or {}).get("my_turn"):
            return
        if family_of(view["variant"]) != "rummy":  # another family: its own normal bot
            # Imported here: the shared bots' package (``games.engine.bots``) offers this bot, so
            # importing its registry first would start that package before this module is made.
            from ...bots.registry import bot_for

            yield from bot_for(view["variant"], "normal")(view, _NO_LUCK)
            return
        seen = read_view(view)
        if seen.phase == "draw":
            yield from self._checked(seen, self._takes(seen))
            yield DrawStock()
            return
        if len(seen.hand) > 1 and not seen.locked:
            yield from self._checked(seen, self._plays(seen))
        for card in self.discard_order(seen):
            yield Discard(card)

    # Checking on the shadow --------------------------------------------------------------------

    def accepts(self, seen: Seen, move: Move) -> bool:
        """Would the engine accept ``move``? (Only visible facts decide this, so the shadow knows.)"""
        try:
            apply_move(seen.shadow, seen.seat, move)
        except errors.IllegalMoveError:
            return False
        except Exception as error:  # an engine bug must not stop a bot's match
            self.anomalies.append(f"{type(error).__name__}: {error} while checking {move!r}")
            return False
        return True

    def _checked(self, seen: Seen, moves: Iterator[Move]) -> Iterator[Move]:
        tried: set[str] = set()
        for move in moves:
            key = repr(move)
            if key in tried:
                continue
            tried.add(key)
            if self.accepts(seen, move):
                yield move

    # Evaluation ---------------------------------------------------------------------------------

    def worth(self, rules: Rules, cards: Sequence[Card]) -> tuple[int, int]:
        """How good a hand is if its best melds were laid: (points, minus the cards left over).

        Penalty variants count only what would be left in hand (R51-46); plus variants count the
        melds as gained and the rest as lost (RMI-54/56).
        """
        melds, left = best_arrangement(rules, cards)
        penalty = rules.hand_points(left)
        if rules.lower_wins:
            return -penalty, -len(left)
        return sum(rules.meld_value(m) for m in melds) - penalty, -len(left)

    @staticmethod
    def potential(card: Card, rest: Sequence[Card]) -> int:
        """How much a card might still help: jokers most; naturals by their near partners."""
        if card.is_joker:
            return JOKER_POTENTIAL
        score = 0
        for other in rest:
            if other.is_joker or other.same_face(card):
                continue
            if other.rank == card.rank:
                score += 2
            elif other.suit == card.suit:
                distance = _rank_distance(card, other)
                score += 2 if distance == 1 else 1 if distance == 2 else 0
        return score

    def discard_order(self, seen: Seen) -> list[Card]:
        """Every distinct card of the hand, the one to discard first.

        The best discard keeps the most points in the hand's best melds, then the least potential,
        then costs the most if it stayed in hand.
        """
        rules = seen.rules
        hand = list(seen.hand)
        if len(hand) == 1:
            return hand
        scored: list[tuple[tuple[int, int, int, str], Card]] = []
        for card, rest, melds in discard_choices(rules, hand):
            points = sum(rules.meld_value(m) for m in melds)
            key = (points, -self.potential(card, rest), rules.hand_value(card), card.face)
            scored.append((key, card))
        scored.sort(key=lambda item: item[0], reverse=True)
        return [card for _, card in scored]

    # Lay-offs -----------------------------------------------------------------------------------

    def _extend(self, seen: Seen, meld: Meld, card: Card) -> tuple[Meld, Card] | None:
        """``meld`` with ``card`` laid off (and the card as written, jokers declared), or None."""
        rules = seen.rules
        policy = rules.policy
        if card.is_joker:
            if not rules.joker_layoff:
                return None  # RMI-37
            options: list[Card] = []
            if meld.kind == "run":
                low = 1 if policy.ace_low else 2
                high = 14 if policy.ace_high else 13
                if meld.start - 1 >= low:
                    options.append(Card(position_rank(meld.start - 1), meld.suit))
                if meld.end + 1 <= high:
                    options.append(Card(position_rank(meld.end + 1), meld.suit))
            else:
                present = {c.suit for c in meld.cards if not c.is_joker}
                taken = {rep.suit for c, rep in zip(meld.cards, meld.represented, strict=True) if c.is_joker}
                options = [Card(meld.rank, s) for s in SUITS if s not in present and s not in taken]
            for rep in options:
                written = card.bare().declared(rep)
                try:
                    return extend_meld(meld, written, policy), written
                except errors.InvalidMeldError:
                    continue
            return None
        if (
            meld.kind == "set"
            and policy.set_declaration_binding
            and any(
                rep.same_face(card) for c, rep in zip(meld.cards, meld.represented, strict=True) if c.is_joker
            )
        ):
            return None  # R51-Q4: that card exchanges the joker, it is not laid off
        try:
            return extend_meld(meld, card, policy), card
        except errors.InvalidMeldError:
            return None

    def plan_layoffs(
        self, seen: Seen, cards: Sequence[Card], *, keep: int, jokers: bool
    ) -> tuple[tuple[LayOff, ...], list[Card]]:
        """Lay off as many of ``cards`` as fit on the table, keeping at least ``keep`` in hand.

        Costly cards go first. Returns the lay-offs and the cards left.
        """
        rules = seen.rules
        table = {m.id: m.meld for m in seen.table}
        placed: dict[int, list[Card]] = {}
        left = list(cards)
        progress = True
        while progress and len(left) > keep:
            progress = False
            order = sorted(left, key=lambda c: (c.is_joker, -rules.hand_value(c), c.face, c.copy))
            for card in order:
                if len(left) <= keep:
                    break
                if card.is_joker and not jokers:
                    continue
                if seen.atu is not None and card == seen.atu:
                    continue  # RMI-Q17: the atu only goes into a new formation
                for meld_id, meld in table.items():
                    result = self._extend(seen, meld, card)
                    if result is None:
                        continue
                    table[meld_id], written = result
                    placed.setdefault(meld_id, []).append(written)
                    left = _without(left, [card])
                    progress = True
                    break
        layoffs = tuple(LayOff(meld_id, tuple(cards)) for meld_id, cards in placed.items())
        return layoffs, left

    # Keeping one card ---------------------------------------------------------------------------

    def keep_one(
        self, rules: Rules, melds: Sequence[Meld], pool: Sequence[Card], must: Sequence[Card] = ()
    ) -> list[Meld] | None:
        """``melds`` changed so that at least one card of ``pool`` stays in hand (R51-43, RMI-51).

        Shortens a meld of four or more by its cheapest end (runs) or card (sets); else leaves out
        the least valuable meld that holds none of ``must``. None if neither works.
        """
        melds = list(melds)
        if len(_melded(melds)) < len(pool):
            return melds
        best: tuple[tuple[int, int], list[Meld]] | None = None
        for i, meld in enumerate(melds):
            if len(meld.cards) <= 3:
                continue
            if meld.kind == "run":
                cuts = [(meld.cards[1:], meld.cards[0]), (meld.cards[:-1], meld.cards[-1])]
            else:
                cuts = [(meld.cards[:j] + meld.cards[j + 1 :], meld.cards[j]) for j in range(len(meld.cards))]
            for cut, dropped in cuts:
                if any(dropped == card for card in must):
                    continue
                try:
                    reading = [m for m in meld_readings(cut, rules.policy) if m.kind == meld.kind]
                except errors.InvalidMeldError:
                    continue
                if not reading:
                    continue
                option = [*melds[:i], reading[0], *melds[i + 1 :]]
                value = sum(rules.meld_value(m) for m in option)
                key = (value, -int(dropped.is_joker))
                if best is None or key > best[0]:
                    best = (key, option)
        if best is not None:
            return best[1]
        droppable = [m for m in melds if not any(_contains([m], card) for card in must)]
        if not droppable:
            return None
        weakest = min(droppable, key=lambda m: (rules.meld_value(m), len(m.cards)))
        return [m for m in melds if m is not weakest]

    # Plans ----------------------------------------------------------------------------------------

    def going_out(self, seen: Seen, pool: Sequence[Card], must: Sequence[Card]) -> Iterator[Play]:
        """Plays that leave exactly one card (the discard that ends the round) from ``pool``.

        ``must`` are cards that have to be in a new meld (a taken discard, the atu).
        """
        rules = seen.rules
        pool = list(pool)
        arrangements: list[list[Meld]] = []
        melds, _ = best_arrangement(rules, pool, cover=True)
        arrangements.append(list(melds))
        if not seen.opened:
            includes: list[Card | None] = [*must] or [None]
            for include in includes:
                opening = find_opening(rules, pool, include=include, keep=1, cover=True)
                if opening is not None:
                    arrangements.append(opening)
        for card in must:
            for holder in melds_with(rules, pool, card)[:12]:
                rest, _ = best_arrangement(rules, _without(pool, holder.cards), cover=True)
                arrangements.append([holder, *rest])
        if rules.go_out_by_melding and seen.opened:
            # R500-Q4: melding and laying off every card ends the round without a discard.
            for melds_list in arrangements[:1]:
                if not all(_contains(melds_list, card) for card in must):
                    continue
                left = _without(pool, _melded(melds_list))
                layoffs, left = self.plan_layoffs(seen, left, keep=0, jokers=True)
                if not left and (melds_list or layoffs):
                    yield Play(melds=tuple(m.cards for m in melds_list), layoffs=layoffs)
        for melds_list in arrangements:
            if not melds_list or not all(_contains(melds_list, card) for card in must):
                continue
            kept = self.keep_one(rules, melds_list, pool, must)
            if kept is None or not kept:
                continue
            left = _without(pool, _melded(kept))
            layoffs, left = self.plan_layoffs(seen, left, keep=1, jokers=True)
            if len(left) == 1:
                yield Play(melds=tuple(m.cards for m in kept), layoffs=layoffs)

    def _takes(self, seen: Seen) -> Iterator[Move]:
        """Takes from the discard pile that help, best first."""
        if seen.locked or not seen.takeable:
            return
        rules = seen.rules
        hand = list(seen.hand)
        discard = list(seen.shadow.discard)
        if not seen.opened:
            picked = seen.takeable[0]  # R51-35, RMI-34: only the top before opening
            pool = [*hand, picked]
            if rules.take_before_opening_must_go_out:
                # R51-37: before opening, only to go out in this same turn.
                for play in self.going_out(seen, pool, [picked]):
                    yield TakeDiscard(picked, play)
                return
            opening = find_opening(rules, pool, include=picked, keep=1)
            if opening is not None:
                yield TakeDiscard(picked, Play(melds=tuple(m.cards for m in opening)))
            return
        now = self.worth(rules, hand)
        options: list[tuple[tuple[int, int], int, Card, list[Card]]] = []
        for depth, picked in enumerate(seen.takeable[:ROW_LOOKAHEAD], start=1):
            pool = [*hand, *discard[len(discard) - depth :]]
            melds, _ = best_arrangement(rules, pool)
            if not _contains(melds, picked):
                continue
            after = self.worth(rules, pool)
            # A top card that goes into a meld beats an unknown card from the stock even when the
            # hand is only as good as before; a deep take must pay for the cards that come along.
            if after > now or (depth == 1 and after == now):
                options.append((after, -depth, picked, pool))
        options.sort(key=lambda item: (item[0], item[1]), reverse=True)
        for _, depth, picked, pool in options:
            if rules.deep_take_from_hand and depth < -1:
                # R500-9: the card reached for is melded only with cards from the hand.
                own = [*hand, picked]
                melds, _ = best_arrangement(rules, own)
                holders = [m for m in melds if _contains([m], picked)]
                holders += melds_with(rules, own, picked)
            else:
                melds, _ = best_arrangement(rules, pool)
                holders = [m for m in melds if _contains([m], picked)]
                holders += melds_with(rules, pool, picked)
            for holder in holders:
                if len(holder.cards) < len(pool):
                    yield TakeDiscard(picked, Play(melds=(holder.cards,)))
        if rules.taken_card_layoff and not rules.lower_wins and seen.takeable:
            # R500-Q5: the top card laid off at once scores its points for the taker.
            picked = seen.takeable[0]
            for table_meld in seen.table:
                if self._extend(seen, table_meld.meld, picked) is not None:
                    yield TakeDiscard(picked, Play(layoffs=(LayOff(table_meld.id, (picked,)),)))

    def _plays(self, seen: Seen) -> Iterator[Move]:
        """Plays in order of preference (each still to be checked)."""
        rules = seen.rules
        hand = list(seen.hand)
        # 1. Go out now, with the atu if it fits (RMI-45), else without.
        if seen.atu is not None:
            yield from self.going_out(seen, [*hand, seen.atu], [seen.atu])
        yield from self.going_out(seen, hand, [])
        if not seen.opened:
            # 2. Open as soon as the search finds an opening (R51-31, RMI-24/25).
            opening = find_opening(rules, hand, keep=1)
            if opening is not None:
                yield Play(melds=tuple(m.cards for m in opening))
            return
        # 3. Joker exchanges that improve the hand (R51-27 / RMI-40).
        yield from self._exchanges(seen)
        # 4. The best melds of the hand.
        melds, _ = best_arrangement(rules, hand)
        if melds:
            kept = self.keep_one(rules, melds, hand)
            if kept:
                yield Play(melds=tuple(m.cards for m in kept))
                for meld in kept:
                    if len(meld.cards) < len(hand):
                        yield Play(melds=(meld.cards,))
        # 5. Lay off what fits (Remik: a joker only when the hand is nearly gone).
        layoffs, _ = self.plan_layoffs(seen, hand, keep=1, jokers=len(hand) <= 3)
        if layoffs:
            yield Play(layoffs=layoffs)
            for layoff in layoffs:
                for card in layoff.cards:
                    yield Play(layoffs=(LayOff(layoff.meld, (card,)),))

    def _exchanges(self, seen: Seen) -> Iterator[Move]:
        rules = seen.rules
        hand = list(seen.hand)
        cycle = seen.shadow.cycle
        consumed = set(cycle.consumed) if isinstance(cycle, RummyState) else set()
        now = self.worth(rules, hand)
        options: list[tuple[tuple[int, int], Play]] = []
        for table_meld in seen.table:
            meld = table_meld.meld
            places = zip(meld.cards, meld.represented, meld.positions, strict=True)
            for slot, rep, place in places:
                if not slot.is_joker or slot.bare() in consumed:
                    continue
                joker = slot.bare()
                # Remi: the natural card placed counts for whoever placed it (RMI-41).
                gained = rules.card_value(rep, meld.kind, place)
                choices: list[list[Card]] = []
                if meld.kind == "set" and rules.set_joker_exchange == "all_missing":
                    pair = set_recovery_cards(meld, hand)  # R40-22: both missing cards
                    choices = [pair] if pair else []
                else:
                    naturals: dict[str, Card] = {}
                    for card in hand:
                        if card.is_joker or card.face in naturals:
                            continue
                        if meld.kind == "run" or rules.policy.set_declaration_binding:
                            fits = rep.same_face(card)
                        else:  # RMI-Q10: either missing suit buys a set's joker
                            present = {c.suit for c in meld.cards if not c.is_joker}
                            fits = card.rank == meld.rank and card.suit not in present
                        if fits:
                            naturals[card.face] = card
                    choices = [[natural] for natural in naturals.values()]
                for placed in choices:
                    rest = [*_without(hand, placed), joker]
                    arranged, _ = best_arrangement(rules, rest)
                    melds = _use_joker(arranged, joker)
                    if not _contains(melds, joker):
                        holders = melds_with(rules, rest, joker)
                        if not holders:
                            continue
                        more, _ = best_arrangement(rules, _without(rest, holders[0].cards))
                        melds = [holders[0], *more]
                    kept = self.keep_one(rules, melds, rest, [joker])
                    if not kept:
                        continue
                    after_hand = _without(rest, _melded(kept))
                    worth = self.worth(rules, after_hand)
                    laid = 0 if rules.lower_wins else sum(rules.meld_value(m) for m in kept) + gained
                    after = (worth[0] + laid, worth[1])
                    if after > now:
                        play = Play(
                            exchanges=tuple(Exchange(table_meld.id, card) for card in placed),
                            melds=tuple(m.cards for m in kept),
                        )
                        options.append((after, play))
        options.sort(key=lambda item: item[0], reverse=True)
        for _, play in options:
            yield play


_BOT = NormalBot()
#: The normal bots draw no lots: the generator they are handed is never used.
_NO_LUCK = random.Random(0)


def candidates(view: Mapping[str, Any], rng: random.Random) -> Iterator[Move]:
    """The normal bot's moves for the seat whose view this is (the rummy family), best first."""
    return _BOT.candidate_moves(view)


def choose_move(view: Mapping[str, Any]) -> Move:
    """The normal bot's move for the seat whose view this is (it must be that seat's turn)."""
    return _BOT.choose_move(view)


def candidate_moves(view: Mapping[str, Any]) -> list[Move]:
    """The normal bot's moves in order of preference; the last ones are always simple moves."""
    return list(_BOT.candidate_moves(view))
