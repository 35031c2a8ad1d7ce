"""The core's invariants (``test_properties.py``) for gin and Oklahoma, over reachable games.

Playthroughs are random legal play (``legal_moves``) by a player that knocks when it may with some
probability, so knocks, replies, gin, undercuts, void deals and finished matches (small targets)
are all reached. A falsifying example prints as ``gin_play(Recipe(...))``. The helpers of the core's
property tests are reused: card conservation, garbage moves, card-id scanning.

The leak check is the core's with one difference the rules make: cards whose place is public are
allowed in a view - the up-card, the card just taken from the face-up pile (a public take), and a
knocker's hand once knocked (it is laid face up, GIN-15).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st
from strategies import (
    CARD_ID_RE,
    Playthrough,
    Recipe,
    assert_conserved,
    card_ids_in,
    garbage_moves,
    ids,
)

from games.engine import (
    Card,
    Discard,
    DrawStock,
    GameState,
    IllegalMoveError,
    Knock,
    LayOff,
    Pass,
    Play,
    TakeDiscard,
    apply_move,
    end_match,
    errors,
    events_for,
    legal_moves,
    move_from_json,
    move_to_json,
    new_game,
    record_from_json,
    record_to_json,
    replay,
    state_from_json,
    state_to_json,
    view_for,
)
from games.engine.bots import NormalBot
from games.engine.deal import deal_seed
from games.engine.moves import Move
from games.engine.records import make_record
from games.engine.variants.gin import GinFamily
from tests.engine.test_gin_deadwood import brute_deadwood, brute_with_layoffs

OPTION_SETS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("gin", {}),
    ("gin", {"target": 10}),
    ("oklahoma", {}),
    ("oklahoma", {"target": 10}),
)


def _all_codes(cls: type[IllegalMoveError]) -> set[str]:
    out = {cls.code}
    for sub in cls.__subclasses__():
        out |= _all_codes(sub)
    return out


KNOWN_CODES = _all_codes(errors.IllegalMoveError)
BOT = NormalBot()


class GinPlaythrough(Playthrough):
    def __repr__(self) -> str:
        return f"gin_play({self.recipe!r})  # {len(self.moves)} moves"


def gin_play(recipe: Recipe) -> GinPlaythrough:
    """Legal play: with probability ``recipe.prefer_play`` the gin bot's move (it knocks, so deals
    reach the reply), otherwise a random legal move (a knock, when one is legal, half the time)."""
    rules = recipe.rules
    players = list(recipe.players) if isinstance(recipe.players, tuple) else recipe.players
    state = new_game(rules, players, recipe.seed, first=recipe.first)
    rng = random.Random(recipe.choice_seed)
    pt = GinPlaythrough(recipe, rules, state)
    while len(pt.moves) < recipe.max_moves and state.phase != "over":
        if recipe.until_rounds is not None and len(state.results) >= recipe.until_rounds:
            break
        seat = state.turn
        offered = legal_moves(state, seat)
        pt.options.append(offered)
        knocks = [m for m in offered if isinstance(m, Knock)]
        if rng.random() < recipe.prefer_play:
            move = BOT.choose_move(view_for(state, seat))
        elif knocks and rng.random() < 0.5:
            move = rng.choice(knocks)
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
def gin_recipes(draw: st.DrawFn, max_moves: int = 200, until_rounds: int | None = None) -> Recipe:
    name, options = draw(st.sampled_from(OPTION_SETS))
    return Recipe(
        variant=name,
        options=tuple(sorted(options.items())),
        players=draw(st.sampled_from([2, ("Ana", "Bogdan")])),
        seed=draw(st.integers(0, 2**64)),
        first=draw(st.none() | st.integers(0, 1)),
        choice_seed=draw(st.integers(0, 2**32)),
        prefer_play=draw(st.sampled_from([0.0, 0.5, 0.8, 1.0])),
        max_moves=draw(st.integers(max_moves // 4, max_moves)),
        until_rounds=until_rounds,
    )


def gin_playthroughs(
    max_moves: int = 200, until_rounds: int | None = None
) -> st.SearchStrategy[GinPlaythrough]:
    return gin_recipes(max_moves, until_rounds).map(gin_play)


def _dump(state: GameState) -> str:
    return json.dumps(state_to_json(state), sort_keys=True)


def _label(pt: GinPlaythrough) -> None:
    ends = Counter(r.ended for r in pt.final.results)
    final = pt.final
    event(f"{pt.recipe.variant}: over={final.phase == 'over'} void={ends['void'] > 0}")
    replied = any(s.cycle.step == "reply" for s in pt.states)
    event(f"{pt.recipe.variant}: scored={ends['went_out'] > 0} reply={replied}")


# --- conservation, legal means accepted -----------------------------------------------------------------


@given(gin_playthroughs())
def test_every_physical_card_is_in_exactly_one_place_after_every_move(pt: GinPlaythrough) -> None:
    _label(pt)
    for state in pt.states:
        assert_conserved(state)
        assert len(state.hands) == 2


def _expected_kinds(state: GameState) -> set[type]:
    step = state.cycle.step
    if step == "offer":
        return {TakeDiscard, Pass}
    if step == "reply":
        return {Pass, Play}
    if state.phase == "draw":
        return {DrawStock, TakeDiscard}
    return {Discard, Knock}


@given(gin_playthroughs())
def test_every_move_legal_moves_lists_is_accepted_by_apply_move(pt: GinPlaythrough) -> None:
    for state, offered in zip(pt.states, pt.options, strict=True):
        if state.phase == "over":
            assert offered == []
            continue
        assert offered, "the seat to move has no legal move"
        assert legal_moves(state, 1 - state.turn) == []
        kinds = {type(m) for m in offered}
        assert kinds <= _expected_kinds(state)
        if state.cycle.step == "turn" and state.phase == "play":
            taken = state.cycle.taken
            assert {Discard(c) for c in state.hands[state.turn] if c != taken} == {
                m for m in offered if isinstance(m, Discard)
            }
        for move in offered:
            transition = apply_move(state, state.turn, move)
            assert_conserved(transition.state)
            assert transition.state.moves_played == state.moves_played + 1


# --- a refused move changes nothing ------------------------------------------------------------------


def _check_code(error: IllegalMoveError) -> None:
    assert error.code in KNOWN_CODES, error.code
    assert json.loads(json.dumps(error.to_dict()))["code"] == error.code


@st.composite
def gin_garbage(draw: st.DrawFn, state: GameState) -> tuple[int, Move]:
    """Moves of the gin family's own kinds, mostly illegal: passes and knocks anywhere, knocks
    with random discards and melds, plays in the wrong step."""
    seat = draw(st.sampled_from([state.turn, state.turn, 1 - state.turn, -1, 2]))
    pack = list(state.rules.pack())
    hand = list(state.hands[state.turn]) or pack
    card = st.sampled_from(hand) | st.sampled_from(pack)
    meld = st.lists(card, min_size=0, max_size=5).map(tuple)
    kind = draw(st.sampled_from(["pass", "knock", "knock", "play", "take"]))
    if kind == "pass":
        return seat, Pass()
    if kind == "knock":
        return seat, Knock(draw(st.none() | card), tuple(draw(st.lists(meld, max_size=3))))
    if kind == "take":
        return seat, TakeDiscard(draw(st.none() | card), Play())
    meld_ids = st.integers(-1, state.next_meld_id + 1)
    layoffs = st.lists(st.builds(LayOff, meld_ids, meld), max_size=2).map(tuple)
    return seat, Play(tuple(draw(st.lists(meld, max_size=2))), draw(layoffs))


def _try(state: GameState, seat: int, move: Move) -> str | None:
    """Apply; the refusal's code (checked), or None when accepted (the result checked)."""
    try:
        transition = apply_move(state, seat, move)
    except IllegalMoveError as error:
        refusal: IllegalMoveError | None = error
    else:
        refusal = None
    if refusal is not None:
        _check_code(refusal)
        return refusal.code
    assert seat == state.turn
    assert_conserved(transition.state)
    return None


@given(gin_playthroughs(max_moves=150), st.data())
def test_a_rejected_move_changes_nothing(pt: GinPlaythrough, data: st.DataObject) -> None:
    picks = data.draw(st.lists(st.integers(0, len(pt.states) - 1), min_size=1, max_size=4, unique=True))
    for index in picks:
        state = pt.states[index]
        before = _dump(state)
        tries = [data.draw(gin_garbage(state), label="gin garbage") for _ in range(8)]
        if state.phase != "over":
            tries += [data.draw(garbage_moves(state), label="garbage") for _ in range(4)]
        tries += [(1 - state.turn, m) for m in pt.options[index][:4]]
        for seat, move in tries:
            code = _try(state, seat, move)
            if state.phase == "over":
                assert code == "game_over"
            elif seat != state.turn:
                assert code == "not_your_turn"
            assert _dump(state) == before, f"refused move {move!r} changed the state"


# --- no leaks ---------------------------------------------------------------------------------------


def _public_in_hands(state: GameState) -> set[str]:
    """Card ids that are in a hand but whose place is public (see the module docstring)."""
    cycle = state.cycle
    public = {str(card) for card in (cycle.upcard, cycle.taken) if card is not None}
    if cycle.knock is not None:
        public |= set(ids(state.hands[cycle.knock.seat]))
    return public


def _check_view(state: GameState, seat: int | None) -> None:
    view = view_for(state, seat)
    text = json.dumps(view)
    assert json.loads(text) == view, "the view is not plain JSON"
    assert view["scores"]["rounds"] == [r.to_json() for r in state.results]
    public_part = {**view, "scores": {**view["scores"], "rounds": None}}
    shown = card_ids_in(json.dumps(public_part))
    allowed = _public_in_hands(state)
    for other in range(state.players):
        if other == seat:
            continue
        leaked = (shown & set(ids(state.hands[other]))) - allowed
        assert not leaked, f"seat {seat} sees seat {other}'s cards {sorted(leaked)}"
    assert not shown & set(ids(state.stock)), f"seat {seat} sees stock cards"
    knock = state.cycle.knock
    if knock is not None:
        assert "best" not in json.dumps(view["gin"]["knock"]), "the defender's optimum is in a view"
    assert state.secret.hex() not in text
    seed = deal_seed(state.secret, state.round_no).hex()
    if state.phase != "over":
        assert seed not in text
        assert "revealed_seed" not in view
    else:
        assert view["revealed_seed"] == seed
    assert view["hand"] == (None if seat is None else [str(c) for c in state.hands[seat]])
    assert view["hand_sizes"] == [len(h) for h in state.hands]
    assert view["stock_size"] == len(state.stock)


def _check_events(before: GameState, after: GameState, events: tuple[Any, ...]) -> None:
    if len(after.results) > len(before.results):
        return  # a deal ended: its hands are public, and the new deal's hands are unrelated
    taken = {e.data["card"] for e in events if e.kind == "took"}
    knocked = {c for e in events if e.kind == "knocked" for c in e.data["deadwood"]}
    for seat in [None, 0, 1]:
        shown = set(CARD_ID_RE.findall(json.dumps(events_for(events, seat))))
        for other in (0, 1):
            if other == seat:
                continue
            hidden = set(ids(after.hands[other])) - taken - knocked - _public_in_hands(before)
            assert not shown & hidden, f"events tell seat {seat} seat {other}'s cards"
        assert not shown & set(ids(after.stock)), f"events tell seat {seat} stock cards"


@given(gin_playthroughs())
def test_no_view_contains_another_seats_hidden_cards_the_stock_or_the_round_seed(pt: GinPlaythrough) -> None:
    for index, state in enumerate(pt.states):
        if index % 3 and index != len(pt.states) - 1 and state.cycle.step != "reply":
            continue
        for seat in (None, 0, 1):
            _check_view(state, seat)
    for index, events in enumerate(pt.events):
        _check_events(pt.states[index], pt.states[index + 1], events)
    if pt.final.phase != "over":
        closed = end_match(pt.final).state
        for seat in (None, 0, 1):
            _check_view(closed, seat)


# --- round-trips ------------------------------------------------------------------------------------


@given(gin_playthroughs())
def test_state_json_round_trips(pt: GinPlaythrough) -> None:
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
        for move in legal_moves(final, final.turn):
            a = apply_move(final, final.turn, move).state
            b = apply_move(again, again.turn, move_from_json(move_to_json(move))).state
            assert state_to_json(a) == state_to_json(b)


@given(gin_playthroughs(), st.data())
def test_moves_round_trip_through_json(pt: GinPlaythrough, data: st.DataObject) -> None:
    moves = [m for offered in pt.options for m in offered] + [m for _, m in pt.moves]
    if pt.final.phase != "over":
        moves += [data.draw(gin_garbage(pt.final))[1] for _ in range(5)]
    for move in moves:
        document = move_to_json(move)
        again = move_from_json(json.loads(json.dumps(document)))
        assert again == move
        assert move_to_json(again) == document


@given(gin_playthroughs(max_moves=400))
def test_a_record_replays_to_the_identical_state(pt: GinPlaythrough) -> None:
    recipe = pt.recipe
    players = list(recipe.players) if isinstance(recipe.players, tuple) else recipe.players
    record = make_record(pt.rules, players, recipe.seed, pt.moves, first=recipe.first)
    document = json.loads(json.dumps(record_to_json(record)))
    assert state_to_json(replay(record_from_json(document))) == state_to_json(pt.final)
    assert state_to_json(replay(document)) == state_to_json(pt.final)


# --- scores -----------------------------------------------------------------------------------------


def _value(card: Card) -> int:
    return min("A23456789TJQK".index(card.rank) + 1, 10)


def _check_deal(pt: GinPlaythrough, index: int) -> None:
    """The deal ended by ``moves[index]``, recomputed independently (GIN-19..25, OKL-4..6)."""
    pre, post = pt.states[index], pt.states[index + 1]
    result = post.results[-1]
    rules = pre.rules
    assert isinstance(rules, GinFamily)
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
    k_points = sum(_value(c) for c in after_knock.hands[knocker])
    assert knock.points == k_points
    assert k_points <= pt.states[k].cycle.limit
    dealt = after_knock.hands[defender]
    if knock.gin:
        assert k_points == 0
        d_points = brute_deadwood(dealt)
    else:
        targets = [" ".join(c.face for c in m.cards) for m in after_knock.melds]
        d_points = brute_with_layoffs(dealt, targets)
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


def _check_end(state: GameState) -> None:
    rules = state.rules
    assert isinstance(rules, GinFamily)
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
    # Oklahoma: rebuild the columns from the deals (OKL-6, OKL-Q2, OKL-Q3).
    columns = [{"scores": [0, 0], "deals": [0, 0], "winner": None} for _ in range(3)]
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


@given(gin_playthroughs(max_moves=1500))
def test_every_deal_is_scored_as_the_rules_say_and_the_game_ends_as_they_say(pt: GinPlaythrough) -> None:
    _label(pt)
    ends = [i for i in range(len(pt.moves)) if len(pt.states[i + 1].results) > len(pt.states[i].results)]
    for index in ends:
        _check_deal(pt, index)
    _check_end(pt.final)
