"""The rummy cycle's play: exchanges, new melds and lay-offs, checked together (one atomic move).

A ``Play`` (and the play a ``TakeDiscard`` carries with the card it takes) is all or nothing:
the rules' "in the same move" conditions — the opening (its points, its run), an exchanged joker
going into a new meld (R51-27, R40-21), the taken card used at once (R51-36, RMI-30, R500-8/Q5),
a card kept to discard (R51-43) — are checked together, and a refused play changes nothing.

The variants of the family differ only through the attributes and ``rule_ids`` of their
:class:`~games.engine.rules.Rules`; the cycle never asks which variant it plays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from .. import errors
from ..cards import Card
from ..events import Event, public
from ..melds import Meld, read_meld, settle_set
from ..moves import Play
from ..rules import Rules
from ..scoring import RoundEnd
from ..state import GameState, TableMeld, Transition, evolve
from ..steps import lay_off as lay_off_step
from ..steps import meld_on_table, take_cards, with_hand
from .state import RummyState

#: The rummy cycle's rule ids, where a variant's ``rule_ids`` name none (Remik 51's).
RULE_IDS = {
    "reshuffle": "R51-38",
    "take_top": "R51-35",
    "take_meld": "R51-36",
    "not_opened": "R51-41",
    "exchange": "R51-27",
    "exchange_meld": "R51-27",
    "set_locked": "R40-23",
    "keep_discard": "R51-43",
    "opening": "R51-31",
    "layoff": "R51-40",
    "deep_take": "R500-9",
    "stuck": "R40-Q15",
}

#: How the round ends when a play empties the hand (R500-Q4): set by the cycle (rummy.py).
EndRound = Callable[[GameState, RoundEnd, "int | None", list[Event]], Transition]


def rule_id(rules: Rules, key: str) -> str:
    """The variant's rule id for ``key`` (its ``rule_ids``), else the cycle's (:data:`RULE_IDS`)."""
    return rules.rule_ids.get(key) or RULE_IDS[key]


def rummy(state: GameState) -> RummyState:
    """The rummy cycle's own part of ``state``."""
    cycle = state.cycle
    if not isinstance(cycle, RummyState):
        raise TypeError(f"{state.rules.name} does not play the rummy cycle")
    return cycle


def may_build(state: GameState, seat: int) -> bool:
    """Whether ``seat`` may lay off, exchange jokers and take deep: it has opened, or the variant
    has no opening (R500-19)."""
    return rummy(state).opened[seat] or not state.rules.opening_required


def lay_off(rules: Rules, target: TableMeld, cards: Sequence[Card], seat: int) -> TableMeld:
    """``cards`` laid off onto ``target`` under the family's rules on jokers (RMI-37, R51-Q4)."""

    def allow(meld: Meld, card: Card) -> None:
        if card.is_joker and not rules.joker_layoff:
            raise errors.CannotLayOffError(
                "a joker can never be added to a formation on the table; it reaches the table only "
                "inside a new formation",
                rule="RMI-37",
            )
        if (
            meld.kind == "set"
            and rules.policy.set_declaration_binding
            and not card.is_joker
            and any(
                rep.same_face(card) for c, rep in zip(meld.cards, meld.represented, strict=True) if c.is_joker
            )
        ):
            raise errors.CannotLayOffError(
                f"{card.face} is the card a joker of this set stands for: exchange the joker instead",
                rule="R51-Q4",
            )

    return lay_off_step(rules.policy, target, cards, seat, rule=rule_id(rules, "layoff"), allow=allow)


def play(
    state: GameState,
    seat: int,
    play: Play,
    *,
    picked: Card | None,
    came_along: tuple[Card, ...],
    end_round: EndRound,
) -> Transition:
    """Exchanges, new melds and lay-offs, all checked together (atomic).

    ``picked``: the card just taken from the discard pile (it must reach the table in this move);
    ``came_along``: the cards above it that came with it.
    """
    rules = state.rules
    if rules.first_turn_locked and state.turns_started[seat] <= 1:
        raise errors.FirstTurnError("nothing of yours may reach the table in your first turn", rule="RMI-19")
    not_opened_rule = rule_id(rules, "not_opened")
    if not may_build(state, seat) and (play.layoffs or play.exchanges) and not play.melds:
        raise errors.NotOpenedError(
            "lay down your opening before adding to melds or exchanging jokers", rule=not_opened_rule
        )
    hand = list(state.hands[seat])
    cycle = rummy(state)
    atu_free = cycle.atu if (cycle.atu is not None and cycle.atu_taken_by is None) else None
    pool = [card.bare() for card in (*hand, *([atu_free] if atu_free else []))]
    melds = {m.id: m for m in state.melds}
    opened_before = may_build(state, seat)
    events: list[Event] = []
    consumed = list(cycle.consumed)

    # 1. Joker exchanges / buy-backs (R51-27; RMI-40). Checked for "opened" once the melds are known.
    freed_jokers: list[Card] = []
    grouped: set[int] = set()
    for number, exchange in enumerate(play.exchanges):
        if number in grouped:
            continue
        if exchange.card.is_joker:
            raise errors.JokerExchangeError("a joker is exchanged for the natural card it stands for")
        table_meld = melds.get(exchange.meld)
        if table_meld is None:
            raise errors.UnknownMeldError(
                f"there is no meld {exchange.meld} on the table", meld=exchange.meld
            )
        if rules.set_joker_exchange == "all_missing" and table_meld.meld.kind == "set":
            # R40-22: the exchanges on one set together name the cards that take the joker's place.
            group = [i for i in range(number, len(play.exchanges)) if play.exchanges[i].meld == exchange.meld]
            grouped.update(group)
            wanted = [play.exchanges[i].card for i in group]
            if any(card.is_joker for card in wanted):
                raise errors.JokerExchangeError("a joker is exchanged for the natural card it stands for")
            placed = take_cards(pool, wanted, "joker exchange")
            new_meld, joker = _recover_set_joker(rules, table_meld, placed, seat)
        else:
            (card,) = take_cards(pool, [exchange.card], "joker exchange")
            if atu_free is not None and card == atu_free:
                raise errors.AtuError("the atu can only go into a new formation", rule="RMI-45")
            new_meld, joker = _exchange(rules, table_meld, card, seat, consumed)
            placed = [card]
        melds[table_meld.id] = new_meld
        freed_jokers.append(joker)
        if rules.joker_exchange == "buyback":
            consumed.append(joker)
        events.append(
            public(
                "joker_exchanged",
                seat=seat,
                meld=table_meld.id,
                card=str(placed[0]),
                joker=str(joker),
                **({"cards": [str(c) for c in placed]} if len(placed) > 1 else {}),
            )
        )
    # A joker written without its id means the one just freed (it must be melded, R51-27).
    pool[:0] = freed_jokers

    # 2. New melds.
    new_melds: list[Meld] = []
    for cards in play.melds:
        resolved = take_cards(pool, cards, "new meld")
        new_melds.append(read_meld(resolved, rules.policy))
    used_atu = atu_free is not None and any(atu_free in m.cards for m in new_melds)
    exchange_rule = rule_id(rules, "exchange_meld")
    for joker in freed_jokers:
        if (
            rules.joker_exchange == "remik"
            and not rules.exchanged_joker_layoff
            and not any(joker in m.cards for m in new_melds)
        ):
            raise errors.ExchangedJokerNotMeldedError(
                f"the joker taken from the table ({joker}) must go into a new meld laid in this move",
                rule=exchange_rule,
            )
    take_rule = rule_id(rules, "take_meld")
    if picked is not None and not rules.taken_card_layoff and not any(picked in m.cards for m in new_melds):
        raise errors.TakenCardNotMeldedError(
            f"the card taken from the discard pile ({picked}) must be in a new meld laid in this move",
            rule=take_rule,
        )
    if picked is not None and came_along and rules.deep_take_from_hand:
        # R500-9 / R500-Q6: the card reached for is melded only with cards from the hand.
        for meld in new_melds:
            if picked in meld.cards and any(card in came_along for card in meld.cards):
                raise errors.CannotTakeDiscardError(
                    f"the card taken from deep in the pile ({picked}) must be melded with cards that were "
                    "in your hand, not with the cards taken above it",
                    rule=rule_id(rules, "deep_take"),
                )

    # 3. Opening: the new melds of this move, without those holding an exchanged joker (R51-28).
    # A player who lays no opening may not lay off or exchange (R51-27, R40-19/Q8): the meld that
    # holds an exchanged joker is no opening, so such a play is refused as "not opened".
    if not opened_before:
        opening = [m for m in new_melds if not any(j in m.cards for j in freed_jokers)]
        if (play.layoffs or play.exchanges) and not opening:
            raise errors.NotOpenedError(
                "lay down your opening before adding to melds or exchanging jokers", rule=not_opened_rule
            )
        check_opening(rules, opening)

    # 4. Lay-offs (R51-39/40; RMI-35..37).
    laid_off: list[Card] = []
    for layoff in play.layoffs:
        table_meld = melds.get(layoff.meld)
        if table_meld is None:
            raise errors.UnknownMeldError(f"there is no meld {layoff.meld} on the table", meld=layoff.meld)
        laid = take_cards(pool, layoff.cards, "lay-off")
        if atu_free is not None and atu_free in laid:
            raise errors.AtuError(
                "the atu can only go into a new formation laid in the going-out turn",
                rule="RMI-Q17",
            )
        melds[table_meld.id] = lay_off(rules, table_meld, laid, seat)
        laid_off.extend(laid)
        events.append(public("laid_off", seat=seat, meld=table_meld.id, cards=[str(c) for c in laid]))
    if rules.joker_exchange == "remik" and rules.exchanged_joker_layoff:
        for joker in freed_jokers:
            if not any(joker in m.cards for m in new_melds) and joker not in laid_off:
                raise errors.ExchangedJokerNotMeldedError(
                    f"the joker taken from the table ({joker}) must be melded or laid off in this move",
                    rule=exchange_rule,
                )
    if (
        picked is not None
        and rules.taken_card_layoff
        and not any(picked in m.cards for m in new_melds)
        and picked not in laid_off
    ):
        raise errors.TakenCardNotMeldedError(
            f"the card taken from the discard pile ({picked}) must be melded or laid off in this move",
            rule=take_rule,
        )

    # 5. What is left in hand.
    remaining = [card for card in pool if not (atu_free is not None and card == atu_free)]
    if not remaining and not rules.go_out_by_melding:
        raise errors.MustKeepDiscardError(
            "keep one card to discard: a turn may not empty the hand by laying down",
            rule=rule_id(rules, "keep_discard"),
        )
    if used_atu and len(remaining) != 1:
        raise errors.AtuError(
            "the atu may be taken only into a formation that leaves you exactly the card you discard",
            rule="RMI-45",
        )

    next_id = state.next_meld_id
    table = [melds[m.id] for m in state.melds]
    for meld in new_melds:
        table.append(meld_on_table(seat, next_id, meld))
        events.append(
            public(
                "melded",
                seat=seat,
                meld=next_id,
                cards=[str(c) for c in meld.cards],
                points=rules.meld_value(meld),
            )
        )
        next_id += 1
    opened = tuple(True if s == seat and new_melds else o for s, o in enumerate(cycle.opened))
    if not opened_before and new_melds:
        events.append(public("opened", seat=seat, points=sum(rules.meld_value(m) for m in new_melds)))
    new_state = evolve(
        state,
        hands=with_hand(state, seat, remaining),
        melds=tuple(table),
        cycle=replace(
            cycle,
            opened=opened,
            consumed=tuple(consumed),
            atu_taken_by=seat if used_atu else cycle.atu_taken_by,
            turn_joker_laid=cycle.turn_joker_laid or any(m.jokers for m in new_melds),
        ),
        next_meld_id=next_id,
    )
    if not remaining:
        # R500-Q4: every card melded or laid off, no discard needed: the round ends.
        return end_round(new_state, "went_out", seat, events)
    return Transition(new_state, tuple(events))


def check_opening(rules: Rules, melds: Sequence[Meld]) -> None:
    points = sum(rules.meld_value(m) for m in melds)
    if rules.opening_run == "pure" and not any(m.kind == "run" and m.is_pure for m in melds):
        raise errors.OpeningNeedsRunError(
            "the first meld must include a pure run (a run without jokers)",
            rule="R51-31",
            points=points,
            needed=rules.opening_minimum,
            missing="pure_run",
        )
    if rules.opening_run == "any" and not any(m.kind == "run" for m in melds):
        raise errors.OpeningNeedsRunError(
            "every opening must include a run",
            rule="RMI-25",
            points=points,
            needed=rules.opening_minimum,
            missing="run",
        )
    if points < rules.opening_minimum:
        raise errors.OpeningTooLowError(
            f"the opening is worth {points} points; it needs at least {rules.opening_minimum}",
            rule=rule_id(rules, "opening"),
            points=points,
            needed=rules.opening_minimum,
            missing="points",
        )


def _exchange(
    rules: Rules, table_meld: TableMeld, card: Card, seat: int, consumed: list[Card]
) -> tuple[TableMeld, Card]:
    """Put ``card`` in place of the joker standing for it; return the new meld and the joker."""
    meld = table_meld.meld
    candidates: list[int] = []
    for i, slot in enumerate(meld.cards):
        if not slot.is_joker:
            continue
        rep = meld.represented[i]
        if meld.kind == "run" or rules.policy.set_declaration_binding:
            if rep.same_face(card):
                candidates.append(i)
        elif card.rank == meld.rank and card.suit not in {c.suit for c in meld.cards if not c.is_joker}:
            # RMI-Q10: either missing suit buys a set's joker; prefer the joker declared as this card.
            candidates.insert(0, i) if rep.same_face(card) else candidates.append(i)
    rule = rule_id(rules, "exchange")
    if not candidates:
        raise errors.JokerExchangeError(f"no joker in meld {table_meld.id} stands for {card.face}", rule=rule)
    usable = [i for i in candidates if meld.cards[i].bare() not in consumed]
    if not usable:
        raise errors.JokerExchangeError("a bought-back joker cannot be bought back again", rule="RMI-42")
    index = usable[0]
    joker = meld.cards[index].bare()
    cards = list(meld.cards)
    cards[index] = card
    if meld.kind == "set":
        # Keep the other jokers' declarations valid (a Remi set may hold both jokers).
        new_meld = settle_set(tuple(cards), meld.rank)
    else:
        new_meld = Meld("run", tuple(cards), start=meld.start, suit=meld.suit)
    placed = list(table_meld.placed_by)
    placed[index] = seat
    return replace(table_meld, meld=new_meld, placed_by=tuple(placed)), joker


def _recover_set_joker(
    rules: Rules, table_meld: TableMeld, cards: Sequence[Card], seat: int
) -> tuple[TableMeld, Card]:
    """R40-22/23: a three-card set gives up a joker for two natural cards of its missing suits; the
    joker of a four-card set is locked for good. Returns the new meld and the freed joker."""
    meld = table_meld.meld
    rule = rule_id(rules, "exchange")
    slots = [i for i, card in enumerate(meld.cards) if card.is_joker]
    if not slots:
        raise errors.JokerExchangeError(f"there is no joker in meld {table_meld.id}", rule=rule)
    if len(meld.cards) >= 4:
        raise errors.JokerExchangeError(
            "the joker of a four-card set is locked: it can never be taken back",
            rule=rule_id(rules, "set_locked"),
        )
    present = {card.suit for card in meld.cards if not card.is_joker}
    missing = [suit for suit in "SHDC" if suit not in present]
    suits = [card.suit for card in cards]
    if (
        len(cards) != 2
        or any(card.rank != meld.rank for card in cards)
        or len(set(suits)) != 2
        or not set(suits) <= set(missing)
    ):
        wanted = " and ".join(meld.rank + suit for suit in missing)
        raise errors.JokerExchangeError(
            f"the joker of a three-card set is taken back only by putting both missing cards in its place "
            f"({wanted})"
            if len(missing) == 2
            else f"the joker of a three-card set is taken back only for two cards of its missing suits "
            f"({wanted})",
            rule=rule,
        )
    index = slots[0]
    joker = meld.cards[index].bare()
    new_cards = list(meld.cards)
    new_cards[index] = cards[0]
    new_cards.append(cards[1])
    placed = [*table_meld.placed_by, seat]
    placed[index] = seat
    return replace(table_meld, meld=settle_set(tuple(new_cards), meld.rank), placed_by=tuple(placed)), joker
