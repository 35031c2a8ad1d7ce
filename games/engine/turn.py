"""The turn cycle shared by the rummy variants: deal, draw, play, discard, score, next round.

``apply_move(state, seat, move)`` returns a :class:`Transition` (the new state and its events) or
raises an :class:`~games.engine.errors.IllegalMoveError`; the state passed in is never changed.
Variants change the cycle only through the attributes and hooks of their :class:`Rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from . import errors
from .cards import JOKER, Card, format_cards
from .deal import deal_seed, shuffle, sub_seed
from .events import Event, private, public
from .melds import Meld, extend_meld, read_meld, settle_set
from .moves import Discard, DrawStock, Knock, Move, Pass, Play, TakeDiscard, cards_named
from .rules import Rules
from .scoring import RoundFacts, RoundResult, standings
from .state import GameState, TableMeld


@dataclass(frozen=True, slots=True)
class Transition:
    state: GameState
    events: tuple[Event, ...]


# --- a new match and its rounds ----------------------------------------------------------------


def new_game(
    rules: Rules,
    players: int | Sequence[str],
    seed: int | str | bytes,
    *,
    first: int | None = None,
) -> GameState:
    """Seat the players and deal the first round.

    ``players`` is a seat count or the players' names. ``seed`` is the match secret: every deal
    (and the choice of the first dealer, unless ``first`` is given) follows from it.
    """
    from .deal import secret_bytes

    names = tuple(players) if not isinstance(players, int) else tuple(f"P{i + 1}" for i in range(players))
    count = len(names)
    if count < rules.min_players or count > rules.max_players:
        raise ValueError(
            f"{rules.name} is played by {rules.min_players} to {rules.max_players} players (got {count})"
        )
    secret = secret_bytes(seed)
    if first is None:
        first = choose_first(rules, count, secret)
    elif not 0 <= first < count:
        raise ValueError(f"first must be a seat (0 to {count - 1})")
    empty = GameState(
        rules=rules,
        players=count,
        names=names,
        secret=secret,
        round_no=0,
        first=first,
        hands=tuple(() for _ in range(count)),
        stock=(),
        discard=(),
        melds=(),
        opened=(False,) * count,
        turn=first,
        phase="draw",
        turns_started=(0,) * count,
        opened_at_turn_start=False,
        turn_joker_laid=False,
        atu=None,
        atu_taken_by=None,
        atu_pair_seats=(),
        consumed=(),
        reshuffles=0,
        next_meld_id=1,
        results=(),
        totals=(0,) * count,
        winners=(),
        moves_played=0,
    )
    if rules.flow is not None:
        return rules.flow.deal_round(empty, 1, first)  # type: ignore[no-any-return]
    return _deal_round(empty, 1, first)


_DRAW_ORDER = "23456789TJQKA"


def choose_first(rules: Rules, players: int, secret: bytes) -> int:
    """Who deals (plays first) in round 1, from round 0's seed.

    Remik 51 (R51-8, R51-Q3): each player draws a card, the highest deals (joker > A > K > ... > 2,
    suits do not rank); only the tied players draw again. Remi (RMI-Q1), Rummy 500 (R500-4) and
    Remik 40 (R40-Q13): uniformly at random (for the last two: the player left of the dealer).
    """
    if rules.flow is not None:
        return int(rules.flow.choose_first(rules, players, secret))
    seed = deal_seed(secret, 0)
    if rules.name != "remik51":
        order = shuffle(range(players), seed)
        return int(order[0])
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


def next_match_first(rules: Rules, previous: GameState) -> int | None:
    """Who plays first in the next match of a room whose last match is ``previous``.

    Where the deal passes to the left each game (Remik 40, R40-Q13) it is the seat after the first
    player of ``previous``'s last round; elsewhere None: the new match draws its own (``new_game``).

    >>> from games.engine import variant
    >>> last = new_game(variant("remik40"), 3, seed=5, first=2)
    >>> next_match_first(variant("remik40"), last), next_match_first(variant("remik51"), last)
    (0, None)
    """
    if not rules.deal_passes_each_match or previous.rules.name != rules.name:
        return None
    return (previous.first + 1) % previous.players


def deal_cards(
    rules: Rules, players: int, seed: bytes, first: int
) -> tuple[tuple[tuple[Card, ...], ...], Card | None, tuple[Card, ...]]:
    """The deal of one round from its seed: (hands, atu, stock top first).

    One card at a time clockwise, starting left of ``first``; ``first`` gets the extra card last
    (R51-10, R51-Q15; RMI-13). Then the atu is turned (Remi), and the rest is the stock.
    """
    pack = list(shuffle(rules.pack_for(players), seed))
    sizes = rules.hand_sizes(players, first)
    hands: list[list[Card]] = [[] for _ in range(players)]
    order = [(first + 1 + i) % players for i in range(players)]
    position = 0
    while any(len(hands[s]) < sizes[s] for s in range(players)):
        for seat in order:
            if len(hands[seat]) < sizes[seat]:
                hands[seat].append(pack[position])
                position += 1
    atu = None
    if rules.has_atu:
        atu = pack[position]
        position += 1
    return tuple(tuple(h) for h in hands), atu, tuple(pack[position:])


def _deal_round(state: GameState, round_no: int, first: int) -> GameState:
    seed = deal_seed(state.secret, round_no)
    hands, atu, stock = deal_cards(state.rules, state.players, seed, first)
    pair_seats: tuple[int, ...] = ()
    if atu is not None:
        pair_seats = tuple(
            seat for seat, hand in enumerate(hands) for card in hand if card.same_face(atu) and card != atu
        )
    discard: tuple[Card, ...] = ()
    if state.rules.up_card and stock:
        # R500-6: the top card of the stock is turned up as the first card of the discard pile.
        discard, stock = stock[:1], stock[1:]
    # The first player already holds the card they would draw (R51-13, RMI-18), or draws it
    # (R500-6, R40-Q13).
    turns = tuple(1 if seat == first else 0 for seat in range(state.players))
    return replace(
        state,
        round_no=round_no,
        first=first,
        hands=hands,
        stock=stock,
        discard=discard,
        melds=(),
        opened=(False,) * state.players,
        turn=first,
        phase="draw" if state.rules.first_player_draws else "play",
        turns_started=turns,
        opened_at_turn_start=False,
        turn_joker_laid=False,
        atu=atu,
        atu_taken_by=None,
        atu_pair_seats=pair_seats,
        consumed=(),
        reshuffles=0,
        next_meld_id=1,
    )


# --- applying a move ---------------------------------------------------------------------------


def apply_move(state: GameState, seat: int, move: Move) -> Transition:
    """Play ``move`` for ``seat``. Raises IllegalMoveError (the state is left as it was)."""
    if state.phase == "over":
        raise errors.GameOverError("the match is over")
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise errors.NotYourTurnError(f"there is no seat {seat!r}", seat=seat)
    if seat != state.turn:
        raise errors.NotYourTurnError(
            f"it is seat {state.turn}'s turn, not seat {seat}'s", seat=seat, turn=state.turn
        )
    policy = state.rules.policy
    if not policy.jokers and any(card.is_joker for card in cards_named(move)):
        raise errors.NoJokersError(
            format_cards(card for card in cards_named(move) if card.is_joker),
            f"{state.rules.title} is played without jokers",
            rule=policy.rule_joker or None,
        )
    if state.rules.flow is not None:
        transition: Transition = state.rules.flow.apply_move(state, seat, move)
        if transition.state.moves_played == state.moves_played + 1:
            return transition  # the flow counted the move itself (saves copying the state again)
        return Transition(replace(transition.state, moves_played=state.moves_played + 1), transition.events)
    match move:
        case DrawStock():
            transition = _draw(state, seat)
        case TakeDiscard():
            transition = _take(state, seat, move)
        case Play():
            transition = _play_move(state, seat, move)
        case Discard():
            transition = _discard(state, seat, move.card)
        case Pass() | Knock():
            raise errors.WrongPhaseError(
                f"{state.rules.title or state.rules.name} has no {type(move).__name__.lower()} move"
            )
        case _:
            raise errors.MalformedMoveError(f"not a move: {move!r}")
    return Transition(replace(transition.state, moves_played=state.moves_played + 1), transition.events)


def _rule(rules: Rules, key: str, default: str) -> str:
    """The variant's rule id for ``key`` (its ``rule_ids``), else ``default`` (Remik 51's / Remi's)."""
    return rules.rule_ids.get(key, default)


def may_build(state: GameState, seat: int) -> bool:
    """Whether ``seat`` may lay off, exchange jokers and take deep: it has opened, or the variant
    has no opening (R500-19)."""
    return state.opened[seat] or not state.rules.opening_required


def _require_phase(state: GameState, phase: str, what: str) -> None:
    if state.phase != phase:
        hint = "draw first" if state.phase == "draw" else "you have already drawn"
        raise errors.WrongPhaseError(f"cannot {what} now: {hint}", phase=state.phase)


def _draw(state: GameState, seat: int) -> Transition:
    _require_phase(state, "draw", "draw")
    events: list[Event] = []
    if not state.stock:
        if state.rules.stock_out == "end":
            # RMI-50 / RMI-Q9: the round ends the moment a player would have to draw.
            return _end_round(state, "stock_out", None, events)
        if len(state.discard) <= 1:
            # R51-Q9: nothing to rebuild the stock from: the round ends with no winner.
            return _end_round(state, "void", None, events)
        # R51-38: keep the top discard, shuffle the rest into a new stock.
        seed = sub_seed(deal_seed(state.secret, state.round_no), f"reshuffle:{state.reshuffles + 1}")
        stock = shuffle(state.discard[:-1], seed)
        state = replace(state, stock=stock, discard=state.discard[-1:], reshuffles=state.reshuffles + 1)
        events.append(
            public("stock_rebuilt", stock_size=len(stock), rule=_rule(state.rules, "reshuffle", "R51-38"))
        )
    card, stock = state.stock[0], state.stock[1:]
    hands = _with_hand(state, seat, (*state.hands[seat], card))
    events.append(public("drew", seat=seat, source="stock"))
    events.append(private(seat, "drew_card", seat=seat, card=str(card)))
    return Transition(replace(state, stock=stock, hands=hands, phase="play"), tuple(events))


def _with_hand(state: GameState, seat: int, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    return tuple(hand if s == seat else h for s, h in enumerate(state.hands))


def _take(state: GameState, seat: int, move: TakeDiscard) -> Transition:
    _require_phase(state, "draw", "take from the discard pile")
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
                "only the top card of the discard pile may be taken", rule=_rule(rules, "take_top", "R51-35")
            )
        if not may_build(state, seat):
            raise errors.CannotTakeDiscardError(
                "only a player who has opened may take from deeper in the row", rule="RMI-31"
            )
        limit = getattr(rules, "row_depth", None)
        if limit is not None and depth > limit:
            raise errors.CannotTakeDiscardError(
                f"only the newest {limit} discards can be reached", rule="RMI-Q8"
            )
    if move.play.is_empty:
        raise errors.TakenCardNotMeldedError(
            "the card taken from the discard pile must go into a new meld laid in the same move",
            rule=_rule(rules, "take_meld", "R51-36" if rules.discard_take == "top" else "RMI-30"),
        )
    picked = state.discard[index]
    taken = state.discard[index:]
    hand = (*state.hands[seat], *taken)
    interim = replace(state, hands=_with_hand(state, seat, hand), discard=state.discard[:index], phase="play")
    result = _play(interim, seat, move.play, picked=picked, came_along=taken[1:])
    if (
        rules.take_before_opening_must_go_out
        and not state.opened[seat]
        and len(result.state.hands[seat]) != 1
    ):
        raise errors.CannotTakeDiscardError(
            "before opening, the top discard may be taken only to go out in the same turn: lay down "
            "every card but the one you discard",
            rule="R51-37",
        )
    events = (
        public("took", seat=seat, card=str(picked), cards=[str(c) for c in taken], depth=depth),
        *result.events,
    )
    return Transition(result.state, events)


def _play_move(state: GameState, seat: int, play: Play) -> Transition:
    _require_phase(state, "play", "lay down")
    if play.is_empty:
        raise errors.MalformedMoveError("a play lays down, lays off or exchanges something")
    return _play(state, seat, play, picked=None, came_along=())


class _Pool:
    """The physical cards a play may use, for resolving cards written without copy ids."""

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = [card.bare() for card in cards]

    def take(self, wanted: Card) -> Card | None:
        for i, card in enumerate(self.cards):
            if wanted.matches(card):
                del self.cards[i]
                if card.is_joker and wanted.stands_for is not None:
                    return card.declared(wanted.stands_for)
                return card
        return None


def _resolve(pool: _Pool, cards: Sequence[Card], *, what: str) -> list[Card]:
    """Physical cards for ``cards``: exact ids first, then copy-less ones."""
    out: list[Card | None] = [None] * len(cards)
    for pass_exact in (True, False):
        for i, wanted in enumerate(cards):
            if bool(wanted.copy) != pass_exact:
                continue
            card = pool.take(wanted)
            if card is None:
                raise errors.CardNotInHandError(f"{wanted} is not in your hand ({what})", card=str(wanted))
            out[i] = card
    return [card for card in out if card is not None]


def _play(
    state: GameState, seat: int, play: Play, *, picked: Card | None, came_along: tuple[Card, ...]
) -> Transition:
    """Exchanges, new melds and lay-offs, all checked together (atomic).

    ``picked``: the card just taken from the discard pile (it must reach the table in this move);
    ``came_along``: the cards above it that came with it.
    """
    rules = state.rules
    if rules.first_turn_locked and state.turns_started[seat] <= 1:
        raise errors.FirstTurnError("nothing of yours may reach the table in your first turn", rule="RMI-19")
    not_opened_rule = _rule(rules, "not_opened", "R51-41" if rules.joker_exchange == "remik" else "RMI-27")
    if not may_build(state, seat) and (play.layoffs or play.exchanges) and not play.melds:
        raise errors.NotOpenedError(
            "lay down your opening before adding to melds or exchanging jokers", rule=not_opened_rule
        )
    hand = list(state.hands[seat])
    atu_free = state.atu if (state.atu is not None and state.atu_taken_by is None) else None
    pool = _Pool([*hand, *([atu_free] if atu_free else [])])
    melds = {m.id: m for m in state.melds}
    opened_before = may_build(state, seat)
    events: list[Event] = []
    consumed = list(state.consumed)

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
            placed = _resolve(pool, wanted, what="joker exchange")
            new_meld, joker = _recover_set_joker(rules, table_meld, placed, seat)
        else:
            (card,) = _resolve(pool, [exchange.card], what="joker exchange")
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
    pool.cards[:0] = freed_jokers

    # 2. New melds.
    new_melds: list[Meld] = []
    for cards in play.melds:
        resolved = _resolve(pool, cards, what="new meld")
        new_melds.append(read_meld(resolved, rules.policy))
    used_atu = atu_free is not None and any(atu_free in m.cards for m in new_melds)
    exchange_rule = _rule(rules, "exchange_meld", "R51-27")
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
    take_rule = _rule(rules, "take_meld", "R51-36" if rules.discard_take == "top" else "RMI-30")
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
                    rule=_rule(rules, "deep_take", "R500-9"),
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
        _check_opening(rules, opening)

    # 4. Lay-offs (R51-39/40; RMI-35..37).
    laid_off: list[Card] = []
    for layoff in play.layoffs:
        table_meld = melds.get(layoff.meld)
        if table_meld is None:
            raise errors.UnknownMeldError(f"there is no meld {layoff.meld} on the table", meld=layoff.meld)
        laid = _resolve(pool, layoff.cards, what="lay-off")
        if atu_free is not None and atu_free in laid:
            raise errors.AtuError(
                "the atu can only go into a new formation laid in the going-out turn",
                rule="RMI-Q17",
            )
        melds[table_meld.id] = _lay_off(rules, table_meld, laid, seat)
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
    remaining = [card for card in pool.cards if not (atu_free is not None and card == atu_free)]
    if not remaining and not rules.go_out_by_melding:
        raise errors.MustKeepDiscardError(
            "keep one card to discard: a turn may not empty the hand by laying down",
            rule=_rule(rules, "keep_discard", "R51-43" if rules.joker_exchange == "remik" else "RMI-51"),
        )
    if used_atu and len(remaining) != 1:
        raise errors.AtuError(
            "the atu may be taken only into a formation that leaves you exactly the card you discard",
            rule="RMI-45",
        )

    next_id = state.next_meld_id
    table = [melds[m.id] for m in state.melds]
    for meld in new_melds:
        table.append(TableMeld(next_id, seat, meld, (seat,) * len(meld.cards)))
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
    opened = tuple(True if s == seat and new_melds else o for s, o in enumerate(state.opened))
    if not opened_before and new_melds:
        events.append(public("opened", seat=seat, points=sum(rules.meld_value(m) for m in new_melds)))
    new_state = replace(
        state,
        hands=_with_hand(state, seat, tuple(remaining)),
        melds=tuple(table),
        opened=opened,
        next_meld_id=next_id,
        consumed=tuple(consumed),
        atu_taken_by=seat if used_atu else state.atu_taken_by,
        turn_joker_laid=state.turn_joker_laid or any(m.jokers for m in new_melds),
    )
    if not remaining:
        # R500-Q4: every card melded or laid off, no discard needed: the round ends.
        return _end_round(new_state, "went_out", seat, events)
    return Transition(new_state, tuple(events))


def _check_opening(rules: Rules, melds: Sequence[Meld]) -> None:
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
            rule=_rule(rules, "opening", "R51-31" if rules.opening_run == "pure" else "RMI-24"),
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
    rule = _rule(rules, "exchange", "R51-27" if rules.joker_exchange == "remik" else "RMI-40")
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
    rule = _rule(rules, "exchange", "R40-22")
    slots = [i for i, card in enumerate(meld.cards) if card.is_joker]
    if not slots:
        raise errors.JokerExchangeError(f"there is no joker in meld {table_meld.id}", rule=rule)
    if len(meld.cards) >= 4:
        raise errors.JokerExchangeError(
            "the joker of a four-card set is locked: it can never be taken back",
            rule=_rule(rules, "set_locked", "R40-23"),
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


def _lay_off(rules: Rules, table_meld: TableMeld, cards: Sequence[Card], seat: int) -> TableMeld:
    meld = table_meld.meld
    placed = list(table_meld.placed_by)
    pending = list(cards)
    rule = _rule(rules, "layoff", "R51-40" if rules.joker_exchange == "remik" else "RMI-37")
    while pending:
        progress = False
        failure: errors.IllegalMoveError | None = None
        for card in list(pending):
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
                    rep.same_face(card)
                    for c, rep in zip(meld.cards, meld.represented, strict=True)
                    if c.is_joker
                )
            ):
                raise errors.CannotLayOffError(
                    f"{card.face} is the card a joker of this set stands for: exchange the joker instead",
                    rule="R51-Q4",
                )
            try:
                extended = extend_meld(meld, card, rules.policy)
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
                f"{format_cards(pending)} cannot be added to meld {table_meld.id} "
                f"[{format_cards(table_meld.cards)}]: {reason}",
                rule=rule,
                meld=table_meld.id,
            )
    return replace(table_meld, meld=meld, placed_by=tuple(placed))


def _discard(state: GameState, seat: int, wanted: Card) -> Transition:
    _require_phase(state, "play", "discard")
    if wanted.stands_for is not None:
        wanted = wanted.bare()
    pool = _Pool(state.hands[seat])
    (card,) = _resolve(pool, [wanted], what="discard")
    hand = tuple(pool.cards)
    state = replace(state, hands=_with_hand(state, seat, hand), discard=(*state.discard, card))
    events: list[Event] = [public("discarded", seat=seat, card=str(card))]
    if not hand:
        # R51-42/43, RMI-51: the last card is discarded: the round ends.
        return _end_round(state, "went_out", seat, events, last_card=card)
    nxt = (seat + 1) % state.players
    turns = tuple(n + 1 if s == nxt else n for s, n in enumerate(state.turns_started))
    state = replace(
        state,
        turn=nxt,
        phase="draw",
        turns_started=turns,
        opened_at_turn_start=state.opened[nxt],
        turn_joker_laid=False,
    )
    events.append(public("turn", seat=nxt))
    if state.rules.end_when_stuck and stuck(state):
        events.append(public("stuck", rule=_rule(state.rules, "stuck", "R40-Q15")))
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


# --- end of a round ----------------------------------------------------------------------------


def table_points(state: GameState) -> tuple[int, ...]:
    """What each seat has put on the table this round (the placer scores each card, RMI-36)."""
    points = [0] * state.players
    for table_meld in state.melds:
        meld = table_meld.meld
        for rep, position, placer in zip(meld.represented, meld.positions, table_meld.placed_by, strict=True):
            points[placer] += state.rules.card_value(rep, meld.kind, position)
    return tuple(points)


def _end_round(
    state: GameState,
    ended: Any,
    winner: int | None,
    events: list[Event],
    *,
    last_card: Card | None = None,
) -> Transition:
    rules = state.rules
    one_go = winner is not None and not state.opened_at_turn_start
    facts = RoundFacts(
        players=state.players,
        round_no=state.round_no,
        ended=ended,
        winner=winner,
        one_go=one_go,
        hands=state.hands,
        table_points=table_points(state),
        opened=state.opened,
        joker_going_out=winner is not None
        and (state.turn_joker_laid or bool(last_card and last_card.is_joker)),
        atu=state.atu,
        atu_pair_seats=state.atu_pair_seats,
    )
    lines = rules.score_round(facts)
    totals = tuple(total + line.points for total, line in zip(state.totals, lines, strict=True))
    result = RoundResult(state.round_no, state.first, ended, winner, lines, totals, state.hands)
    events.append(
        public(
            "round_over",
            round=state.round_no,
            ended=ended,
            winner=winner,
            one_go=one_go,
            lines=[line.to_json() for line in lines],
            totals=list(totals),
            hands=[[str(c) for c in hand] for hand in state.hands],
            seed=deal_seed(state.secret, state.round_no).hex(),
        )
    )
    state = replace(state, totals=totals, results=(*state.results, result))
    if rules.match_over(totals, len(state.results)):
        return _finish(state, events)
    nxt = (state.first + 1) % state.players  # R51-14; RMI-Q1
    state = _deal_round(state, state.round_no + 1, nxt)
    events.append(public("round_started", round=state.round_no, first=nxt))
    return Transition(state, tuple(events))


def _finish(state: GameState, events: list[Event]) -> Transition:
    winners = standings(state.totals, state.rules.lower_wins)
    events.append(public("match_over", winners=list(winners), totals=list(state.totals)))
    state = replace(state, phase="over", winners=winners)
    return Transition(state, tuple(events))


def end_match(state: GameState) -> Transition:
    """Close a match now (an endless Remi room being closed, RMI-Q19): standings are final.

    The round in progress is abandoned unscored.
    """
    if state.phase == "over":
        raise errors.GameOverError("the match is over")
    return _finish(state, [public("round_abandoned", round=state.round_no)])


__all__ = [
    "JOKER",
    "Transition",
    "apply_move",
    "deal_cards",
    "end_match",
    "may_build",
    "new_game",
    "next_match_first",
    "stuck",
    "table_points",
]
