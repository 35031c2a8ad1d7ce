"""The engine's invariants over reachable games of every variant (``variant_names()``, STYLE.md §2.8):
conservation, valid melds on the table, legal means accepted (and only the seat to move has moves),
a refused move changes nothing, no hidden card or seed in a view or an event, the same public facts
for every audience, state and move JSON round-trips, replays, and every round scored as the rules
say, whatever the family of turn cycles the variant plays (the rummy cycle, the gin family,
Knock-108).

Every test draws a playthrough of one variant: a deal plus legal moves (``strategies.playthroughs``;
in the gin family and Knock-108 mixed with the normal bot's moves, so deals reach knocks, replies,
gin, undercuts, buy-backs and special hands). A falsifying example prints as ``play(Recipe(...))``,
which rebuilds the same game. Where the families differ, the rules make them differ: which kinds of
move a step takes, and which cards in a hand are public (gin's up-card, the card just taken from the
face-up pile, a knocker's hand laid face up, GIN-15).

Each property runs the profile's examples spread over the seven variants (``PER_VARIANT``): as many
examples in all as the three suites this one replaced ran.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from games.engine import (
    Card,
    Discard,
    DrawStock,
    GameState,
    IllegalMoveError,
    Knock,
    Pass,
    Play,
    TakeDiscard,
    Transition,
    apply_move,
    atu_of,
    end_match,
    errors,
    events_for,
    legal_moves,
    move_from_json,
    move_to_json,
    record_from_json,
    record_to_json,
    replay,
    state_from_json,
    state_to_json,
    variant_names,
    view_for,
)
from games.engine.deal import deal_seed
from games.engine.gin.rules import GinRules
from games.engine.melds import read_meld
from games.engine.records import make_record
from games.engine.rules import family_of
from tests.engine.strategies import (
    CARD_ID_RE,
    Playthrough,
    assert_conserved,
    card_ids_in,
    choose_move,
    garbage_moves,
    ids,
    is_composite,
    odd_moves,
    plausible_moves,
    playthroughs,
    scenario_playthroughs,
)
from tests.engine.test_gin_deadwood import brute_deadwood as gin_brute_deadwood
from tests.engine.test_gin_deadwood import brute_with_layoffs as gin_brute_with_layoffs
from tests.engine.test_knock108_deadwood import brute_deadwood as k108_brute_deadwood

VARIANTS = variant_names()
#: The profile's examples (``conftest.py``) spread over the variants: three suites (the rummy
#: cycle's, gin's, Knock-108's) ran the profile's count each; this one runs as many in all.
PER_VARIANT = settings(max_examples=max(2, round(settings.default.max_examples * 3 / len(VARIANTS))))
each_variant = pytest.mark.parametrize("name", VARIANTS)


def _all_codes(cls: type[IllegalMoveError]) -> set[str]:
    out = {cls.code}
    for sub in cls.__subclasses__():
        out |= _all_codes(sub)
    return out


KNOWN_CODES = _all_codes(errors.IllegalMoveError)


def _dump(state: GameState) -> str:
    return json.dumps(state_to_json(state), sort_keys=True)


def _label(pt: Playthrough) -> None:
    """Tell Hypothesis which parts of the cycle a playthrough reached (--hypothesis-show-statistics)."""
    final = pt.final
    ends = Counter(r.ended for r in final.results)
    event(f"{pt.recipe.variant}: over={final.phase == 'over'} ended={sorted(ends)}")
    family = pt.rules.family
    if family == "gin":
        event(f"{pt.recipe.variant}: reply={any(s.cycle.step == 'reply' for s in pt.states)}")
    elif family == "knock108":
        for stage in sorted({s.cycle.stage for s in pt.states}):
            event(f"knock108: stage {stage}")


# --- conservation ------------------------------------------------------------------------------


@each_variant
@PER_VARIANT
@given(data=st.data())
def test_every_physical_card_is_in_exactly_one_place_after_every_move(name: str, data: st.DataObject) -> None:
    moves = {"rummy": 150, "gin": 200, "knock108": 400}
    pt = data.draw(
        playthroughs(name, max_moves=moves, min_moves={"gin": 50}, prefer_play=st.sampled_from([0.3, 0.9]))
    )
    _label(pt)
    for state in pt.states:
        assert_conserved(state)
        assert len(state.hands) == state.players


@each_variant
@PER_VARIANT
@given(data=st.data())
def test_every_meld_on_the_table_is_a_valid_meld_with_its_jokers_declared(
    name: str, data: st.DataObject
) -> None:
    moves = {"rummy": 150, "gin": 200, "knock108": 300}
    pt = data.draw(playthroughs(name, max_moves=moves, prefer_play=st.just(0.9)))
    for state in pt.states:
        for table_meld in state.melds:
            cards = table_meld.cards
            assert all(c.stands_for is not None for c in cards if c.is_joker), str(table_meld.meld)
            reread = read_meld(cards, state.rules.policy)
            assert reread.kind == table_meld.meld.kind
            assert [c.stands_for for c in reread.cards] == [c.stands_for for c in cards]
            assert len(table_meld.placed_by) == len(cards)
            assert all(0 <= seat < state.players for seat in table_meld.placed_by)


# --- legal means accepted ----------------------------------------------------------------------


def _check_kinds_offered(state: GameState, offered: list[Any]) -> None:
    """The kinds of move the step takes, by the family's rules."""
    kinds = {type(m) for m in offered}
    hand = state.hands[state.turn]
    family = state.rules.family
    if family == "gin":
        step = state.cycle.step
        if step == "offer":  # GIN-7/8
            assert kinds <= {TakeDiscard, Pass}
        elif step == "reply":  # GIN-16..18
            assert kinds <= {Pass, Play}
        elif state.phase == "draw":  # GIN-9
            assert kinds <= {DrawStock, TakeDiscard}
        else:  # every card but the one just taken (GIN-Q5), or a knock
            assert kinds <= {Discard, Knock}
            taken = state.cycle.taken
            assert {Discard(c) for c in hand if c != taken} == {m for m in offered if isinstance(m, Discard)}
    elif family == "knock108":
        stage = state.cycle.stage
        if stage == "buy_back":  # K108-26
            assert kinds == {Knock, Pass}
        elif state.phase == "draw":
            assert kinds <= {DrawStock, TakeDiscard, Pass}
            assert (Pass in kinds) == (stage == "exchange")
        else:
            assert Discard in kinds
            assert kinds <= ({Discard, Knock} if stage == "play" else {Discard})
    elif state.phase == "draw":
        assert DrawStock in kinds
        assert kinds <= {DrawStock, TakeDiscard}
    else:
        assert {Discard(c) for c in hand} <= set(offered)


@each_variant
@PER_VARIANT
@given(data=st.data())
def test_every_move_legal_moves_lists_is_accepted_and_only_the_seat_to_move_has_moves(
    name: str, data: st.DataObject
) -> None:
    moves = {"rummy": 100, "gin": 200, "knock108": 250}
    pt = data.draw(playthroughs(name, max_moves=moves, min_moves={"gin": 50}))
    for state, offered in zip(pt.states, pt.options, strict=True):
        if state.phase == "over":
            assert offered == []
            continue
        assert offered, "the seat to move has no legal move"
        others = [seat for seat in range(state.players) if seat != state.turn]
        assert all(legal_moves(state, seat) == [] for seat in others)
        _check_kinds_offered(state, offered)
        for move in offered:
            transition = apply_move(state, state.turn, move)
            assert_conserved(transition.state)
            assert transition.state.moves_played == state.moves_played + 1


# --- a refused move changes nothing ------------------------------------------------------------


def _check_code(error: IllegalMoveError) -> None:
    assert isinstance(error.code, str)
    assert error.code, f"empty code for {error!r}"
    assert error.code in KNOWN_CODES, error.code
    assert json.loads(json.dumps(error.to_dict()))["code"] == error.code


def _try_move(state: GameState, seat: int, move: Any) -> tuple[str | None, Transition | None]:
    """Apply; on refusal check the error and return its code, else check and return the transition."""
    try:
        transition = apply_move(state, seat, move)
    except IllegalMoveError as error:
        refusal = error
    else:
        refusal = None
    if refusal is not None:
        _check_code(refusal)
        return refusal.code, None
    assert seat == state.turn, "a move by the wrong seat was accepted"
    assert_conserved(transition.state)
    return None, transition


@each_variant
@PER_VARIANT
@given(data=st.data())
def test_a_rejected_move_changes_nothing(name: str, data: st.DataObject) -> None:
    moves = {"rummy": 80, "gin": 150, "knock108": 200}
    pt = data.draw(playthroughs(name, max_moves=moves, min_moves={"gin": 37}))
    picks = data.draw(st.lists(st.integers(0, len(pt.states) - 1), min_size=1, max_size=4, unique=True))
    for index in picks:
        state = pt.states[index]
        before = _dump(state)
        tries = [data.draw(garbage_moves(state), label="garbage") for _ in range(6)]
        tries += [data.draw(odd_moves(state), label="pass or knock") for _ in range(6)]
        # Moves the seat to move could make, made by another seat.
        wrong = [s for s in range(-1, state.players + 1) if s != state.turn]
        tries += [(data.draw(st.sampled_from(wrong)), m) for m in pt.options[index][:4]]
        for seat, move in tries:
            code, _ = _try_move(state, seat, move)
            if state.phase == "over":
                assert code == "game_over"
            elif seat != state.turn:
                assert code == "not_your_turn"
            assert _dump(state) == before, f"refused move {move!r} changed the state"


_JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 12),
    st.sampled_from(
        ["", "7H", "7H#1", "7H#2", "10H", "JK", "JK#1(8H)", "JK(QD)", "xx", "7H 8H 9H", "AS#9", "KD"]
    ),
)
_JSON = st.recursive(
    _JSON_LEAVES,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(["meld", "cards", "card", "kind"]), children, max_size=3)
    ),
    max_leaves=10,
)
_MOVE_JSON = st.fixed_dictionaries(
    {"kind": st.sampled_from(["draw", "take", "play", "discard", "pass", "knock", "fly"]) | _JSON},
    optional={"card": _JSON, "melds": _JSON, "layoffs": _JSON, "exchanges": _JSON},
)


@each_variant
@PER_VARIANT
@given(data=st.data(), documents=st.lists(_MOVE_JSON, min_size=1, max_size=6))
def test_garbage_json_moves_are_refused_with_a_code_and_change_nothing(
    name: str, data: st.DataObject, documents: list[dict[str, Any]]
) -> None:
    pt = data.draw(playthroughs(name, max_moves={"rummy": 60, "gin": 150, "knock108": 150}))
    state = pt.final
    before = _dump(state)
    for document in documents:
        try:
            move = move_from_json(document)
        except IllegalMoveError as error:
            unreadable: IllegalMoveError | None = error
        else:
            unreadable = None
        if unreadable is not None:
            _check_code(unreadable)
            continue
        _try_move(state, state.turn, move)
        assert _dump(state) == before


# --- no leaks ----------------------------------------------------------------------------------


def _public_in_hands(state: GameState) -> set[str]:
    """Card ids in a hand whose place is public: in the gin family the up-card, the card just taken
    from the face-up pile and a knocker's hand, laid face up (GIN-15); nothing elsewhere."""
    if state.rules.family != "gin":
        return set()
    cycle = state.cycle
    public = {str(card) for card in (cycle.upcard, cycle.taken) if card is not None}
    if cycle.knock is not None:
        public |= set(ids(state.hands[cycle.knock.seat]))
    return public


def _check_view(state: GameState, seat: int | None) -> dict[str, Any]:
    view = view_for(state, seat)
    text = json.dumps(view)
    assert json.loads(text) == view, "the view is not plain JSON"
    # Past rounds' hands are public once scored; the rest of the view must hold no hidden card.
    assert view["scores"]["rounds"] == [r.to_json() for r in state.results]
    # Bought-back jokers (RMI-42) went publicly from the table to the buyer's hand: their ids are public.
    assert view["consumed_jokers"] == [str(c) for c in getattr(state.cycle, "consumed", ())]
    public_part = {**view, "scores": {**view["scores"], "rounds": None}, "consumed_jokers": None}
    shown = card_ids_in(json.dumps(public_part))
    allowed = _public_in_hands(state)
    for other in range(state.players):
        if other == seat:
            continue
        leaked = (shown & set(ids(state.hands[other]))) - allowed
        assert not leaked, f"seat {seat} sees seat {other}'s cards {sorted(leaked)}"
    leaked = shown & set(ids(state.stock))
    assert not leaked, f"seat {seat} sees stock cards {sorted(leaked)}"
    if state.rules.family == "gin" and state.cycle.knock is not None:
        assert "best" not in json.dumps(view["gin"]["knock"]), "the defender's optimum is in a view"
    assert state.secret.hex() not in text, "the match secret is in a view"
    seed = deal_seed(state.secret, state.round_no).hex()
    if state.phase != "over":
        assert seed not in text, "the seed of the round being played is in a view"
        assert "revealed_seed" not in view
    else:
        assert view["revealed_seed"] == seed
    if seat is None:
        assert view["hand"] is None
    else:
        assert view["hand"] == [str(c) for c in state.hands[seat]]
    assert view["hand_sizes"] == [len(h) for h in state.hands]
    assert view["stock_size"] == len(state.stock)
    return view


#: What differs between the audiences' views: whose view it is, the own hand, the own options.
PRIVATE_KEYS = frozenset({"seat", "hand", "you"})


def _check_views(state: GameState) -> None:
    """Every audience's view, and what every audience sees of the match is the same."""
    views = [_check_view(state, seat) for seat in [None, *range(state.players)]]
    shared = [{k: v for k, v in view.items() if k not in PRIVATE_KEYS} for view in views]
    assert all(part == shared[0] for part in shared)


def _check_events(before: GameState, after: GameState, events: tuple[Any, ...]) -> None:
    """Events other seats see reveal no hidden card, except a finished round's public hands."""
    public_before = set(ids(before.discard)) | {c.id for m in before.melds for c in m.cards}
    atu = atu_of(before)
    if atu is not None:
        public_before.add(atu.id)
    public_before |= _public_in_hands(before) | _public_in_hands(after)
    shown_to: dict[int | None, set[str]] = {}
    for seat in [None, *range(after.players)]:
        visible = [e for e in events_for(events, seat) if e["kind"] != "round_over"]
        shown_to[seat] = set(CARD_ID_RE.findall(json.dumps(visible)))
    if len(after.results) > len(before.results):
        return  # a new deal: the old round's cards are public, the new hands unrelated to events
    for seat, shown in shown_to.items():
        for other in range(after.players):
            if other == seat:
                continue
            hidden = set(ids(after.hands[other])) - public_before
            assert not shown & hidden, (
                f"events tell seat {seat} seat {other}'s cards {sorted(shown & hidden)}"
            )
        assert not shown & set(ids(after.stock)), f"events tell seat {seat} stock cards"


@each_variant
@PER_VARIANT
@given(data=st.data())
def test_no_view_or_event_shows_another_hand_the_stock_or_the_round_seed(
    name: str, data: st.DataObject
) -> None:
    pt = data.draw(
        playthroughs(name, max_moves={"rummy": 60, "gin": 200, "knock108": 250}, min_moves={"gin": 50})
    )
    _label(pt)
    # Views run the opening search (the rummy cycle) or the deadwood (gin) for every seat: every
    # second state is plenty, with every state of a gin reply and the last.
    last = len(pt.states) - 1
    for index, state in enumerate(pt.states):
        reply = state.rules.family == "gin" and state.cycle.step == "reply"
        if index % 2 and index != last and not reply:
            continue
        _check_views(state)
    for index, events in enumerate(pt.events):
        _check_events(pt.states[index], pt.states[index + 1], events)
    if pt.final.phase != "over":
        # A room closed mid-round (RMI-Q19): the match is over, the hands are still private.
        _check_views(end_match(pt.final).state)


# --- round-trips -------------------------------------------------------------------------------


@each_variant
@PER_VARIANT
@given(data=st.data())
def test_state_json_round_trips_and_plays_on_the_same(name: str, data: st.DataObject) -> None:
    pt = data.draw(
        playthroughs(name, max_moves={"rummy": 120, "gin": 200, "knock108": 300}, min_moves={"gin": 50})
    )
    for state in [*pt.states[:: max(1, len(pt.states) // 10)], pt.final]:
        document = state_to_json(state)
        again = state_from_json(json.loads(json.dumps(document)))
        assert state_to_json(again) == document
        assert again == state
    # The decoded state plays on exactly as the original.
    final = pt.final
    again = state_from_json(json.loads(json.dumps(state_to_json(final))))
    if final.phase != "over":
        offered = legal_moves(final, final.turn)
        assert [move_to_json(m) for m in legal_moves(again, again.turn)] == [move_to_json(m) for m in offered]
        for move in offered:
            a = apply_move(final, final.turn, move).state
            b = apply_move(again, again.turn, move_from_json(move_to_json(move))).state
            assert state_to_json(a) == state_to_json(b)


@each_variant
@PER_VARIANT
@given(data=st.data())
def test_moves_round_trip_through_move_to_json_and_move_from_json(name: str, data: st.DataObject) -> None:
    pt = data.draw(
        playthroughs(name, max_moves={"rummy": 80, "gin": 200, "knock108": 150}, min_moves={"gin": 50})
    )
    moves = [m for offered in pt.options for m in offered] + [m for _, m in pt.moves]
    if pt.final.phase != "over":
        moves += [data.draw(garbage_moves(pt.final))[1] for _ in range(5)]
        moves += [data.draw(odd_moves(pt.final))[1] for _ in range(5)]
    for move in moves:
        document = move_to_json(move)
        again = move_from_json(json.loads(json.dumps(document)))
        assert again == move
        assert move_to_json(again) == document


@each_variant
@PER_VARIANT
@given(data=st.data())
def test_a_record_replays_to_the_identical_state(name: str, data: st.DataObject) -> None:
    pt = data.draw(
        playthroughs(
            name,
            max_moves={"rummy": 250, "gin": 400, "knock108": 500},
            min_moves={"gin": 100, "knock108": 100},
            prefer_play=st.sampled_from([0.5, 0.9]),
        )
    )
    recipe = pt.recipe
    players = list(recipe.players) if isinstance(recipe.players, tuple) else recipe.players
    record = make_record(pt.rules, players, recipe.seed, pt.moves, first=recipe.first)
    document = json.loads(json.dumps(record_to_json(record)))
    replayed = replay(record_from_json(document))
    assert state_to_json(replayed) == state_to_json(pt.final)
    assert state_to_json(replay(document)) == state_to_json(pt.final)


# --- scores: the rummy family --------------------------------------------------------------------


def r51_hand_value(card: Card, joker_penalty: int) -> int:
    """R51-7 with R51-Q2: pips at face value, J Q K 10, ace 11, joker the table's penalty."""
    if card.is_joker:
        return joker_penalty
    if card.rank == "A":
        return 11
    return 10 if card.rank in "TJQK" else int(card.rank)


def remi_hand_value(card: Card) -> int:
    """RMI-10..12 with RMI-Q4: 2-9 5, T-K 10, ace 25, joker 50."""
    if card.is_joker:
        return 50
    if card.rank == "A":
        return 25
    return 10 if card.rank in "TJQK" else 5


def remi_table_value(rank: str, kind: str, position: int) -> int:
    """RMI-10/11: what a place of a formation counts (ace 25 in a set, 5 low, 10 high)."""
    if rank == "A":
        return 25 if kind == "set" else (5 if position == 1 else 10)
    return 10 if rank in "TJQK" else 5


_RUN_RANKS = {p: r for p, r in enumerate("A23456789TJQKA", start=1)}


def remi_table_points(state: GameState) -> list[int]:
    """Each seat's table points, from who placed each card of each meld (RMI-36, RMI-41, RMI-54)."""
    points = [0] * state.players
    for table_meld in state.melds:
        meld = table_meld.meld
        for offset, (card, placer) in enumerate(zip(meld.cards, table_meld.placed_by, strict=True)):
            if meld.kind == "set":
                value = remi_table_value(meld.rank, "set", 0)
            else:
                position = meld.start + offset
                if not card.is_joker:
                    assert _RUN_RANKS[position] == card.rank
                    assert card.suit == meld.suit
                value = remi_table_value(_RUN_RANKS[position], "run", position)
            points[placer] += value
    return points


def _turn_start(pt: Playthrough, index: int) -> int:
    """Index of the state at the start of the turn in which ``moves[index]`` was made."""
    seat = pt.moves[index][0]
    rounds = len(pt.states[index].results)
    j = index
    while j > 0 and pt.moves[j - 1][0] == seat and len(pt.states[j - 1].results) == rounds:
        j -= 1
    return j


def _round_start(pt: Playthrough, index: int) -> int:
    rounds = len(pt.states[index].results)
    return next(k for k in range(index + 1) if len(pt.states[k].results) == rounds)


def _check_round_end_common(pt: Playthrough, index: int) -> None:
    pre, post = pt.states[index], pt.states[index + 1]
    seat, move = pt.moves[index]
    result = post.results[-1]
    assert len(post.results) == len(pre.results) + 1
    assert result.round_no == pre.round_no
    assert result.first == pre.first
    if result.ended == "went_out" and not isinstance(move, Discard):
        # R500-Q4: every card melded or laid off, no discard.
        assert pre.rules.go_out_by_melding
        assert result.winner == seat
        assert isinstance(move, (Play, TakeDiscard))
        assert result.hands[seat] == ()
    elif result.ended == "went_out":
        assert result.winner == seat
        assert isinstance(move, Discard)
        assert len(pre.hands[seat]) == 1
        assert move.card.matches(pre.hands[seat][0])
        assert result.hands[seat] == ()
    elif isinstance(move, Discard):
        # Remik 40: after this discard nobody could ever go out (Rules.end_when_stuck).
        assert pre.rules.end_when_stuck
        assert (result.ended, result.winner) == ("void", None)
        assert all(len(hand) <= 2 for hand in result.hands)
    else:
        assert result.winner is None
        assert isinstance(move, DrawStock)
        assert not pre.stock
    for other in range(pre.players):
        if other == seat and result.ended == "void" and isinstance(move, Discard):
            assert ids(result.hands[other]) == [c.id for c in pre.hands[other] if not move.card.matches(c)]
        elif other != result.winner:
            assert ids(result.hands[other]) == ids(pre.hands[other])
    # Totals are the running sum of the lines.
    assert [line.seat for line in result.lines] == list(range(pre.players))
    assert list(result.totals) == [t + line.points for t, line in zip(pre.totals, result.lines, strict=True)]
    assert post.totals == result.totals
    sums: Counter[int] = Counter()
    for past in post.results:
        for line in past.lines:
            sums[line.seat] += line.points
    assert [sums[s] for s in range(pre.players)] == list(post.totals)
    # Then either the match is over or the next round is dealt to the next seat.
    rules = pre.rules
    if post.phase == "over":
        best = min(post.totals) if rules.lower_wins else max(post.totals)
        assert post.winners == tuple(s for s, t in enumerate(post.totals) if t == best)
    else:
        assert post.round_no == pre.round_no + 1
        assert post.first == (pre.first + 1) % pre.players
        assert post.turn == post.first
        # R500-6, R40-Q13: the first player draws; Remik 51 and Remi: it holds the extra card.
        assert post.phase == ("draw" if rules.first_player_draws else "play")
        assert [len(h) for h in post.hands] == list(rules.hand_sizes(pre.players, post.first))
        assert post.melds == ()
        assert len(post.discard) == (1 if rules.up_card else 0)  # R500-6: the up-card


def _check_r51_round(pt: Playthrough, index: int) -> None:
    """R51-45..48, R51-51/52, R51-Q9..Q11: hand penalties, doubled after a one-go finish."""
    pre, post = pt.states[index], pt.states[index + 1]
    result = post.results[-1]
    options = pre.rules.options
    assert result.ended in ("went_out", "void")
    if result.ended == "void":
        assert len(pre.discard) <= 1  # R51-Q9: nothing to rebuild the stock from
        assert all(line.points == 0 for line in result.lines)
    else:
        start = pt.states[_turn_start(pt, index)]
        one_go = not start.cycle.opened[result.winner]  # R51-45: had laid nothing before this turn
        for line in result.lines:
            if line.seat == result.winner:
                assert line.points == 0  # R51-47
            else:
                hand = sum(r51_hand_value(c, options["joker_penalty"]) for c in result.hands[line.seat])
                assert line.points == hand * (2 if one_go else 1), (line, one_go)  # R51-46/48
    limit = options["penalty_limit"]
    over = any(t > limit for t in post.totals)  # R51-51 / R51-Q10
    if over and options["lowest_tie"] == "extra_round":
        over = list(post.totals).count(min(post.totals)) == 1  # R51-Q11
    assert (post.phase == "over") == over


def _check_remi_round(pt: Playthrough, index: int) -> None:
    """RMI-15: table minus hand, the going-out bonus, the atu pair and doubling, -100 unopened."""
    pre, post = pt.states[index], pt.states[index + 1]
    result = post.results[-1]
    assert result.ended in ("went_out", "stock_out")
    atu = pre.cycle.atu
    assert atu is not None
    multiplier = 2 if atu.is_joker or atu.rank == "A" else 1  # RMI-48
    dealt = pt.states[_round_start(pt, index)].hands
    table = remi_table_points(pre)
    joker_out = False
    if result.winner is not None:
        # RMI-43 / RMI-Q14: a new formation with a joker in the going-out turn, or a joker discarded last.
        turn_moves = [m for _, m in pt.moves[_turn_start(pt, index) : index + 1]]
        for move in turn_moves:
            play = move.play if isinstance(move, TakeDiscard) else move
            if is_composite(move) and any(c.is_joker for meld in play.melds for c in meld):
                joker_out = True
        last = pt.moves[index][1]
        assert isinstance(last, Discard)
        joker_out = joker_out or pre.hands[result.winner][0].is_joker
    for line in result.lines:
        seat = line.seat
        if not pre.cycle.opened[seat] and seat != result.winner:
            expected = -100 * multiplier  # RMI-58 with RMI-Q16
        else:
            hand = sum(remi_hand_value(c) for c in result.hands[seat])
            bonus = 0
            if seat == result.winner:
                bonus = 100 if joker_out else 50  # RMI-55
            twins = sum(1 for c in dealt[seat] if c.face == atu.face and c.id != atu.id)
            expected = (table[seat] - hand + bonus + 50 * twins) * multiplier  # RMI-47, RMI-59
        assert line.points == expected, (line, expected)
    rounds, target = pre.rules.options["rounds"], pre.rules.options["target"]
    if rounds is not None:
        over = len(post.results) >= rounds
    elif target is not None:
        over = max(post.totals) >= target
    else:
        over = False
    assert (post.phase == "over") == over


def r500_value(rank: str) -> int:
    """R500-13: J Q K and T 10, the ace 1, the rest their number."""
    return 10 if rank in "TJQK" else (1 if rank == "A" else int(rank))


def _check_r500_round(pt: Playthrough, index: int) -> None:
    """R500-12..18, R500-Q4, R500-Q7/Q8: table minus hand to each placer, no bonus."""
    pre, post = pt.states[index], pt.states[index + 1]
    result = post.results[-1]
    assert result.ended in ("went_out", "stock_out")  # R500-15, R500-Q7
    seat, move = pt.moves[index]
    # Table points from who placed each card, before the deal-ending move ...
    table = [0] * pre.players
    for table_meld in pre.melds:
        for card, placer in zip(table_meld.cards, table_meld.placed_by, strict=True):
            table[placer] += r500_value(card.rank)
    # ... plus what that move put down (a play or take that emptied the hand, R500-Q4).
    if isinstance(move, (Play, TakeDiscard)):
        assert not pre.hands[seat] or result.hands[seat] == ()
        for event_ in pt.events[index]:
            if event_.kind in ("melded", "laid_off"):
                assert event_.data["seat"] == seat
                table[seat] += sum(r500_value(text[0]) for text in event_.data["cards"])
    for line in result.lines:
        hand = sum(r500_value(c.rank) for c in result.hands[line.seat])
        assert (line.table, line.hand) == (table[line.seat], hand), line
        assert line.points == table[line.seat] - hand  # R500-12/15/16: no bonus
    target = pre.rules.options["target"]
    best = max(post.totals)
    over = best > target and list(post.totals).count(best) == 1  # R500-17/18, R500-Q8
    assert (post.phase == "over") == over


def r40_hand_value(card: Card) -> int:
    """R40-6 with R40-Q4: pips their number, J Q K 10, the ace 11, a joker 15."""
    if card.is_joker:
        return 15
    return 11 if card.rank == "A" else (10 if card.rank in "TJQK" else int(card.rank))


def _check_r40_round(pt: Playthrough, index: int) -> None:
    """R40-27..29, R40-Q11/Q12/Q15/Q16: hand penalties plus 25 after a Remik, the pool split."""
    pre, post = pt.states[index], pt.states[index + 1]
    result = post.results[-1]
    options = pre.rules.options
    pool = options["stake"] * pre.players
    assert post.phase == "over"  # R40-Q11: one game is one round
    assert result.ended in ("went_out", "void")
    chips = [line.chips for line in result.lines]
    assert sum(c or 0 for c in chips) == pool
    if result.ended == "void":  # R40-Q15: the pool is returned
        move = pt.moves[index][1]
        if isinstance(move, Discard):  # nobody could ever go out (Rules.end_when_stuck)
            assert all(len(hand) <= 2 for hand in post.results[-1].hands)
        else:
            assert len(pre.discard) <= 1
        assert chips == [options["stake"]] * pre.players
        assert all(line.points == 0 for line in result.lines)
        return
    winner = result.winner
    assert winner is not None
    start = pt.states[_turn_start(pt, index)]
    remik = not start.cycle.opened[winner]  # R40-Q16: had laid nothing before the winning turn
    penalties = []
    for line in result.lines:
        if line.seat == winner:
            assert line.points == 0
            penalties.append(0)
            continue
        hand = sum(r40_hand_value(c) for c in result.hands[line.seat])
        assert line.points == hand + (25 if remik else 0), (line, remik)  # R40-27/28
        penalties.append(line.points)
    share = options[f"winner_share_{pre.players}"]
    qualifying = [s for s, p in enumerate(penalties) if s != winner and p < 50]  # R40-29
    if not qualifying:
        assert chips[winner] == pool
    else:
        assert chips[winner] * 100 >= pool * share  # R40-Q12: at least the winner's share
        assert len({chips[s] for s in qualifying}) == 1
    assert all(chips[s] == 0 for s, p in enumerate(penalties) if s != winner and p >= 50)


RUMMY_ROUND_CHECKS: dict[str, Callable[[Playthrough, int], None]] = {
    "remik51": _check_r51_round,
    "remi": _check_remi_round,
    "rummy500": _check_r500_round,
    "remik40": _check_r40_round,
}


def _check_rummy_rounds(pt: Playthrough) -> None:
    for index in pt.round_ends():
        _check_round_end_common(pt, index)
        RUMMY_ROUND_CHECKS[pt.rules.name](pt, index)


# --- scores: the gin family ----------------------------------------------------------------------


def _gin_value(card: Card) -> int:
    return min("A23456789TJQK".index(card.rank) + 1, 10)


def _check_gin_deal(pt: Playthrough, index: int) -> None:
    """The deal ended by ``moves[index]``, recomputed independently (GIN-19..25, OKL-4..6)."""
    pre, post = pt.states[index], pt.states[index + 1]
    result = post.results[-1]
    rules = pre.rules
    assert isinstance(rules, GinRules)
    assert result.round_no == pre.round_no
    assert result.first == pre.first
    assert list(result.totals) == [t + line.points for t, line in zip(pre.totals, result.lines, strict=True)]
    assert post.totals == result.totals
    if result.ended == "void":
        move = pt.moves[index][1]
        assert isinstance(move, (Discard, DrawStock))
        assert len(pre.stock) <= 2  # GIN-22
        assert [line.points for line in result.lines] == [0, 0]
        assert post.phase == "over" or post.first == pre.first  # GIN-Q6: the same dealer again
        return
    # Find the knock of this deal and the state right after it.
    k = index
    while not isinstance(pt.moves[k][1], Knock):
        k -= 1
    knocker = pt.moves[k][0]
    defender = 1 - knocker
    after_knock = pt.states[k + 1]
    knock = after_knock.cycle.knock
    k_points = sum(_gin_value(c) for c in after_knock.hands[knocker])
    assert knock.points == k_points
    assert k_points <= pt.states[k].cycle.limit
    dealt = after_knock.hands[defender]
    if knock.gin:
        assert k_points == 0
        d_points = gin_brute_deadwood(dealt)
    else:
        targets = [" ".join(c.face for c in m.cards) for m in after_knock.melds]
        d_points = gin_brute_with_layoffs(dealt, targets)
    factor = 2 if rules.hollywood and pre.cycle.upcard.suit == "S" else 1
    if knock.gin:
        winner, score = knocker, d_points + 25
    elif k_points < d_points:
        winner, score = knocker, d_points - k_points
    else:
        winner, score = defender, k_points - d_points + 25
    assert result.winner == winner
    assert [line.points for line in result.lines] == [score * factor if s == winner else 0 for s in (0, 1)]
    assert result.lines[defender].hand == d_points
    assert post.cycle.won[winner] == pre.cycle.won[winner] + 1
    if post.phase != "over":
        assert (post.first + 1) % 2 == winner  # GIN-5: the winner deals
        assert post.cycle.step == "offer"


def _check_gin_end(state: GameState) -> None:
    """GIN-23/24, GIN-Q3; Oklahoma's three columns (OKL-6, OKL-Q2, OKL-Q3)."""
    rules = state.rules
    assert isinstance(rules, GinRules)
    won = [0, 0]
    for result in state.results:
        if result.winner is not None:
            won[result.winner] += 1
    assert list(state.cycle.won) == won
    if not rules.hollywood:
        over = max(state.totals) >= rules.target
        assert (state.phase == "over") == over
        if over:
            w = state.winners[0]
            expected = state.totals[w] + 100 + 25 * (won[w] - won[1 - w]) - state.totals[1 - w]
            assert state.cycle.settlement["points"] == expected  # GIN-24, GIN-Q3
        return
    columns: list[dict[str, Any]] = [{"scores": [0, 0], "deals": [0, 0], "winner": None} for _ in range(3)]
    wins = [0, 0]
    for result in state.results:
        if result.winner is None:
            continue
        w = result.winner
        wins[w] += 1
        for column in columns[: min(wins[w], 3)]:
            if column["winner"] is None:
                column["scores"][w] += result.lines[w].points
                column["deals"][w] += 1
                if column["scores"][w] >= rules.target:
                    column["winner"] = w
    assert [c.to_json() for c in state.cycle.columns] == columns
    assert (state.phase == "over") == all(c["winner"] is not None for c in columns)
    if state.phase == "over":
        net = 0
        for c in columns:
            w = c["winner"]
            r = c["scores"][w] + 100 + 25 * (c["deals"][w] - c["deals"][1 - w]) - c["scores"][1 - w]
            net += r if w == 0 else -r
        assert state.cycle.settlement["net"] == [net, -net]
        assert state.winners == ((0,) if net > 0 else (1,) if net < 0 else (0, 1))


def _check_gin_deals(pt: Playthrough) -> None:
    for index in pt.round_ends():
        _check_gin_deal(pt, index)
    _check_gin_end(pt.final)


# --- scores: Knock-108 ---------------------------------------------------------------------------


def _check_books(state: GameState) -> None:
    """K108-22/23 (stakes, payments, the pool), K108-25/26 (out over 100, buying back in): chips
    only move, and the ledger says how; who is in."""
    cycle = state.cycle
    stake = int(state.rules.options["stake"])
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


def _jump(state: GameState, seat: int) -> int:
    carry = state.cycle.carry
    return carry[seat].points if carry else 0


def _k108_loose(state: GameState, cards: tuple[Card, ...]) -> int:
    from games.engine.knock108.rules import special_hand

    if special_hand(state.rules, cards) is not None:
        return 0
    return k108_brute_deadwood(state.rules, cards)


def _check_k108_deals(pt: Playthrough) -> None:
    """Chips balance and the score lines add up to the records; over 100 is out (K108-25, K108-Q13)."""
    for state in pt.states:
        _check_books(state)
    for index in pt.round_ends():
        before, after = pt.states[index], pt.states[index + 1]
        result = after.results[-1]
        assert result.round_no == before.round_no
        # The deal's lines add the deal's changes (and any buy-back jump) to the records.
        for line in result.lines:
            jump = _jump(before, line.seat)
            assert result.totals[line.seat] == before.totals[line.seat] + line.points - jump
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
                assert line.hand == _k108_loose(after, result.hands[line.seat])
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


# --- scores: every variant -----------------------------------------------------------------------

#: How long a playthrough runs to reach scored rounds: the rummy cycle plays two rounds (Remik 40's
#: game is one), the gin family and Knock-108 a number of moves that ends several deals.
SCORED_MOVES = {"rummy": 2500, "gin": 1500, "knock108": 600}
SCORED_LEAST = {"rummy": 2500, "gin": 375, "knock108": 200}
SCORED_ROUNDS = {"remik40": 1, "rummy": 2}


@each_variant
@PER_VARIANT
@given(data=st.data())
def test_every_round_is_scored_as_the_rules_say_and_the_match_ends_as_they_say(
    name: str, data: st.DataObject
) -> None:
    pt = data.draw(
        playthroughs(
            name,
            max_moves=SCORED_MOVES,
            min_moves=SCORED_LEAST,
            until_rounds=SCORED_ROUNDS if family_of(name) == "rummy" else None,
            prefer_play=st.sampled_from([0.6, 0.95]),
        )
    )
    _label(pt)
    family = pt.rules.family
    if family == "rummy":
        assert pt.round_ends() or pt.stopped_early, f"no round ended in {len(pt.moves)} random moves"
        _check_rummy_rounds(pt)
    elif family == "gin":
        _check_gin_deals(pt)
    else:
        _check_k108_deals(pt)


# --- positions random play seldom reaches --------------------------------------------------------


@given(scenario_playthroughs(max_moves=30), st.data())
def test_positions_random_play_seldom_reaches_keep_every_invariant(
    pt: Playthrough, data: st.DataObject
) -> None:
    """R51 joker exchange and one-go finish, R51 reshuffle and void round, Remi atu, stock-out and
    buy-back, Rummy 500 deep takes and stock-out, Remik 40 joker recovery, Remik and reshuffle:
    legal play from there, then plausible and garbage moves (followed when accepted)."""
    for state, offered in zip(pt.states, pt.options, strict=True):
        assert_conserved(state)
        for move in offered:
            assert_conserved(apply_move(state, state.turn, move).state)
    _check_rummy_rounds(pt)

    explored = Playthrough(pt.recipe, pt.rules, pt.states[0])
    rng = random.Random(pt.recipe.choice_seed)
    state = pt.states[0]
    for _ in range(data.draw(st.integers(1, 30), label="steps")):
        if state.phase == "over":
            break
        before = _dump(state)
        transition = None
        for _ in range(3):
            if data.draw(st.booleans(), label="plausible"):
                seat, move = (
                    state.turn,
                    data.draw(st.sampled_from(plausible_moves(state)), label="plausible move"),
                )
            else:
                seat, move = data.draw(garbage_moves(state), label="garbage move")
            code, transition = _try_move(state, seat, move)
            if transition is not None:
                break
            assert code is not None
            assert _dump(state) == before
        if transition is None:
            seat = state.turn
            move = choose_move(legal_moves(state, seat), rng, pt.recipe.prefer_play or 0.0)
            transition = apply_move(state, seat, move)
        state = transition.state
        explored.moves.append((seat, move))
        explored.events.append(transition.events)
        explored.states.append(state)
    _check_rummy_rounds(explored)
    for played in (pt, explored):
        final = played.final
        event(f"{pt.recipe.scenario}: {[r.ended for r in final.results]}")
        if final.cycle.atu_taken_by is not None or any(
            s.cycle.atu_taken_by is not None for s in played.states
        ):
            event(f"{pt.recipe.scenario}: atu taken")
        if any(isinstance(m, Play) and m.exchanges for _, m in played.moves):
            event(f"{pt.recipe.scenario}: joker exchanged")
        if any(line.multiplier == 2 for r in final.results for line in r.lines):
            event(f"{pt.recipe.scenario}: doubled")


@each_variant
@PER_VARIANT
@given(data=st.data())
def test_every_kind_of_move_a_view_offers_is_accepted_for_some_concrete_move(
    name: str, data: st.DataObject
) -> None:
    # docs/protocol.md: ``you.moves`` are "the kinds of move you may send now"; each kind listed
    # must be one the engine accepts in at least one concrete form (issue 32: Knock-108 listed
    # ``knock`` while no knock was possible, and the knock was then refused).
    moves = {"rummy": 100, "gin": 200, "knock108": 250}
    pt = data.draw(playthroughs(name, max_moves=moves, min_moves={"gin": 50}))
    for state, offered in zip(pt.states, pt.options, strict=True):
        if state.phase == "over":
            continue
        kinds = set(view_for(state, state.turn)["you"]["moves"])
        if state.rules.family == "rummy":
            # The exception: in the rummy cycle "play" and "take" mean "you may build one" (the
            # rack and the draft build it; the engine judges it). Listing them only when the
            # search finds an opening or a usable take would tell an unopened player that an
            # opening exists: a hint (docs/protocol.md, ``you.moves``).
            kinds -= {"play", "take"}
        accepted: set[str] = set()
        for move in offered:
            apply_move(state, state.turn, move)  # raises if refused
            accepted.add(move_to_json(move)["kind"])
        assert kinds <= accepted, (sorted(kinds), sorted(accepted), state.cycle)
