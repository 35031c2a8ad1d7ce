"""Knock-108's turn cycle (``docs/rules/knock108.md``): what a hand is worth (loose points,
special hands, the best declaration) is the variant's (:mod:`games.engine.knock108.rules`).

A deal, in stages (``state.cycle.stage``, :class:`~games.engine.knock108.state.Knock108State`):

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
in site chips: the ledger (``pool``, ``chips`` per seat, ``ledger`` entries) is public.
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

from dataclasses import replace
from typing import Any

from .. import errors, steps
from ..cards import Card, sort_key
from ..cycle import Step
from ..deal import deal_seed, shuffle
from ..events import Event, private, public
from ..melds import read_meld
from ..moves import Discard, DrawStock, Knock, Move, Pass, Play, TakeDiscard
from ..notes import note
from ..rules import Rules
from ..state import GameState, Transition, evolve
from .deal import (
    BUY_BACK_STAKES,
    buy_back_terms,
    deal,
    k108_state,
    next_seat,
    order_from,
    pay,
    score,
    show_card,
    stake_of,
    start,
    void,
)
from .rules import KNOCK_LIMIT, RULE_LIMIT, best_declaration, deadwood, declaration, without
from .state import Carry, Knock108Knock, Knock108State, LedgerEntry

__all__ = ["KNOCK108", "VOID_STOCK", "Knock108Cycle"]

#: K108-Q16 (GIN-22, GIN-Q6): a discard that leaves this many cards in the stock voids the deal.
VOID_STOCK = 2


# --- the buy-back ---------------------------------------------------------------------------------


def _buy_back(state: GameState, seat: int, move: Knock | Pass) -> Transition:
    rules = state.rules
    cycle = k108_state(state)
    events: list[Event] = []
    if isinstance(move, Knock):
        if move.card is not None or move.melds:
            raise errors.WrongPhaseError("to buy back in, knock without a card (no deal to end yet)")
        # K108-26, K108-Q14: three stakes into the pool, and the record of the player closest
        # to 100 (the highest record among those still in).
        record = max(t for t, a in zip(state.totals, cycle.active, strict=True) if a)
        cost = BUY_BACK_STAKES * stake_of(rules)
        cycle = pay(cycle, LedgerEntry(state.round_no, "buy_back", seat, "pool", cost))
        carried = cycle.carry[seat]
        said = note(
            "k108_bought_back",
            cost=cost,
            stakes=BUY_BACK_STAKES,
            record=state.totals[seat],
            new_record=record,
        )
        carry = Carry(carried.points + record - state.totals[seat], (*carried.notes, said))
        cycle = replace(
            cycle,
            buy_backs=tuple(n + 1 if s == seat else n for s, n in enumerate(cycle.buy_backs)),
            active=tuple(True if s == seat else a for s, a in enumerate(cycle.active)),
            carry=tuple(carry if s == seat else c for s, c in enumerate(cycle.carry)),
        )
        totals = tuple(record if s == seat else t for s, t in enumerate(state.totals))
        # Ten cards from the top of the stock (the deal was made among the players who were in).
        cards, stock = state.stock[:10], state.stock[10:]
        state = evolve(state, totals=totals, stock=stock, hands=steps.with_hand(state, seat, cards))
        events.append(
            public("bought_back", seat=seat, cost=cost, record=record, pool=cycle.pool, rule="K108-26")
        )
        events.append(private(seat, "dealt", seat=seat, cards=[str(c) for c in cards]))
    else:
        events.append(public("stayed_out", seat=seat, rule="K108-26"))
    if cycle.queue:
        nxt = cycle.queue[0]
        cycle = replace(cycle, queue=cycle.queue[1:])
        state = evolve(state, turn=nxt, turns_started=steps.started(state, nxt), cycle=cycle)
        return Transition(state, tuple(events))
    cycle = replace(cycle, stage="play", queue=())
    dealer = state.first
    state = evolve(state, turn=dealer, phase="play", turns_started=steps.started(state, dealer), cycle=cycle)
    events.append(public("turn", seat=dealer))
    return Transition(state, tuple(events))


# --- drawing, taking, discarding ------------------------------------------------------------------


def _draw(state: GameState, seat: int, move: DrawStock) -> Transition:
    if not state.stock:
        raise errors.WrongPhaseError("the stock is empty: take the top discard or pass", rule="K108-Q12")
    return steps.draw(state, seat, cycle=replace(k108_state(state), taken=None))


def _take(state: GameState, seat: int, move: TakeDiscard) -> Transition:
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
    return steps.take(state, seat, len(state.discard) - 1, cycle=replace(k108_state(state), taken=top))


def _discard_index(state: GameState, seat: int, wanted: Card) -> int:
    """Where the card to discard is in the hand; not the card just taken, nor its twin (K108-Q18)."""
    hand = state.hands[seat]
    index = steps.find_card(hand, wanted.bare(), "discard")
    card = hand[index]
    taken = k108_state(state).taken
    if taken is not None and card.face == taken.face:
        raise errors.DiscardTakenCardError(
            f"{card.face} was just taken from the face-up pile: discard another card",
            rule="K108-Q18",
            card=str(card),
        )
    return index


def _discard(state: GameState, seat: int, move: Discard) -> Transition:
    index = _discard_index(state, seat, move.card)
    cycle = replace(k108_state(state), taken=None)
    done = steps.discard(state, seat, index, cycle=cycle)
    state = done.state
    events: list[Event] = list(done.events)
    if cycle.stage == "exchange":
        return _after_exchange(state, seat, events)
    if len(state.stock) <= VOID_STOCK:
        # K108-Q16: two cards left and nobody ended the deal: void, the same dealer deals again.
        return void(state, events)
    turned = steps.pass_turn(state, next_seat(cycle.active, seat))
    return Transition(turned.state, (*events, *turned.events))


def _pass_exchange(state: GameState, seat: int, move: Pass) -> Transition:
    return _after_exchange(state, seat, [public("passed", seat=seat, rule="K108-16")])


# --- the knock and the extra exchange ------------------------------------------------------------


def _knock(state: GameState, seat: int, move: Knock) -> Transition:
    rules = state.rules
    hand = state.hands[seat]
    taken = k108_state(state).taken
    if move.card is None:
        best = best_declaration(rules, hand, taken)
        if best is None:
            raise errors.KnockTooHighError(
                f"no discard leaves {KNOCK_LIMIT} loose points or fewer", rule="K108-14"
            )
        card, result = best
    else:
        card = hand[_discard_index(state, seat, move.card)]
        found = declaration(rules, without(hand, card))
        if found is None:
            points = deadwood(rules, without(hand, card))
            raise errors.KnockTooHighError(
                f"{points} loose points: a knock needs {KNOCK_LIMIT} or fewer", rule="K108-14", points=points
            )
        result = found
    rest = without(hand, card)
    if move.melds:
        # The knocker may say how they lay their hand; the engine still scores the best result
        # the ten cards allow (K108-Q7), which is never worse for them.
        pool = list(rest)
        for written in move.melds:
            read_meld(steps.take_cards(pool, written, "knock meld"), rules.policy)
    cycle = replace(k108_state(state), taken=None)
    state = evolve(
        state, hands=steps.with_hand(state, seat, rest), discard=(*state.discard, card), cycle=cycle
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
        return score(state, seat, result.kind, result.points, events)
    # K108-14: the knocker lays the hand face up; the melds go on the table.
    table = [
        steps.meld_on_table(seat, i, meld) for i, meld in enumerate(result.melds, start=state.next_meld_id)
    ]
    hand_left = list(rest)
    for meld in result.melds:
        for card_in_meld in meld.cards:
            hand_left.remove(card_in_meld.bare())
    queue = order_from(cycle.active, seat)
    cycle = replace(
        cycle,
        stage="exchange",
        knock=Knock108Knock(seat, "knock", result.points, str(card)),
        queue=tuple(queue[1:]),
    )
    nxt = queue[0]
    state = evolve(
        state,
        hands=steps.with_hand(state, seat, hand_left),
        melds=(*state.melds, *table),
        next_meld_id=state.next_meld_id + len(table),
        turn=nxt,
        phase="draw",
        turns_started=steps.started(state, nxt),
        cycle=cycle,
    )
    events.append(public("extra_exchange", seat=nxt, order=queue, rule="K108-16"))
    return Transition(state, tuple(events))


def _after_exchange(state: GameState, seat: int, events: list[Event]) -> Transition:
    cycle = replace(k108_state(state), taken=None)
    if not cycle.queue:
        knock = cycle.knock
        assert knock is not None
        return score(evolve(state, cycle=cycle), knock.seat, "knock", knock.points, events)
    nxt = cycle.queue[0]
    cycle = replace(cycle, queue=cycle.queue[1:])
    state = evolve(state, turn=nxt, phase="draw", turns_started=steps.started(state, nxt), cycle=cycle)
    events.append(public("extra_exchange", seat=nxt, rule="K108-16"))
    return Transition(state, tuple(events))


# --- what a seat may do and see -------------------------------------------------------------------

_PLAY_NOT_DURING_PLAY = "nothing is laid during play: melds stay in the hand until the deal ends"


def _refuse_buy_back(state: GameState, move: Move) -> errors.IllegalMoveError:
    if isinstance(move, Play):
        return errors.WrongPhaseError(_PLAY_NOT_DURING_PLAY, rule="K108-29")
    return errors.WrongPhaseError(
        "before this deal starts, the players who are out decide: knock to buy back in, or pass",
        rule="K108-26",
    )


def _refuse_draw(state: GameState, move: Move) -> errors.IllegalMoveError:
    if isinstance(move, Play):
        return errors.WrongPhaseError(_PLAY_NOT_DURING_PLAY, rule="K108-29")
    if isinstance(move, Pass):
        return errors.WrongPhaseError("draw a card: only the extra exchange may be declined")
    return errors.WrongPhaseError("cannot do that now: draw first", phase="draw")


def _refuse_play(state: GameState, move: Move) -> errors.IllegalMoveError:
    if isinstance(move, Play):
        return errors.WrongPhaseError(_PLAY_NOT_DURING_PLAY, rule="K108-29")
    if isinstance(move, Knock):
        return errors.WrongPhaseError(
            "the deal is over: the extra exchange ends with a discard", rule="K108-16"
        )
    if isinstance(move, Pass):
        return errors.WrongPhaseError("you have drawn: now discard", phase="play")
    return errors.WrongPhaseError("you have already drawn", phase="play")


_STEPS = {
    ("buy_back", "draw"): Step("buy_back", {Knock: _buy_back, Pass: _buy_back}, _refuse_buy_back),
    ("play", "draw"): Step("draw", {DrawStock: _draw, TakeDiscard: _take}, _refuse_draw),
    ("play", "play"): Step("play", {Discard: _discard, Knock: _knock}, _refuse_play),
    ("exchange", "draw"): Step(
        "exchange", {DrawStock: _draw, TakeDiscard: _take, Pass: _pass_exchange}, _refuse_draw
    ),
    ("exchange", "play"): Step("exchange discard", {Discard: _discard}, _refuse_play),
}


class Knock108Cycle:
    """Knock-108's turn cycle (see the module note). Stateless: everything lives in the state."""

    name = "knock108"

    def choose_first(self, rules: Rules, players: int, secret: bytes) -> int:
        # K108-7 is silent on the first dealer; as in gin (GIN-5), by lot: round 0's seed.
        return int(shuffle(range(players), deal_seed(secret, 0))[0])

    def deal_round(self, state: GameState, round_no: int, first: int) -> GameState:
        return deal(state, round_no, first)

    def step(self, state: GameState) -> Step:
        return _STEPS[(k108_state(state).stage, state.phase)]

    def start(self, rules: Rules, players: int) -> Knock108State:
        return start(rules, players)

    def legal_moves(self, state: GameState, seat: int) -> list[Move]:
        stage = k108_state(state).stage
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
            out += [Knock(card) for card in discards if declaration(state.rules, without(hand, card))]
        return out

    def _discards(self, state: GameState, seat: int) -> list[Card]:
        taken = k108_state(state).taken
        seen: set[str] = set()
        out = []
        for card in state.hands[seat]:
            if card.face in seen or (taken is not None and card.face == taken.face):
                continue
            seen.add(card.face)
            out.append(card)
        return out

    def seat_options(self, state: GameState, seat: int) -> dict[str, Any]:
        cycle = k108_state(state)
        stage = cycle.stage
        over = state.phase == "over"
        my_turn = not over and seat == state.turn
        kinds: list[str] = []
        if my_turn and stage == "buy_back":
            kinds = ["knock", "pass"]
        elif my_turn and state.phase == "draw":
            kinds = [k for k, ok in (("draw", bool(state.stock)), ("take", bool(state.discard))) if ok]
            if stage == "exchange":
                kinds.append("pass")
        best = None
        if my_turn and stage == "play" and state.phase == "play":
            best = best_declaration(state.rules, state.hands[seat], cycle.taken)
        if my_turn and state.phase == "play" and stage != "buy_back":
            # ``moves`` lists only kinds the engine accepts now: a knock only when one is possible
            # (``knock`` below names it), as legal_moves lists it (docs/protocol.md, ``you.moves``).
            kinds = ["discard"] + (["knock"] if best is not None else [])
        options: dict[str, Any] = {
            "my_turn": my_turn,
            "moves": kinds,
            "stage": stage,
            "in_game": bool(cycle.active[seat]),
            "discards": [str(c) for c in self._discards(state, seat)]
            if my_turn and state.phase == "play" and stage != "buy_back"
            else [],
            "takeable": [str(state.discard[-1])]
            if my_turn and state.phase == "draw" and state.discard and stage != "buy_back"
            else [],
            "taken": str(cycle.taken) if my_turn and cycle.taken is not None else None,
            "first_turn": state.turns_started[seat] <= 1,
            "opened": False,
            "opening": None,
            "stock_empty": not state.stock,
            "loose_points": deadwood(state.rules, state.hands[seat]) if state.hands[seat] else 0,
            "knock": None,
            "buy_back": None,
        }
        if best is not None:
            card, result = best
            options["knock"] = {"card": str(card), "kind": result.kind, "points": result.points}
        if my_turn and stage == "buy_back":
            options["buy_back"] = buy_back_terms(state)
        return options

    def view_extra(self, state: GameState, seat: int | None) -> dict[str, Any]:
        cycle = k108_state(state)
        knock = cycle.knock
        knock_view = None
        if knock is not None:
            knocker = knock.seat
            knock_view = {
                "seat": knocker,
                "points": knock.points,
                # The knocker's hand is face up (K108-14): the melds are on the table, these are
                # the loose cards (shown without copy ids: only their faces matter).
                "loose": [show_card(c) for c in sorted(state.hands[knocker], key=sort_key)],
                "to_exchange": [state.turn, *cycle.queue] if state.phase == "draw" else [*cycle.queue],
            }
        stage = cycle.stage
        return {
            **steps.no_openings(state),
            "stage": stage,
            "in_game": list(cycle.active),
            "limit": RULE_LIMIT,
            "knock_limit": KNOCK_LIMIT,
            "knock": knock_view,
            "buy_back": buy_back_terms(state) | {"to_decide": [state.turn, *cycle.queue]}
            if stage == "buy_back"
            else None,
            "stakes": {
                "stake": stake_of(state.rules),
                "pool": cycle.pool,
                "chips": list(cycle.chips),
                "buy_backs": list(cycle.buy_backs),
                "ledger": [entry.to_json() for entry in cycle.ledger],
            },
            "last_deal": cycle.last_deal,
        }


_KIND_RULE = {
    "knock": "K108-14",
    "gin": "K108-11",
    "flush": "K108-12",
    "figures": "K108-12",
    "full_sequence": "K108-13",
}
KNOCK108 = Knock108Cycle()
