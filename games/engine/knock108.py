"""Knock-108's turn cycle (``docs/rules/knock108.md``): the flow of :class:`~.rules.Rules`.

A deal, in stages (``state.extra["stage"]``):

``buy_back``
    Only when some players are out and at least two are still in (K108-26, K108-Q14): before the
    dealer's first discard, each player who is out decides, in seat order from the dealer's left:
    ``Knock()`` buys back in (three stakes into the pool; the record becomes the highest record of
    the players still in, the one "closest to 100"; ten cards from the top of the stock), ``Pass()``
    stays out. The dealer of this deal was chosen among the players who were in.
``play``
    The dealer holds 11 cards and starts by discarding (K108-6). Then each player in turn draws
    (``DrawStock``, or ``TakeDiscard`` of the top card only, which may not be discarded in the same
    turn, nor may its identical twin from the other deck, K108-Q18) and either discards
    (``Discard``) or ends the deal with ``Knock(card)``: discard ``card`` (``None``: the engine
    picks the best discard) and lay the other ten cards. The engine scores the best result the ten
    cards allow (K108-Q7): full sequence (table option) > flush = figures > gin > a knock with at
    most 5 loose points (K108-14); more than 5 is refused. Melds named in the knock must be valid
    melds of those cards, but the engine lays the best arrangement (never worse for the knocker).
    Nothing else reaches the table during play (K108-29). A plain discard that leaves two cards or
    fewer in the stock makes the deal void (K108-Q16): no records, no stakes, the same dealer again.
``exchange``
    After a knock (not after gin or a special hand, K108-17, K108-Q8), the knocker's melds lie on
    the table and each other player, in turn from the knocker's left, may make one exchange
    (K108-16, K108-Q12): draw from the stock or take the top discard, then discard (not the card
    just taken); or ``Pass()``. No one lays off (K108-15). Then the deal is scored.

Scoring (K108-18..23): every player's loose points after the best arrangement of their ten cards
go on their record of minus points; the knocker's are the points they knocked with; gin, a flush,
figures and a full sequence take 10, 25, 25 and 40 off the declarer's record instead. Stakes move
in site chips: the ledger (``extra``: ``pool``, ``chips`` per seat, ``ledger`` entries) is public.
Each round's :class:`~.scoring.ScoreLine` has ``points`` = the change of the record in this deal
(with the jump of a buy-back before it, so a seat's lines add up to its record), ``hand`` = loose
points, ``bonus`` = the credit (negative), and notes that say what happened to the chips. A
player who still holds a flush or figures when another ends the deal has nothing loose (a special
hand is a meld of the whole hand, K108-12) but gets no credit. A player over 100 is out (K108-25,
K108-Q13); when at most one is left the match ends and the pool goes to the winner (K108-28,
K108-Q14).

>>> from games.engine import variant, new_game, view_for
>>> state = new_game(variant("knock108", stake=10), ["Ala", "Bartek", "Celina"], seed=1)
>>> view = view_for(state, state.turn)
>>> len(view["hand"]), view["stage"], view["stakes"]["pool"], view["stakes"]["chips"]
(11, 'play', 30, [-10, -10, -10])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from . import errors
from .cards import RANK_NUMBER, Card, parse_card, sort_key
from .deal import deal_seed, shuffle
from .errors import DiscardTakenCardError, KnockTooHighError
from .events import Event, private, public
from .melds import Meld, read_meld
from .moves import Discard, DrawStock, Knock, Move, Pass, Play, TakeDiscard
from .scoring import RoundResult, ScoreLine
from .search import best_arrangement
from .state import GameState, Phase, TableMeld

if TYPE_CHECKING:
    from .rules import Rules
    from .turn import Transition

__all__ = [
    "CREDITS",
    "FLOW",
    "KNOCK_LIMIT",
    "RULE_LIMIT",
    "Declaration",
    "DiscardTakenCardError",
    "Knock108Flow",
    "KnockTooHighError",
    "best_declaration",
    "deadwood",
    "declaration",
    "special_hand",
]

#: K108-24/25 with K108-Q13: a record strictly over this drops the player out.
RULE_LIMIT = 100
#: K108-14: the most loose points one may knock with.
KNOCK_LIMIT = 5
#: K108-Q16 (GIN-22, GIN-Q6): a discard that leaves this many cards in the stock voids the deal.
VOID_STOCK = 2
#: K108-21: what each result takes off the declarer's record.
CREDITS = {"gin": 10, "flush": 25, "figures": 25, "full_sequence": 40}
#: K108-Q7: which result wins when the ten cards qualify for several.
_RANK = {"knock": 1, "gin": 2, "flush": 3, "figures": 3, "full_sequence": 4}
_FIGURES = "JQKA"
#: K108-26: the price of coming back, in stakes.
BUY_BACK_STAKES = 3


# --- hands: loose points, special hands, what a declaration is worth ----------------------------


@lru_cache(maxsize=1 << 16)
def _deadwood_of_faces(rules: Rules, faces: tuple[str, ...]) -> int:
    cards = [parse_card(face) for face in faces]
    _, loose = best_arrangement(rules, cards)
    return sum(rules.hand_value(card) for card in loose)


def deadwood(rules: Rules, cards: Iterable[Card]) -> int:
    """The loose points of ``cards`` after their best arrangement into ordinary melds (K108-18).

    Memoised on the cards' faces (copies of a card behave alike).
    """
    return _deadwood_of_faces(rules, tuple(sorted(card.face for card in cards)))


def _full_sequence(rules: Rules, cards: Sequence[Card]) -> Meld | None:
    """The ten cards as one run of one suit (K108-13, K108-Q7), jokers declared, or None."""
    naturals = [card for card in cards if not card.is_joker]
    jokers = [card.bare() for card in cards if card.is_joker]
    if not naturals or len({card.suit for card in naturals}) != 1:
        return None
    suit = naturals[0].suit
    size = len(cards)
    for start in range(1, 16 - size):
        places: dict[int, Card] = {}
        for card in naturals:
            position = RANK_NUMBER[card.rank] if card.rank != "A" else (1 if start == 1 else 14)
            if not start <= position < start + size or position in places:
                break
            places[position] = card
        else:
            spare = iter(jokers)
            ordered = [places.get(p) or next(spare) for p in range(start, start + size)]
            try:
                meld = read_meld(ordered, rules.policy)
            except errors.InvalidMeldError:
                continue
            if meld.kind == "run" and meld.suit == suit:
                return meld
    return None


def special_hand(rules: Rules, cards: Sequence[Card]) -> str | None:
    """``"full_sequence"``, ``"flush"``, ``"figures"`` or None for a ten-card hand (K108-12/13).

    A joker stands for any card (K108-Q6); the full sequence counts only where the table plays it.
    """
    naturals = [card for card in cards if not card.is_joker]
    if len(cards) != 10 or not naturals:
        return None
    one_suit = len({card.suit for card in naturals}) == 1
    if one_suit and rules.options.get("full_sequence") and _full_sequence(rules, cards) is not None:
        return "full_sequence"
    if one_suit:
        return "flush"
    if all(card.rank in _FIGURES for card in naturals):
        return "figures"
    return None


@dataclass(frozen=True, slots=True)
class Declaration:
    """What a hand of ten is worth when laid: its kind, loose points, melds and loose cards."""

    kind: str
    #: Loose points (0 for every kind but ``knock``).
    points: int
    melds: tuple[Meld, ...]
    loose: tuple[Card, ...]

    @property
    def credit(self) -> int:
        return CREDITS.get(self.kind, 0)

    @property
    def rank(self) -> int:
        return _RANK[self.kind]


def declaration(rules: Rules, cards: Sequence[Card]) -> Declaration | None:
    """The best result ten cards allow (K108-Q7), or None when they cannot end the deal."""
    special = special_hand(rules, cards)
    if special == "full_sequence":
        meld = _full_sequence(rules, cards)
        assert meld is not None
        return Declaration(special, 0, (meld,), ())
    if special is not None:
        return Declaration(special, 0, (), ())
    if deadwood(rules, cards) > KNOCK_LIMIT:
        return None
    melds, loose = best_arrangement(rules, cards)
    points = sum(rules.hand_value(card) for card in loose)
    return Declaration("gin" if points == 0 else "knock", points, melds, loose)


def best_declaration(
    rules: Rules, hand: Sequence[Card], taken: str | None = None
) -> tuple[Card, Declaration] | None:
    """The discard that leaves the best result (K108-Q7), and that result; None if none can end.

    Ties go to discarding the highest card, then the first such card in the hand.
    """
    best: tuple[tuple[int, int, int], Card, Declaration] | None = None
    seen: set[str] = set()
    for card in hand:
        if card.face in seen or (taken is not None and card.face == _face(taken)):
            continue
        seen.add(card.face)
        rest = _without(hand, card)
        found = declaration(rules, rest)
        if found is None:
            continue
        key = (found.rank, -found.points, rules.hand_value(card))
        if best is None or key > best[0]:
            best = (key, card, found)
    return None if best is None else (best[1], best[2])


def loose_at_showdown(
    rules: Rules, cards: Sequence[Card]
) -> tuple[str | None, tuple[Meld, ...], tuple[Card, ...]]:
    """A player's cards when the deal is scored: (special hand, melds, loose cards).

    A special hand is a meld made of the whole hand (K108-12), so it leaves nothing loose, though
    only the declarer is credited for it.
    """
    special = special_hand(rules, cards)
    if special is not None:
        return special, (), ()
    melds, loose = best_arrangement(rules, cards)
    return None, melds, loose


def _face(card_id: str) -> str:
    return parse_card(card_id).face


def _without(cards: Sequence[Card], card: Card) -> list[Card]:
    out = list(cards)
    out.remove(card)
    return out


# --- the extra data of a match -----------------------------------------------------------------


def _extra(state: GameState) -> dict[str, Any]:
    """A working copy of ``state.extra``: the top level and its lists are copied (entries of the
    ledger are never changed in place)."""
    out: dict[str, Any] = {}
    for key, value in state.extra.items():
        out[key] = (
            list(value) if isinstance(value, list) else (dict(value) if isinstance(value, dict) else value)
        )
    return out


def _stake(rules: Rules) -> int:
    return int(rules.options["stake"])


def _entry(round_no: int, kind: str, source: int | str, target: int | str, amount: int) -> dict[str, Any]:
    return {"round": round_no, "kind": kind, "from": source, "to": target, "amount": amount}


def _pay(extra: dict[str, Any], entry: dict[str, Any]) -> None:
    chips = extra["chips"]
    amount = entry["amount"]
    if entry["from"] == "pool":
        extra["pool"] -= amount
    else:
        chips[entry["from"]] -= amount
    if entry["to"] == "pool":
        extra["pool"] += amount
    else:
        chips[entry["to"]] += amount
    extra["ledger"].append(entry)


def _next_seat(active: Sequence[bool], seat: int) -> int:
    players = len(active)
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if active[candidate]:
            return candidate
    raise AssertionError("no player is in the game")  # pragma: no cover


def _order_from(active: Sequence[bool], seat: int) -> list[int]:
    """The seats in play after ``seat``, in turn order (``seat`` itself excluded)."""
    players = len(active)
    return [(seat + step) % players for step in range(1, players) if active[(seat + step) % players]]


def _with_hand(state: GameState, seat: int, hand: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(hand) if s == seat else h for s, h in enumerate(state.hands))


def _started(state: GameState, seat: int) -> tuple[int, ...]:
    return tuple(n + 1 if s == seat else n for s, n in enumerate(state.turns_started))


def _resolve(hand: Sequence[Card], wanted: Card) -> Card:
    """The physical card of ``hand`` that ``wanted`` names (exact copy id, or any copy)."""
    wanted = wanted.bare()
    for card in hand:
        if wanted.matches(card):
            return card
    raise errors.CardNotInHandError(f"{wanted} is not in your hand", card=str(wanted))


# --- the flow ----------------------------------------------------------------------------------


class Knock108Flow:
    """Knock-108's turn cycle (see the module note). Stateless: everything lives in the state."""

    # Rounds ---------------------------------------------------------------------------------

    def choose_first(self, rules: Rules, players: int, secret: bytes) -> int:
        # K108-7 is silent on the first dealer; as in gin (GIN-5), by lot: round 0's seed.
        return int(shuffle(range(players), deal_seed(secret, 0))[0])

    def deal_round(self, state: GameState, round_no: int, first: int) -> GameState:
        extra = _extra(state)
        players = state.players
        if not extra:
            # K108-22: before the first deal every player pays one stake into the pool.
            stake = _stake(state.rules)
            extra = {
                "active": [True] * players,
                "chips": [0] * players,
                "pool": 0,
                "ledger": [],
                "buy_backs": [0] * players,
                "last_deal": None,
            }
            for seat in range(players):
                _pay(extra, _entry(round_no, "entry", seat, "pool", stake))
        carry: list[dict[str, Any]] = [{"points": 0, "notes": []} for _ in range(players)]
        if round_no == 1 and not state.results:
            for item in carry:
                item["notes"] = [f"entry stake: {_stake(state.rules)} chips into the pool (K108-22)"]
        active = list(extra["active"])
        # One card at a time from the dealer's left, the dealer last: 10 each, the dealer 11
        # (K108-5). With every seat in, this is exactly turn.deal_cards, so verify_deal agrees.
        pack = list(shuffle(state.rules.pack(), deal_seed(state.secret, round_no)))
        hands: list[list[Card]] = [[] for _ in range(players)]
        order = [*_order_from(active, first), first]
        position = 0
        for size in range(11):
            for seat in order:
                if size < 10 or seat == first:
                    hands[seat].append(pack[position])
                    position += 1
        # K108-26, K108-Q14: the players who are out may buy back in before the dealer starts.
        queue = [s for s in _order_from([True] * players, first) if not active[s]]
        extra.update(
            stage="play",
            taken=None,
            knock=None,
            queue=[],
            carry=carry,
        )
        turn = first
        phase: Phase = "play"
        turns = [0] * players
        if queue:
            extra.update(stage="buy_back", queue=queue[1:])
            turn, phase = queue[0], "draw"
        turns[turn] = 1
        return replace(
            state,
            round_no=round_no,
            first=first,
            hands=tuple(tuple(hand) for hand in hands),
            stock=tuple(pack[position:]),
            discard=(),
            melds=(),
            opened=(False,) * players,
            turn=turn,
            phase=phase,
            turns_started=tuple(turns),
            opened_at_turn_start=False,
            turn_joker_laid=False,
            atu=None,
            atu_taken_by=None,
            atu_pair_seats=(),
            consumed=(),
            reshuffles=0,
            next_meld_id=1,
            extra=extra,
        )

    # Moves ----------------------------------------------------------------------------------

    def apply_move(self, state: GameState, seat: int, move: Move) -> Transition:
        stage = state.extra["stage"]
        if not isinstance(move, (DrawStock, TakeDiscard, Play, Discard, Pass, Knock)):
            raise errors.MalformedMoveError(f"not a move: {move!r}")
        if isinstance(move, Play):
            raise errors.WrongPhaseError(
                "nothing is laid during play: melds stay in the hand until the deal ends", rule="K108-29"
            )
        if stage == "buy_back":
            return self._buy_back(state, seat, move)
        if state.phase == "draw":
            if isinstance(move, DrawStock):
                return self._draw(state, seat)
            if isinstance(move, TakeDiscard):
                return self._take(state, seat, move)
            if isinstance(move, Pass) and stage == "exchange":
                events: list[Event] = [public("passed", seat=seat, rule="K108-16")]
                return self._after_exchange(state, seat, events)
            if isinstance(move, Pass):
                raise errors.WrongPhaseError("draw a card: only the extra exchange may be declined")
            raise errors.WrongPhaseError("cannot do that now: draw first", phase="draw")
        # phase "play": a card has been drawn (or the dealer starts).
        if isinstance(move, Discard):
            return self._discard(state, seat, move.card)
        if isinstance(move, Knock):
            if stage == "exchange":
                raise errors.WrongPhaseError(
                    "the deal is over: the extra exchange ends with a discard", rule="K108-16"
                )
            return self._knock(state, seat, move)
        if isinstance(move, Pass):
            raise errors.WrongPhaseError("you have drawn: now discard", phase="play")
        raise errors.WrongPhaseError("you have already drawn", phase="play")

    def _draw(self, state: GameState, seat: int) -> Transition:
        if not state.stock:
            raise errors.WrongPhaseError("the stock is empty: take the top discard or pass", rule="K108-Q12")
        card, stock = state.stock[0], state.stock[1:]
        extra = _extra(state)
        extra["taken"] = None
        new = replace(
            state,
            stock=stock,
            hands=_with_hand(state, seat, (*state.hands[seat], card)),
            phase="play",
            extra=extra,
        )
        events = (
            public("drew", seat=seat, source="stock"),
            private(seat, "drew_card", seat=seat, card=str(card)),
        )
        return _transition(new, events)

    def _take(self, state: GameState, seat: int, move: TakeDiscard) -> Transition:
        if not move.play.is_empty:
            raise errors.WrongPhaseError(
                "a taken card goes to the hand: nothing is laid during play", rule="K108-29"
            )
        if not state.discard:
            raise errors.CannotTakeDiscardError("the face-up pile is empty")
        top = state.discard[-1]
        if move.card is not None and not move.card.bare().matches(top):
            raise errors.CannotTakeDiscardError(
                "only the top card of the face-up pile may be taken", rule="K108-Q18", card=str(move.card)
            )
        extra = _extra(state)
        extra["taken"] = str(top)
        new = replace(
            state,
            discard=state.discard[:-1],
            hands=_with_hand(state, seat, (*state.hands[seat], top)),
            phase="play",
            extra=extra,
        )
        return _transition(new, (public("took", seat=seat, card=str(top), cards=[str(top)], depth=1),))

    def _check_discard(self, state: GameState, seat: int, wanted: Card) -> Card:
        card = _resolve(state.hands[seat], wanted)
        taken = state.extra.get("taken")
        if taken is not None and card.face == _face(taken):
            raise DiscardTakenCardError(
                f"{card.face} was just taken from the face-up pile: discard another card",
                rule="K108-Q18",
                card=str(card),
            )
        return card

    def _discard(self, state: GameState, seat: int, wanted: Card) -> Transition:
        card = self._check_discard(state, seat, wanted)
        hand = _without(state.hands[seat], card)
        extra = _extra(state)
        extra["taken"] = None
        state = replace(
            state, hands=_with_hand(state, seat, hand), discard=(*state.discard, card), extra=extra
        )
        events: list[Event] = [public("discarded", seat=seat, card=str(card))]
        if extra["stage"] == "exchange":
            return self._after_exchange(state, seat, events)
        if len(state.stock) <= VOID_STOCK:
            # K108-Q16: two cards left and nobody ended the deal: void, the same dealer deals again.
            return self._void(state, events)
        nxt = _next_seat(extra["active"], seat)
        state = replace(state, turn=nxt, phase="draw", turns_started=_started(state, nxt))
        events.append(public("turn", seat=nxt))
        return _transition(state, events)

    def _knock(self, state: GameState, seat: int, move: Knock) -> Transition:
        rules = state.rules
        hand = state.hands[seat]
        taken = state.extra.get("taken")
        if move.card is None:
            best = best_declaration(rules, hand, taken)
            if best is None:
                raise KnockTooHighError(
                    f"no discard leaves {KNOCK_LIMIT} loose points or fewer", rule="K108-14"
                )
            card, result = best
        else:
            card = self._check_discard(state, seat, move.card)
            found = declaration(rules, _without(hand, card))
            if found is None:
                points = deadwood(rules, _without(hand, card))
                raise KnockTooHighError(
                    f"{points} loose points: a knock needs {KNOCK_LIMIT} or fewer",
                    rule="K108-14",
                    points=points,
                )
            result = found
        rest = _without(hand, card)
        if move.melds:
            # The knocker may say how they lay their hand; the engine still scores the best result
            # the ten cards allow (K108-Q7), which is never worse for them.
            pool = list(rest)
            for written in move.melds:
                physical = []
                for wanted in written:
                    found_card = next((c for c in pool if wanted.bare().matches(c)), None)
                    if found_card is None:
                        raise errors.CardNotInHandError(
                            f"{wanted} is not among the ten cards you lay", card=str(wanted)
                        )
                    pool.remove(found_card)
                    physical.append(
                        found_card.declared(wanted.stands_for) if wanted.stands_for else found_card
                    )
                read_meld(physical, rules.policy)
        extra = _extra(state)
        extra["taken"] = None
        state = replace(
            state, hands=_with_hand(state, seat, rest), discard=(*state.discard, card), extra=extra
        )
        events: list[Event] = [
            public("discarded", seat=seat, card=str(card)),
            public(
                "knocked" if result.kind == "knock" else "declared",
                seat=seat,
                result=result.kind,
                points=result.points,
                rule=_KIND_RULE[result.kind],
            ),
        ]
        if result.kind != "knock":
            # K108-17, K108-Q8: no extra exchange after gin, a flush, figures or a full sequence.
            return self._score(state, seat, result.kind, result.points, events)
        # K108-14: the knocker lays the hand face up; the melds go on the table.
        table = [
            TableMeld(i, seat, meld, (seat,) * len(meld.cards))
            for i, meld in enumerate(result.melds, start=state.next_meld_id)
        ]
        hand_left = list(rest)
        for meld in result.melds:
            for card_in_meld in meld.cards:
                hand_left.remove(card_in_meld.bare())
        queue = _order_from(extra["active"], seat)
        extra.update(
            stage="exchange",
            knock={"seat": seat, "kind": "knock", "points": result.points, "discard": str(card)},
            queue=queue[1:],
        )
        nxt = queue[0]
        state = replace(
            state,
            hands=_with_hand(state, seat, hand_left),
            melds=(*state.melds, *table),
            next_meld_id=state.next_meld_id + len(table),
            turn=nxt,
            phase="draw",
            turns_started=_started(state, nxt),
            extra=extra,
        )
        events.append(public("extra_exchange", seat=nxt, order=queue, rule="K108-16"))
        return _transition(state, events)

    def _after_exchange(self, state: GameState, seat: int, events: list[Event]) -> Transition:
        extra = _extra(state)
        queue = list(extra["queue"])
        extra["taken"] = None
        if not queue:
            knock = extra["knock"]
            state = replace(state, extra=extra)
            return self._score(state, int(knock["seat"]), "knock", int(knock["points"]), events)
        nxt = queue.pop(0)
        extra["queue"] = queue
        state = replace(state, turn=nxt, phase="draw", turns_started=_started(state, nxt), extra=extra)
        events.append(public("extra_exchange", seat=nxt, rule="K108-16"))
        return _transition(state, events)

    def _buy_back(self, state: GameState, seat: int, move: Move) -> Transition:
        rules = state.rules
        extra = _extra(state)
        events: list[Event] = []
        if isinstance(move, Knock):
            if move.card is not None or move.melds:
                raise errors.WrongPhaseError("to buy back in, knock without a card (no deal to end yet)")
            active = list(extra["active"])
            # K108-26, K108-Q14: three stakes into the pool, and the record of the player closest
            # to 100 (the highest record among those still in).
            record = max(t for t, a in zip(state.totals, active, strict=True) if a)
            cost = BUY_BACK_STAKES * _stake(rules)
            _pay(extra, _entry(state.round_no, "buy_back", seat, "pool", cost))
            extra["buy_backs"][seat] += 1
            active[seat] = True
            extra["active"] = active
            totals = tuple(record if s == seat else t for s, t in enumerate(state.totals))
            carry = [dict(item) for item in extra["carry"]]
            carry[seat] = {
                "points": carry[seat]["points"] + record - state.totals[seat],
                "notes": [
                    *carry[seat]["notes"],
                    f"bought back in for {cost} chips ({BUY_BACK_STAKES} stakes); "
                    f"record {state.totals[seat]} -> {record} (K108-26)",
                ],
            }
            extra["carry"] = carry
            # Ten cards from the top of the stock (the deal was made among the players who were in).
            cards, stock = state.stock[:10], state.stock[10:]
            state = replace(state, totals=totals, stock=stock, hands=_with_hand(state, seat, cards))
            events.append(
                public("bought_back", seat=seat, cost=cost, record=record, pool=extra["pool"], rule="K108-26")
            )
            events.append(private(seat, "dealt", seat=seat, cards=[str(c) for c in cards]))
        elif isinstance(move, Pass):
            events.append(public("stayed_out", seat=seat, rule="K108-26"))
        else:
            raise errors.WrongPhaseError(
                "before this deal starts, the players who are out decide: knock to buy back in, or pass",
                rule="K108-26",
            )
        queue = list(extra["queue"])
        if queue:
            nxt = queue.pop(0)
            extra["queue"] = queue
            state = replace(state, turn=nxt, turns_started=_started(state, nxt), extra=extra)
            return _transition(state, events)
        extra.update(stage="play", queue=[])
        dealer = state.first
        state = replace(state, turn=dealer, phase="play", turns_started=_started(state, dealer), extra=extra)
        events.append(public("turn", seat=dealer))
        return _transition(state, events)

    # The end of a deal ----------------------------------------------------------------------

    def _void(self, state: GameState, events: list[Event]) -> Transition:
        lines = []
        jumps, notes = _carried(state)
        chips = _round_chips(state.extra, state.round_no, state.players)
        for seat in range(state.players):
            note = ["void deal: two cards left in the stock (K108-Q16)", *notes[seat]]
            lines.append(ScoreLine(seat, jumps[seat], notes=tuple(note), chips=chips[seat]))
        hands = tuple(_full_hand(state, seat) for seat in range(state.players))
        result = RoundResult(state.round_no, state.first, "void", None, tuple(lines), state.totals, hands)
        extra = _extra(state)
        extra["last_deal"] = {"round": state.round_no, "ended": "void", "seats": []}
        events.append(_round_over_event(state, result, "void"))
        state = replace(state, results=(*state.results, result), extra=extra)
        return self._next_deal(state, state.first, events)

    def _score(
        self, state: GameState, declarer: int, kind: str, points: int, events: list[Event]
    ) -> Transition:
        rules = state.rules
        stake = _stake(rules)
        names = state.names
        extra = _extra(state)
        active = list(extra["active"])
        opponents = _order_from(active, declarer)
        jumps, notes = _carried(state)
        record_change = [0] * state.players
        hand_points = [0] * state.players
        bonus = [0] * state.players
        showdown: list[dict[str, Any]] = []
        hands = tuple(_full_hand(state, seat) for seat in range(state.players))
        for seat in range(state.players):
            if not active[seat]:
                notes[seat].append("out of the game")
                continue
            if seat == declarer:
                credit = CREDITS.get(kind, 0)
                hand_points[seat] = points if kind == "knock" else 0
                bonus[seat] = -credit
                record_change[seat] = hand_points[seat] - credit
                notes[seat].append(_DECLARER_NOTE[kind].format(points=points, credit=credit))
                special: str | None = None
                melds: tuple[Meld, ...] = ()
                loose: tuple[Card, ...] = ()
                if kind in ("knock", "gin"):
                    melds, loose = best_arrangement(rules, hands[seat])
                elif kind == "full_sequence":
                    run = _full_sequence(rules, hands[seat])
                    special, melds = kind, ((run,) if run is not None else ())
                else:
                    special = kind
            else:
                special, melds, loose = loose_at_showdown(rules, hands[seat])
                hand_points[seat] = sum(rules.hand_value(card) for card in loose)
                record_change[seat] = hand_points[seat]
                if special is not None:
                    notes[seat].append(
                        f"{_KIND_NAME[special]} after the deal ended: nothing loose, no credit"
                    )
            showdown.append(
                {
                    "seat": seat,
                    "special": special,
                    "melds": [[_show(c) for c in meld.cards] for meld in melds],
                    "loose": [_show(c) for c in sorted(loose, key=sort_key)],
                    "points": hand_points[seat],
                }
            )
        # K108-23 (Q9, Q10): stakes in chips.
        per_opponent = {
            "knock": stake // 2,
            "gin": stake,
            "flush": stake * int(rules.options["special_hand_stakes"]),
            "figures": stake * int(rules.options["special_hand_stakes"]),
            "full_sequence": 4 * stake,
        }[kind]
        gained = 0
        for seat in opponents:
            paid = 0
            if per_opponent:
                _pay(extra, _entry(state.round_no, kind, seat, declarer, per_opponent))
                paid += per_opponent
                gained += per_opponent
            text = f"chips -{paid}" if paid else "chips 0"
            parts = [f"{per_opponent} to {names[declarer]}"] if per_opponent else []
            if kind == "knock":
                # The other half stake goes into the pool.
                _pay(extra, _entry(state.round_no, "knock", seat, "pool", stake // 2))
                text = f"chips -{paid + stake // 2}"
                parts.append(f"{stake // 2} to the pool")
            if parts:
                text += f" ({', '.join(parts)}, K108-23)"
            notes[seat].append(text)
        notes[declarer].append(
            f"chips +{gained} ({per_opponent} from each of {len(opponents)}, K108-23)"
            if gained
            else "chips 0"
        )
        totals = tuple(t + change for t, change in zip(state.totals, record_change, strict=True))
        # K108-25 (Q13): over 100, out.
        out_now = [s for s in range(state.players) if active[s] and totals[s] > RULE_LIMIT]
        for seat in out_now:
            active[seat] = False
            notes[seat].append(f"over {RULE_LIMIT}: out of the game (K108-25)")
        chips = _round_chips(extra, state.round_no, state.players)
        lines = tuple(
            ScoreLine(
                seat,
                record_change[seat] + jumps[seat],
                hand=hand_points[seat],
                bonus=bonus[seat],
                notes=tuple(notes[seat]),
                chips=chips[seat],
            )
            for seat in range(state.players)
        )
        result = RoundResult(state.round_no, state.first, "went_out", declarer, lines, totals, hands)
        extra["active"] = active
        extra["last_deal"] = {
            "round": state.round_no,
            "ended": kind,
            "declarer": declarer,
            "seats": showdown,
        }
        extra.update(stage="play", knock=None, queue=[], taken=None)
        events.append(_round_over_event(state, result, kind))
        for seat in out_now:
            events.append(public("eliminated", seat=seat, record=totals[seat], rule="K108-25"))
        state = replace(state, totals=totals, results=(*state.results, result), extra=extra)
        still_in = [s for s in range(state.players) if active[s]]
        if len(still_in) <= 1:
            # K108-28, K108-Q14: one left wins; none left: the lowest record of this deal's losers.
            if still_in:
                winners = still_in
            else:
                lowest = min(totals[s] for s in out_now)
                winners = [s for s in out_now if totals[s] == lowest]
            return self._finish(state, winners, events)
        return self._next_deal(state, _next_seat(active, state.first), events)

    def _next_deal(self, state: GameState, dealer: int, events: list[Event]) -> Transition:
        state = self.deal_round(state, state.round_no + 1, dealer)
        events.append(public("round_started", round=state.round_no, first=dealer))
        if state.extra["stage"] == "buy_back":
            record = max(t for t, a in zip(state.totals, state.extra["active"], strict=True) if a)
            events.append(
                public(
                    "buy_back_offer",
                    seats=[state.turn, *state.extra["queue"]],
                    cost=BUY_BACK_STAKES * _stake(state.rules),
                    record=record,
                    rule="K108-26",
                )
            )
        return _transition(state, events)

    def _finish(self, state: GameState, winners: Sequence[int], events: list[Event]) -> Transition:
        extra = _extra(state)
        pool = int(extra["pool"])
        share, rest = divmod(pool, len(winners))
        # Ties split the pool (K108-Q14); an odd chip goes to the first winners in seat order.
        taken = [0] * state.players
        for index, seat in enumerate(sorted(winners)):
            taken[seat] = share + (1 if index < rest else 0)
            if taken[seat]:
                _pay(extra, _entry(state.round_no, "pool", "pool", seat, taken[seat]))
        # The last deal's lines and its round_over event show the pool going to the winners.
        last = state.results[-1]
        lines = tuple(
            replace(
                line,
                chips=(line.chips or 0) + taken[line.seat],
                notes=(*line.notes, f"takes the pool: +{taken[line.seat]} chips (K108-28)"),
            )
            if line.seat in winners
            else line
            for line in last.lines
        )
        last = replace(last, lines=lines)
        state = replace(state, results=(*state.results[:-1], last))
        events = [
            _round_over_event(state, last, str(e.data["result"])) if e.kind == "round_over" else e
            for e in events
        ]
        events.append(
            public(
                "match_over", winners=sorted(winners), totals=list(state.totals), pool=pool, rule="K108-28"
            )
        )
        state = replace(state, phase="over", winners=tuple(sorted(winners)), extra=extra)
        return _transition(state, events)

    # What seats may do and see ------------------------------------------------------------------

    def legal_moves(self, state: GameState, seat: int) -> list[Move]:
        stage = state.extra["stage"]
        if stage == "buy_back":
            return [Knock(), Pass()]
        if state.phase == "draw":
            moves: list[Move] = []
            if state.stock:
                moves.append(DrawStock())
            if state.discard:
                moves.append(TakeDiscard())
            if stage == "exchange":
                moves.append(Pass())
            return moves
        discards = self._discards(state, seat)
        out: list[Move] = [Discard(card) for card in discards]
        if stage == "play":
            hand = state.hands[seat]
            out += [Knock(card) for card in discards if declaration(state.rules, _without(hand, card))]
        return out

    def _discards(self, state: GameState, seat: int) -> list[Card]:
        taken = state.extra.get("taken")
        seen: set[str] = set()
        out = []
        for card in state.hands[seat]:
            if card.face in seen or (taken is not None and card.face == _face(taken)):
                continue
            seen.add(card.face)
            out.append(card)
        return out

    def seat_options(self, state: GameState, seat: int) -> dict[str, Any]:
        extra = state.extra
        stage = extra["stage"]
        over = state.phase == "over"
        my_turn = not over and seat == state.turn
        kinds: list[str] = []
        if my_turn and stage == "buy_back":
            kinds = ["knock", "pass"]
        elif my_turn and state.phase == "draw":
            kinds = [k for k, ok in (("draw", bool(state.stock)), ("take", bool(state.discard))) if ok]
            if stage == "exchange":
                kinds.append("pass")
        elif my_turn:
            kinds = ["discard"] + (["knock"] if stage == "play" else [])
        options: dict[str, Any] = {
            "my_turn": my_turn,
            "moves": kinds,
            "stage": stage,
            "in_game": bool(extra["active"][seat]),
            "discards": [str(c) for c in self._discards(state, seat)]
            if my_turn and state.phase == "play" and stage != "buy_back"
            else [],
            "takeable": [str(state.discard[-1])]
            if my_turn and state.phase == "draw" and state.discard and stage != "buy_back"
            else [],
            "taken": extra.get("taken") if my_turn else None,
            "first_turn": state.turns_started[seat] <= 1,
            "opened": False,
            "opening": None,
            "stock_empty": not state.stock,
            "loose_points": deadwood(state.rules, state.hands[seat]) if state.hands[seat] else 0,
            "knock": None,
            "buy_back": None,
        }
        if my_turn and stage == "play" and state.phase == "play":
            best = best_declaration(state.rules, state.hands[seat], extra.get("taken"))
            if best is not None:
                card, result = best
                options["knock"] = {"card": str(card), "kind": result.kind, "points": result.points}
        if my_turn and stage == "buy_back":
            options["buy_back"] = _buy_back_terms(state)
        return options

    def view_extra(self, state: GameState, seat: int | None) -> dict[str, Any]:
        extra = state.extra
        knock = extra.get("knock")
        knock_view = None
        if knock is not None:
            knocker = int(knock["seat"])
            knock_view = {
                "seat": knocker,
                "points": knock["points"],
                # The knocker's hand is face up (K108-14): the melds are on the table, these are
                # the loose cards (shown without copy ids: only their faces matter).
                "loose": [_show(c) for c in sorted(state.hands[knocker], key=sort_key)],
                "to_exchange": [state.turn, *extra["queue"]] if state.phase == "draw" else [*extra["queue"]],
            }
        stage = extra["stage"]
        return {
            "stage": stage,
            "in_game": list(extra["active"]),
            "limit": RULE_LIMIT,
            "knock_limit": KNOCK_LIMIT,
            "knock": knock_view,
            "buy_back": _buy_back_terms(state) | {"to_decide": [state.turn, *extra["queue"]]}
            if stage == "buy_back"
            else None,
            "stakes": {
                "stake": _stake(state.rules),
                "pool": extra["pool"],
                "chips": list(extra["chips"]),
                "buy_backs": list(extra["buy_backs"]),
                "ledger": [dict(entry) for entry in extra["ledger"]],
            },
            "last_deal": extra.get("last_deal"),
        }

    def table_lines(self, view: Mapping[str, Any]) -> list[str]:
        """Lines for the terminal's table: who is in, the pool and chips, a knock, a buy-back."""
        names = view["names"]
        stakes = view["stakes"]
        lines = []
        status = []
        for seat, name in enumerate(names):
            state = "in" if view["in_game"][seat] else "OUT"
            status.append(
                f"{name} {view['scores']['totals'][seat]} ({state}, chips {stakes['chips'][seat]:+d})"
            )
        lines.append(f"Records: {' | '.join(status)}   (over {view['limit']} is out)")
        lines.append(f"Pool   : {stakes['pool']} chips (stake {stakes['stake']})")
        knock = view.get("knock")
        if knock is not None:
            loose = " ".join(knock["loose"]) or "nothing"
            lines.append(
                f"Knock  : {names[knock['seat']]} knocked with {knock['points']} (loose: {loose}); "
                "extra exchange: draw or take, then discard; or pass"
            )
        offer = view.get("buy_back")
        if offer is not None:
            lines.append(
                f"Buy-back: {', '.join(names[s] for s in offer['to_decide'])} may come back for "
                f"{offer['cost']} chips with a record of {offer['record']}: knock = buy back, pass = stay out"
            )
        you = view.get("you") or {}
        if you.get("my_turn") and you.get("stage") != "buy_back" and view.get("hand"):
            text = f"Loose  : {you['loose_points']} points in your hand as it is"
            hint = you.get("knock")
            if hint is not None:
                kind = hint["kind"]
                what = f"a knock with {hint['points']}" if kind == "knock" else _KIND_NAME[kind]
                text += f"; you can end the deal: knock {hint['card'].split('#')[0]} ({what})"
            lines.append(text)
        last = view.get("last_deal")
        if last and last.get("seats"):
            parts = []
            for item in last["seats"]:
                laid = " ".join(f"[{' '.join(m)}]" for m in item["melds"])
                what = _KIND_NAME[item["special"]] if item["special"] else laid or "-"
                loose = " ".join(item["loose"])
                parts.append(f"{names[item['seat']]}: {what}{' loose ' + loose if loose else ''}")
            lines.append(f"Deal {last['round']}: " + "; ".join(parts))
        return lines


def _buy_back_terms(state: GameState) -> dict[str, Any]:
    active = state.extra["active"]
    return {
        "cost": BUY_BACK_STAKES * _stake(state.rules),
        "record": max(t for t, a in zip(state.totals, active, strict=True) if a),
        "rule": "K108-26",
    }


_KIND_RULE = {
    "knock": "K108-14",
    "gin": "K108-11",
    "flush": "K108-12",
    "figures": "K108-12",
    "full_sequence": "K108-13",
}
_KIND_NAME = {
    "knock": "knock",
    "gin": "gin",
    "flush": "flush",
    "figures": "figures",
    "full_sequence": "full sequence",
    "void": "void",
}
_DECLARER_NOTE = {
    "knock": "knocked with {points} (K108-14, K108-20)",
    "gin": "gin: {credit} off the record (K108-21)",
    "flush": "flush: {credit} off the record (K108-21)",
    "figures": "figures: {credit} off the record (K108-21)",
    "full_sequence": "full sequence: {credit} off the record (K108-21)",
}


def _show(card: Card) -> str:
    """A card as shown in a finished deal's summary: its face, a joker's declaration."""
    return card.face + (f"({card.stands_for.face})" if card.stands_for is not None else "")


def _full_hand(state: GameState, seat: int) -> tuple[Card, ...]:
    """The seat's cards, with those of its melds on the table (the knocker's)."""
    cards = list(state.hands[seat])
    for table_meld in state.melds:
        if table_meld.owner == seat:
            cards.extend(card.bare() for card in table_meld.cards)
    return tuple(cards)


def _round_chips(extra: Mapping[str, Any], round_no: int, players: int) -> list[int]:
    """Each seat's chips won (+) or paid (-) in deal ``round_no``, from the ledger."""
    out = [0] * players
    for entry in extra["ledger"]:
        if entry["round"] != round_no:
            continue
        if entry["from"] != "pool":
            out[entry["from"]] -= entry["amount"]
        if entry["to"] != "pool":
            out[entry["to"]] += entry["amount"]
    return out


def _carried(state: GameState) -> tuple[list[int], list[list[str]]]:
    """What happened before this deal that its score lines must tell: buy-backs (K108-26).

    A buy-back's record jump goes into the line's points, so a seat's lines always add up to its
    record.
    """
    carry = state.extra.get("carry") or [{"points": 0, "notes": []}] * state.players
    return [int(item["points"]) for item in carry], [list(item["notes"]) for item in carry]


def _round_over_event(state: GameState, result: RoundResult, kind: str) -> Event:
    return public(
        "round_over",
        round=state.round_no,
        ended=result.ended,
        winner=result.winner,
        result=kind,
        lines=[line.to_json() for line in result.lines],
        totals=list(result.totals),
        hands=[[str(c) for c in hand] for hand in result.hands],
        seed=deal_seed(state.secret, state.round_no).hex(),
    )


def _transition(state: GameState, events: Iterable[Event]) -> Transition:
    from .turn import Transition

    return Transition(state, tuple(events))


FLOW = Knock108Flow()
