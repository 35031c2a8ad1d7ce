"""The gin family's own turn cycle (``gin.md``; ``oklahoma.md`` builds on it): the up-card offer,
draw and discard, the knock, the defender's reply, void deals, and the match settlement.

:class:`GinFamily` is the rule set both variants share (``variants/gin.py``, ``variants/oklahoma.py``
say only how they differ); :class:`GinFlow` is its turn cycle (the :class:`~games.engine.flow.Flow`
hook). Deadwood is computed on bitmasks by :mod:`games.engine.deadwood`.

**Seats.** ``state.first`` is the non-dealer, who is offered the up-card first and so plays first;
the other seat deals. Phases: the offer and the draw are ``"draw"``, after drawing and the
defender's reply ``"play"``; ``state.extra["step"]`` says which (below).

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

**``state.extra``** (JSON; card ids as text): ``step`` (``offer`` | ``turn`` | ``reply`` | ``over``),
``upcard`` (the deal's first up-card), ``limit`` (knock limit; 0: gin only), ``factor`` (1 or 2),
``passed`` (seats that declined the up-card), ``stock_only``, ``taken`` (the card taken from the
face-up pile this turn), ``knock`` (``seat``, ``discard``, ``points``, ``gin``, ``melds``: table meld
ids, and ``best``: the defender's optimum, which is hidden), ``won`` (deals won per seat), and
``columns`` (Oklahoma), ``settlement`` (at the end). ``view_for`` shows all of it but ``best`` in
``view["gin"]`` (a finished column with its ``result``); ``view["you"]`` adds the seat's own
``deadwood`` (after its best discard when it holds 11), ``best_melds`` and ``knock_discards``. A
deal's final table (melds with who placed each card) is in its ``round_over`` event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields, replace
from typing import Any, ClassVar

from . import errors
from .cards import Card, build_pack, parse_cards
from .deadwood import (
    VALUES,
    arrangement,
    deadwood,
    deadwood_after_discard,
    mask_of,
    with_layoffs,
)
from .deal import deal_seed, shuffle
from .events import Event, private, public
from .melds import Meld, MeldPolicy, extend_meld, read_meld
from .moves import Discard, DrawStock, Knock, LayOff, Move, Pass, Play, TakeDiscard
from .rules import Rules
from .scoring import RoundResult, ScoreLine
from .state import GameState, TableMeld
from .turn import Transition

DiscardTakenCardError = errors.DiscardTakenCardError
KnockTooHighError = errors.KnockTooHighError

__all__ = [
    "DiscardTakenCardError",
    "GinFamily",
    "GinFlow",
    "KnockTooHighError",
    "column_result",
    "settle",
]

GIN_BONUS = 25  # GIN-20
UNDERCUT_BONUS = 25  # GIN-19, GIN-Q2
GAME_BONUS = 100  # GIN-24
BOX_BONUS = 25  # GIN-24 with GIN-Q3
#: A discard leaving this many cards in the stock without a knock voids the deal (GIN-22).
VOID_AT = 2


# --- cards ---------------------------------------------------------------------------------------

_RANK_INDEX = {rank: i for i, rank in enumerate("A23456789TJQK")}
_BIT = {suit: {rank: 1 << (13 * s + r) for rank, r in _RANK_INDEX.items()} for s, suit in enumerate("SHDC")}
#: The one pack every deal of the family is shuffled from (cards are immutable, so it is shared).
_PACK = build_pack(1, 0)
# The hot path (a draw, a discard, the knock check) looks the pack's cards up by identity; cards
# read back from JSON are other objects and take the slower, equivalent way.
_BIT_OF = {id(card): _BIT[card.suit][card.rank] for card in _PACK}
_ID_OF = {id(card): str(card) for card in _PACK}
_DISCARD_OF = {id(card): Discard(card) for card in _PACK}
_TAKE_OF = {id(card): TakeDiscard(card) for card in _PACK}
_DRAW_STOCK = DrawStock()
_PASS = Pass()


def _bit(card: Card) -> int:
    bit = _BIT_OF.get(id(card))
    return bit if bit is not None else _BIT[card.suit][card.rank]


def _mask(cards: Sequence[Card]) -> int:
    """The mask of a hand of distinct physical cards (the engine's own hands; the public helpers
    take any cards through :func:`~games.engine.deadwood.mask_of`)."""
    try:
        return sum(map(_BIT_OF.__getitem__, map(id, cards)))  # distinct cards: the sum is the union
    except KeyError:  # cards that are not the pack's own objects (read back from JSON)
        mask = 0
        for card in cards:
            mask |= _BIT[card.suit][card.rank]
        return mask


def _card_id(card: Card) -> str:
    return _ID_OF.get(id(card)) or str(card)


def _value(card: Card) -> int:
    return VALUES[_RANK_INDEX[card.rank]]


def _loose(cards: Sequence[Card]) -> int:
    return sum(VALUES[_RANK_INDEX[card.rank]] for card in cards)


def _ids(cards: Sequence[Card]) -> list[str]:
    return [_card_id(card) for card in cards]


def _is(card: Card, text: str | None) -> bool:
    """Is ``card`` the physical card written ``text`` (``"7H#1"``)?"""
    return text is not None and card.rank == text[0] and card.suit == text[1] and _card_id(card) == text


def _find(hand: Sequence[Card], wanted: Card, what: str) -> int:
    """Index in ``hand`` of the card a move names (copy id optional)."""
    for i, card in enumerate(hand):
        if card is wanted or (
            card.rank == wanted.rank
            and card.suit == wanted.suit
            and (not wanted.copy or wanted.copy == card.copy)
        ):
            return i
    raise errors.CardNotInHandError(f"{wanted} is not in your hand ({what})", card=str(wanted))


def _take_cards(pool: list[Card], wanted: Sequence[Card], what: str) -> list[Card]:
    return [pool.pop(_find(pool, card, what)) for card in wanted]


def _cards_by_bit(cards: Sequence[Card]) -> dict[int, Card]:
    return {_bit(card): card for card in cards}


def _mask_cards(mask: int, by_bit: Mapping[int, Card]) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(by_bit[low])
        mask ^= low
    return out


# --- the rule set --------------------------------------------------------------------------------


class GinFamily(Rules):
    """What gin and its relatives share: 2 players, one deck, 10 cards, ace low, knock and gin."""

    policy = MeldPolicy(
        set_min=3,
        set_max=4,
        set_joker_limit=((3, 0), (4, 0)),
        run_min=3,
        ace_low=True,
        ace_high=False,  # GIN-3, GIN-11: A-K-Q and K-A-2 are not runs
        jokers=False,  # GIN-2
        rule_set="GIN-10",
        rule_run="GIN-11",
        rule_joker="GIN-2",
    )
    lower_wins = False
    family = "gin"
    #: Three parallel score columns (Oklahoma, OKL-5..9).
    hollywood: ClassVar[bool] = False

    def end_condition(self) -> str:
        return (
            f"The game ends when a player's score reaches {self._options['target']} (GIN-23); the "
            f"winner adds a {GAME_BONUS}-point game bonus and {BOX_BONUS} for each deal won more "
            "than the opponent, minus the opponent's score (GIN-24)."
        )

    @property
    def max_players(self) -> int:
        return 2

    @property
    def decks(self) -> int:
        return 1

    @property
    def jokers(self) -> int:
        return 0

    def pack(self) -> tuple[Card, ...]:
        return _PACK

    @property
    def target(self) -> int:
        return int(self._options["target"])

    def hand_sizes(self, players: int, first: int) -> tuple[int, ...]:
        return (10,) * players  # GIN-6

    def knock_limit(self, upcard: Card) -> int:
        """Most loose points a knock may keep in a deal with this first up-card (0: gin only)."""
        return 10  # GIN-15

    def deal_factor(self, upcard: Card) -> int:
        """What the deal's score is multiplied by."""
        return 1

    def card_value(self, represented: Card, kind: str, position: int) -> int:
        return _value(represented)  # GIN-13: a meld's cards counted at their loose values

    def hand_value(self, card: Card) -> int:
        return _value(card)

    def hand_points(self, cards: Iterable[Card] | str) -> int:
        """The hand's deadwood after its best arrangement (GIN-14)."""
        seq = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        return deadwood(mask_of(seq))

    def best_melds(self, cards: Iterable[Card] | str) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
        """A deadwood-minimal arrangement: ``(melds, loose cards)`` (GIN-12, GIN-Q8)."""
        seq = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        melds, loose = _arrange(self, list(seq))
        return tuple(melds), tuple(loose)

    def match_over(self, totals: Sequence[int], rounds_played: int) -> bool:
        return max(totals) >= self.target  # GIN-23


def _arrange(rules: Rules, cards: list[Card]) -> tuple[list[Meld], list[Card]]:
    by_bit = _cards_by_bit(cards)
    _, masks = arrangement(mask_of(cards))
    melds = [read_meld(_mask_cards(mask, by_bit), rules.policy) for mask in masks]
    used = 0
    for mask in masks:
        used |= mask
    return melds, [card for card in cards if not _bit(card) & used]


def _family(rules: Rules) -> GinFamily:
    assert isinstance(rules, GinFamily)
    return rules


# --- building states quickly ---------------------------------------------------------------------


# ``_evolve`` and ``deal_round`` build states positionally (much faster than ``replace``): this
# is the field order they assume.
_FIELDS = [
    "rules",
    "players",
    "names",
    "secret",
    "round_no",
    "first",
    "hands",
    "stock",
    "discard",
    "melds",
    "opened",
    "turn",
    "phase",
    "turns_started",
    "opened_at_turn_start",
    "turn_joker_laid",
    "atu",
    "atu_taken_by",
    "atu_pair_seats",
    "consumed",
    "reshuffles",
    "next_meld_id",
    "results",
    "totals",
    "winners",
    "moves_played",
    "extra",
]
if [f.name for f in fields(GameState)] != _FIELDS:  # pragma: no cover - a loud failure, not a wrong state
    raise ImportError("GameState's fields changed: update games/engine/gin.py (_FIELDS, _evolve, deal_round)")


def _evolve(
    s: GameState,
    hands: tuple[tuple[Card, ...], ...],
    stock: tuple[Card, ...],
    discard: tuple[Card, ...],
    turn: int,
    phase: Any,
    turns_started: tuple[int, ...],
    extra: Mapping[str, Any],
) -> GameState:
    """The state after a move of a turn (an offer, a draw, a take, a discard): what such a move
    changes is given, the rest copied. About three times faster than ``dataclasses.replace``.

    It counts the move (``moves_played``), so the caller need not copy the state again: use it
    once per move.
    """
    return GameState(
        s.rules,
        s.players,
        s.names,
        s.secret,
        s.round_no,
        s.first,
        hands,
        stock,
        discard,
        s.melds,
        s.opened,
        turn,
        phase,
        turns_started,
        s.opened_at_turn_start,
        s.turn_joker_laid,
        s.atu,
        s.atu_taken_by,
        s.atu_pair_seats,
        s.consumed,
        s.reshuffles,
        s.next_meld_id,
        s.results,
        s.totals,
        s.winners,
        s.moves_played + 1,
        extra,
    )


def _with_hand(state: GameState, seat: int, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    return (hand, state.hands[1]) if seat == 0 else (state.hands[0], hand)


def _started(state: GameState, seat: int) -> tuple[int, ...]:
    first, second = state.turns_started
    return (first + 1, second) if seat == 0 else (first, second + 1)


# Events every turn sends, built once (events are never changed once made).
_DREW = tuple(public("drew", seat=seat, source="stock") for seat in range(2))
_TURN = tuple(public("turn", seat=seat) for seat in range(2))
_DREW_CARD = tuple(
    {id(card): private(seat, "drew_card", seat=seat, card=str(card)) for card in _PACK} for seat in range(2)
)
_DISCARDED = tuple(
    {id(card): public("discarded", seat=seat, card=str(card)) for card in _PACK} for seat in range(2)
)


def _deal(
    s: GameState,
    round_no: int,
    first: int,
    results: tuple[RoundResult, ...],
    totals: tuple[int, ...],
    carried: Mapping[str, Any],
) -> GameState:
    """The state of a new deal (see :meth:`GinFlow.deal_round`), built in one go."""
    rules = _family(s.rules)
    pack = shuffle(rules.pack(), deal_seed(s.secret, round_no))
    dealer = (first + 1) % 2
    hands = (pack[0:20:2], pack[1:20:2]) if dealer == 0 else (pack[1:20:2], pack[0:20:2])
    upcard, stock = pack[20], pack[21:]
    extra = dict(carried)
    if "won" not in extra:  # a new match
        extra["won"] = [0] * s.players
        extra["settlement"] = None
        if rules.hollywood:
            extra["columns"] = [{"scores": [0, 0], "deals": [0, 0], "winner": None} for _ in range(3)]
    extra.update(
        step="offer",
        upcard=_card_id(upcard),
        limit=rules.knock_limit(upcard),
        factor=rules.deal_factor(upcard),
        passed=[],
        stock_only=False,
        taken=None,
        knock=None,
    )
    # GIN-7: the up-card is offered to the non-dealer (``first``) first.
    return GameState(
        s.rules,
        s.players,
        s.names,
        s.secret,
        round_no,
        first,
        hands,
        stock,
        (upcard,),
        (),
        (False, False),
        first,
        "draw",
        (1, 0) if first == 0 else (0, 1),
        False,
        False,
        None,
        None,
        (),
        (),
        0,
        1,
        results,
        totals,
        s.winners,
        s.moves_played,
        extra,
    )


# --- the turn cycle ------------------------------------------------------------------------------


class GinFlow:
    """The :class:`~games.engine.flow.Flow` of the gin family (see the module docstring)."""

    # Dealing ------------------------------------------------------------------------------------

    def choose_first(self, rules: Rules, players: int, secret: bytes) -> int:
        """Round 1's first player: the other seat is the first dealer, drawn by lot (GIN-5)."""
        dealer = int(shuffle(range(players), deal_seed(secret, 0))[0])
        return (dealer + 1) % players

    def deal_round(self, state: GameState, round_no: int, first: int) -> GameState:
        """Deal ``round_no``: ten cards each, the 21st face up (GIN-6/7).

        ``first`` (``state.first``) is the non-dealer, who is offered the up-card first and so plays
        first; the other seat deals. The cards come off the shuffled pack one at a time, exactly as
        :func:`~games.engine.turn.deal_cards` deals them for ``first`` (so ``verify_deal`` checks
        them): the dealer gets the 1st, 3rd, ... 19th card, the non-dealer the 2nd, 4th, ... 20th.
        """
        return _deal(state, round_no, first, state.results, state.totals, state.extra)

    # Moves ----------------------------------------------------------------------------------------

    def apply_move(self, state: GameState, seat: int, move: Move) -> Transition:
        step = state.extra["step"]
        if step == "turn":
            if state.phase == "draw":
                return self._draw_step(state, seat, move)
            return self._play_step(state, seat, move)
        if step == "offer":
            return self._offer(state, seat, move)
        if step == "reply":
            return self._reply(state, seat, move)
        raise errors.GameOverError("the match is over")

    def _offer(self, state: GameState, seat: int, move: Move) -> Transition:
        if isinstance(move, TakeDiscard):
            return self._take(state, seat, move)
        if isinstance(move, Pass):
            passed = [*state.extra["passed"], seat]
            events: list[Event] = [public("passed", seat=seat, card=str(state.discard[-1]), rule="GIN-8")]
            if len(passed) == 1:
                # The non-dealer declined: the dealer may take it (GIN-8).
                nxt = (state.first + 1) % state.players
                extra = {**state.extra, "passed": passed}
            else:
                # Both declined: the non-dealer draws from the stock (GIN-Q4).
                nxt = state.first
                extra = {**state.extra, "passed": passed, "step": "turn", "stock_only": True}
            events.append(public("turn", seat=nxt))
            new = _evolve(
                state, state.hands, state.stock, state.discard, nxt, state.phase, _started(state, nxt), extra
            )
            return Transition(new, tuple(events))
        if isinstance(move, (DrawStock, Discard, Knock, Play)):
            raise errors.WrongPhaseError(
                f"the up-card {state.discard[-1]} is offered to you: take it or pass",
                rule="GIN-8",
                phase="offer",
            )
        raise errors.MalformedMoveError(f"not a move: {move!r}")

    def _draw_step(self, state: GameState, seat: int, move: Move) -> Transition:
        if isinstance(move, DrawStock):
            stock = state.stock
            if len(stock) <= VOID_AT:  # only reachable from a set-up position
                return self._void(state, [])
            card = stock[0]
            hands = state.hands
            hand = (*hands[seat], card)
            extra = state.extra
            if extra["taken"] is not None:
                extra = {**extra, "taken": None}
            new = _evolve(
                state,
                (hand, hands[1]) if seat == 0 else (hands[0], hand),
                stock[1:],
                state.discard,
                seat,
                "play",
                state.turns_started,
                extra,
            )
            drew = _DREW_CARD[seat].get(id(card)) or private(seat, "drew_card", seat=seat, card=str(card))
            return Transition(new, (_DREW[seat], drew))
        if isinstance(move, TakeDiscard):
            if state.extra["stock_only"]:
                raise errors.CannotTakeDiscardError(
                    "both players declined the up-card: draw from the stock", rule="GIN-Q4"
                )
            return self._take(state, seat, move)
        if isinstance(move, (Discard, Knock, Pass, Play)):
            raise errors.WrongPhaseError(
                "draw first: from the stock or the top of the face-up pile", rule="GIN-9", phase="draw"
            )
        raise errors.MalformedMoveError(f"not a move: {move!r}")

    def _take(self, state: GameState, seat: int, move: TakeDiscard) -> Transition:
        if not state.discard:
            raise errors.CannotTakeDiscardError("the face-up pile is empty")
        top = state.discard[-1]
        wanted = move.card
        if wanted is not None and not (
            wanted.rank == top.rank
            and wanted.suit == top.suit
            and (not wanted.copy or wanted.copy == top.copy)
        ):
            raise errors.CannotTakeDiscardError(
                f"only the top face-up card ({top}) may be taken", rule="GIN-9", card=str(wanted)
            )
        if not move.play.is_empty:
            raise errors.WrongPhaseError(
                "nothing is laid during play in gin: take the card alone", rule="GIN-26", phase="draw"
            )
        top_id = _card_id(top)
        extra = {**state.extra, "taken": top_id, "step": "turn"}
        new = _evolve(
            state,
            _with_hand(state, seat, (*state.hands[seat], top)),
            state.stock,
            state.discard[:-1],
            seat,
            "play",
            state.turns_started,
            extra,
        )
        return Transition(new, (public("took", seat=seat, card=top_id, cards=[top_id], depth=1),))

    def _play_step(self, state: GameState, seat: int, move: Move) -> Transition:
        if isinstance(move, Discard):
            return self._discard(state, seat, move.card)
        if isinstance(move, Knock):
            return self._knock(state, seat, move)
        if isinstance(move, (DrawStock, TakeDiscard)):
            raise errors.WrongPhaseError(
                "you have already drawn: discard or knock", rule="GIN-9", phase="play"
            )
        if isinstance(move, Play):
            raise errors.WrongPhaseError(
                "melds stay in the hand until someone knocks or goes gin", rule="GIN-26", phase="play"
            )
        if isinstance(move, Pass):
            raise errors.WrongPhaseError("discard or knock to end your turn", rule="GIN-9", phase="play")
        raise errors.MalformedMoveError(f"not a move: {move!r}")

    def _discard(self, state: GameState, seat: int, wanted: Card) -> Transition:
        hand = state.hands[seat]
        index = _find(hand, wanted, "discard")
        card = hand[index]
        taken = state.extra["taken"]
        if taken is not None and _is(card, taken):
            raise DiscardTakenCardError(
                f"{card.face} was just taken from the face-up pile: discard another card", rule="GIN-Q5"
            )
        new_hand = hand[:index] + hand[index + 1 :]
        events: list[Event] = [
            _DISCARDED[seat].get(id(card)) or public("discarded", seat=seat, card=str(card))
        ]
        hands = _with_hand(state, seat, new_hand)
        discard = (*state.discard, card)
        if len(state.stock) <= VOID_AT:
            # GIN-22 with GIN-Q6: two cards left and no knock: the deal is void.
            ended = _evolve(
                state, hands, state.stock, discard, seat, state.phase, state.turns_started, state.extra
            )
            return self._void(ended, events)
        nxt = 1 - seat
        extra = state.extra
        if taken is not None or extra["stock_only"]:
            extra = {**extra, "taken": None, "stock_only": False}
        events.append(_TURN[nxt])
        new = _evolve(state, hands, state.stock, discard, nxt, "draw", _started(state, nxt), extra)
        return Transition(new, tuple(events))

    # The knock --------------------------------------------------------------------------------------

    def _knock(self, state: GameState, seat: int, move: Knock) -> Transition:
        rules = state.rules
        hand = list(state.hands[seat])
        taken = state.extra["taken"]
        limit = int(state.extra["limit"])
        if move.card is None:
            card = _best_discard(hand, taken)
        else:
            card = hand[_find(hand, move.card, "knock discard")]
            if taken is not None and _is(card, taken):
                raise DiscardTakenCardError(
                    f"{card.face} was just taken from the face-up pile: knock with another discard",
                    rule="GIN-Q5",
                )
        rest = [c for c in hand if c is not card]
        if move.melds:
            pool = list(rest)
            melds = []
            for written in move.melds:
                cards = _take_cards(pool, written, "knock meld")
                melds.append(read_meld(cards, rules.policy))
            loose = pool
        else:
            melds, loose = _arrange(rules, rest)
        points = _loose(loose)
        if points > limit:
            if limit == 0:
                raise KnockTooHighError(
                    f"the first up-card was an ace: this deal ends only with gin ({points} loose points)",
                    rule="OKL-2",
                    points=points,
                    limit=limit,
                )
            raise KnockTooHighError(
                f"{points} loose points: a knock keeps at most {limit}",
                rule="GIN-15" if limit == 10 and not _family(rules).hollywood else "OKL-2",
                points=points,
                limit=limit,
            )
        gin = points == 0  # GIN-20, GIN-Q7
        defender = 1 - seat
        table = tuple(TableMeld(i + 1, seat, meld, (seat,) * len(meld.cards)) for i, meld in enumerate(melds))
        defender_mask = _mask(state.hands[defender])
        if gin:
            best = deadwood(defender_mask)  # GIN-21: no lay-offs after gin
        else:
            best = with_layoffs(defender_mask, [_mask(m.cards) for m in melds])[0]
        knock = {
            "seat": seat,
            "discard": str(card),
            "points": points,
            "gin": gin,
            "melds": [m.id for m in table],
            "best": best,
        }
        extra = {**state.extra, "step": "reply", "taken": None, "stock_only": False, "knock": knock}
        new = replace(
            state,
            hands=_with_hand(state, seat, tuple(loose)),
            discard=(*state.discard, card),
            melds=table,
            next_meld_id=len(table) + 1,
            turn=defender,
            phase="play",
            turns_started=_started(state, defender),
            extra=extra,
        )
        events = (
            public("discarded", seat=seat, card=str(card)),
            public(
                "knocked",
                seat=seat,
                gin=gin,
                points=points,
                melds=[_ids(m.cards) for m in melds],
                deadwood=_ids(loose),
                rule="GIN-20" if gin else "GIN-15",
            ),
            public("turn", seat=defender),
        )
        return Transition(new, events)

    # The defender's reply ---------------------------------------------------------------------------

    def _reply(self, state: GameState, seat: int, move: Move) -> Transition:
        if isinstance(move, Pass):
            return self._reply_done(state, seat)
        if isinstance(move, Play):
            return self._reply_play(state, seat, move)
        if isinstance(move, (DrawStock, TakeDiscard, Discard, Knock)):
            raise errors.WrongPhaseError(
                "reply to the knock: lay melds and lay-offs (play), then pass to be counted",
                rule="GIN-16",
                phase="reply",
            )
        raise errors.MalformedMoveError(f"not a move: {move!r}")

    def _reply_play(self, state: GameState, seat: int, play: Play) -> Transition:
        rules = state.rules
        if play.exchanges:
            raise errors.JokerExchangeError("there are no jokers in gin (GIN-2)", rule="GIN-2")
        if play.is_empty:
            raise errors.MalformedMoveError("a play lays melds or lays off cards (or pass)")
        knock = state.extra["knock"]
        pool = list(state.hands[seat])
        new_melds = [read_meld(_take_cards(pool, written, "meld"), rules.policy) for written in play.melds]
        table = {m.id: m for m in state.melds}
        events: list[Event] = []
        for layoff in play.layoffs:
            target = table.get(layoff.meld)
            if target is None:
                raise errors.UnknownMeldError(
                    f"there is no meld {layoff.meld} on the table (lay-offs go onto melds only, GIN-17)",
                    meld=layoff.meld,
                )
            if knock["gin"] and target.owner == knock["seat"]:
                raise errors.CannotLayOffError(
                    "nothing may be laid off onto a gin hand", rule="GIN-21", meld=layoff.meld
                )
            cards = _take_cards(pool, layoff.cards, "lay-off")
            table[target.id] = _lay_off(rules, target, cards, seat)
            events.append(public("laid_off", seat=seat, meld=target.id, cards=_ids(cards)))
        next_id = state.next_meld_id
        melds = [table[m.id] for m in state.melds]
        for meld in new_melds:
            melds.append(TableMeld(next_id, seat, meld, (seat,) * len(meld.cards)))
            events.append(public("melded", seat=seat, meld=next_id, cards=_ids(meld.cards), points=0))
            next_id += 1
        new = replace(
            state,
            hands=_with_hand(state, seat, tuple(pool)),
            melds=tuple(melds),
            next_meld_id=next_id,
        )
        if not pool:
            return self._score(new, events)  # nothing left to lay: the reply is over
        return Transition(new, tuple(events))

    def _reply_done(self, state: GameState, seat: int) -> Transition:
        """Pass: the engine lays the rest of the defender's hand as well as it can, then scores."""
        rules = state.rules
        knock = state.extra["knock"]
        hand = list(state.hands[seat])
        targets = [m for m in state.melds if not (knock["gin"] and m.owner == knock["seat"])]
        events: list[Event] = []
        _, laid, own = with_layoffs(_mask(hand), [_mask(m.cards) for m in targets])
        by_bit = _cards_by_bit(hand)
        table = {m.id: m for m in state.melds}
        used = 0
        for target, mask in zip(targets, laid, strict=True):
            if mask:
                cards = _mask_cards(mask, by_bit)
                table[target.id] = _lay_off(rules, target, cards, seat)
                events.append(public("laid_off", seat=seat, meld=target.id, cards=_ids(cards)))
                used |= mask
        melds = [table[m.id] for m in state.melds]
        next_id = state.next_meld_id
        for mask in own:
            meld = read_meld(_mask_cards(mask, by_bit), rules.policy)
            melds.append(TableMeld(next_id, seat, meld, (seat,) * len(meld.cards)))
            events.append(public("melded", seat=seat, meld=next_id, cards=_ids(meld.cards), points=0))
            next_id += 1
            used |= mask
        left = tuple(card for card in hand if not _bit(card) & used)
        new = replace(state, hands=_with_hand(state, seat, left), melds=tuple(melds), next_meld_id=next_id)
        return self._score(new, events)

    # Ending a deal ----------------------------------------------------------------------------------

    def _score(self, state: GameState, events: list[Event]) -> Transition:
        rules = _family(state.rules)
        extra = state.extra
        knock = extra["knock"]
        knocker = int(knock["seat"])
        defender = 1 - knocker
        k_points = int(knock["points"])
        shown = _loose(state.hands[defender])
        d_points = min(shown, int(knock["best"]))  # GIN-Q8: never above the defender's optimum
        factor = int(extra["factor"])
        notes_k: list[str] = []
        notes_d: list[str] = []
        if shown > d_points:
            notes_d.append(f"counted at the best arrangement, {d_points} (GIN-Q8), not {shown} as laid")
        if knock["gin"]:
            winner, base, bonus = knocker, d_points, GIN_BONUS
            notes_k.append(f"gin: the opponent's {d_points} + {GIN_BONUS} (GIN-20)")
        elif k_points < d_points:
            winner, base, bonus = knocker, d_points - k_points, 0
            notes_k.append(f"knocked with {k_points} against {d_points}: {base} (GIN-19)")
        else:
            winner, base, bonus = defender, k_points - d_points, UNDERCUT_BONUS
            notes_d.append(
                f"undercut: {d_points} against the knock with {k_points}: {base} + {UNDERCUT_BONUS} "
                "(GIN-19, GIN-Q2)"
            )
            notes_k.append(f"knocked with {k_points} and was undercut")
        points = (base + bonus) * factor
        if factor != 1:
            (notes_k if winner == knocker else notes_d).append(
                f"doubled: the first up-card {extra['upcard'].split('#')[0]} is a spade (OKL-4)"
            )
        won = list(extra["won"])
        won[winner] += 1
        new_extra: dict[str, Any] = {**extra, "won": won}
        winner_notes = notes_k if winner == knocker else notes_d
        if rules.hollywood:
            columns, entered = _enter_columns(extra["columns"], winner, won[winner], points, rules.target)
            new_extra["columns"] = columns
            if entered:
                listed = ", ".join(str(c + 1) for c in entered)
                winner_notes.append(f"win no. {won[winner]}: entered in column(s) {listed} (OKL-6)")
            else:
                winner_notes.append(f"win no. {won[winner]}: its columns are finished (OKL-Q3)")
        lines = []
        for seat in range(state.players):
            mine = seat == winner
            lines.append(
                ScoreLine(
                    seat,
                    points if mine else 0,
                    hand=k_points if seat == knocker else d_points,
                    bonus=bonus if mine else 0,
                    multiplier=factor if mine else 1,
                    notes=tuple(notes_k if seat == knocker else notes_d),
                )
            )
        return self._end_deal(state, events, winner, lines, new_extra)

    def _void(self, state: GameState, events: list[Event]) -> Transition:
        note = ("void deal: two cards left in the stock and nobody knocked (GIN-22)",)
        lines = [ScoreLine(seat, 0, hand=0, notes=note) for seat in range(state.players)]
        return self._end_deal(state, events, None, lines, dict(state.extra))

    def _end_deal(
        self,
        state: GameState,
        events: list[Event],
        winner: int | None,
        lines: list[ScoreLine],
        extra: dict[str, Any],
    ) -> Transition:
        rules = _family(state.rules)
        totals = tuple(t + line.points for t, line in zip(state.totals, lines, strict=True))
        ended: Any = "void" if winner is None else "went_out"
        over = winner is not None and _match_over(rules, totals, extra)
        settlement = (
            settle(rules, totals, extra, winner, state.names) if over and winner is not None else None
        )
        if settlement is not None:
            for line in settlement["notes"]:
                lines = [replace(li, notes=(*li.notes, line)) for li in lines]
        result = RoundResult(state.round_no, state.first, ended, winner, tuple(lines), totals, state.hands)
        events.append(
            public(
                "round_over",
                round=state.round_no,
                ended=ended,
                winner=winner,
                one_go=False,
                lines=[line.to_json() for line in lines],
                totals=list(totals),
                hands=[_ids(hand) for hand in state.hands],
                melds=[
                    {"owner": m.owner, "cards": _ids(m.cards), "placed_by": list(m.placed_by)}
                    for m in state.melds
                ],
                knock={k: v for k, v in (extra.get("knock") or {}).items() if k != "best"} or None,
                seed=deal_seed(state.secret, state.round_no).hex(),
            )
        )
        results = (*state.results, result)
        if settlement is None:
            # GIN-5: the winner deals next; after a void deal the same dealer deals again (GIN-Q6).
            first = state.first if winner is None else (winner + 1) % state.players
            state = _deal(state, state.round_no + 1, first, results, totals, extra)
            events.append(public("round_started", round=state.round_no, first=first, dealer=(first + 1) % 2))
            return Transition(state, tuple(events))
        winners = tuple(settlement["winners"])
        extra = {**extra, "step": "over", "settlement": settlement}
        events.append(public("match_over", winners=list(winners), totals=list(totals), settlement=settlement))
        final = replace(state, totals=totals, results=results, phase="over", winners=winners, extra=extra)
        return Transition(final, tuple(events))

    # What a seat may do -------------------------------------------------------------------------------

    def legal_moves(self, state: GameState, seat: int) -> list[Move]:
        extra = state.extra
        step = extra["step"]
        if step == "turn":
            if state.phase == "draw":
                if extra["stock_only"]:
                    return [_DRAW_STOCK]
                top = state.discard[-1]
                return [_DRAW_STOCK, _TAKE_OF.get(id(top)) or TakeDiscard(top)]
            hand = state.hands[seat]
            try:
                moves: list[Move] = list(map(_DISCARD_OF.__getitem__, map(id, hand)))
            except KeyError:
                moves = [Discard(card) for card in hand]
            allowed: Sequence[Card] = hand
            taken = extra["taken"]
            if taken is not None:  # GIN-Q5: not the card just taken (the last one, unless set up)
                index = len(hand) - 1
                if not _is(hand[index], taken):
                    index = next((i for i, card in enumerate(hand) if _is(card, taken)), len(hand))
                allowed = hand[:index] + hand[index + 1 :]
                del moves[index : index + 1]
            mask = _mask(hand)
            limit = extra["limit"]
            if deadwood_after_discard(mask) <= limit:
                moves += [Knock(card) for card in allowed if deadwood(mask ^ _bit(card)) <= limit]
            return moves
        if step == "offer":
            top = state.discard[-1]
            return [_TAKE_OF.get(id(top)) or TakeDiscard(top), _PASS]
        if step == "reply":
            return [_PASS, *self._reply_plays(state, seat)]
        return []

    def _reply_plays(self, state: GameState, seat: int) -> list[Move]:
        """Plays the engine offers the defender: its best melds and lay-offs, and each one alone."""
        knock = state.extra["knock"]
        hand = list(state.hands[seat])
        targets = [m for m in state.melds if not (knock["gin"] and m.owner == knock["seat"])]
        _, laid, own = with_layoffs(_mask(hand), [_mask(m.cards) for m in targets])
        by_bit = _cards_by_bit(hand)
        melds = tuple(tuple(_mask_cards(mask, by_bit)) for mask in own)
        layoffs = tuple(
            LayOff(target.id, tuple(_mask_cards(mask, by_bit)))
            for target, mask in zip(targets, laid, strict=True)
            if mask
        )
        candidates: list[Play] = []
        if melds or layoffs:
            candidates.append(Play(melds=melds, layoffs=layoffs))
        candidates += [Play(melds=(meld,)) for meld in melds] if len(melds) + len(layoffs) > 1 else []
        candidates += [Play(layoffs=(layoff,)) for layoff in layoffs] if len(melds) + len(layoffs) > 1 else []
        for target in targets:  # single cards that fit, whether or not the best count uses them
            for card in hand:
                try:
                    extend_meld(target.meld, card, state.rules.policy)
                except errors.InvalidMeldError:
                    continue
                candidates.append(Play(layoffs=(LayOff(target.id, (card,)),)))
        out: list[Move] = []
        seen: set[str] = set()
        for play in candidates:
            key = repr(play)
            if key in seen:
                continue
            seen.add(key)
            try:
                self._reply_play(state, seat, play)
            except errors.IllegalMoveError:
                continue
            out.append(play)
        return out

    def seat_options(self, state: GameState, seat: int) -> dict[str, Any]:
        """The ``you`` block: what the seat may do now, its deadwood and knock options (own cards only)."""
        extra = state.extra
        my_turn = state.phase != "over" and seat == state.turn
        step = extra["step"]
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
            if not extra["stock_only"] and state.discard:
                kinds.append("take")
                takeable = [str(state.discard[-1])]
        elif my_turn and step == "turn":
            taken = extra["taken"]
            allowed = [c for c in hand if not _is(c, taken)]
            discards = _ids(allowed)
            mask = _mask(hand)
            knock_discards = [str(c) for c in allowed if deadwood(mask ^ _bit(c)) <= int(extra["limit"])]
            kinds = ["discard", *(["knock"] if knock_discards else [])]
        elif my_turn and step == "reply":
            kinds = ["play", "pass"]
        if hand and step != "over":
            melds, loose = _arrange(state.rules, list(hand))
            best_melds = [_ids(m.cards) for m in melds]
            loose_points = _loose(loose)
            if discards:  # eleven cards: what is left after the best allowed discard
                mask = _mask(hand)
                loose_points = min(deadwood(mask ^ _bit(c)) for c in hand if str(c) in discards)
        else:
            best_melds, loose_points = [], 0
        return {
            "my_turn": my_turn,
            "moves": kinds,
            "discards": discards,
            "takeable": takeable,
            "knock_discards": knock_discards,
            "deadwood": loose_points,
            "best_melds": best_melds,
            "first_turn": False,
            "opened": False,
            "opening": None,
            "stock_empty": not state.stock,
        }

    def view_extra(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """The ``gin`` block of every view: the deal's up-card and limit, the offer, the knock, the
        deals won, Oklahoma's columns and the settlement (nothing hidden)."""
        extra = state.extra
        knock = extra.get("knock")
        shown_knock = None
        if knock is not None:
            shown_knock = {key: value for key, value in knock.items() if key != "best"}
            shown_knock["deadwood"] = _ids(state.hands[int(knock["seat"])])
        rules = _family(state.rules)
        block: dict[str, Any] = {
            "step": extra.get("step"),
            "upcard": extra.get("upcard"),
            "knock_limit": extra.get("limit"),
            "factor": extra.get("factor"),
            "offered_to": state.turn if extra.get("step") == "offer" else None,
            "passed": list(extra.get("passed", [])),
            "stock_only": extra.get("stock_only", False),
            "taken": extra.get("taken"),
            "knock": shown_knock,
            "deals_won": list(extra.get("won", [0] * state.players)),
            "target": rules.target,
            "settlement": extra.get("settlement"),
        }
        if rules.hollywood:
            block["columns"] = [
                {**column, "result": column_result(column)} for column in extra.get("columns") or []
            ]
        return {"gin": block}

    # The terminal ---------------------------------------------------------------------------------

    def table_lines(self, view: Mapping[str, Any]) -> list[str]:
        """Lines the terminal adds to the table (``cli.render_table``)."""
        block = view.get("gin") or {}
        names = view["names"]
        lines = []
        upcard = (block.get("upcard") or "").split("#")[0]
        limit = block.get("knock_limit")
        limit_text = "gin only" if limit == 0 else f"knock with up to {limit}"
        factor = block.get("factor") or 1
        lines.append(
            f"Deal   : up-card {upcard}, {limit_text}{', score doubled' if factor > 1 else ''}; "
            f"dealer {names[(view['first'] + 1) % 2]}"
        )
        step = block.get("step")
        if step == "offer":
            lines.append(f"Offer  : the up-card goes to {names[view['turn']]}: take or pass (GIN-8)")
        elif block.get("stock_only") and view["phase"] == "draw":
            lines.append("Offer  : both declined the up-card: draw from the stock (GIN-Q4)")
        knock = block.get("knock")
        if knock is not None:
            what = "went gin" if knock["gin"] else f"knocked with {knock['points']}"
            loose = " ".join(card.split("#")[0] for card in knock["deadwood"]) or "none"
            lines.append(f"Knock  : {names[knock['seat']]} {what}; loose cards: {loose}")
            if step == "reply":
                lines.append(
                    "Reply  : lay melds and lay-offs (meld ..., add ID CARDS), then pass to be counted"
                )
        won = block.get("deals_won") or []
        lines.append(
            "Deals  : "
            + ", ".join(f"{names[s]} won {n}" for s, n in enumerate(won))
            + f"; game to {block.get('target')}"
        )
        for i, column in enumerate(block.get("columns") or []):
            scores = column["scores"]
            done = f" finished, won by {names[column['winner']]}" if column["winner"] is not None else ""
            lines.append(f"Column {i + 1}: {names[0]} {scores[0]} - {names[1]} {scores[1]}{done}")
        settlement = block.get("settlement")
        if settlement is not None:
            lines += [f"Result : {note}" for note in settlement["notes"]]
        if view.get("you", {}).get("my_turn"):
            you = view["you"]
            hints = {
                "offer": "take (the up-card) or pass",
                "draw": "draw, or take (the top face-up card)" if "take" in you["moves"] else "draw",
                "play": "discard CARD, or knock CARD [meld CARDS, CARDS ...] (the engine lays your best "
                "melds if you name none)",
            }
            hint = hints["offer"] if step == "offer" else hints.get(view["phase"]) if step == "turn" else None
            if hint:
                lines.append(f"Moves  : {hint}")
            lines.append(f"Deadwood: {you['deadwood']} (best melds laid)")
            if you.get("knock_discards"):
                cards = " ".join(c.split("#")[0] for c in you["knock_discards"])
                lines.append(f"Knock  : you may knock discarding {cards} (knock CARD)")
        return lines


def _best_discard(hand: Sequence[Card], taken: str | None) -> Card:
    """The discard leaving the least deadwood; among equals the highest card (then hand order)."""
    mask = _mask(hand)
    best: tuple[int, int] | None = None
    choice = hand[0]
    for card in hand:
        if _is(card, taken):
            continue
        key = (deadwood(mask ^ _bit(card)), -_value(card))
        if best is None or key < best:
            best, choice = key, card
    return choice


def _lay_off(rules: Rules, target: TableMeld, cards: Sequence[Card], seat: int) -> TableMeld:
    """``cards`` added to a table meld, in whatever order they fit (6S then 7S onto 3S-5S)."""
    meld = target.meld
    placed = list(target.placed_by)
    pending = list(cards)
    while pending:
        progress = False
        for card in list(pending):
            try:
                extended = extend_meld(meld, card, rules.policy)
            except errors.InvalidMeldError:
                continue
            if meld.kind == "run" and extended.start < meld.start:
                placed.insert(0, seat)
            else:
                placed.append(seat)
            meld = extended
            pending.remove(card)
            progress = True
        if not progress:
            shown = " ".join(card.face for card in pending)
            raise errors.CannotLayOffError(
                f"{shown} cannot be added to meld {target.id} [{meld}]", rule="GIN-16", meld=target.id
            )
    return replace(target, meld=meld, placed_by=tuple(placed))


def _match_over(rules: GinFamily, totals: Sequence[int], extra: Mapping[str, Any]) -> bool:
    if rules.hollywood:
        return all(column["winner"] is not None for column in extra["columns"])  # OKL-8
    return rules.match_over(totals, 0)


def _enter_columns(
    columns: Sequence[Mapping[str, Any]], winner: int, wins: int, points: int, target: int
) -> tuple[list[dict[str, Any]], list[int]]:
    """OKL-6 with OKL-Q2/Q3: the k-th win goes into columns 1..min(k, 3) that are still open."""
    out: list[dict[str, Any]] = []
    entered = []
    for index, column in enumerate(columns):
        scores = list(column["scores"])
        deals = list(column["deals"])
        finished = column["winner"]
        if index < min(wins, 3) and finished is None:
            scores[winner] += points
            deals[winner] += 1
            entered.append(index)
            if scores[winner] >= target:  # OKL-7 with OKL-Q6
                finished = winner
        out.append({"scores": scores, "deals": deals, "winner": finished})
    return out, entered


def _settle_one(scores: Sequence[int], deals: Sequence[int], winner: int) -> tuple[int, str]:
    loser = 1 - winner
    box = BOX_BONUS * (deals[winner] - deals[loser])
    result = scores[winner] + GAME_BONUS + box - scores[loser]
    text = (
        f"{scores[winner]} + {GAME_BONUS} game bonus + {box} for deals won "
        f"({BOX_BONUS} x ({deals[winner]} - {deals[loser]})) - {scores[loser]} = {result}"
    )
    return result, text


def column_result(column: Mapping[str, Any]) -> dict[str, Any] | None:
    """A finished Oklahoma column settled as a gin game (OKL-Q4): ``{"winner", "points"}``."""
    if column["winner"] is None:
        return None
    winner = int(column["winner"])
    return {"winner": winner, "points": _settle_one(column["scores"], column["deals"], winner)[0]}


def settle(
    rules: GinFamily,
    totals: Sequence[int],
    extra: Mapping[str, Any],
    winner: int,
    names: Sequence[str] = ("P1", "P2"),
) -> dict[str, Any]:
    """The final settlement (GIN-24 with GIN-Q3; Oklahoma: each column so, then summed, OKL-Q4).

    ``winner`` is the seat whose total reached the target (gin). Returns ``{"winners", "net": [per
    seat], "points": what the winner wins, "columns", "notes"}``.
    """
    if not rules.hollywood:
        result, text = _settle_one(totals, extra["won"], winner)
        net = [result if seat == winner else -result for seat in range(2)]
        notes = [f"game won by {names[winner]}: {text} (GIN-24)"]
        return {"winners": [winner], "net": net, "points": result, "columns": None, "notes": notes}
    net0 = 0
    columns = []
    notes = []
    for index, column in enumerate(extra["columns"]):
        winner = int(column["winner"])
        result, text = _settle_one(column["scores"], column["deals"], winner)
        net0 += result if winner == 0 else -result
        columns.append({"winner": winner, "points": result})
        notes.append(f"column {index + 1} won by {names[winner]}: {text} (OKL-Q4)")
    winners = [0] if net0 > 0 else [1] if net0 < 0 else [0, 1]
    notes.append(f"net over the three columns: {names[0]} {net0:+d}, {names[1]} {-net0:+d} (OKL-9)")
    return {"winners": winners, "net": [net0, -net0], "points": abs(net0), "columns": columns, "notes": notes}


GinFamily.flow = GinFlow()
