"""The gin family's turn cycle (``docs/rules/gin.md``; ``docs/rules/oklahoma.md`` builds on it).

Gin and Oklahoma play it; their rule set is :class:`~games.engine.gin.rules.GinRules`.

**Seats.** ``state.first`` is the non-dealer, who is offered the up-card first and so plays first;
the other seat deals. Phases: the offer and the draw are ``"draw"``, after drawing and the
defender's reply ``"play"``; ``state.cycle.step`` says which (below).

**A deal, move by move** (JSON forms of the moves in brackets):

1. *The up-card offer* (GIN-7/8, GIN-Q4). The 21st card starts the face-up pile and is offered to
   the non-dealer, then, if declined, to the dealer. The seat offered may take it
   (``{"kind": "take"}``, optionally naming the card) and then discards or knocks, or decline it
   (``{"kind": "pass"}``). If both decline, the non-dealer starts with a draw from the stock; the
   up-card cannot be taken then. Whoever took it discards, and the other seat plays next.
2. *A turn* (GIN-9): draw the top of the stock (``{"kind": "draw"}``) or take the top face-up card
   (``{"kind": "take"}``; nothing may be laid with it, GIN-26), then either discard
   (``{"kind": "discard", "card": "7H"}``) or knock (3). A card just taken from the face-up pile may
   not be discarded in the same turn (GIN-Q5), nor knocked with.
3. *The knock* (GIN-15, GIN-20, GIN-Q7): ``{"kind": "knock", "card": "7H", "melds": [...]}``
   discards ``card`` and lays the other ten cards. ``melds`` is the knocker's arrangement; left
   out, the engine lays a deadwood-minimal one (GIN-Q8). ``card`` left out: the engine discards the
   card that leaves the least deadwood (the highest such card). The loose points must be within the
   deal's knock limit (10 in gin; the up-card's in Oklahoma, none with an ace up: gin only). All ten
   in melds is **gin**. The knocker's melds go to the table (``view["melds"]``), the loose cards
   stay in the knocker's hand, now face up (``view["gin"]["knock"]["deadwood"]``).
4. *The defender's reply* (GIN-16..18, GIN-21): the defender's own turn, of one or more moves. A
   ``{"kind": "play", "melds": [...], "layoffs": [{"meld": id, "cards": [...]}]}`` lays melds from
   the hand and lays off onto table melds (never onto loose cards, GIN-17; not onto the knocker's
   melds after gin, GIN-21). ``{"kind": "pass"}`` confirms: the engine lays what is left as well as
   it can (best melds and lay-offs) and the deal is scored. A play that empties the hand ends the
   reply at once. Whatever the defender laid by hand, the count is never above the defender's
   optimum over every arrangement of the hand as it was at the knock (GIN-Q8); a bot or a hurried
   player can simply pass.
5. *Void deal* (GIN-22, GIN-Q6): a discard that leaves two cards in the stock without a knock ends
   the deal with no score; the same dealer deals again.

**Scoring** (GIN-19/20, GIN-Q2): knocker *K* loose points, defender *D*: the knocker scores
*D - K* if *K < D*; otherwise the defender scores *K - D* + 25 (undercut, also on a tie); gin scores
*D* + 25 with no lay-offs. Each deal is a :class:`~games.engine.scoring.RoundResult`: the scorer's
:class:`~games.engine.scoring.ScoreLine` has ``points`` = (difference + ``bonus``) x ``multiplier``
(Oklahoma's spade doubling, OKL-4) and both lines' ``hand`` is that seat's loose points; ``ended``
is ``"went_out"`` with ``winner`` the seat that scored, or ``"void"``. The winner of a deal deals the
next (GIN-5). Totals are the running sums of the deal scores (``lower_wins`` is false).

**The end** (GIN-23/24, GIN-Q3): gin ends when a total reaches the target (100) and is settled as
``winner total + 100 + 25 x (deals won - deals the loser won) - loser total``; Oklahoma keeps three
columns (OKL-5..9) and ends when all three are finished, each settled that way and summed. The
settlement is in ``view["gin"]["settlement"]`` and in the notes of the last deal's score lines.

**``state.cycle``** (:class:`~games.engine.gin.state.GinState`): ``step`` (``offer`` | ``turn`` |
``reply`` | ``over``), ``upcard`` (the deal's first up-card), ``limit`` (knock limit; 0: gin only),
``factor`` (1 or 2), ``passed`` (seats that declined the up-card), ``stock_only``, ``taken`` (the
card taken from the face-up pile this turn), ``knock`` (seat, discard, points, gin, the table meld
ids, and ``best``: the defender's optimum, which is hidden), ``won`` (deals won per seat), and
``columns`` (Oklahoma), ``settlement`` (at the end). ``view_for`` shows all of it but ``best`` in
``view["gin"]`` (a finished column with its ``result``); ``view["you"]`` adds the seat's own
``deadwood`` (after its best discard when it holds 11), ``best_melds`` and ``knock_discards``. A
deal's final table (melds with who placed each card) is in its ``round_over`` event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .. import errors, steps
from ..cards import Card
from ..cycle import Step
from ..deal import deal_seed, shuffle
from ..events import Event, public
from ..melds import read_meld
from ..moves import Discard, DrawStock, Knock, Move, Pass, Play, TakeDiscard
from ..rules import Rules
from ..state import GameState, Transition, evolve
from .deadwood import bit_of, deadwood, mask_of, may_knock, with_layoffs
from .deal import card_ids, deal, gin_rules, gin_state, loose_points, void
from .reply import reply_done, reply_play, reply_plays
from .rules import PACK, arrange, column_result, loose_value
from .state import GinColumn, GinKnock, GinState

__all__ = ["GIN", "VOID_AT", "GinCycle"]

#: A discard leaving this many cards in the stock without a knock voids the deal (GIN-22).
VOID_AT = 2

# Every deal of the family is dealt from the same 52 card objects (``gin.rules.PACK``), and a
# deal is a hundred moves, each listing the seat's moves and computing its hand's mask: what the
# hot path needs of a card is made once per card and found by the card object's identity (a card
# read back from JSON is another object and takes the general way). ``make bench``: random gin
# deals per CPU-second about 430 without these, 700 with them (the same machine, in turn); again
# on 2026-12-03, 438 against 588 (docs/benchmarks.md, "The gin hot path, choice by choice").
_BIT_OF = {id(card): bit_of(card) for card in PACK}
_DISCARD_OF = {id(card): Discard(card) for card in PACK}
_TAKE_OF = {id(card): TakeDiscard(card) for card in PACK}
_DRAW = DrawStock()
_PASS = Pass()
_DISCARD_GET = _DISCARD_OF.__getitem__
_BIT_GET = _BIT_OF.__getitem__


# _cycle_of: the moves of a turn (a draw, a take, a discard, the step) read ``state.cycle`` as the
# gin family's own directly, with a ``type: ignore`` where ``gin_state`` (an ``attrgetter``) would
# be a call: three a move (with one take handler for the offer and the turn, 2 % of random play's
# instructions: docs/benchmarks.md, "The gin hot path, choice by choice"). The family is only
# handed its variants' states (``gin_state`` says why).


def _mask(cards: Sequence[Card]) -> int:
    """The mask of distinct physical cards (a hand)."""
    try:
        return sum(map(_BIT_OF.__getitem__, map(id, cards)))  # distinct cards: the sum is the union
    except KeyError:  # cards that are not the pack's own objects
        return mask_of(cards)


def _bit(card: Card) -> int:
    bit = _BIT_OF.get(id(card))
    return bit if bit is not None else bit_of(card)


def _is(card: Card, taken: Card | None) -> bool:
    """Is ``card`` the physical card ``taken``?"""
    return taken is not None and card.rank == taken.rank and card.suit == taken.suit and card == taken


def _best_discard(hand: Sequence[Card], taken: Card | None) -> Card:
    """The discard leaving the least deadwood; among equals the highest card (then hand order)."""
    mask = _mask(hand)
    best: tuple[int, int] | None = None
    choice = hand[0]
    for card in hand:
        if _is(card, taken):
            continue
        key = (deadwood(mask ^ _bit(card)), -loose_value(card))
        if best is None or key < best:
            best, choice = key, card
    return choice


# --- the offer, the draw, the discard -----------------------------------------------------------


def _pass_offer(state: GameState, seat: int, move: Pass) -> Transition:
    cycle = gin_state(state)
    passed = (*cycle.passed, seat)
    events: list[Event] = [public("passed", seat=seat, card=str(state.discard[-1]), rule="GIN-8")]
    if len(passed) == 1:
        # The non-dealer declined: the dealer may take it (GIN-8).
        nxt = (state.first + 1) % state.players
        cycle = cycle.moved(passed=passed)
    else:
        # Both declined: the non-dealer draws from the stock (GIN-Q4).
        nxt = state.first
        cycle = cycle.moved(passed=passed, step="turn", stock_only=True)
    turned = steps.pass_turn(state, nxt, cycle=cycle, moves_played=state.moves_played + 1)
    return Transition(turned.state, (*events, *turned.events))


def _draw(state: GameState, seat: int, move: DrawStock) -> Transition:
    if len(state.stock) <= VOID_AT:  # only reachable from a set-up position
        return void(state, [])
    cycle: GinState = state.cycle  # type: ignore[assignment]  # gin_state, inlined: see _cycle_of
    if cycle.taken is not None:
        cycle = cycle.moved(taken=None)
    return steps.draw(state, seat, cycle=cycle, moves_played=state.moves_played + 1)


def _take(state: GameState, seat: int, move: TakeDiscard) -> Transition:
    """A take, at the offer or in a turn (where, after both declined the up-card, there is none)."""
    cycle: GinState = state.cycle  # type: ignore[assignment]  # gin_state, inlined: see _cycle_of
    if cycle.stock_only and cycle.step == "turn":
        raise errors.CannotTakeDiscardError(
            "both players declined the up-card: draw from the stock", rule="GIN-Q4"
        )
    if not state.discard:
        raise errors.CannotTakeDiscardError("the face-up pile is empty")
    top = state.discard[-1]
    if move.card is not None and move.card is not top and not move.card.matches(top):
        raise errors.CannotTakeDiscardError(
            f"only the top face-up card ({top}) may be taken", rule="GIN-9", card=str(move.card)
        )
    if not move.play.is_empty:
        raise errors.WrongPhaseError(
            "nothing is laid during play in gin: take the card alone", rule="GIN-26", phase="draw"
        )
    cycle = cycle.moved(taken=top, step="turn")
    return steps.take(state, seat, len(state.discard) - 1, cycle=cycle, moves_played=state.moves_played + 1)


def _discard(state: GameState, seat: int, move: Discard) -> Transition:
    hand = state.hands[seat]
    index = steps.find_card(hand, move.card, "discard")
    card = hand[index]
    cycle: GinState = state.cycle  # type: ignore[assignment]  # gin_state, inlined: see _cycle_of
    taken = cycle.taken
    if taken is not None and _is(card, taken):
        raise errors.DiscardTakenCardError(
            f"{card.face} was just taken from the face-up pile: discard another card", rule="GIN-Q5"
        )
    if len(state.stock) <= VOID_AT:
        # GIN-22 with GIN-Q6: two cards left and no knock: the deal is void.
        done = steps.discard(state, seat, index, moves_played=state.moves_played + 1)
        return void(done.state, list(done.events))
    if taken is not None or cycle.stock_only:
        cycle = cycle.moved(taken=None, stock_only=False)
    return steps.discard_and_pass(state, seat, index, 1 - seat, cycle, state.moves_played + 1)


# --- the knock ------------------------------------------------------------------------------------


def _knock(state: GameState, seat: int, move: Knock) -> Transition:
    rules = state.rules
    hand = list(state.hands[seat])
    cycle = gin_state(state)
    taken = cycle.taken
    limit = cycle.limit
    if move.card is None:
        card = _best_discard(hand, taken)
    else:
        card = hand[steps.find_card(hand, move.card, "knock discard")]
        if taken is not None and _is(card, taken):
            raise errors.DiscardTakenCardError(
                f"{card.face} was just taken from the face-up pile: knock with another discard",
                rule="GIN-Q5",
            )
    rest = [c for c in hand if c is not card]
    if move.melds:
        pool = list(rest)
        melds = [
            read_meld(steps.take_cards(pool, written, "knock meld"), rules.policy) for written in move.melds
        ]
        loose = pool
    else:
        melds, loose = arrange(rules, rest)
    points = loose_points(loose)
    if points > limit:
        if limit == 0:
            raise errors.KnockTooHighError(
                f"the first up-card was an ace: this deal ends only with gin ({points} loose points)",
                rule="OKL-2",
                points=points,
                limit=limit,
            )
        raise errors.KnockTooHighError(
            f"{points} loose points: a knock keeps at most {limit}",
            rule="GIN-15" if limit == 10 and not gin_rules(rules).hollywood else "OKL-2",
            points=points,
            limit=limit,
        )
    gin = points == 0  # GIN-20, GIN-Q7
    defender = 1 - seat
    table = tuple(steps.meld_on_table(seat, i + 1, meld) for i, meld in enumerate(melds))
    defender_mask = mask_of(state.hands[defender])
    if gin:
        best = deadwood(defender_mask)  # GIN-21: no lay-offs after gin
    else:
        best = with_layoffs(defender_mask, [mask_of(m.cards) for m in melds])[0]
    knock = GinKnock(seat, str(card), points, gin, tuple(m.id for m in table), best)
    cycle = replace(cycle, step="reply", taken=None, stock_only=False, knock=knock)
    new = evolve(
        state,
        hands=steps.with_hand(state, seat, loose),
        discard=(*state.discard, card),
        melds=table,
        next_meld_id=len(table) + 1,
        turn=defender,
        phase="play",
        turns_started=steps.started(state, defender),
        cycle=cycle,
    )
    events = (
        public("discarded", seat=seat, card=str(card)),
        public(
            "knocked",
            seat=seat,
            gin=gin,
            points=points,
            melds=[card_ids(m.cards) for m in melds],
            deadwood=card_ids(loose),
            rule="GIN-20" if gin else "GIN-15",
        ),
        public("turn", seat=defender),
    )
    return Transition(new, events)


# --- what a seat may do and see -------------------------------------------------------------------


def _refusal(message: str, rule: str, phase: str) -> Any:
    def refuse(state: GameState, move: Move) -> errors.IllegalMoveError:
        return errors.WrongPhaseError(message, rule=rule, phase=phase)

    return refuse


def _refuse_offer(state: GameState, move: Move) -> errors.IllegalMoveError:
    return errors.WrongPhaseError(
        f"the up-card {state.discard[-1]} is offered to you: take it or pass", rule="GIN-8", phase="offer"
    )


def _refuse_after_draw(state: GameState, move: Move) -> errors.IllegalMoveError:
    if isinstance(move, DrawStock | TakeDiscard):
        return errors.WrongPhaseError("you have already drawn: discard or knock", rule="GIN-9", phase="play")
    if isinstance(move, Play):
        return errors.WrongPhaseError(
            "melds stay in the hand until someone knocks or goes gin", rule="GIN-26", phase="play"
        )
    return errors.WrongPhaseError("discard or knock to end your turn", rule="GIN-9", phase="play")


_STEP_LIST = {
    ("offer", "draw"): Step("offer", {TakeDiscard: _take, Pass: _pass_offer}, _refuse_offer),
    ("turn", "draw"): Step(
        "draw",
        {DrawStock: _draw, TakeDiscard: _take},
        _refusal("draw first: from the stock or the top of the face-up pile", "GIN-9", "draw"),
    ),
    ("turn", "play"): Step("play", {Discard: _discard, Knock: _knock}, _refuse_after_draw),
    ("reply", "play"): Step(
        "reply",
        {Pass: reply_done, Play: reply_play},
        _refusal(
            "reply to the knock: lay melds and lay-offs (play), then pass to be counted", "GIN-16", "reply"
        ),
    ),
}
#: The step of each (deal step, phase).
_STEPS = {
    step: {phase: s for (st, phase), s in _STEP_LIST.items() if st == step}
    for step in ("offer", "turn", "reply")
}


class GinCycle:
    """The gin family's turn cycle (see the module docstring)."""

    name = "gin"

    def choose_first(self, rules: Rules, players: int, secret: bytes) -> int:
        """Round 1's first player: the other seat is the first dealer, drawn by lot (GIN-5)."""
        dealer = int(shuffle(range(players), deal_seed(secret, 0))[0])
        return (dealer + 1) % players

    def deal_round(self, state: GameState, round_no: int, first: int) -> GameState:
        """Deal ``round_no``: ten cards each, the 21st face up (GIN-6/7).

        ``first`` (``state.first``) is the non-dealer, who is offered the up-card first and so plays
        first; the other seat deals. The cards come off the shuffled pack one at a time, exactly as
        :func:`~games.engine.deal.deal_cards` deals them for ``first`` (so ``verify_deal`` checks
        them): the dealer gets the 1st, 3rd, ... 19th card, the non-dealer the 2nd, 4th, ... 20th.
        """
        return deal(state, round_no, first)

    def step(self, state: GameState) -> Step:
        cycle: GinState = state.cycle  # type: ignore[assignment]  # gin_state, inlined: see _cycle_of
        return _STEPS[cycle.step][state.phase]

    def start(self, rules: Rules, players: int) -> GinState:
        columns = (GinColumn(),) * 3 if gin_rules(rules).hollywood else None
        return GinState("offer", won=(0,) * players, columns=columns)

    def legal_moves(self, state: GameState, seat: int) -> list[Move]:
        cycle: GinState = state.cycle  # type: ignore[assignment]  # gin_state, inlined: see _cycle_of
        step = cycle.step
        if step == "turn":
            if state.phase == "draw":
                if cycle.stock_only:
                    return [_DRAW]
                top = state.discard[-1]
                return [_DRAW, _TAKE_OF.get(id(top)) or TakeDiscard(top)]
            hand = state.hands[seat]
            try:  # the card ids looked up once, for the discards and for the mask
                ids = [*map(id, hand)]
                moves: list[Move] = [*map(_DISCARD_GET, ids)]
                mask = sum(map(_BIT_GET, ids))  # distinct cards: the sum is the union
            except KeyError:  # cards that are not the pack's own objects
                moves = [Discard(card) for card in hand]
                mask = mask_of(hand)
            taken = cycle.taken
            index = len(hand)
            if taken is not None:  # GIN-Q5: not the card just taken (the last one, unless set up)
                index -= 1
                if hand[index] is not taken and not _is(hand[index], taken):
                    index = next((i for i, card in enumerate(hand) if _is(card, taken)), len(hand))
                del moves[index : index + 1]
            limit = cycle.limit
            if may_knock(mask, limit):  # deadwood_after_discard(mask) <= limit
                allowed = hand[:index] + hand[index + 1 :]
                moves += [Knock(card) for card in allowed if deadwood(mask ^ _bit(card)) <= limit]
            return moves
        if step == "offer":
            top = state.discard[-1]
            return [_TAKE_OF.get(id(top)) or TakeDiscard(top), _PASS]
        if step == "reply":
            return [_PASS, *reply_plays(state, seat)]
        return []

    def seat_options(self, state: GameState, seat: int) -> dict[str, Any]:
        """The ``you`` block: what the seat may do now, its deadwood and knock options (own cards only)."""
        cycle = gin_state(state)
        my_turn = state.phase != "over" and seat == state.turn
        step = cycle.step
        hand = state.hands[seat]
        kinds: list[str] = []
        takeable: list[str] = []
        discards: list[str] = []
        knock_discards: list[str] = []
        if my_turn and step == "offer":
            kinds = ["take", "pass"]
            takeable = [str(state.discard[-1])]
        elif my_turn and step == "turn" and state.phase == "draw":
            kinds = ["draw"]
            if not cycle.stock_only and state.discard:
                kinds.append("take")
                takeable = [str(state.discard[-1])]
        elif my_turn and step == "turn":
            allowed = [c for c in hand if not _is(c, cycle.taken)]
            discards = card_ids(allowed)
            mask = _mask(hand)
            knock_discards = [str(c) for c in allowed if deadwood(mask ^ _bit(c)) <= cycle.limit]
            kinds = ["discard", *(["knock"] if knock_discards else [])]
        elif my_turn and step == "reply":
            # "play" only when a meld or a lay-off is there to lay (docs/protocol.md, ``you.moves``).
            kinds = [*(["play"] if reply_plays(state, seat) else []), "pass"]
        if hand and step != "over":
            melds, loose = arrange(state.rules, list(hand))
            best_melds = [card_ids(m.cards) for m in melds]
            loose_total = loose_points(loose)
            if discards:  # eleven cards: what is left after the best allowed discard
                mask = _mask(hand)
                loose_total = min(deadwood(mask ^ _bit(c)) for c in hand if str(c) in discards)
        else:
            best_melds, loose_total = [], 0
        return {
            "my_turn": my_turn,
            "moves": kinds,
            "discards": discards,
            "takeable": takeable,
            "knock_discards": knock_discards,
            "deadwood": loose_total,
            "best_melds": best_melds,
            "first_turn": False,
            "opened": False,
            "opening": None,
            "stock_empty": not state.stock,
        }

    def view_extra(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """The ``gin`` block of every view: the deal's up-card and limit, the offer, the knock, the
        deals won, Oklahoma's columns and the settlement (nothing hidden)."""
        cycle = gin_state(state)
        shown_knock = None
        if cycle.knock is not None:
            shown_knock = {**cycle.knock.public(), "deadwood": card_ids(state.hands[cycle.knock.seat])}
        rules = gin_rules(state.rules)
        block: dict[str, Any] = {
            "step": cycle.step,
            "upcard": str(cycle.upcard) if cycle.upcard is not None else None,
            "knock_limit": cycle.limit,
            "factor": cycle.factor,
            "offered_to": state.turn if cycle.step == "offer" else None,
            "passed": list(cycle.passed),
            "stock_only": cycle.stock_only,
            "taken": str(cycle.taken) if cycle.taken is not None else None,
            "knock": shown_knock,
            "deals_won": list(cycle.won),
            "target": rules.target,
            "settlement": cycle.settlement,
        }
        if rules.hollywood:
            block["columns"] = [
                {**column.to_json(), "result": column_result(column)} for column in cycle.columns or ()
            ]
        return {"gin": block, **steps.no_openings(state)}


GIN = GinCycle()
