"""Knock-108's deals: the ledger of chips, how a deal is dealt, and how it ends (a void deal, a
knock or a special hand scored, the stakes paid, players out, the pool to the last one in), for
:mod:`games.engine.knock108.cycle`, the turn cycle that plays them (``docs/rules/knock108.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .. import steps
from ..cards import Card, sort_key
from ..deal import deal_seed, shuffle
from ..events import Event, public
from ..melds import Meld
from ..notes import note
from ..rules import Rules
from ..scoring import ScoreLine
from ..search import best_arrangement
from ..state import GameState, Phase, Transition, evolve
from .rules import CREDITS, RULE_LIMIT, full_sequence, loose_at_showdown
from .state import Carry, Knock108State, LedgerEntry

__all__ = [
    "BUY_BACK_STAKES",
    "KIND_NAME",
    "buy_back_terms",
    "deal",
    "k108_state",
    "next_seat",
    "order_from",
    "pay",
    "score",
    "show_card",
    "stake_of",
    "start",
    "void",
]

#: K108-26: the price of coming back, in stakes.
BUY_BACK_STAKES = 3


# --- the ledger and the seats still in ------------------------------------------------------------


def k108_state(state: GameState) -> Knock108State:
    """Knock-108's own part of ``state``."""
    cycle = state.cycle
    if not isinstance(cycle, Knock108State):
        raise TypeError(f"{state.rules.name} does not play Knock-108's cycle")
    return cycle


def stake_of(rules: Rules) -> int:
    return int(rules.options["stake"])


def pay(cycle: Knock108State, entry: LedgerEntry) -> Knock108State:
    """``cycle`` with ``entry``'s chips moved and written in the ledger."""
    chips = list(cycle.chips)
    pool = cycle.pool
    if entry.source == "pool":
        pool -= entry.amount
    else:
        chips[entry.source] -= entry.amount
    if entry.target == "pool":
        pool += entry.amount
    else:
        chips[entry.target] += entry.amount
    return replace(cycle, chips=tuple(chips), pool=pool, ledger=(*cycle.ledger, entry))


def next_seat(active: Sequence[bool], seat: int) -> int:
    players = len(active)
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if active[candidate]:
            return candidate
    raise AssertionError("no player is in the game")  # pragma: no cover


def order_from(active: Sequence[bool], seat: int) -> list[int]:
    """The seats in play after ``seat``, in turn order (``seat`` itself excluded)."""
    players = len(active)
    return [(seat + step) % players for step in range(1, players) if active[(seat + step) % players]]


# --- the deal -------------------------------------------------------------------------------------


def start(rules: Rules, players: int) -> Knock108State:
    """A new match: every player in, and one stake each into the pool (K108-22)."""
    cycle = Knock108State("play", (True,) * players, (0,) * players, 0, (), (0,) * players)
    for seat in range(players):
        cycle = pay(cycle, LedgerEntry(1, "entry", seat, "pool", stake_of(rules)))
    return cycle


def deal(state: GameState, round_no: int, first: int) -> GameState:
    cycle = k108_state(state)
    players = state.players
    carry = (Carry(),) * players
    if round_no == 1 and not state.results:
        carry = (Carry(0, (note("k108_entry", chips=stake_of(state.rules)),)),) * players
    active = cycle.active
    # One card at a time from the dealer's left, the dealer last: 10 each, the dealer 11
    # (K108-5). With every seat in, this is exactly deal.deal_cards, so verify_deal agrees.
    pack = list(shuffle(state.rules.pack(), deal_seed(state.secret, round_no)))
    hands: list[list[Card]] = [[] for _ in range(players)]
    order = [*order_from(active, first), first]
    position = 0
    for size in range(11):
        for seat in order:
            if size < 10 or seat == first:
                hands[seat].append(pack[position])
                position += 1
    # K108-26, K108-Q14: the players who are out may buy back in before the dealer starts.
    queue = [s for s in order_from([True] * players, first) if not active[s]]
    cycle = replace(cycle, stage="play", taken=None, knock=None, queue=(), carry=carry)
    turn = first
    phase: Phase = "play"
    turns = [0] * players
    if queue:
        cycle = replace(cycle, stage="buy_back", queue=tuple(queue[1:]))
        turn, phase = queue[0], "draw"
    turns[turn] = 1
    return steps.new_deal(
        state,
        round_no,
        first,
        tuple(tuple(hand) for hand in hands),
        tuple(pack[position:]),
        (),
        turn=turn,
        phase=phase,
        turns_started=tuple(turns),
        cycle=cycle,
    )


# --- the end of a deal ----------------------------------------------------------------------------


def void(state: GameState, events: list[Event]) -> Transition:
    lines = []
    jumps, notes = _carried(state)
    cycle = k108_state(state)
    chips = _round_chips(cycle, state.round_no, state.players)
    for seat in range(state.players):
        said = [note("k108_void"), *notes[seat]]
        lines.append(ScoreLine(seat, jumps[seat], notes=tuple(said), chips=chips[seat]))
    cycle = replace(cycle, last_deal={"round": state.round_no, "ended": "void", "seats": []})
    state, _ = steps.close_round(
        state,
        "void",
        None,
        lines,
        events,
        totals=state.totals,
        hands=tuple(_full_hand(state, seat) for seat in range(state.players)),
        before={"result": "void"},
        cycle=cycle,
    )
    return _next_deal(state, state.first, events)


def score(state: GameState, declarer: int, kind: str, points: int, events: list[Event]) -> Transition:
    rules = state.rules
    stake = stake_of(rules)
    names = state.names
    cycle = k108_state(state)
    active = list(cycle.active)
    opponents = order_from(active, declarer)
    jumps, notes = _carried(state)
    record_change = [0] * state.players
    hand_points = [0] * state.players
    bonus = [0] * state.players
    showdown: list[dict[str, Any]] = []
    hands = tuple(_full_hand(state, seat) for seat in range(state.players))
    for seat in range(state.players):
        if not active[seat]:
            notes[seat].append(note("k108_out"))
            continue
        if seat == declarer:
            credit = CREDITS.get(kind, 0)
            hand_points[seat] = points if kind == "knock" else 0
            bonus[seat] = -credit
            record_change[seat] = hand_points[seat] - credit
            notes[seat].append(
                note("k108_knock", points=points) if kind == "knock" else note(f"k108_{kind}", credit=credit)
            )
            special: str | None = None
            melds: tuple[Meld, ...] = ()
            loose: tuple[Card, ...] = ()
            if kind in ("knock", "gin"):
                melds, loose = best_arrangement(rules, hands[seat])
            elif kind == "full_sequence":
                run = full_sequence(rules, hands[seat])
                special, melds = kind, ((run,) if run is not None else ())
            else:
                special = kind
        else:
            special, melds, loose = loose_at_showdown(rules, hands[seat])
            hand_points[seat] = sum(rules.hand_value(card) for card in loose)
            record_change[seat] = hand_points[seat]
            if special is not None:
                notes[seat].append(note(f"k108_late_{special}"))
        showdown.append(
            {
                "seat": seat,
                "special": special,
                "melds": [[show_card(c) for c in meld.cards] for meld in melds],
                "loose": [show_card(c) for c in sorted(loose, key=sort_key)],
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
            cycle = pay(cycle, LedgerEntry(state.round_no, kind, seat, declarer, per_opponent))
            paid += per_opponent
            gained += per_opponent
        if kind == "knock":
            # The other half stake goes into the pool.
            cycle = pay(cycle, LedgerEntry(state.round_no, "knock", seat, "pool", stake // 2))
            half = stake // 2
            text = (
                note(
                    "k108_chips_paid_pool",
                    paid=paid + half,
                    per=per_opponent,
                    name=names[declarer],
                    half=half,
                )
                if per_opponent
                else note("k108_chips_pool", paid=paid + half, half=half)
            )
        elif per_opponent:
            text = note("k108_chips_paid", paid=paid, per=per_opponent, name=names[declarer])
        else:
            text = note("k108_chips_none")
        notes[seat].append(text)
    notes[declarer].append(
        note("k108_chips_gained", gained=gained, per=per_opponent, players=len(opponents))
        if gained
        else note("k108_chips_none")
    )
    totals = tuple(t + change for t, change in zip(state.totals, record_change, strict=True))
    # K108-25 (Q13): over 100, out.
    out_now = [s for s in range(state.players) if active[s] and totals[s] > RULE_LIMIT]
    for seat in out_now:
        active[seat] = False
        notes[seat].append(note("k108_over", limit=RULE_LIMIT))
    chips = _round_chips(cycle, state.round_no, state.players)
    lines = [
        ScoreLine(
            seat,
            record_change[seat] + jumps[seat],
            hand=hand_points[seat],
            bonus=bonus[seat],
            notes=tuple(notes[seat]),
            chips=chips[seat],
        )
        for seat in range(state.players)
    ]
    cycle = replace(
        cycle,
        active=tuple(active),
        last_deal={"round": state.round_no, "ended": kind, "declarer": declarer, "seats": showdown},
        stage="play",
        knock=None,
        queue=(),
        taken=None,
    )
    state, _ = steps.close_round(
        state,
        "went_out",
        declarer,
        lines,
        events,
        totals=totals,
        hands=hands,
        before={"result": kind},
        cycle=cycle,
    )
    for seat in out_now:
        events.append(public("eliminated", seat=seat, record=totals[seat], rule="K108-25"))
    still_in = [s for s in range(state.players) if active[s]]
    if len(still_in) <= 1:
        # K108-28, K108-Q14: one left wins; none left: the lowest record of this deal's losers.
        if still_in:
            winners = still_in
        else:
            lowest = min(totals[s] for s in out_now)
            winners = [s for s in out_now if totals[s] == lowest]
        return _finish(state, winners, events)
    return _next_deal(state, next_seat(active, state.first), events)


def _next_deal(state: GameState, dealer: int, events: list[Event]) -> Transition:
    limit = state.rules.round_limit
    if state.rules.round_limit_reached(len(state.results)):
        # The round limit ends the match before one player is left: the players still in with the
        # lowest record win and share the pool as a tie does (K108-Q14; docs/engine.md, "Round limit").
        if not steps.any_round_decided(state):
            # Every deal was void (K108-Q16): nobody won, and the pool goes back to whoever paid
            # into it (docs/engine.md, "No winner").
            return _return_pool(state, events, round_limit=limit)
        active = k108_state(state).active
        lowest = min(t for t, a in zip(state.totals, active, strict=True) if a)
        winners = [s for s in range(state.players) if active[s] and state.totals[s] == lowest]
        return _finish(state, winners, events, round_limit=limit)
    state = steps.next_round(state, deal, dealer, events)
    cycle = k108_state(state)
    if cycle.stage == "buy_back":
        record = max(t for t, a in zip(state.totals, cycle.active, strict=True) if a)
        events.append(
            public(
                "buy_back_offer",
                seats=[state.turn, *cycle.queue],
                cost=BUY_BACK_STAKES * stake_of(state.rules),
                record=record,
                rule="K108-26",
            )
        )
    return Transition(state, tuple(events))


def _return_pool(state: GameState, events: list[Event], **event_data: Any) -> Transition:
    """The match ends with no winner: each seat takes back from the pool what it paid into it."""
    cycle = k108_state(state)
    paid = [0] * state.players
    for entry in cycle.ledger:
        if entry.target == "pool" and isinstance(entry.source, int):
            paid[entry.source] += entry.amount
        elif entry.source == "pool" and isinstance(entry.target, int):
            paid[entry.target] -= entry.amount
    for seat, amount in enumerate(paid):
        if amount > 0:
            cycle = pay(cycle, LedgerEntry(state.round_no, "returned", "pool", seat, amount))
    last = state.results[-1]
    lines = tuple(
        replace(
            line,
            chips=(line.chips or 0) + paid[line.seat],
            notes=(*line.notes, NO_WINNER_NOTE),
        )
        for line in last.lines
    )
    state, events = _last_deal_lines(state, cycle, events, lines)
    return steps.finish(state, events, (), pool=0, **event_data)


#: The note of every line when a match ends with no winner (docs/engine.md, "No winner").
NO_WINNER_NOTE = note("k108_no_winner")


def _finish(state: GameState, winners: Sequence[int], events: list[Event], **event_data: Any) -> Transition:
    cycle = k108_state(state)
    pool = cycle.pool
    share, rest = divmod(pool, len(winners))
    # Ties split the pool (K108-Q14); an odd chip goes to the first winners in seat order.
    taken = [0] * state.players
    for index, seat in enumerate(sorted(winners)):
        taken[seat] = share + (1 if index < rest else 0)
        if taken[seat]:
            cycle = pay(cycle, LedgerEntry(state.round_no, "pool", "pool", seat, taken[seat]))
    # The last deal's lines and its round_over event show the pool going to the winners.
    last = state.results[-1]
    lines = tuple(
        replace(
            line,
            chips=(line.chips or 0) + taken[line.seat],
            notes=(*line.notes, note("k108_takes_pool", chips=taken[line.seat])),
        )
        if line.seat in winners
        else line
        for line in last.lines
    )
    state, events = _last_deal_lines(state, cycle, events, lines)
    return steps.finish(state, events, sorted(winners), pool=pool, rule="K108-28", **event_data)


def _last_deal_lines(
    state: GameState, cycle: Knock108State, events: list[Event], lines: tuple[ScoreLine, ...]
) -> tuple[GameState, list[Event]]:
    """The last deal's score ``lines`` replaced (the pool's chips at the match's end), with the
    ledger ``cycle``, and its ``round_over`` event said again with them."""
    last = replace(state.results[-1], lines=lines)
    state = evolve(state, results=(*state.results[:-1], last), cycle=cycle)
    events = [
        steps.round_over_event(state, last, {"result": e.data["result"]}) if e.kind == "round_over" else e
        for e in events
    ]
    return state, events


def buy_back_terms(state: GameState) -> dict[str, Any]:
    active = k108_state(state).active
    return {
        "cost": BUY_BACK_STAKES * stake_of(state.rules),
        "record": max(t for t, a in zip(state.totals, active, strict=True) if a),
        "rule": "K108-26",
    }


KIND_NAME = {
    "knock": "knock",
    "gin": "gin",
    "flush": "flush",
    "figures": "figures",
    "full_sequence": "full sequence",
    "void": "void",
}


def show_card(card: Card) -> str:
    """A card as shown in a finished deal's summary: its face, a joker's declaration."""
    return card.face + (f"({card.stands_for.face})" if card.stands_for is not None else "")


def _full_hand(state: GameState, seat: int) -> tuple[Card, ...]:
    """The seat's cards, with those of its melds on the table (the knocker's)."""
    cards = list(state.hands[seat])
    for table_meld in state.melds:
        if table_meld.owner == seat:
            cards.extend(card.bare() for card in table_meld.cards)
    return tuple(cards)


def _round_chips(cycle: Knock108State, round_no: int, players: int) -> list[int]:
    """Each seat's chips won (+) or paid (-) in deal ``round_no``, from the ledger."""
    out = [0] * players
    for entry in cycle.ledger:
        if entry.round != round_no:
            continue
        if entry.source != "pool":
            out[entry.source] -= entry.amount
        if entry.target != "pool":
            out[entry.target] += entry.amount
    return out


def _carried(state: GameState) -> tuple[list[int], list[list[str]]]:
    """What happened before this deal that its score lines must tell: buy-backs (K108-26).

    A buy-back's record jump goes into the line's points, so a seat's lines always add up to its
    record.
    """
    carry = k108_state(state).carry or (Carry(),) * state.players
    return [item.points for item in carry], [list(item.notes) for item in carry]
