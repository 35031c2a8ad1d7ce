"""The rummy cycle: deal, draw or take, play, discard, score, next round.

Remik 51, Remi, Rummy 500 and Remik 40 play it; they change it only through the attributes,
hooks and ``rule_ids`` of their :class:`~games.engine.rules.Rules` (an opening or none, the discard
row, the atu, how jokers are exchanged, how the stock runs out), never by being named. A turn:

* **draw** (``DrawStock``) from the stock, or **take** (``TakeDiscard``) from the discard pile with
  the play that uses the taken card (:mod:`.play`); an empty stock is rebuilt from the pile
  (R51-38) or ends the round (RMI-50);
* **play** (``Play``): new melds, lay-offs and joker exchanges, any number of times, each atomic;
* **discard** (``Discard``), which ends the turn, or the round with the last card (R51-42).

The round is scored by the variant (``Rules.score_round``), and the next dealt with the deal
passed on (R51-14), until ``Rules.match_over``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import errors, steps
from ..cards import Card
from ..cycle import Step
from ..deal import deal_cards, deal_seed, shuffle, sub_seed
from ..events import Event, public
from ..melds import extend_meld
from ..moves import Discard, DrawStock, Knock, Move, Pass, Play, TakeDiscard
from ..rules import Rules
from ..scoring import RoundEnd, RoundFacts, table_points
from ..state import GameState, Transition, evolve
from .moves import legal_moves, seat_options
from .play import may_build, play, rule_id, rummy
from .rules import rummy_rules
from .state import RummyState

__all__ = ["RUMMY", "RummyCycle", "stuck"]

_DRAW_ORDER = "23456789TJQKA"


# --- drawing, taking, discarding ------------------------------------------------------------------


def _draw(state: GameState, seat: int, move: DrawStock) -> Transition:
    events: list[Event] = []
    if not state.stock:
        if state.rules.stock_out == "end":
            # RMI-50 / RMI-Q9: the round ends the moment a player would have to draw.
            return _end_round(state, "stock_out", None, events)
        if len(state.discard) <= 1:
            # R51-Q9: nothing to rebuild the stock from: the round ends with no winner.
            return _end_round(state, "void", None, events)
        # R51-38: keep the top discard, shuffle the rest into a new stock.
        cycle = rummy(state)
        seed = sub_seed(deal_seed(state.secret, state.round_no), f"reshuffle:{cycle.reshuffles + 1}")
        stock = shuffle(state.discard[:-1], seed)
        state = evolve(
            state,
            stock=stock,
            discard=state.discard[-1:],
            cycle=replace(cycle, reshuffles=cycle.reshuffles + 1),
        )
        events.append(public("stock_rebuilt", stock_size=len(stock), rule=rule_id(state.rules, "reshuffle")))
    drawn = steps.draw(state, seat)
    return Transition(drawn.state, (*events, *drawn.events))


def _take(state: GameState, seat: int, move: TakeDiscard) -> Transition:
    rules = state.rules
    if not state.discard:
        raise errors.CannotTakeDiscardError("the discard pile is empty")
    if rules.first_turn_locked and state.turns_started[seat] <= 1:
        raise errors.FirstTurnError(
            "nothing of yours reaches the table in your first turn, so the row cannot be broken",
            rule="RMI-19",
        )
    index = len(state.discard) - 1
    if move.card is not None:
        found = [i for i in range(len(state.discard) - 1, -1, -1) if move.card.matches(state.discard[i])]
        if not found:
            raise errors.CannotTakeDiscardError(
                f"{move.card} is not in the discard pile", card=str(move.card)
            )
        index = found[0]
    depth = len(state.discard) - index
    if depth > 1:
        if rules.discard_take == "top":
            raise errors.CannotTakeDiscardError(
                "only the top card of the discard pile may be taken", rule=rule_id(rules, "take_top")
            )
        if not may_build(state, seat):
            raise errors.CannotTakeDiscardError(
                "only a player who has opened may take from deeper in the row", rule="RMI-31"
            )
        limit = rules.row_depth
        if limit is not None and depth > limit:
            raise errors.CannotTakeDiscardError(
                f"only the newest {limit} discards can be reached", rule="RMI-Q8"
            )
    if move.play.is_empty:
        raise errors.TakenCardNotMeldedError(
            "the card taken from the discard pile must go into a new meld laid in the same move",
            rule=rule_id(rules, "take_meld"),
        )
    taken = steps.take(state, seat, index)
    came = state.discard[index:]
    result = play(taken.state, seat, move.play, picked=came[0], came_along=came[1:], end_round=_end_round)
    if (
        rules.take_before_opening_must_go_out
        and not rummy(state).opened[seat]
        and len(result.state.hands[seat]) != 1
    ):
        raise errors.CannotTakeDiscardError(
            "before opening, the top discard may be taken only to go out in the same turn: lay down "
            "every card but the one you discard",
            rule="R51-37",
        )
    return Transition(result.state, (*taken.events, *result.events))


def _play(state: GameState, seat: int, move: Play) -> Transition:
    if move.is_empty:
        raise errors.MalformedMoveError("a play lays down, lays off or exchanges something")
    return play(state, seat, move, picked=None, came_along=(), end_round=_end_round)


def _discard(state: GameState, seat: int, move: Discard) -> Transition:
    wanted = move.card.bare() if move.card.stands_for is not None else move.card
    index = steps.find_card(state.hands[seat], wanted, "discard")
    done = steps.discard(state, seat, index)
    state = done.state
    events: list[Event] = list(done.events)
    if not state.hands[seat]:
        # R51-42/43, RMI-51: the last card is discarded: the round ends.
        return _end_round(state, "went_out", seat, events, last_card=state.discard[-1])
    nxt = (seat + 1) % state.players
    cycle = rummy(state)
    cycle = replace(cycle, opened_at_turn_start=cycle.opened[nxt], turn_joker_laid=False)
    turned = steps.pass_turn(state, nxt, cycle=cycle)
    state = turned.state
    events += turned.events
    if state.rules.end_when_stuck and stuck(state):
        events.append(public("stuck", rule=rule_id(state.rules, "stuck")))
        return _end_round(state, "void", None, events)
    return Transition(state, tuple(events))


def stuck(state: GameState) -> bool:
    """True if no seat can ever go out again.

    A new meld needs three cards and one more to discard, so a hand of two cards or fewer at the
    start of a turn can only go out by laying off. If no card off the table (hands, stock, pile)
    fits any table meld and no joker on the table can be exchanged back into play, nothing on the
    table can change either, so the round could never end.
    """
    if any(len(hand) > 2 for hand in state.hands):
        return False
    rules = state.rules
    held = [card for hand in state.hands for card in hand]
    outside = {card.face: card for card in (*state.stock, *state.discard, *held)}
    for table_meld in state.melds:
        meld = table_meld.meld
        for slot, rep in zip(meld.cards, meld.represented, strict=True):
            exchangeable = meld.kind == "run" or rules.set_joker_exchange == "suit"
            if slot.is_joker and exchangeable and rep.face in outside:
                return False
        for card in outside.values():
            if card.is_joker and not rules.joker_layoff:
                continue
            try:
                extend_meld(meld, card.bare(), rules.policy)
            except errors.JokerUndeclaredError:
                return False  # a joker that fits at either end of a run
            except errors.InvalidMeldError:
                continue
            return False
    return True


# --- the end of a round ---------------------------------------------------------------------------


def _end_round(
    state: GameState,
    ended: RoundEnd,
    winner: int | None,
    events: list[Event],
    *,
    last_card: Card | None = None,
) -> Transition:
    rules = state.rules
    cycle = rummy(state)
    one_go = winner is not None and not cycle.opened_at_turn_start
    facts = RoundFacts(
        players=state.players,
        round_no=state.round_no,
        ended=ended,
        winner=winner,
        one_go=one_go,
        hands=state.hands,
        table_points=table_points(state),
        opened=cycle.opened,
        joker_going_out=winner is not None
        and (cycle.turn_joker_laid or bool(last_card and last_card.is_joker)),
        atu=cycle.atu,
        atu_pair_seats=cycle.atu_pair_seats,
    )
    lines = rules.score_round(facts)
    state, _ = steps.close_round(state, ended, winner, lines, events, before={"one_go": one_go})
    if rules.round_limit_reached(len(state.results)):
        return steps.finish(state, events, round_limit=rules.round_limit)  # docs/engine.md "Round limit"
    if rules.match_over(state.totals, len(state.results)):
        return steps.finish(state, events)
    state = steps.next_round(state, RUMMY.deal_round, (state.first + 1) % state.players, events)  # R51-14
    return Transition(state, tuple(events))


# --- the family -----------------------------------------------------------------------------------

_WHAT = {DrawStock: "draw", TakeDiscard: "take from the discard pile", Play: "lay down", Discard: "discard"}


def _refuse(state: GameState, move: Move) -> errors.IllegalMoveError:
    if isinstance(move, Pass | Knock):
        title = state.rules.title or state.rules.name
        return errors.WrongPhaseError(f"{title} has no {type(move).__name__.lower()} move")
    hint = "draw first" if state.phase == "draw" else "you have already drawn"
    return errors.WrongPhaseError(f"cannot {_WHAT[type(move)]} now: {hint}", phase=state.phase)


_STEPS = {
    "draw": Step("draw", {DrawStock: _draw, TakeDiscard: _take}, _refuse),
    "play": Step("play", {Play: _play, Discard: _discard}, _refuse),
}


class RummyCycle:
    """The rummy cycle (see the module docstring)."""

    name = "rummy"

    def choose_first(self, rules: Rules, players: int, secret: bytes) -> int:
        """Who deals (plays first) in round 1, from round 0's seed.

        By lot (RMI-Q1, R500-4, R40-Q13), or by a draw of cards (R51-8, R51-Q3): each player draws
        a card, the highest deals (joker > A > K > ... > 2, suits do not rank); only the tied
        players draw again.
        """
        seed = deal_seed(secret, 0)
        if rules.first_dealer == "lot":
            return int(shuffle(range(players), seed)[0])
        pack = iter(shuffle(rules.pack(), seed))
        contenders = list(range(players))
        while True:
            draws = {seat: next(pack) for seat in contenders}

            def strength(card: Card) -> int:
                return 99 if card.is_joker else _DRAW_ORDER.index(card.rank)

            top = max(strength(card) for card in draws.values())
            contenders = [seat for seat in contenders if strength(draws[seat]) == top]
            if len(contenders) == 1:
                return contenders[0]

    def deal_round(self, state: GameState, round_no: int, first: int) -> GameState:
        rules = state.rules
        seed = deal_seed(state.secret, round_no)
        hands, atu, stock = deal_cards(rules, state.players, seed, first)
        pair_seats: tuple[int, ...] = ()
        if atu is not None:
            pair_seats = tuple(
                seat
                for seat, hand in enumerate(hands)
                for card in hand
                if card.same_face(atu) and card != atu
            )
        discard: tuple[Card, ...] = ()
        if rules.up_card and stock:
            # R500-6: the top card of the stock is turned up as the first card of the discard pile.
            discard, stock = stock[:1], stock[1:]
        # The first player already holds the card they would draw (R51-13, RMI-18), or draws it
        # (R500-6, R40-Q13).
        turns = tuple(1 if seat == first else 0 for seat in range(state.players))
        return steps.new_deal(
            state,
            round_no,
            first,
            hands,
            stock,
            discard,
            turn=first,
            phase="draw" if rules.first_player_draws else "play",
            turns_started=turns,
            cycle=RummyState((False,) * state.players, atu=atu, atu_pair_seats=pair_seats),
        )

    def start(self, rules: Rules, players: int) -> RummyState:
        return RummyState((False,) * players)

    def step(self, state: GameState) -> Step:
        return _STEPS[state.phase]

    def legal_moves(self, state: GameState, seat: int) -> list[Move]:
        return legal_moves(state, seat)

    def seat_options(self, state: GameState, seat: int) -> dict[str, Any]:
        return seat_options(state, seat)

    def view_extra(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """Who has opened, Remi's atu and who took it, the jokers bought back (RMI-42), and what
        the rule set's scoring shows (``RummyRules.table_facts``)."""
        cycle = rummy(state)
        return {
            "opened": list(cycle.opened),
            "atu": str(cycle.atu) if cycle.atu is not None else None,
            "atu_taken_by": cycle.atu_taken_by,
            "consumed_jokers": [str(c) for c in cycle.consumed],
            **rummy_rules(state.rules).table_facts(state),
        }


RUMMY = RummyCycle()
