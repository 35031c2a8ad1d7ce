"""Knock-108 under the engine's invariants (as ``test_properties.py`` checks them for the shared
cycle): card conservation, legal moves accepted, refused moves change nothing, no leaks in views or
events, JSON and record round-trips, replays; plus the variant's own: the chip ledger balances,
score lines add up to the records, records over 100 are out, and loose points are the minimum an
independent brute force finds.

A playthrough mixes the Knock-108 bot's moves (so deals end by knocks, gin and special hands, and
players drop out and buy back in) with random legal moves. It prints as ``play_k108(K108Recipe(...))``.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st
from strategies import Playthrough, assert_conserved, garbage_moves
from test_properties import _check_events, _check_view, _dump

from games.engine import (
    Card,
    Discard,
    DrawStock,
    GameState,
    IllegalMoveError,
    Knock,
    Pass,
    TakeDiscard,
    apply_move,
    legal_moves,
    move_from_json,
    move_to_json,
    new_game,
    record_from_json,
    record_to_json,
    replay,
    state_from_json,
    state_to_json,
    variant,
    view_for,
)
from games.engine.bots import NormalBot
from games.engine.cards import build_pack
from games.engine.records import make_record
from games.engine.rules import Rules
from games.engine.variants.knock108 import best_declaration, deadwood

OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"full_sequence": True},
    {"joker_limits": "none"},
    {"stake": 2, "special_hand_stakes": 0},
    {"max_players": 3, "full_sequence": True, "joker_limits": "none", "special_hand_stakes": 4},
)
BOT = NormalBot()


@dataclass(frozen=True)
class K108Recipe:
    options: tuple[tuple[str, Any], ...]
    players: int
    seed: int
    first: int | None
    choice_seed: int
    #: The share of moves the bot makes (the rest are random legal moves).
    bot_share: float
    max_moves: int

    @property
    def rules(self) -> Rules:
        return variant("knock108", **dict(self.options))


def play_k108(recipe: K108Recipe) -> Playthrough:
    rules = recipe.rules
    state = new_game(rules, recipe.players, recipe.seed, first=recipe.first)
    rng = random.Random(recipe.choice_seed)
    pt = Playthrough(recipe, rules, state)
    while len(pt.moves) < recipe.max_moves and state.phase != "over":
        seat = state.turn
        offered = legal_moves(state, seat)
        pt.options.append(offered)
        if rng.random() < recipe.bot_share:
            move = BOT.choose_move(view_for(state, seat))
        else:
            move = rng.choice(offered)
        transition = apply_move(state, seat, move)
        state = transition.state
        pt.moves.append((seat, move))
        pt.events.append(transition.events)
        pt.states.append(state)
    if len(pt.options) < len(pt.states):
        pt.options.append(legal_moves(state, state.turn) if state.phase != "over" else [])
    return pt


@st.composite
def k108_recipes(draw: st.DrawFn, max_moves: int = 300, min_moves: int = 0) -> K108Recipe:
    options = draw(st.sampled_from(OPTION_SETS))
    most = int(options.get("max_players", 6))
    players = draw(st.integers(2, most))
    return K108Recipe(
        options=tuple(sorted(options.items())),
        players=players,
        seed=draw(st.integers(0, 2**64)),
        first=draw(st.none() | st.integers(0, players - 1)),
        choice_seed=draw(st.integers(0, 2**32)),
        bot_share=draw(st.sampled_from([0.0, 0.6, 0.9, 1.0])),
        max_moves=draw(st.integers(min_moves, max_moves)),
    )


def k108_playthroughs(max_moves: int = 300, min_moves: int = 0) -> st.SearchStrategy[Playthrough]:
    return k108_recipes(max_moves, min_moves).map(play_k108)


def _stage_events(pt: Playthrough) -> None:
    """Tell Hypothesis which parts of the cycle a playthrough reached (--hypothesis-show-statistics)."""
    stages = {s.cycle.stage for s in pt.states}
    for stage in sorted(stages):
        event(f"stage {stage}")
    for result in pt.final.results:
        event(f"deal ended: {result.ended}")


# --- conservation and legal moves -------------------------------------------------------------------


@given(k108_playthroughs(max_moves=400))
def test_every_physical_card_is_in_exactly_one_place_after_every_move(pt: Playthrough) -> None:
    _stage_events(pt)
    for state in pt.states:
        assert_conserved(state)


@given(k108_playthroughs(max_moves=250))
def test_every_move_legal_moves_lists_is_accepted_and_only_the_seat_to_move_has_moves(
    pt: Playthrough,
) -> None:
    for state, offered in zip(pt.states, pt.options, strict=True):
        if state.phase == "over":
            assert offered == []
            continue
        assert offered, "the seat to move has no legal move"
        assert all(legal_moves(state, seat) == [] for seat in range(state.players) if seat != state.turn)
        stage = state.cycle.stage
        kinds = {type(m) for m in offered}
        if stage == "buy_back":
            assert kinds == {Knock, Pass}
        elif state.phase == "draw":
            assert kinds <= {DrawStock, TakeDiscard, Pass}
            assert (Pass in kinds) == (stage == "exchange")
        else:
            assert Discard in kinds
            assert kinds <= ({Discard, Knock} if stage == "play" else {Discard})
        for move in offered:
            assert_conserved(apply_move(state, state.turn, move).state)


# --- a refused move changes nothing ---------------------------------------------------------------


def _codes(cls: type[IllegalMoveError]) -> set[str]:
    return {cls.code}.union(*(_codes(sub) for sub in cls.__subclasses__()))


KNOWN_CODES = _codes(IllegalMoveError)  # with the knock family's (knock_too_high, discard_taken_card)


def _try_move(state: GameState, seat: int, move: Any) -> tuple[str | None, Any]:
    """Apply; a refusal must carry a known code; an accepted move keeps every card."""
    refusal: IllegalMoveError | None = None
    try:
        transition = apply_move(state, seat, move)
    except IllegalMoveError as error:
        refusal = error
    if refusal is not None:
        assert refusal.code in KNOWN_CODES, refusal.code
        assert json.loads(json.dumps(refusal.to_dict()))["code"] == refusal.code
        return refusal.code, None
    assert seat == state.turn, "a move by the wrong seat was accepted"
    assert_conserved(transition.state)
    return None, transition


def _k108_garbage(state: GameState, data: st.DataObject) -> tuple[int, Any]:
    """Knock-108's own moves at the wrong time or with the wrong cards."""
    hand = list(state.hands[state.turn]) or list(build_pack(2, 4)[:5])
    pack = list(state.rules.pack())
    card = data.draw(st.sampled_from(hand + pack[::7]), label="card")
    move = data.draw(
        st.sampled_from(
            [
                Knock(),
                Knock(card),
                Pass(),
                Knock(None, ((card, card, card),)),
                TakeDiscard(card),
                Discard(card),
            ]
        ),
        label="k108 move",
    )
    seat = data.draw(
        st.sampled_from([state.turn, state.turn, (state.turn + 1) % state.players, -1]), label="seat"
    )
    return seat, move


@given(k108_playthroughs(max_moves=200), st.data())
def test_a_rejected_move_changes_nothing(pt: Playthrough, data: st.DataObject) -> None:
    picks = data.draw(st.lists(st.integers(0, len(pt.states) - 1), min_size=1, max_size=4, unique=True))
    for index in picks:
        state = pt.states[index]
        before = _dump(state)
        tries = [data.draw(garbage_moves(state), label="garbage") for _ in range(6)]
        tries += [_k108_garbage(state, data) for _ in range(6)]
        wrong = [s for s in range(-1, state.players + 1) if s != state.turn]
        tries += [(data.draw(st.sampled_from(wrong)), m) for m in pt.options[index][:4]]
        for seat, move in tries:
            code, _ = _try_move(state, seat, move)
            if state.phase == "over":
                assert code == "game_over"
            elif seat != state.turn:
                assert code == "not_your_turn"
            assert _dump(state) == before, f"refused move {move!r} changed the state"


_MOVE_JSON = st.fixed_dictionaries(
    {"kind": st.sampled_from(["draw", "take", "play", "discard", "pass", "knock", "fly"])},
    optional={
        "card": st.sampled_from(["7H", "7H#1", "JK#2", "KD", "xx", None]),
        "melds": st.sampled_from([[], [["2S", "3S", "4S"]], [["JK", "JK"]], "x"]),
    },
)


@given(k108_playthroughs(max_moves=150), st.lists(_MOVE_JSON, min_size=1, max_size=6))
def test_garbage_json_moves_are_refused_with_a_code_and_change_nothing(
    pt: Playthrough, documents: list[dict[str, Any]]
) -> None:
    state = pt.final
    before = _dump(state)
    for document in documents:
        try:
            move = move_from_json(document)
        except IllegalMoveError:
            continue
        _try_move(state, state.turn, move)
        assert _dump(state) == before


# --- no leaks ---------------------------------------------------------------------------------------


@given(k108_playthroughs(max_moves=250))
def test_no_view_or_event_shows_another_hand_the_stock_or_the_round_seed(pt: Playthrough) -> None:
    _stage_events(pt)
    for index, state in enumerate(pt.states):
        if index % 2 and index != len(pt.states) - 1:
            continue
        views = []
        for seat in [None, *range(state.players)]:
            _check_view(state, seat)
            views.append(view_for(state, seat))
        # What every audience sees of the match is the same: the ledger, who is in, the knock.
        shared = {"stakes", "in_game", "stage", "knock", "buy_back", "last_deal", "scores"}
        assert all({k: v[k] for k in shared} == {k: views[0][k] for k in shared} for v in views)
    for index, events in enumerate(pt.events):
        _check_events(pt.states[index], pt.states[index + 1], events)


# --- round-trips and replays ----------------------------------------------------------------------


@given(k108_playthroughs(max_moves=300))
def test_state_json_round_trips_and_plays_on_the_same(pt: Playthrough) -> None:
    for state in [*pt.states[:: max(1, len(pt.states) // 10)], pt.final]:
        data = state_to_json(state)
        again = state_from_json(json.loads(json.dumps(data)))
        assert state_to_json(again) == data
        assert again == state
    final = pt.final
    again = state_from_json(json.loads(json.dumps(state_to_json(final))))
    if final.phase != "over":
        assert [move_to_json(m) for m in legal_moves(again, again.turn)] == [
            move_to_json(m) for m in legal_moves(final, final.turn)
        ]


@given(k108_playthroughs(max_moves=150))
def test_moves_round_trip_through_json(pt: Playthrough) -> None:
    for move in [m for offered in pt.options for m in offered] + [m for _, m in pt.moves]:
        document = move_to_json(move)
        assert move_from_json(json.loads(json.dumps(document))) == move


@given(k108_playthroughs(max_moves=500, min_moves=100))
def test_a_record_replays_to_the_identical_state(pt: Playthrough) -> None:
    recipe = pt.recipe
    record = make_record(pt.rules, recipe.players, recipe.seed, pt.moves, first=recipe.first)
    document = json.loads(json.dumps(record_to_json(record)))
    assert state_to_json(replay(record_from_json(document))) == state_to_json(pt.final)
    assert state_to_json(replay(document)) == state_to_json(pt.final)


# --- the variant's own invariants -------------------------------------------------------------------


def _check_books(state: GameState) -> None:
    cycle = state.cycle
    stake = int(state.rules.options["stake"])
    # Chips only move: the seats' net plus the pool is always zero, and the ledger says how.
    assert sum(cycle.chips) + cycle.pool == 0
    chips = [0] * state.players
    pool = 0
    for entry in cycle.ledger:
        assert entry.amount > 0
        if entry.source == "pool":
            pool -= entry.amount
        else:
            chips[entry.source] -= entry.amount
        if entry.target == "pool":
            pool += entry.amount
        else:
            chips[entry.target] += entry.amount
        assert entry.amount % (stake // 2) == 0 or entry.kind == "pool"
    assert (chips, pool) == (list(cycle.chips), cycle.pool)
    assert pool >= 0
    if state.phase == "over":
        assert pool == 0
    # The score lines carry the chips of their deal; what is not in a line yet belongs to the deal
    # being played (a buy-back before it).
    scored = {result.round_no for result in state.results}
    in_lines = [sum(r.lines[s].chips or 0 for r in state.results) for s in range(state.players)]
    pending = [0] * state.players
    for entry in cycle.ledger:
        if entry.round not in scored:
            assert entry.kind in ("entry", "buy_back")
            pending[entry.source] -= entry.amount
    assert [a + b for a, b in zip(in_lines, pending, strict=True)] == list(cycle.chips)
    # Who is in: nobody over the limit; a seat out holds no cards.
    for seat, active in enumerate(cycle.active):
        if active:
            assert state.totals[seat] <= 100
        elif state.phase != "over":  # the last deal's hands stay as they were at the end
            assert state.hands[seat] == ()


@given(k108_playthroughs(max_moves=600, min_moves=200))
def test_chips_balance_and_score_lines_add_up_to_the_records(pt: Playthrough) -> None:
    _stage_events(pt)
    for state in pt.states:
        _check_books(state)
    for index in range(len(pt.moves)):
        before, after = pt.states[index], pt.states[index + 1]
        if len(after.results) == len(before.results):
            continue
        result = after.results[-1]
        assert result.round_no == before.round_no
        # The deal's lines add the deal's changes (and any buy-back jump) to the records.
        for line in result.lines:
            assert result.totals[line.seat] == before.totals[line.seat] + line.points - _jump(
                before, line.seat
            )
        if result.ended == "void":
            assert all(line.hand == 0 and line.bonus == 0 for line in result.lines)
            assert after.first == before.first  # K108-Q16: the same dealer deals again
            continue
        declarer = result.winner
        assert declarer is not None
        for line in result.lines:
            if not before.cycle.active[line.seat]:
                assert line.points == _jump(before, line.seat) == 0
            elif line.seat == declarer:
                assert line.hand <= 5
                assert line.bonus in (0, -10, -25, -40)
            else:
                assert line.hand == _loose(after.rules, result.hands[line.seat])
        # Over 100: out (K108-25, K108-Q13).
        for seat, total in enumerate(result.totals):
            if before.cycle.active[seat]:
                assert after.cycle.active[seat] == (total <= 100) or after.phase == "over"
        if after.phase == "over":
            still_in = [s for s in range(after.players) if after.cycle.active[s]]
            assert len(still_in) <= 1
            if still_in:
                assert after.winners == tuple(still_in)
            else:
                losers = [s for s in range(after.players) if before.cycle.active[s]]
                best = min(result.totals[s] for s in losers)
                assert after.winners == tuple(s for s in losers if result.totals[s] == best)


def _jump(state: GameState, seat: int) -> int:
    carry = state.cycle.carry
    return carry[seat].points if carry else 0


def _loose(rules: Rules, cards: tuple[Card, ...]) -> int:
    from games.engine.variants.knock108 import special_hand

    if special_hand(rules, cards) is not None:
        return 0
    return brute_deadwood(rules, cards)


# --- loose points against an independent brute force -----------------------------------------------

_ORDER = "23456789TJQKA"


def _is_meld(cards: tuple[Card, ...], limits: bool) -> bool:
    """Written from K108-10, Q2, Q3 and Q5 alone (not from melds.py)."""
    size = len(cards)
    naturals = [c for c in cards if not c.is_joker]
    jokers = size - len(naturals)
    if size < 3 or not naturals:
        return False
    one_rank = len({c.rank for c in naturals}) == 1
    distinct_suits = len({c.suit for c in naturals}) == len(naturals)
    # A set: 3 or 4 cards of different suits, with the Polish joker limits (K108-Q3, K108-Q5).
    if one_rank and size <= 4 and distinct_suits and (not limits or jokers <= (1 if size == 3 else 2)):
        return True
    if len({c.suit for c in naturals}) != 1:
        return False
    for start in range(1, 16 - size):
        end = start + size - 1
        if start == 1 and end == 14:
            continue
        places = set()
        for card in naturals:
            place = (1 if start == 1 else 14) if card.rank == "A" else _ORDER.index(card.rank) + 2
            if not start <= place <= end or place in places:
                break
            places.add(place)
        else:
            holes = [p for p in range(start, end + 1) if p not in places]
            if limits and any(b - a == 1 for a, b in itertools.pairwise(holes)):
                continue
            return True
    return False


def brute_deadwood(rules: Rules, cards: tuple[Card, ...]) -> int:
    """The least loose value over every way to split ``cards`` into melds and loose cards."""
    limits = rules.options["joker_limits"] == "remik"
    values = [rules.hand_value(c) for c in cards]
    count = len(cards)

    @cache
    def best(mask: int) -> int:
        if mask == 0:
            return 0
        first = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << first)
        result = values[first] + best(rest)
        sub = rest
        while sub:
            if bin(sub).count("1") >= 2:
                group = tuple(cards[i] for i in range(count) if (sub | (1 << first)) >> i & 1)
                if _is_meld(group, limits):
                    result = min(result, best(rest & ~sub))
            sub = (sub - 1) & rest
        return result

    return best((1 << count) - 1)


@st.composite
def dense_hands(draw: st.DrawFn, size: int) -> tuple[Card, ...]:
    """Hands from a few neighbouring ranks and suits (both copies), with 0-4 jokers."""
    pack = build_pack(2, 4)
    start = draw(st.integers(0, 8))
    ranks = set(("A" + _ORDER)[start : start + 5])
    suits = set(draw(st.lists(st.sampled_from("SHDC"), min_size=1, max_size=4, unique=True)))
    pool = [c for c in pack if not c.is_joker and c.rank in ranks and c.suit in suits]
    jokers = draw(st.integers(0, min(4, size)))
    if draw(st.booleans()) or len(pool) < size - jokers:
        pool = [c for c in pack if not c.is_joker]
    naturals = draw(
        st.lists(st.sampled_from(pool), min_size=size - jokers, max_size=size - jokers, unique=True)
    )
    return tuple(draw(st.permutations([*naturals, *[c for c in pack if c.is_joker][:jokers]])))


@given(st.sampled_from(["remik", "none"]), st.integers(3, 10).flatmap(dense_hands))
def test_loose_points_are_the_minimum_over_every_arrangement(limits: str, hand: tuple[Card, ...]) -> None:
    rules = variant("knock108", joker_limits=limits)
    assert deadwood(rules, hand) == brute_deadwood(rules, hand)
    assert rules.hand_points(hand) == brute_deadwood(rules, hand)


@given(st.sampled_from(["remik", "none"]), dense_hands(11))
def test_a_knock_is_legal_exactly_when_some_discard_leaves_five_or_fewer(
    limits: str, hand: tuple[Card, ...]
) -> None:
    """Not from one best arrangement of the eleven cards: the minimum over the discards."""
    from games.engine.variants.knock108 import special_hand

    rules = variant("knock108", joker_limits=limits, full_sequence=True)
    by_discard = []
    for index in range(11):
        rest = hand[:index] + hand[index + 1 :]
        by_discard.append(0 if special_hand(rules, rest) else brute_deadwood(rules, rest))
    found = best_declaration(rules, hand)
    assert (found is not None) == (min(by_discard) <= 5)
    if found is not None:
        assert found[1].points == min(by_discard)


def test_the_brute_force_referee_agrees_with_the_rules_on_known_hands() -> None:
    rules = variant("knock108")
    from games.engine import parse_cards

    assert brute_deadwood(rules, parse_cards("KH AH 2H")) == 22
    assert brute_deadwood(rules, parse_cards("QS KS AS AH 2H 3H")) == 0
    assert brute_deadwood(rules, parse_cards("AH JK JK")) == 50
    assert brute_deadwood(variant("knock108", joker_limits="none"), parse_cards("AH JK JK")) == 0
    assert Counter(c.face for c in parse_cards("7H 7H")) == Counter({"7H": 2})
