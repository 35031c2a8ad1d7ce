"""The gin family's deals: how one is dealt, and how it ends (a knock scored, a void deal, the
game's settlement), for :mod:`games.engine.gin.cycle`, the turn cycle that plays them.

The scoring is the rules' (GIN-19/20, GIN-Q2, GIN-Q8; Oklahoma's doubling and columns, OKL-4/6);
the numbers (bonuses, the settlement) are :mod:`games.engine.gin.rules`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from operator import attrgetter
from typing import cast

from .. import steps
from ..cards import Card
from ..deal import deal_seed, shuffle
from ..events import Event
from ..notes import note
from ..rules import Rules
from ..scoring import ScoreLine
from ..state import GameState, Transition, evolve
from .rules import GIN_BONUS, UNDERCUT_BONUS, GinRules, enter_columns, loose_value, settle
from .state import GinKnock, GinState

__all__ = ["card_ids", "deal", "gin_rules", "gin_state", "knock_of", "loose_points", "score", "void"]


def gin_rules(rules: Rules) -> GinRules:
    assert isinstance(rules, GinRules)
    return rules


def loose_points(cards: Sequence[Card]) -> int:
    return sum(loose_value(card) for card in cards)


def card_ids(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


#: The gin family's own part of a state (its ``cycle``): the family is handed only states of its
#: variants (the turn API dispatches on ``Rules.family``, and ``start`` made the cycle), so it is not
#: checked again on every move; an ``attrgetter``, called several times a move, costs less than a
#: function of our own (``make bench-peers``).
gin_state: Callable[[GameState], GinState] = cast("Callable[[GameState], GinState]", attrgetter("cycle"))


def knock_of(state: GameState) -> GinKnock:
    knock = gin_state(state).knock
    if knock is None:
        raise TypeError("there is no knock to reply to")
    return knock


# --- the deal -------------------------------------------------------------------------------------


def deal(state: GameState, round_no: int, first: int) -> GameState:
    """The state of a new deal: ten cards each, the 21st face up (GIN-6/7)."""
    rules = gin_rules(state.rules)
    pack = shuffle(rules.pack(), deal_seed(state.secret, round_no))
    dealer = (first + 1) % 2
    hands = (pack[0:20:2], pack[1:20:2]) if dealer == 0 else (pack[1:20:2], pack[0:20:2])
    upcard, stock = pack[20], pack[21:]
    match = gin_state(state)
    cycle = GinState(
        "offer",
        upcard,
        rules.knock_limit(upcard),
        rules.deal_factor(upcard),
        won=match.won,
        columns=match.columns,
        settlement=match.settlement,
    )
    # GIN-7: the up-card is offered to the non-dealer (``first``) first.
    return steps.new_deal(
        state,
        round_no,
        first,
        hands,
        stock,
        (upcard,),
        turn=first,
        phase="draw",
        turns_started=(1, 0) if first == 0 else (0, 1),
        cycle=cycle,
    )


# --- the end of a deal ----------------------------------------------------------------------------


def score(state: GameState, events: list[Event]) -> Transition:
    rules = gin_rules(state.rules)
    cycle = gin_state(state)
    knock = knock_of(state)
    knocker = knock.seat
    defender = 1 - knocker
    k_points = knock.points
    shown = loose_points(state.hands[defender])
    d_points = min(shown, knock.best)  # GIN-Q8: never above the defender's optimum
    factor = cycle.factor
    notes_k: list[str] = []
    notes_d: list[str] = []
    if shown > d_points:
        notes_d.append(note("gin_best_arrangement", points=d_points, shown=shown))
    if knock.gin:
        winner, base, bonus = knocker, d_points, GIN_BONUS
        notes_k.append(note("gin_gin", points=d_points, bonus=GIN_BONUS))
    elif k_points < d_points:
        winner, base, bonus = knocker, d_points - k_points, 0
        notes_k.append(note("gin_knock", points=k_points, opponent=d_points, score=base))
    else:
        winner, base, bonus = defender, k_points - d_points, UNDERCUT_BONUS
        notes_d.append(
            note("gin_undercut", points=d_points, knock=k_points, score=base, bonus=UNDERCUT_BONUS)
        )
        notes_k.append(note("gin_undercut_knocker", points=k_points))
    points = (base + bonus) * factor
    if factor != 1:
        (notes_k if winner == knocker else notes_d).append(
            note("okl_doubled", card=cycle.upcard.face if cycle.upcard else "")
        )
    won = tuple(n + 1 if seat == winner else n for seat, n in enumerate(cycle.won))
    cycle = replace(cycle, won=won)
    winner_notes = notes_k if winner == knocker else notes_d
    if rules.hollywood and cycle.columns is not None:
        columns, entered = enter_columns(cycle.columns, winner, won[winner], points, rules.target)
        cycle = replace(cycle, columns=columns)
        if entered:
            listed = ", ".join(str(c + 1) for c in entered)
            winner_notes.append(note("okl_entered", win=won[winner], columns=listed))
        else:
            winner_notes.append(note("okl_finished", win=won[winner]))
    lines = [
        ScoreLine(
            seat,
            points if seat == winner else 0,
            hand=k_points if seat == knocker else d_points,
            bonus=bonus if seat == winner else 0,
            multiplier=factor if seat == winner else 1,
            notes=tuple(notes_k if seat == knocker else notes_d),
        )
        for seat in range(state.players)
    ]
    return _end_deal(state, events, winner, lines, cycle)


_VOID_NOTE = (note("gin_void"),)
#: The score lines of a void deal at two seats, the same every time (a line is immutable, so they
#: are shared): random play voids nearly every deal
#: (docs/benchmarks.md, "The gin hot path, choice by choice").
_VOID_LINES = tuple(ScoreLine(seat, 0, hand=0, notes=_VOID_NOTE) for seat in range(2))


def void(state: GameState, events: list[Event]) -> Transition:
    if state.players == len(_VOID_LINES):
        lines = list(_VOID_LINES)
    else:
        lines = [ScoreLine(seat, 0, hand=0, notes=_VOID_NOTE) for seat in range(state.players)]
    return _end_deal(state, events, None, lines, gin_state(state))


def _end_deal(
    state: GameState,
    events: list[Event],
    winner: int | None,
    lines: list[ScoreLine],
    cycle: GinState,
) -> Transition:
    rules = gin_rules(state.rules)
    totals = [t + line.points for t, line in zip(state.totals, lines, strict=True)]
    over = winner is not None and rules.game_over(totals, cycle.columns)
    settlement = None
    if over and winner is not None:
        settlement = settle(rules, totals, cycle.won, cycle.columns, winner, state.names)
    if settlement is not None:
        for line in settlement["notes"]:
            lines = [replace(li, notes=(*li.notes, line)) for li in lines]
    melds = [
        {"owner": m.owner, "cards": card_ids(m.cards), "placed_by": list(m.placed_by)} for m in state.melds
    ]
    knock = cycle.knock.public() if cycle.knock is not None else None
    state, _ = steps.close_round(
        state,
        "void" if winner is None else "went_out",
        winner,
        lines,
        events,
        before={"one_go": False},
        after={"melds": melds, "knock": knock},
        cycle=cycle,
    )
    if settlement is None and state.rules.round_limit_reached(len(state.results)):
        # The round limit ends the match before the game is won: no game is settled, so no game or
        # deal bonus; the higher total wins (docs/engine.md, "Round limit").
        state = evolve(state, cycle=replace(cycle, step="over"))
        return steps.finish(state, events, round_limit=state.rules.round_limit)
    if settlement is None:
        # GIN-5: the winner deals next; after a void deal the same dealer deals again (GIN-Q6).
        first = state.first if winner is None else (winner + 1) % state.players
        state = steps.next_round(state, deal, first, events, dealer=(first + 1) % 2)
        return Transition(state, tuple(events))
    state = evolve(state, cycle=replace(cycle, step="over", settlement=settlement))
    return steps.finish(state, events, settlement["winners"], settlement=settlement)
