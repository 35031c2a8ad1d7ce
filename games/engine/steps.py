"""The steps every family's turn is made of, each written once.

Drawing from the stock, taking from the discard pile, discarding, passing the turn, finding the
cards a move names in a hand (the one card-ownership check), laying cards off onto a table meld,
and the end of a round: its result, the ``round_over`` event, the next deal and the end of the
match. A family composes them and adds only what is its own (an opening, a knock, an offer).

Each step that makes a new state takes the family's own changes as keywords (its ``cycle``, a
phase, whose turn it is), so that a move builds one state and not several.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from . import errors
from .cards import PACK_TEXTS, Card, card_texts, format_cards
from .deal import deal_seed
from .events import Event, private, public
from .melds import Meld, MeldPolicy, extend_meld
from .scoring import RoundEnd, RoundResult, ScoreLine, standings
from .state import CycleState, GameState, Phase, TableMeld, Transition, evolve, turned

#: ``Transition(state, events)`` without the named tuple's ``__new__`` (a function in Python): the
#: moves of every turn make one.
_TRANSITION = tuple.__new__

# --- hands and turns ------------------------------------------------------------------------------


def with_hand(state: GameState, seat: int, hand: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """Every hand as it is, but ``seat``'s."""
    hands = state.hands
    if len(hands) == 2:  # gin, Oklahoma and two-seat tables: a pair, without the list
        return (tuple(hand), hands[1]) if seat == 0 else (hands[0], tuple(hand))
    out = list(hands)
    out[seat] = tuple(hand)
    return tuple(out)


def started(state: GameState, seat: int) -> tuple[int, ...]:
    """``turns_started`` with one more turn begun by ``seat``."""
    turns = state.turns_started
    if len(turns) == 2:  # as in ``with_hand``
        first, second = turns
        return (first + 1, second) if seat == 0 else (first, second + 1)
    out = list(turns)
    out[seat] += 1
    return tuple(out)


def find_card(hand: Sequence[Card], wanted: Card, what: str) -> int:
    """Where in ``hand`` is the physical card ``wanted`` names (its copy id, or any copy)."""
    rank, suit, copy = wanted.rank, wanted.suit, wanted.copy
    if copy:  # a physical card (a move from legal_moves): first the object itself; the same answer
        for index, card in enumerate(hand):  # as below, as a hand never holds one physical card twice
            if card is wanted:
                return index
    for index, card in enumerate(hand):  # Card.matches, written out: a discard is every other move
        if card.rank == rank and card.suit == suit and (not copy or card.copy == copy):
            return index
    raise errors.CardNotInHandError(f"{wanted} is not in your hand ({what})", card=str(wanted))


def take_cards(pool: list[Card], wanted: Sequence[Card], what: str) -> list[Card]:
    """The physical cards of ``pool`` that ``wanted`` names, removed from it: the one check that
    a move's cards are the seat's own. Cards written with a copy id are found first, then those
    without; a joker keeps the card it is declared as.
    """
    out: list[Card | None] = [None] * len(wanted)
    for exact in (True, False):
        for i, card in enumerate(wanted):
            if bool(card.copy) != exact:
                continue
            found = next((j for j, physical in enumerate(pool) if card.matches(physical.bare())), None)
            if found is None:
                raise errors.CardNotInHandError(f"{card} is not in your hand ({what})", card=str(card))
            physical = pool.pop(found).bare()
            out[i] = physical.declared(card.stands_for) if physical.is_joker and card.stands_for else physical
    return [card for card in out if card is not None]


def draw(
    state: GameState, seat: int, *, cycle: CycleState | None = None, moves_played: int | None = None
) -> Transition:
    """``seat`` draws the top card of the stock, and plays on (``cycle``: the family's own, changed;
    ``moves_played``: the move counted by the family)."""
    stock = state.stock
    card = stock[0]
    new = turned(
        state,
        with_hand(state, seat, (*state.hands[seat], card)),
        stock[1:],
        state.discard,
        state.turn,
        "play",
        state.turns_started,
        state.moves_played if moves_played is None else moves_played,
        state.cycle if cycle is None else cycle,
    )
    known = _DRAWN[seat] if seat < _SEATS else None
    events = known.get(id(card)) if known is not None else None
    if events is None:
        drew = _DREW[seat] if seat < _SEATS else public("drew", seat=seat, source="stock")
        text = PACK_TEXTS.get(id(card))
        events = (drew, private(seat, "drew_card", seat=seat, card=text or str(card)))
        if text is not None and known is not None:
            known[id(card)] = events
    return _TRANSITION(Transition, (new, events))


def take(
    state: GameState,
    seat: int,
    index: int,
    *,
    cycle: CycleState | None = None,
    moves_played: int | None = None,
) -> Transition:
    """``seat`` takes the discard at ``index`` and every card above it into the hand."""
    pile = state.discard
    taken = pile[index:]
    new = turned(
        state,
        with_hand(state, seat, (*state.hands[seat], *taken)),
        state.stock,
        pile[:index],
        state.turn,
        "play",
        state.turns_started,
        state.moves_played if moves_played is None else moves_played,
        state.cycle if cycle is None else cycle,
    )
    card = taken[0]
    if len(taken) == 1 and seat < _SEATS:
        known = _TOOK[seat]
        events = known.get(id(card))
        if events is None:
            text = PACK_TEXTS.get(id(card))
            events = (public("took", seat=seat, card=text or str(card), cards=[text or str(card)], depth=1),)
            if text is not None:
                known[id(card)] = events
        return _TRANSITION(Transition, (new, events))
    picked = PACK_TEXTS.get(id(card)) or str(card)
    cards = [picked] if len(taken) == 1 else [str(c) for c in taken]
    return _TRANSITION(
        Transition, (new, (public("took", seat=seat, card=picked, cards=cards, depth=len(taken)),))
    )


def discard(
    state: GameState,
    seat: int,
    index: int,
    *,
    cycle: CycleState | None = None,
    moves_played: int | None = None,
) -> Transition:
    """``seat`` discards the card at ``index`` of its hand onto the pile, and plays on (the
    keywords as :func:`draw`'s); :func:`discard_and_pass` passes the turn in the same state."""
    new, card = _discarded(
        state,
        seat,
        index,
        state.turn,
        state.phase,
        state.turns_started,
        state.moves_played if moves_played is None else moves_played,
        state.cycle if cycle is None else cycle,
    )
    return _TRANSITION(Transition, (new, (discarded_event(seat, card),)))


def discard_and_pass(
    state: GameState, seat: int, index: int, nxt: int, cycle: CycleState, moves_played: int
) -> Transition:
    """:func:`discard` and :func:`pass_turn` as one state: ``seat`` discards the card at ``index``
    and ``nxt`` is to draw. Positional, no keyword defaults to resolve: it is every other move of a
    gin deal (docs/benchmarks.md, "The gin hot path, choice by choice")."""
    new, card = _discarded(state, seat, index, nxt, "draw", started(state, nxt), moves_played, cycle)
    return _TRANSITION(Transition, (new, (discarded_event(seat, card), turn_event(nxt))))


def _discarded(
    state: GameState,
    seat: int,
    index: int,
    turn: int,
    phase: Phase,
    turns_started: tuple[int, ...],
    moves_played: int,
    cycle: CycleState,
) -> tuple[GameState, Card]:
    """The state after ``seat`` put the card at ``index`` on the pile, and that card."""
    hand = state.hands[seat]
    card = hand[index]
    new = turned(
        state,
        with_hand(state, seat, hand[:index] + hand[index + 1 :]),
        state.stock,
        (*state.discard, card),
        turn,
        phase,
        turns_started,
        moves_played,
        cycle,
    )
    return new, card


def discarded_event(seat: int, card: Card) -> Event:
    """The ``discarded`` event of ``seat``'s ``card``: made once per seat and card kept for good."""
    known = _DISCARDED[seat] if seat < _SEATS else None
    event = known.get(id(card)) if known is not None else None
    if event is None:
        text = PACK_TEXTS.get(id(card))
        event = public("discarded", seat=seat, card=text or str(card))
        if text is not None and known is not None:
            known[id(card)] = event
    return event


def pass_turn(
    state: GameState, seat: int, *, cycle: CycleState | None = None, moves_played: int | None = None
) -> Transition:
    """The turn goes to ``seat``, who starts by drawing."""
    new = turned(
        state,
        state.hands,
        state.stock,
        state.discard,
        seat,
        "draw",
        started(state, seat),
        state.moves_played if moves_played is None else moves_played,
        state.cycle if cycle is None else cycle,
    )
    return _TRANSITION(Transition, (new, (turn_event(seat),)))


#: The ``turn`` event of each seat (events are never changed once made, so they can be shared).
_SEATS = 8
_TURN = tuple(public("turn", seat=seat) for seat in range(_SEATS))
_DREW = tuple(public("drew", seat=seat, source="stock") for seat in range(_SEATS))
#: The events of the moves a turn is made of, made once per seat and card (shared as ``_TURN``
#: is): a draw's ``drew`` and ``drew_card``, a take's ``took`` of one card, the ``discarded``
#: event. Keyed by the card's identity, and only for the cards kept for good (``PACK_TEXTS``: a
#: pack's own and the parsed ones), so an id is never another card's and the tables stay bounded.
#: Random gin play made two events a move
#: (docs/benchmarks.md, "The gin hot path, choice by choice").
_DRAWN: tuple[dict[int, tuple[Event, ...]], ...] = tuple({} for _ in range(_SEATS))
_TOOK: tuple[dict[int, tuple[Event, ...]], ...] = tuple({} for _ in range(_SEATS))
_DISCARDED: tuple[dict[int, Event], ...] = tuple({} for _ in range(_SEATS))


def turn_event(seat: int) -> Event:
    """The event that says ``seat`` is to move."""
    return _TURN[seat] if seat < len(_TURN) else public("turn", seat=seat)


def new_deal(
    state: GameState,
    round_no: int,
    first: int,
    hands: tuple[tuple[Card, ...], ...],
    stock: tuple[Card, ...],
    discard: tuple[Card, ...],
    *,
    turn: int,
    phase: Phase,
    turns_started: tuple[int, ...],
    cycle: CycleState,
) -> GameState:
    """The state of round ``round_no`` as dealt: these hands, stock and discard pile, an empty
    table, ``turn`` to play; the match's results and totals as they were."""
    return evolve(
        state,
        round_no=round_no,
        first=first,
        hands=hands,
        stock=stock,
        discard=discard,
        melds=(),
        turn=turn,
        phase=phase,
        turns_started=turns_started,
        next_meld_id=1,
        cycle=cycle,
    )


# --- the table ------------------------------------------------------------------------------------


def meld_on_table(seat: int, meld_id: int, meld: Meld) -> TableMeld:
    """A meld ``seat`` puts on the table, every card placed by it."""
    return TableMeld(meld_id, seat, meld, (seat,) * len(meld.cards))


def lay_off(
    policy: MeldPolicy,
    target: TableMeld,
    cards: Sequence[Card],
    seat: int,
    *,
    rule: str,
    allow: Callable[[Meld, Card], None] | None = None,
) -> TableMeld:
    """``cards`` added to a table meld, in whatever order they fit (6S then 7S onto 3S-5S).

    ``allow(meld, card)`` raises if the family's rules forbid a card before it is tried (a joker
    where none may be laid off, RMI-37). Each card is placed by ``seat``.
    """
    meld = target.meld
    placed = list(target.placed_by)
    pending = list(cards)
    while pending:
        progress = False
        failure: errors.IllegalMoveError | None = None
        for card in list(pending):
            if allow is not None:
                allow(meld, card)
            try:
                extended = extend_meld(meld, card, policy)
            except errors.InvalidMeldError as error:
                failure = error
                continue
            if meld.kind == "run" and extended.start < meld.start:
                placed.insert(0, seat)
            else:
                placed.append(seat)
            meld = extended
            pending.remove(card)
            progress = True
        if not progress:
            reason = failure.reason if isinstance(failure, errors.InvalidMeldError) else "it does not fit"
            raise errors.CannotLayOffError(
                f"{format_cards(pending)} cannot be added to meld {target.id} "
                f"[{format_cards(target.cards)}]: {reason}",
                rule=rule,
                meld=target.id,
                # The meld's own refusal (``joker_must_be_declared``: a joker that fits at either
                # end), so that a client can tell a form slip from a card that does not fit.
                cause=failure.code if failure is not None else None,
            )
    return TableMeld(target.id, target.owner, meld, tuple(placed))


# --- the end of a round -------------------------------------------------------------------------


def round_over_event(
    state: GameState,
    result: RoundResult,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> Event:
    """The ``round_over`` event of ``result``: its lines, the totals, every hand and the round's
    seed, now revealed. ``before`` and ``after`` are the family's own facts (placed before the
    lines, and after the hands)."""
    return public(
        "round_over",
        round=result.round_no,
        ended=result.ended,
        winner=result.winner,
        **(before or {}),
        lines=[line.to_json() for line in result.lines],
        totals=list(result.totals),
        hands=[card_texts(hand) for hand in result.hands],
        **(after or {}),
        seed=deal_seed(state.secret, state.round_no).hex(),
    )


def close_round(
    state: GameState,
    ended: RoundEnd,
    winner: int | None,
    lines: Iterable[ScoreLine],
    events: list[Event],
    *,
    totals: Sequence[int] | None = None,
    hands: tuple[tuple[Card, ...], ...] | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    **changes: Any,
) -> tuple[GameState, RoundResult]:
    """Score the round: its result (totals: the running sums of the lines' points, unless given),
    the ``round_over`` event, and the state with the result recorded (``changes`` besides)."""
    lines = tuple(lines)
    if totals is None:
        totals = [total + line.points for total, line in zip(state.totals, lines, strict=True)]
    result = RoundResult(
        state.round_no, state.first, ended, winner, lines, tuple(totals), hands or state.hands
    )
    events.append(round_over_event(state, result, before, after))
    new = evolve(state, totals=result.totals, results=(*state.results, result), **changes)
    return new, result


def next_round(
    state: GameState,
    deal: Callable[[GameState, int, int], GameState],
    first: int,
    events: list[Event],
    **event_data: Any,
) -> GameState:
    """Deal the next round with ``first`` playing first, and say so."""
    state = deal(state, state.round_no + 1, first)
    events.append(public("round_started", round=state.round_no, first=first, **event_data))
    return state


def any_round_decided(state: GameState) -> bool:
    """Did any round of the match end otherwise than void (R40-Q15, R51-Q9, GIN-22, K108-Q16)?
    A round scored without a winner (Rummy 500's stock running out, R500-Q7) counts as decided.
    A match with no round scored yet (closed at once, RMI-Q19; a position set up with totals)
    stands on its totals."""
    return not state.results or any(result.ended != "void" for result in state.results)


def finish(
    state: GameState, events: list[Event], winners: Sequence[int] | None = None, **event_data: Any
) -> Transition:
    """The match is over: ``winners`` (by default the best totals) are final.

    A match none of whose rounds was decided (each ended void: Remik 40's R40-Q15, a void deal of gin
    or Knock-108 under a round limit) has no winners: nobody is named on totals nobody earned
    (docs/engine.md, "No winner")."""
    if winners is None:
        winners = standings(state.totals, state.rules.lower_wins) if any_round_decided(state) else ()
    events.append(public("match_over", winners=list(winners), totals=list(state.totals), **event_data))
    return Transition(evolve(state, phase="over", winners=tuple(winners)), tuple(events))


def no_openings(state: GameState) -> dict[str, Any]:
    """The view's rummy facts for a family that has none: nobody opens, no atu, no bought jokers."""
    return {"opened": [False] * state.players, "atu": None, "atu_taken_by": None, "consumed_jokers": []}
