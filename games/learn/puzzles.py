"""Puzzles from bot games: positions with an answer the engine can check (docs/learn.md, "Puzzles").

Pure Python on the engine's public surface (``games.engine``, ``games.engine.bots``): no Django,
nothing stored here. :func:`generate` plays bot games from a seed and yields the positions worth
a puzzle; :func:`check` says whether an answer solves one, with the engine's explanation. The
site stores what :func:`generate` yields (``games.learn.models.Puzzle``) and asks :func:`check` about
every answer.

Kinds (:data:`KINDS`):

* ``opening``: the seat to move has drawn and has not opened; lay an opening (51 in Remik 51,
  45 or 51 in Remi, 40 in Remik 40). **Any** play the engine accepts and after which the seat has
  opened is right. Kept only when an opening exists and the hand is **not trivially open**
  (:func:`trivially_open`): one press of a rack sort button ("Sort: runs" or "Sort: sets") and
  then "Lay down everything" would not open.
* ``joker``: the same, and in the same move buy back (exchange) a joker lying on the table with
  the natural card it stands for. No variant lets a bought-back joker count towards the opening
  (R51-28, RMI-Q11, R40 in the engine), so the puzzle is to open *and* free the joker at once:
  any accepted play that opens and holds at least one exchange is right.
* ``knock`` (gin, Oklahoma): knock now or draw on, where the decision evaluator prefers one by a
  clear margin (:func:`find_knock`); any knock, or any plain discard, is the choice.
* ``discard`` (gin, Oklahoma): the best discard, where the evaluator, playing out the hard bot's
  best discards, prefers one to the second best by a clear margin (:func:`find_discard`); that
  card is right (either copy of it in a two-deck variant), any other discard is the wrong choice.

>>> best = {"kind": "discard", "card": "KS"}
>>> state = engine.gin_position(engine.variant("gin"), hands=["7H 8H 9H 2C 2D 5S 6S JC QD KS AD",
...                             "3C 4C 5C 6C 7C 8C 9C TC JD QS"], discard="QH", turn=0, phase="play")
>>> [check(state, 0, "discard", {"kind": "discard", "card": c}, best)["code"] for c in ("KS", "7H")]
['solved', 'wrong_choice']

>>> puzzle = next(generate("doc", kinds=("opening",)))
>>> puzzle.kind, check(puzzle.state, puzzle.seat, puzzle.kind, puzzle.answer)["code"]
('opening', 'solved')
>>> card = str(puzzle.state.hands[puzzle.seat][0])
>>> check(puzzle.state, puzzle.seat, "opening", {"kind": "discard", "card": card})["code"]
'not_an_opening'
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import engine
from games.engine import Card, Discard, Exchange, GameState, IllegalMoveError, Knock, Move, Play
from games.engine.analysis import Alternative, Evaluation, evaluate, move_key
from games.engine.bots import candidate_moves, choose_move
from games.play.rack import read_move

#: Every kind of puzzle, in the order the site lists them.
KINDS = ("opening", "joker", "knock", "discard")

#: The games puzzles come from: (variant, options), taken in turn.
SOURCES: tuple[tuple[str, Mapping[str, Any]], ...] = (
    ("remik51", {}),
    ("remi", {"opening": "45"}),
    ("remik40", {}),
    ("remi", {"opening": "51"}),
    ("gin", {}),
    ("oklahoma", {}),
)

#: The decision evaluator's samples (``games.engine.analysis.evaluate``) for a knock, and the
#: clear margin a kept puzzle needs: the better choice ahead by at least this many points **and**
#: by two standard errors of the difference (the two are played out on the same samples).
KNOCK_SAMPLES = 16
KNOCK_MARGIN = 3.0

#: The best-discard kind (:func:`find_discard`, docs/learn.md "Puzzles"): the hard bot's
#: :data:`DISCARD_TOP` best discards (one per face) are compared by the decision evaluator in three
#: steps, each on deals of its own: a pre-screen on :data:`DISCARD_SCREEN` deals (the best ahead by
#: :data:`DISCARD_MARGIN` points and one standard error, else the position is dropped), a first
#: look on :data:`DISCARD_FIRST` deals (ahead by half the margin and one standard error), then
#: :data:`DISCARD_MORE` deals more. The puzzle is kept when the last two steps together
#: (:data:`DISCARD_SAMPLES` deals, the figures shown) put the best ahead of the second best by
#: :data:`DISCARD_MARGIN` points **and** two standard errors of the difference. Only the seat's
#: turns in :data:`DISCARD_TURNS` are looked at, which bounds the cost of a bot game.
DISCARD_TOP = 3
DISCARD_MARGIN = 3.0
DISCARD_SCREEN = 16
DISCARD_FIRST = 48
DISCARD_MORE = 144
DISCARD_SAMPLES = DISCARD_FIRST + DISCARD_MORE
DISCARD_TURNS = range(2, 5)

#: Moves a bot game is played for at most (one round is enough: a puzzle comes before an opening).
MAX_MOVES = 400

#: Stable result codes of :func:`check` besides the engine's own refusal codes.
SOLVED = "solved"
NOT_AN_OPENING = "not_an_opening"
NO_JOKER_BOUGHT = "no_joker_bought"
WRONG_CHOICE = "wrong_choice"
MALFORMED = "malformed_move"
RESULT_CODES = (SOLVED, NOT_AN_OPENING, NO_JOKER_BOUGHT, WRONG_CHOICE, MALFORMED)

#: Refusals that say how an answer is written, not what it decides: a joker whose place does not
#: say what it stands for (a lay-off at either end of a run), cards the seat does not hold, a move
#: the position does not take at all. Such an answer is **unreadable**, not wrong: :func:`check`
#: marks it, the site explains it and never rates it (docs/learn.md, "Puzzles").
UNREADABLE = frozenset({"joker_must_be_declared", "card_not_in_hand", "wrong_phase", "malformed_card"})


@dataclass(frozen=True)
class Puzzle:
    """A position (the full state; players see only ``view_for(state, seat)``) and one answer."""

    kind: str
    state: GameState
    seat: int
    #: One right answer, as the wire's move JSON (others may be right too).
    answer: dict[str, Any]
    #: Where it comes from: the generator's seed, the game's number, the moves played before it.
    source: dict[str, Any] = field(default_factory=dict)
    #: For the kind the evaluator decides (``knock``): its figures (``_figures``).
    evaluation: dict[str, Any] | None = None

    @property
    def variant(self) -> str:
        return self.state.rules.name

    @property
    def key(self) -> str:
        """The same position gives the same key (so a puzzle is stored once)."""
        return position_key(self.kind, self.state, self.seat)

    @property
    def explanation(self) -> dict[str, Any]:
        if self.evaluation is not None:
            return dict(self.evaluation)
        return explain(self.state, self.seat, self.answer)


def position_key(kind: str, state: GameState, seat: int) -> str:
    """A digest of what the puzzle shows: kind, rules, the seat's hand and the table."""
    view = engine.view_for(state, seat)
    shown = {
        "kind": kind,
        "rules": state.rules.to_json(),
        "hand": sorted(str(c).split("#")[0] for c in state.hands[seat]),
        "melds": [m["cards"] for m in view["melds"]],
        "discard": view["discard"][-1:],
    }
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:24]


# --- checking an answer --------------------------------------------------------------------------------


def explain(state: GameState, seat: int, move_json: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's facts about an opening play: each meld with its points, the total counted
    towards the opening, the minimum, and the jokers bought back."""
    rules = state.rules
    data = dict(move_json)
    melds = [list(cards) for cards in data.get("melds") or []]
    out: dict[str, Any] = {
        "melds": [{"cards": cards, "points": rules.meld_points(" ".join(cards))} for cards in melds],
        "required_points": rules.opening_minimum,
        "exchanges": list(data.get("exchanges") or []),
    }
    try:
        after = engine.apply_move(state, seat, engine.move_from_json(data)).state
    except IllegalMoveError:
        out["points"] = sum(m["points"] for m in out["melds"])
        return out
    laid = [m for m in after.melds if m.id >= state.next_meld_id]
    # Jokers that lay on the table before the move and now lie in a new meld were bought back.
    table_jokers = {str(c.bare()) for m in state.melds for c in m.cards if c.is_joker}
    out["melds"] = [{"cards": [str(c) for c in m.cards], "points": rules.meld_value(m.meld)} for m in laid]
    # The meld holding a bought-back joker does not count towards the opening (R51-28).
    out["points"] = sum(
        rules.meld_value(m.meld) for m in laid if not any(str(c.bare()) in table_jokers for c in m.cards)
    )
    return out


def check(
    state: GameState, seat: int, kind: str, move_json: Any, expected: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Does ``move_json`` (the wire's move JSON) solve the puzzle? ``{"correct", "code",
    "message", "explanation", "move"}``: ``code`` is ``solved``, one of :data:`RESULT_CODES`, or the
    engine's refusal code (``opening_too_low``, ``opening_needs_run``, ...); ``move`` is the answer
    as read (``games.play.rack.read_move``); a refusal in :data:`UNREADABLE` has ``unreadable`` set.
    ``expected``: the stored answer, which the ``knock`` kind compares with (the evaluator's
    choice)."""
    if kind not in KINDS:
        raise ValueError(f"unknown puzzle kind {kind!r}")
    try:
        if not isinstance(move_json, Mapping):
            raise engine.MalformedMoveError("a move is a JSON object")
        move = engine.move_from_json(move_json)
    except (engine.MalformedMoveError, ValueError, KeyError, TypeError) as error:
        return {"correct": False, "code": MALFORMED, "message": str(error), "explanation": None}
    # The answer is read as the table's rack reads a block (games.play.rack.read_move): a run in the
    # order its cards were selected, a joker left on "★ = auto" declared as its place says.
    move = read_move(state.rules, move)
    try:
        after = engine.apply_move(state, seat, move).state
    except IllegalMoveError as error:
        cause = error.fields.get("cause")
        unreadable = error.code in UNREADABLE or cause in UNREADABLE
        # A lay-off refused for its joker's declaration says so by its cause (games.engine steps).
        code = cause if cause in UNREADABLE else error.code
        return {
            "correct": False,
            "code": code,
            "message": str(error),
            "error": error.to_dict(),
            "explanation": None,
            "unreadable": unreadable,
            "move": engine.move_to_json(move),
        }
    return {**_verdict(state, seat, kind, move, after, expected), "move": engine.move_to_json(move)}


def _verdict(
    state: GameState,
    seat: int,
    kind: str,
    move: Move,
    after: GameState,
    expected: Mapping[str, Any] | None,
) -> dict[str, Any]:
    if kind == "knock":
        return _check_knock(move, expected or {})
    if kind == "discard":
        return _check_discard(move, expected or {})
    if not isinstance(move, Play) or not engine.opened_seats(after)[seat]:
        return {
            "correct": False,
            "code": NOT_AN_OPENING,
            "message": "the answer lays no opening",
            "explanation": None,
        }
    if kind == "joker" and not move.exchanges:
        return {
            "correct": False,
            "code": NO_JOKER_BOUGHT,
            "message": "the opening is right, but no joker was bought back in the same move",
            "explanation": explain(state, seat, engine.move_to_json(move)),
        }
    return {
        "correct": True,
        "code": SOLVED,
        "message": "",
        "explanation": explain(state, seat, engine.move_to_json(move)),
    }


def choice_of(move: Move) -> str:
    """A knock-or-draw-on decision: ``knock`` for any knock, ``draw_on`` for a plain discard."""
    return "knock" if isinstance(move, Knock) else "draw_on" if isinstance(move, Discard) else "other"


def _check_knock(move: Move, expected: Mapping[str, Any]) -> dict[str, Any]:
    if choice_of(move) == choice_of(engine.move_from_json(expected)):
        return {"correct": True, "code": SOLVED, "message": "", "explanation": None}
    return {
        "correct": False,
        "code": WRONG_CHOICE,
        "message": "the evaluator prefers the other choice",
        "explanation": None,
    }


def _check_discard(move: Move, expected: Mapping[str, Any]) -> dict[str, Any]:
    """The stored best discard, or a copy of the same card (two decks: ``7H#1`` and ``7H#2`` are
    one decision, as for the evaluator's ``move_key``), solves it; another discard is the wrong
    choice (the position holds no other legal move: no knock, no opening)."""
    best = engine.move_from_json(expected)
    if isinstance(move, Discard) and isinstance(best, Discard) and move.card.same_face(best.card):
        return {"correct": True, "code": SOLVED, "message": "", "explanation": None}
    return {
        "correct": False,
        "code": WRONG_CHOICE,
        "message": "the hard bot's look-ahead prefers another discard",
        "explanation": None,
    }


# --- finding puzzles ----------------------------------------------------------------------------------


def _opens(state: GameState, seat: int, move: Move) -> bool:
    try:
        after = engine.apply_move(state, seat, move).state
    except IllegalMoveError:
        return False
    return bool(engine.opened_seats(after)[seat])


def _openings(state: GameState, seat: int) -> list[Play]:
    """The engine's opening plays for the seat (``legal_moves`` offers its best one)."""
    return [
        m
        for m in engine.legal_moves(state, seat)
        if isinstance(m, Play) and m.melds and _opens(state, seat, m)
    ]


_SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}
_RANK_ORDER = {r: i for i, r in enumerate("23456789TJQKA", start=2)}


def sorted_blocks(hand: Sequence[Card], mode: str) -> list[list[Card]]:
    """The blocks the rack's sort buttons make of ``hand`` (static/js/table/rack.js ``arrange``,
    presentation only): "runs": per suit, chains of consecutive ranks (ace high) of three or more
    stand apart; "sets": one block per rank. Jokers go last, in a block of their own."""
    naturals = [c for c in hand if not c.is_joker]
    blocks: list[list[Card]] = []
    if mode == "sets":
        for _rank, group in itertools.groupby(
            sorted(naturals, key=lambda c: (_RANK_ORDER[c.rank], _SUIT_ORDER[c.suit])), key=lambda c: c.rank
        ):
            blocks.append(list(group))
    else:
        for suit in "SHCD":
            rest = sorted((c for c in naturals if c.suit == suit), key=lambda c: _RANK_ORDER[c.rank])
            while rest:
                chain: list[Card] = []
                left: list[Card] = []
                for card in rest:
                    if not chain or _RANK_ORDER[card.rank] == _RANK_ORDER[chain[-1].rank] + 1:
                        chain.append(card)
                    elif card.rank == chain[-1].rank:
                        left.append(card)
                    else:
                        blocks.append(chain)
                        chain = [card]
                blocks.append(chain)
                rest = left
    jokers = [c for c in hand if c.is_joker]
    if jokers:
        blocks.append(jokers)
    return blocks


def trivially_open(state: GameState, seat: int) -> bool:
    """Would one sort button and "Lay down everything" open? The button lays every block of three
    or more that the engine reads as a meld (games.play.rack, RMI-UI-6); the engine says if it opens."""
    rules = state.rules
    for mode in ("runs", "sets"):
        melds = []
        for block in sorted_blocks(state.hands[seat], mode):
            if len(block) < 3:
                continue
            try:
                rules.meld_reading(block)
            except (IllegalMoveError, ValueError):
                continue
            melds.append(tuple(block))
        if melds and _opens(state, seat, Play(melds=tuple(melds))):
            return True
    return False


def find_opening(state: GameState, seat: int) -> dict[str, Any] | None:
    """An ``opening`` puzzle's answer here, if the position makes one."""
    openings = _openings(state, seat)
    if not openings or trivially_open(state, seat):
        return None
    return engine.move_to_json(openings[0])


def find_joker(state: GameState, seat: int) -> dict[str, Any] | None:
    """A ``joker`` puzzle's answer here: an opening that buys back a table joker in the same move."""
    hand = state.hands[seat]
    rules = state.rules
    for table_meld in state.melds:
        meld = table_meld.meld
        for slot, rep in zip(meld.cards, meld.represented, strict=True):
            if not slot.is_joker:
                continue
            for natural in {c for c in hand if not c.is_joker and c.same_face(rep)}:
                exchange = (Exchange(table_meld.id, natural),)
                rest = list(hand)
                rest.remove(natural)
                without = state.with_changes(
                    hands=tuple(rest if s == seat else h for s, h in enumerate(state.hands))
                )
                for opening in _openings(without, seat):
                    tries = [Play(melds=opening.melds, exchanges=exchange)]
                    left = list(rest)
                    for cards in opening.melds:
                        for card in cards:
                            left.remove(card)
                    holders, _ = rules.best_melds([*left, slot.bare()])
                    tries += [
                        Play(melds=(*opening.melds, h.cards), exchanges=exchange)
                        for h in holders
                        if any(c.is_joker for c in h.cards)
                    ]
                    for play in tries:
                        if _opens(state, seat, play):
                            return engine.move_to_json(play)
    return None


def _figures(evaluation: Evaluation, samples: int) -> dict[str, Any]:
    best, second = evaluation.alternatives[0], evaluation.alternatives[1]
    return {
        "alternatives": [
            {"move": engine.move_to_json(a.move), "choice": choice_of(a.move), "points": a.points}
            for a in evaluation.alternatives
        ],
        "margin": round(best.points - second.points, 3),
        "error": evaluation.loss_error(second.move),
        "samples": samples,
    }


def _discard_figures(evaluation: Evaluation, samples: int) -> dict[str, Any]:
    """The knock kind's figures, each alternative with its card (``7H``), and what the puzzle
    states: how many of the hard bot's discards were compared and the clear margin required."""
    figures = _figures(evaluation, samples)
    for row, alternative in zip(figures["alternatives"], evaluation.alternatives, strict=True):
        if isinstance(alternative.move, Discard):
            row["card"] = alternative.move.card.face
    return {**figures, "top": len(evaluation.alternatives), "required_margin": DISCARD_MARGIN}


def _clear(evaluation: Evaluation, margin: float = DISCARD_MARGIN, errors: float = 2.0) -> bool:
    """Is the best ahead of the second best by ``margin`` points and ``errors`` standard errors?"""
    if len(evaluation.alternatives) < 2:
        return False
    best, second = evaluation.alternatives[0], evaluation.alternatives[1]
    ahead = best.points - second.points
    error = evaluation.loss_error(second.move) or 0.0
    return ahead >= margin and ahead >= errors * error


def find_knock(state: GameState, seat: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A ``knock`` puzzle here (gin family): the seat may knock, not with gin (always right), and
    the evaluator prefers knocking, or the same discard without a knock, by a clear margin."""
    if state.rules.family != "gin":
        return None
    view = engine.view_for(state, seat)
    if not view["you"].get("knock_discards") or view["you"].get("deadwood") == 0:
        return None
    knock = next(
        (m for m in candidate_moves(view, "hard") if isinstance(m, Knock) and m.card is not None), None
    )
    if knock is None or knock.card is None:
        return None
    moves: list[Move] = [knock, Discard(knock.card)]
    try:
        seed = position_key("knock", state, seat)
        evaluation = evaluate(state, seat, moves, samples=KNOCK_SAMPLES, seed=seed)
    except ValueError:
        return None
    if not _clear(evaluation, KNOCK_MARGIN):
        return None
    return engine.move_to_json(evaluation.best.move), _figures(evaluation, KNOCK_SAMPLES)


def discard_candidates(state: GameState, seat: int, top: int = DISCARD_TOP) -> list[Discard]:
    """The hard bot's ``top`` best discards for the seat (``candidate_moves(view, "hard")``), one
    per face, best first."""
    out: list[Discard] = []
    faces: set[str] = set()
    for move in candidate_moves(engine.view_for(state, seat), "hard"):
        if isinstance(move, Discard) and move.card.face not in faces:
            faces.add(move.card.face)
            out.append(move)
            if len(out) == top:
                break
    return out


def _merged(first: Evaluation, second: Evaluation) -> Evaluation:
    """Two evaluations of the same moves on different deals, as one on all of them."""
    margins = {move_key(a.move): a.margins for a in second.alternatives}
    samples = first.samples + second.samples
    scored = [
        Alternative(move=a.move, points=round(sum(m) / samples, 3), margins=m)
        for a in first.alternatives
        for m in [a.margins + margins[move_key(a.move)]]
    ]
    scored.sort(key=lambda a: -a.points)
    return Evaluation(seat=first.seat, samples=samples, alternatives=tuple(scored))


def find_discard(state: GameState, seat: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A ``discard`` puzzle here (gin family): the seat has drawn and may only discard (no knock:
    that is the knock kind's question), and the decision evaluator, playing out the hard bot's
    best discards (:func:`discard_candidates`), prefers one of them to the second best by a clear
    margin (:data:`DISCARD_MARGIN`, after a pre-screen)."""
    if state.rules.family != "gin" or state.turns_started[seat] not in DISCARD_TURNS:
        return None
    if engine.view_for(state, seat)["you"].get("moves") != ["discard"]:
        return None
    moves: list[Move] = list(discard_candidates(state, seat))
    if len(moves) < 2:
        return None
    seed = position_key("discard", state, seat)
    try:
        screen = evaluate(state, seat, moves, samples=DISCARD_SCREEN, seed=f"{seed}/screen")
        if not _clear(screen, DISCARD_MARGIN, errors=1.0):
            return None
        first = evaluate(state, seat, moves, samples=DISCARD_FIRST, seed=seed)
        if not _clear(first, DISCARD_MARGIN / 2, errors=1.0):
            return None
        evaluation = _merged(first, evaluate(state, seat, moves, samples=DISCARD_MORE, seed=f"{seed}/more"))
    except ValueError:
        return None
    if not _clear(evaluation):
        return None
    return engine.move_to_json(evaluation.best.move), _discard_figures(evaluation, evaluation.samples)


def _plain(finder: Callable[[GameState, int], dict[str, Any] | None]) -> Finder:
    def find(state: GameState, seat: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
        answer = finder(state, seat)
        return None if answer is None else (answer, {})

    return find


Finder = Callable[[GameState, int], "tuple[dict[str, Any], dict[str, Any]] | None"]

#: Each kind's finder: (the answer, the evaluator's figures or ``{}``), or None.
FINDERS: Mapping[str, Finder] = {
    "opening": _plain(find_opening),
    "joker": _plain(find_joker),
    "knock": find_knock,
    "discard": find_discard,
}


def _bot_step(state: GameState, seat: int) -> GameState:
    view = engine.view_for(state, seat)
    try:
        return engine.apply_move(state, seat, choose_move(view, "normal")).state
    except IllegalMoveError:
        pass
    for move in candidate_moves(view, "normal"):
        try:
            return engine.apply_move(state, seat, move).state
        except IllegalMoveError:
            continue
    return engine.apply_move(state, seat, engine.legal_moves(state, seat)[0]).state


def _scan(states: Iterator[GameState], source: dict[str, Any], kinds: Sequence[str]) -> Iterator[Puzzle]:
    """The puzzles of one round's states: for each seat and kind, the first position found."""
    found: set[tuple[int, str]] = set()
    for moves, state in enumerate(states):
        if state.is_over:
            return
        seat = state.turn
        if state.phase != "play" or engine.opened_seats(state)[seat]:
            continue
        for kind in kinds:
            if (seat, kind) in found:
                continue
            result = FINDERS[kind](state, seat)
            if result is not None:
                found.add((seat, kind))
                answer, figures = result
                yield Puzzle(kind, state, seat, answer, {**source, "moves": moves}, figures or None)


def record_puzzles(
    record: Mapping[str, Any], source: dict[str, Any], kinds: Sequence[str] = KINDS
) -> Iterator[Puzzle]:
    """The puzzles of a finished match of the site, from its ``remi-record/1`` document (with its
    secret: the server's own copy): every round replayed by ``engine.round_steps``, each scanned
    as a bot game's first round is."""
    parsed = engine.record_from_json(record)
    state = engine.replay(parsed)
    for round_no in range(1, len(state.results) + 1):
        steps = engine.round_steps(parsed, round_no)
        states = (step.state for step in steps if step.state.round_no == round_no)
        yield from _scan(states, {**source, "round": round_no}, kinds)


def game_puzzles(seed: str, game_no: int, kinds: Sequence[str] = KINDS) -> Iterator[Puzzle]:
    """The puzzles of one bot game (normal bots, its first round): for each seat and kind, the
    first position where the finder finds one. Deterministic given ``seed`` and ``game_no``."""
    name, options = SOURCES[game_no % len(SOURCES)]
    rules = engine.variant(name, **options)
    players = 2 + (game_no // len(SOURCES)) % (min(rules.max_players, 4) - 1)
    state = engine.new_game(rules, players, f"{seed}:{game_no}")
    yield from _scan(_bot_round(state), {"seed": seed, "game": game_no, "players": players}, kinds)


def _bot_round(state: GameState) -> Iterator[GameState]:
    """The states of a bot game's first round, each seat played by the normal bot, until the round
    ends or, in a rummy variant, every seat has opened (no opening is left to find)."""
    for _ in range(MAX_MOVES):
        if state.is_over or state.round_no != 1:
            return
        if state.rules.family == "rummy" and all(engine.opened_seats(state)):
            return
        yield state
        state = _bot_step(state, state.turn)


def generate(seed: str, *, kinds: Sequence[str] = KINDS, start: int = 0) -> Iterator[Puzzle]:
    """Puzzles from bot games ``start``, ``start + 1``, ... of ``seed``, without end, each
    position once (the caller stops when it has enough)."""
    seen: set[str] = set()
    for game_no in itertools.count(start):
        for puzzle in game_puzzles(seed, game_no, kinds):
            if puzzle.key not in seen:
                seen.add(puzzle.key)
                yield puzzle
