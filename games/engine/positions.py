"""Set up a position from given hands, stock, discard pile and table: for tests and puzzles.

Cards may be written without copy ids; they get the first free copy of the pack. Cards of the pack
not named anywhere go to the bottom of the stock (or nowhere, with ``rest="drop"``), so card
conservation holds unless asked otherwise.

>>> from games.engine import variant, position, view_for
>>> state = position(variant("remik51"), hands=["9S TS JS 8H 8D 8C 2C", "5D 6D"], turn=0, phase="play",
...                  stock="KS", rest="drop")
>>> view_for(state, 0)["hand"]
['9S#1', 'TS#1', 'JS#1', '8H#1', '8D#1', '8C#1', '2C#1']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from .cards import Card, parse_card, parse_cards
from .deal import deal_seed, secret_bytes, shuffle
from .game import new_game
from .gin.state import GinState, GinStep
from .melds import read_meld
from .rules import Rules
from .rummy.state import RummyState
from .state import GameState, Phase, TableMeld

CardsText = str | Sequence[Card]


def _as_cards(value: CardsText) -> tuple[Card, ...]:
    return parse_cards(value) if isinstance(value, str) else tuple(value)


class _Allocator:
    def __init__(self, pack: Sequence[Card]) -> None:
        self.free = list(pack)

    def claim(self, card: Card) -> Card:
        for i, physical in enumerate(self.free):
            if card.matches(physical):
                del self.free[i]
                return physical if card.stands_for is None else physical.declared(card.stands_for)
        raise ValueError(f"{card} is not (or no longer) in the pack")


def position(
    rules: Rules,
    *,
    hands: Sequence[CardsText],
    stock: CardsText = "",
    discard: CardsText = "",
    melds: Sequence[tuple[int, CardsText]] = (),
    opened: Sequence[bool] | None = None,
    turn: int = 0,
    phase: Phase = "draw",
    first: int | None = None,
    atu: str | Card | None = None,
    turns_started: Sequence[int] | None = None,
    totals: Sequence[int] | None = None,
    round_no: int = 1,
    seed: int | str | bytes = 0,
    names: Sequence[str] | None = None,
    rest: Literal["stock", "drop"] = "stock",
) -> GameState:
    """A position with exactly these cards where named (see the module docstring)."""
    players = len(hands)
    base = new_game(
        rules, list(names) if names else players, seed, first=first if first is not None else turn
    )
    alloc = _Allocator(rules.pack_for(players))
    table: list[TableMeld] = []
    for meld_id, (owner, cards) in enumerate(melds, start=1):
        physical = [alloc.claim(c) for c in _as_cards(cards)]
        meld = read_meld(physical, rules.policy)
        table.append(TableMeld(meld_id, owner, meld, (owner,) * len(physical)))
    dealt = tuple(tuple(alloc.claim(c) for c in _as_cards(hand)) for hand in hands)
    discard_cards = tuple(alloc.claim(c) for c in _as_cards(discard))
    stock_cards = [alloc.claim(c) for c in _as_cards(stock)]
    atu_card = None
    if rules.has_atu:
        if atu is None:
            atu_card = alloc.free.pop(0)
        else:
            atu_card = alloc.claim(parse_cards(atu)[0] if isinstance(atu, str) else atu)
    if rest == "stock":
        stock_cards += shuffle(alloc.free, deal_seed(secret_bytes(seed), round_no))
    opened_flags = (
        tuple(opened)
        if opened is not None
        else tuple(any(m.owner == s for m in table) for s in range(players))
    )
    pair: tuple[int, ...] = ()
    if atu_card is not None:
        pair = tuple(
            s for s, hand in enumerate(dealt) for c in hand if c.same_face(atu_card) and c != atu_card
        )
    started = (
        tuple(turns_started)
        if turns_started is not None
        else tuple(2 if s == turn else 1 for s in range(players))
    )
    cycle = base.cycle
    if isinstance(cycle, RummyState):  # the other families keep their match's own as dealt
        cycle = RummyState(opened_flags, opened_flags[turn], atu=atu_card, atu_pair_seats=pair)
    return replace(
        base,
        round_no=round_no,
        first=first if first is not None else turn,
        hands=dealt,
        stock=tuple(stock_cards),
        discard=discard_cards,
        melds=tuple(table),
        turn=turn,
        phase=phase,
        turns_started=started,
        next_meld_id=len(table) + 1,
        totals=tuple(totals) if totals is not None else (0,) * players,
        cycle=cycle,
    )


def gin_position(
    rules: Rules,
    *,
    hands: Sequence[str | Sequence[Card | str]],
    discard: str | Sequence[Card | str] = "",
    stock: str | Sequence[Card | str] = "",
    dealer: int = 0,
    turn: int | None = None,
    step: GinStep = "turn",
    phase: Phase = "draw",
    upcard: str | None = None,
    taken: str | None = None,
    seed: int | str | bytes = 0,
    names: Sequence[str] | None = None,
    totals: Sequence[int] | None = None,
    won: Sequence[int] | None = None,
    base: GameState | None = None,
    rest: Literal["stock", "drop"] = "stock",
) -> GameState:
    """A gin-family position for tests and puzzles: these hands, face-up pile and stock.

    ``dealer`` deals (the other seat is ``first``); ``turn`` defaults to the non-dealer. ``upcard``
    (default: the bottom card of ``discard``) sets the deal's knock limit and factor. Cards not
    named go to the bottom of the stock in pack order (``rest="drop"``: nowhere). With ``base`` (a
    match state) the position replaces the deal being played in that match: its round, dealer,
    totals, results, deals won and columns are kept.

    >>> from games.engine import variant, view_for
    >>> state = gin_position(variant("gin"), hands=["AD 2D 3D 6C 7C 8C 9C KS KH KD 5H", "2S 3S"],
    ...                      discard="QH", turn=0, phase="play")
    >>> you = view_for(state, 0)["you"]
    >>> you["deadwood"], "5H#1" in you["knock_discards"]   # discarding 5H is gin
    (0, True)
    """
    from .gin.rules import GinRules

    if not isinstance(rules, GinRules):
        raise ValueError(f"{rules.name} is not of the gin family")
    family = rules
    pack = rules.pack()
    free = list(pack)

    def claim(cards: str | Sequence[Card | str]) -> tuple[Card, ...]:
        out = []
        for item in parse_cards(cards) if isinstance(cards, str) else cards:
            card = parse_card(item) if isinstance(item, str) else item
            physical = next((c for c in free if c.same_face(card)), None)
            if physical is None:
                raise ValueError(f"{card} is named twice")
            free.remove(physical)
            out.append(physical)
        return tuple(out)

    dealt = tuple(claim(hand) for hand in hands)
    pile = claim(discard)
    stock_cards = claim(stock) + (tuple(free) if rest == "stock" else ())
    if base is None:
        base = new_game(rules, list(names) if names else len(dealt), seed, first=(dealer + 1) % 2)
    else:
        dealer = (base.first + 1) % 2
    first_turn = turn if turn is not None else base.first
    up = parse_cards(upcard)[0] if upcard else (pile[0] if pile else pack[0])
    physical_up = next((c for c in pack if c.same_face(up)), up)
    match = base.cycle
    assert isinstance(match, GinState)
    taken_card = None
    if taken is not None:
        wanted = parse_cards(taken)[0]
        taken_card = next(c for c in dealt[first_turn] if c.same_face(wanted))
    cycle = GinState(
        step,
        physical_up,
        family.knock_limit(physical_up),
        family.deal_factor(physical_up),
        taken=taken_card,
        won=tuple(won) if won is not None else match.won,
        columns=match.columns,
        settlement=match.settlement,
    )
    return replace(
        base,
        hands=dealt,
        stock=stock_cards,
        discard=pile,
        melds=(),
        turn=first_turn,
        phase=phase,
        turns_started=(1, 1),
        next_meld_id=1,
        totals=tuple(totals) if totals is not None else base.totals,
        cycle=cycle,
    )
