"""Evaluate one seat's decision: the expected points of each alternative, by sampled playouts.

Given a position where ``seat`` is to move, :func:`evaluate` scores each alternative move (draw
from the stock or take the discard, meld / lay off or keep, each discard, knock or draw on) by
*determinized playouts*:

1. **A sample of what the seat has not seen.** The cards the seat cannot see (the other hands and
   the stock: exactly the unseen cards of its view, :class:`~games.engine.bots.unseen.Unseen`) are
   pooled in a fixed order (by card id), shuffled by a generator seeded from ``seed`` and the
   sample's number, and dealt back in the same sizes; a card the view shows to be in a hand (gin's
   first up-card, once the opponent took it) stays there. The match secret is replaced by one
   derived from ``seed`` too (a reshuffle of the pile during a playout must not follow the real
   one). So the result depends on the seat's view, the alternatives and ``seed`` only, never on
   where the hidden cards really are (``tests/engine/test_analysis.py`` deals them again and gets
   the same figures).
2. **A playout per alternative and sample.** The alternative is played, then every seat (this one
   too) plays on with the bot of level ``playout_level`` (default the normal bot: the hard bot
   chooses the alternatives, the normal bot, 10x faster in gin, plays them out) until the round
   ends, or for at most ``max_moves`` moves.
3. **Points.** A playout is worth the seat's round score less the average of the other seats'
   (the sign turned where lower totals win, Remik 51's penalties): a zero-sum *margin*, in the
   variant's own points, higher is better. A playout stopped by ``max_moves`` is scored by the
   cards left in the hands instead (:func:`unfinished_margin`). Every alternative is played out
   on the same samples (common random numbers), so their differences are far steadier than their
   values.

The default alternatives (:func:`alternatives`) are the hard bot's candidates
(:func:`games.engine.bots.candidate_moves`, best first, up to ``top``), and at a discard every
discard (one per face: two copies of a card are one decision), the other way to draw (the stock,
the face-up card, a pass at gin's offer) and, beside a knock, the same discard without it. An
:class:`Evaluation` lists them best first with their expected points; :meth:`Evaluation.loss`
says what a move gives away against the best, :meth:`Evaluation.loss_error` how sure that is.

Cost: ``samples * len(alternatives)`` playouts, each at most ``max_moves`` moves of the playout
bot (a few ms a move in the rummy family, a fraction of one in gin; ``make bench-analysis``).

>>> from games.engine import variant, new_game
>>> state = new_game(variant("gin"), players=2, seed=3)
>>> result = evaluate(state, state.turn, samples=2, seed=1)
>>> sorted(type(a.move).__name__ for a in result.alternatives)
['Pass', 'TakeDiscard']
>>> result == evaluate(state, state.turn, samples=2, seed=1)
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import random
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from .bots.levels import candidate_moves, choose_move
from .bots.unseen import Unseen
from .cards import Card
from .errors import IllegalMoveError
from .game import apply_move, legal_moves
from .moves import Discard, DrawStock, Knock, Move, Pass, Play, TakeDiscard, move_to_json
from .perspective import view_for
from .state import GameState

__all__ = [
    "CONFIDENCE",
    "CONFIRM_BATCH",
    "CONFIRM_LOOKS",
    "MAX_MOVES",
    "MISTAKE",
    "PLAYOUT_LEVEL",
    "QUESTIONABLE",
    "ROUND_PLAYOUTS",
    "ROUND_SAMPLES",
    "ROUND_TOP",
    "SAMPLES",
    "TAKES",
    "TOP",
    "VERDICTS",
    "Alternative",
    "Decision",
    "Evaluation",
    "RoundReport",
    "alternatives",
    "analyse_round",
    "assess",
    "critical_value",
    "decision_cost",
    "determinize",
    "evaluate",
    "interval",
    "move_key",
    "throws_joker",
    "unfinished_margin",
    "verdict",
]

#: Samples of the unseen cards per evaluation (each alternative is played out once on each).
SAMPLES = 8
#: The hard bot's best candidates tried by default (every discard is added at a discard step).
TOP = 4
#: Takes of the discard pile tried beyond the hard bot's own (Rummy 500 may take at any depth).
TAKES = 2
#: Moves a playout may run before it is scored by the cards left in hand.
MAX_MOVES = 120
#: The bot level that plays the playouts out.
PLAYOUT_LEVEL = "normal"


@dataclass(frozen=True, slots=True)
class Alternative:
    """One alternative and its expected points (the seat's margin, higher is better)."""

    move: Move
    points: float
    #: The margin of each sample's playout, in sample order.
    margins: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The alternatives of one decision, best first."""

    seat: int
    samples: int
    alternatives: tuple[Alternative, ...]

    @property
    def best(self) -> Alternative:
        return self.alternatives[0]

    def points_of(self, move: Move) -> float | None:
        """The expected points of ``move`` (matched by :func:`move_key`), None if not evaluated."""
        key = move_key(move)
        for alternative in self.alternatives:
            if move_key(alternative.move) == key:
                return alternative.points
        return None

    def loss(self, move: Move) -> float | None:
        """The expected points ``move`` gives away against the best alternative (0 for the best)."""
        points = self.points_of(move)
        return None if points is None else max(0.0, self.best.points - points)

    def loss_error(self, move: Move) -> float | None:
        """The standard error of :meth:`loss`: of the mean of the per-sample differences between
        the best alternative and ``move`` (played out on the same samples)."""
        key = move_key(move)
        found = next((a for a in self.alternatives if move_key(a.move) == key), None)
        if found is None:
            return None
        diffs = [b - m for b, m in zip(self.best.margins, found.margins, strict=True)]
        if len(diffs) < 2:
            return 0.0
        mean = sum(diffs) / len(diffs)
        variance = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        return round(math.sqrt(variance / len(diffs)), 3)


_COPY = re.compile(r"#\d+")


def move_key(move: Move) -> str:
    """A move's identity as a decision: its JSON with copy ids dropped (``7H#1`` is ``7H#2``) and
    the cards of each meld, the melds and the lay-offs in a fixed order."""
    data: dict[str, Any] = json.loads(_COPY.sub("", json.dumps(move_to_json(move))))
    if "melds" in data:
        data["melds"] = sorted(sorted(meld) for meld in data["melds"])
    for part in ("layoffs", "exchanges"):
        if part in data:
            data[part] = sorted(
                (
                    {**item, "cards": sorted(item["cards"])} if "cards" in item else item
                    for item in data[part]
                ),
                key=lambda item: json.dumps(item, sort_keys=True),
            )
    return json.dumps(data, sort_keys=True)


def alternatives(state: GameState, seat: int, *, top: int = TOP, every_discard: bool = True) -> list[Move]:
    """The default alternatives: the hard bot's ``top`` best moves from the seat's view, the other
    way to draw, a knock's discard as a plain discard too (draw on), then (``every_discard``) every
    other discard."""
    view = view_for(state, seat)
    ranked = candidate_moves(view, "hard")
    chosen: list[Move] = []
    keys: set[str] = set()

    def add(move: Move) -> None:
        key = move_key(move)
        if key not in keys:
            keys.add(key)
            chosen.append(move)

    for move in ranked[:top]:
        add(move)
    legal = legal_moves(state, seat)
    # The other way to draw (the stock, the face-up card, a pass at gin's offer), at most TAKES
    # takes of the pile (Rummy 500 reaches deep into it).
    takes = 0
    for move in [*ranked, *legal]:
        if isinstance(move, (DrawStock, Pass)):
            add(move)
        elif isinstance(move, TakeDiscard) and takes < TAKES and move_key(move) not in keys:
            takes += 1
            add(move)
    for move in [*ranked, *legal]:
        if isinstance(move, Knock):
            add(move)
            if move.card is not None:
                add(Discard(move.card))
    if every_discard:
        for move in [*ranked, *legal]:
            if isinstance(move, Discard):
                add(move)
    return chosen


def _sample_rng(seed: int | str | bytes, index: int) -> random.Random:
    raw = seed if isinstance(seed, bytes) else str(seed).encode()
    return random.Random(hashlib.sha256(raw + b"/sample/" + str(index).encode()).digest())


def determinize(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same position with what ``seat`` cannot see dealt again from ``rng``.

    The cards of the other hands and the stock that the seat has not seen are pooled in card-id
    order (so the result does not depend on where they really were), shuffled and put back in the
    places they were taken from; cards the view shows (a knocker's loose cards) or places in a hand
    (gin's taken up-card) stay where they are. The secret is replaced by one drawn from ``rng``.
    """
    unseen = Unseen.from_view(view_for(state, seat))
    known_ids = {card.id for cards in unseen.known.values() for card in cards}
    # Only the cards the seat has not seen move; a card the view shows where it lies (a knocker's
    # loose cards, gin's taken up-card) keeps its place.
    free = {card.id for card in unseen.cards} - known_ids
    slots: list[list[Card]] = [list(hand) for hand in state.hands]
    slots.append(list(state.stock))
    places = [
        (row, col)
        for row, cards in enumerate(slots)
        if row != seat
        for col, card in enumerate(cards)
        if card.id in free
    ]
    pool = sorted((slots[row][col] for row, col in places), key=lambda card: card.id)
    rng.shuffle(pool)
    for (row, col), card in zip(places, pool, strict=True):
        slots[row][col] = card
    hands = [tuple(cards) for cards in slots[:-1]]
    stock = tuple(slots[-1])
    secret = rng.getrandbits(256).to_bytes(32, "big")
    return dataclasses.replace(state, hands=tuple(hands), stock=stock, secret=secret)


def _margin(points: Sequence[int], seat: int, lower_wins: bool) -> float:
    others = [p for other, p in enumerate(points) if other != seat]
    margin = points[seat] - (sum(others) / len(others) if others else 0.0)
    return -margin if lower_wins else margin


def unfinished_margin(state: GameState, seat: int) -> float:
    """A playout that did not finish: each seat is charged the cards left in its hand (what a
    round's end would cost them), as a margin for ``seat``."""
    rules = state.rules
    left = [rules.hand_points(hand) for hand in state.hands]
    return -_margin(left, seat, lower_wins=False)


def _playout(state: GameState, seat: int, level: str, max_moves: int, start: int) -> float:
    """Play on to the end of the round whose result will be ``state.results[start]`` (the round
    may be over already: the alternative ended it)."""
    for _ in range(max_moves):
        if len(state.results) > start:
            result = state.results[start]
            return _margin([line.points for line in result.lines], seat, state.rules.lower_wins)
        if state.phase == "over":
            break
        mover = state.turn
        move = choose_move(view_for(state, mover), level)
        try:
            state = apply_move(state, mover, move).state
        except IllegalMoveError:
            state = apply_move(state, mover, candidate_moves(view_for(state, mover), level)[-1]).state
    if len(state.results) > start:
        result = state.results[start]
        return _margin([line.points for line in result.lines], seat, state.rules.lower_wins)
    return unfinished_margin(state, seat)


def evaluate(
    state: GameState,
    seat: int,
    moves: Sequence[Move] | None = None,
    *,
    samples: int = SAMPLES,
    seed: int | str | bytes = 0,
    playout_level: str = PLAYOUT_LEVEL,
    max_moves: int = MAX_MOVES,
) -> Evaluation:
    """The expected points of each of ``moves`` (default :func:`alternatives`) for ``seat``, who
    must be the seat to move. Deterministic given the seat's view, the moves and ``seed``.

    A move the engine refuses is left out; ``ValueError`` if it is not the seat's turn or no move
    is left.
    """
    if state.phase == "over" or state.turn != seat:
        raise ValueError("the seat is not the one to move")
    if samples < 1:
        raise ValueError("samples must be at least 1")
    tried = list(moves) if moves is not None else alternatives(state, seat)
    margins: dict[int, list[float]] = {}
    legal: list[int] = []
    for index, move in enumerate(tried):
        try:
            apply_move(state, seat, move)
        except IllegalMoveError:
            continue
        legal.append(index)
        margins[index] = []
    if not legal:
        raise ValueError("no legal move to evaluate")
    for number in range(samples):
        world = determinize(state, seat, _sample_rng(seed, number))
        for index in legal:
            after = apply_move(world, seat, tried[index]).state
            margins[index].append(_playout(after, seat, playout_level, max_moves, len(world.results)))
    scored = [
        Alternative(move=tried[i], points=round(sum(margins[i]) / samples, 3), margins=tuple(margins[i]))
        for i in legal
    ]
    order = sorted(range(len(scored)), key=lambda i: (-scored[i].points, i))
    return Evaluation(seat=seat, samples=samples, alternatives=tuple(scored[i] for i in order))


# --- a whole round, one seat's decisions -----------------------------------------------------------
#
# The verdict on a decision is a statement about the expected points the move played gives away
# against its *rival* (the best other alternative), and it is only made when the evidence holds it
# at :data:`CONFIDENCE` (docs/engine.md, "Verdicts that know their error"):
#
# 1. **Screening** picks the rival: every alternative is played out on ``samples`` samples (common
#    random numbers, :func:`evaluate`), the best one other than the move played is the rival.
# 2. **Confirmation** measures the loss on *fresh* samples (other seeds: the rival was chosen as the
#    best of several noisy means, so the screening's own figures flatter it), only the move played
#    and its rival, both on the same samples, in batches of :data:`CONFIRM_BATCH`, at most
#    :data:`CONFIRM_LOOKS` batches. After each batch the loss (the mean of the per-sample
#    differences) gets an interval: Student's t at :data:`CONFIDENCE` with the error spread over
#    the looks (Bonferroni), so looking after each batch does not inflate the confidence stated.
#    Sampling stops as soon as a verdict is settled, or when the batches run out.
# 3. **The verdict** (:func:`verdict`): ``mistake`` only when the loss is large (at least
#    :data:`MISTAKE`) and surely more than :data:`QUESTIONABLE` (the interval's low end);
#    ``questionable`` when it is at least :data:`QUESTIONABLE` and surely more than nothing;
#    ``good`` when it is surely less than :data:`QUESTIONABLE` (the interval's high end);
#    ``unclear`` otherwise. A joker thrown away (Remik 51, Remi, Remik 40: a wild card in a game
#    where the jokers are the hand's best cards) is never ``good``: at best ``unclear``.

#: A decision whose move gives away at least this many points (expected, against the best
#: alternative) is *questionable*; at least :data:`MISTAKE` points, a *mistake* (see :func:`verdict`).
QUESTIONABLE = 5.0
MISTAKE = 15.0
#: The confidence of every verdict, over all the looks at one decision's samples.
CONFIDENCE = 0.95
#: The verdicts, from best to worst ("unclear": the samples did not settle it).
VERDICTS = ("good", "unclear", "questionable", "mistake")
#: Screening samples per decision when a whole round is analysed, and the hard bot's moves tried
#: besides the one played (with the other way to draw and knock or draw on).
ROUND_SAMPLES = 6
ROUND_TOP = 3
#: Confirmation: fresh samples of the move played against its rival, this many at a time, at most
#: this many times.
CONFIRM_BATCH = 6
CONFIRM_LOOKS = 4
#: Playouts one round's analysis may run at most (for one seat): a decision is started only if its
#: worst case (screening plus every confirmation batch) fits; the decisions left are reported as
#: not analysed. With at most :data:`MAX_MOVES` moves a playout, this bounds the CPU.
ROUND_PLAYOUTS = 1200


def critical_value(samples: int, looks: int = CONFIRM_LOOKS, confidence: float = CONFIDENCE) -> float:
    """The half-width of a two-sided interval at ``confidence``, over ``looks`` looks, in standard
    errors of a mean of ``samples`` differences: Student's t quantile with ``samples - 1`` degrees of
    freedom at ``1 - (1 - confidence) / (2 * looks)`` (Bonferroni), by the Cornish-Fisher
    expansion of the normal quantile (within 0.5% of the exact quantile from 5 degrees of
    freedom), rounded to 3 decimals so that CPython and Pyodide agree to the bit.

    >>> critical_value(6, looks=1), critical_value(11, looks=1), critical_value(1000, looks=1)
    (2.57, 2.228, 1.962)
    """
    if samples < 2:
        return math.inf
    z = NormalDist().inv_cdf(1 - (1 - confidence) / (2 * looks))
    v = samples - 1
    z2 = z * z
    g1 = (z2 + 1) * z / 4
    g2 = ((5 * z2 + 16) * z2 + 3) * z / 96
    g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384
    g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160
    return round(z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4, 3)


def interval(diffs: Sequence[float], looks: int = CONFIRM_LOOKS) -> tuple[float, float]:
    """The mean of ``diffs`` and the half-width of its interval (:func:`critical_value`)."""
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, critical_value(n, looks) * math.sqrt(variance / n)


def verdict(loss: float, half: float) -> str:
    """The verdict on a move that gives away ``loss`` points (± ``half``) against its rival.

    >>> verdict(30.0, 4.0), verdict(30.0, 28.0), verdict(8.0, 5.0), verdict(1.0, 3.0), verdict(1.0, 9.0)
    ('mistake', 'questionable', 'questionable', 'good', 'unclear')
    """
    low, high = loss - half, loss + half
    if loss >= MISTAKE and low >= QUESTIONABLE:
        return "mistake"
    if loss >= QUESTIONABLE and low > 0:
        return "questionable"
    if high < QUESTIONABLE:
        return "good"
    return "unclear"


def _settled(label: str, loss: float, half: float) -> bool:
    """Would more samples no longer change the verdict's kind? (``questionable`` may still turn
    out a mistake while its interval reaches :data:`MISTAKE`.)"""
    return label in ("good", "mistake") or (label == "questionable" and loss + half < MISTAKE)


def throws_joker(state: GameState, move: Move) -> bool:
    """Does ``move`` discard a joker in a variant where a joker is wild in the hand's melds (the
    rummy family with jokers: Remik 51, Remi, Remik 40)?"""
    card = move.card if isinstance(move, (Discard, Knock)) else None
    return card is not None and card.is_joker and state.rules.family == "rummy"


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the analysed seat: the move played at replay step ``step`` and its verdict."""

    step: int
    kind: str  # "draw", "meld", "discard" or "knock"
    played: Move
    #: The points of the move played and of its rival (the best other alternative found), on the
    #: confirmation samples.
    played_points: float
    best: Move
    best_points: float
    #: The mean of the per-sample differences (rival less played: negative when the move played
    #: did better) and the half-width of its interval at :data:`CONFIDENCE`.
    loss: float
    error: float
    #: One of :data:`VERDICTS`.
    verdict: str
    #: "questionable" or "mistake" (the verdicts that mark a move on the replay), else "".
    mark: str
    #: "missed_opening", "missed_knock" or "".
    missed: str
    alternatives: int
    #: Confirmation samples drawn, and playouts run in all (screening and confirmation).
    samples: int = 0
    playouts: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "step": self.step,
            "kind": self.kind,
            "played": move_to_json(self.played),
            "played_points": self.played_points,
            "best": move_to_json(self.best),
            "best_points": self.best_points,
            "loss": self.loss,
            "error": self.error,
            "verdict": self.verdict,
            "mark": self.mark,
            "missed": self.missed,
            "alternatives": self.alternatives,
            "samples": self.samples,
        }


@dataclass(frozen=True, slots=True)
class RoundReport:
    """A seat's decisions in one round: those analysed, and the steps left out (forced moves,
    moves a stand-in played, the budget spent)."""

    seat: int
    samples: int
    decisions: tuple[Decision, ...]
    forced: tuple[int, ...]
    skipped: tuple[int, ...]
    unanalysed: tuple[int, ...]
    playouts: int

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "samples": self.samples,
            "decisions": [d.to_json() for d in self.decisions],
            "forced": list(self.forced),
            "skipped": list(self.skipped),
            "unanalysed": list(self.unanalysed),
            "playouts": self.playouts,
            "thresholds": {
                "questionable": QUESTIONABLE,
                "mistake": MISTAKE,
                "confidence": CONFIDENCE,
                "batch": CONFIRM_BATCH,
                "looks": CONFIRM_LOOKS,
            },
        }


def _kind(played: Move, moves: Sequence[Move]) -> str:
    if isinstance(played, (DrawStock, TakeDiscard)) or (
        isinstance(played, Pass) and any(isinstance(m, TakeDiscard) for m in moves)
    ):
        return "draw"
    if any(isinstance(m, Knock) for m in moves):
        return "knock"
    if any(isinstance(m, Play) for m in moves):
        return "meld"
    return "discard"


def _opens(state: GameState, seat: int, move: Move) -> bool:
    if state.rules.family != "rummy" or not state.rules.opening_required:
        return False
    if view_for(state, seat)["opened"][seat]:
        return False
    try:
        after = apply_move(state, seat, move).state
    except IllegalMoveError:
        return False
    return bool(view_for(after, seat)["opened"][seat]) if after.round_no == state.round_no else True


def assess(
    state: GameState,
    seat: int,
    played: Move,
    moves: Sequence[Move],
    *,
    seed: int | str | bytes,
    step: int = 0,
    samples: int = ROUND_SAMPLES,
    batch: int = CONFIRM_BATCH,
    looks: int = CONFIRM_LOOKS,
    playout_level: str = PLAYOUT_LEVEL,
    max_moves: int = MAX_MOVES,
) -> Decision | None:
    """The verdict on ``played`` at ``state`` (``seat`` to move), against ``moves`` (the played
    move among them or not): screening on ``samples`` samples picks the rival, then fresh samples in
    batches of ``batch`` (at most ``looks``) measure the loss until the verdict is settled (see the
    comment above :data:`QUESTIONABLE`). None when the engine leaves no other alternative.
    Deterministic given the seat's view, the moves and ``seed``."""
    key = move_key(played)
    tried = [played, *(m for m in moves if move_key(m) != key)]
    screen = evaluate(
        state,
        seat,
        tried,
        samples=samples,
        seed=f"{seed!r}/screen",
        playout_level=playout_level,
        max_moves=max_moves,
    )
    rivals = [a for a in screen.alternatives if move_key(a.move) != key]
    if not rivals:
        return None
    rival = rivals[0].move
    playouts = samples * len(screen.alternatives)
    start = len(state.results)
    mine: list[float] = []
    theirs: list[float] = []
    label, loss, half = "unclear", 0.0, math.inf
    for look in range(looks):
        for number in range(look * batch, (look + 1) * batch):
            world = determinize(state, seat, _sample_rng(f"{seed!r}/confirm", number))
            for move, margins in ((played, mine), (rival, theirs)):
                after = apply_move(world, seat, move).state
                margins.append(_playout(after, seat, playout_level, max_moves, start))
        playouts += 2 * batch
        loss, half = interval([r - p for r, p in zip(theirs, mine, strict=True)], looks)
        label = verdict(loss, half)
        if _settled(label, loss, half):
            break
    if label == "good" and throws_joker(state, played):
        label = "unclear"
    mark = label if label in ("questionable", "mistake") else ""
    missed = ""
    if mark:
        if isinstance(rival, Knock) and not isinstance(played, Knock):
            missed = "missed_knock"
        elif _opens(state, seat, rival) and not _opens(state, seat, played):
            missed = "missed_opening"
    n = len(mine)
    return Decision(
        step=step,
        kind=_kind(played, [a.move for a in screen.alternatives]),
        played=played,
        played_points=round(sum(mine) / n, 3),
        best=rival,
        best_points=round(sum(theirs) / n, 3),
        loss=round(loss, 3),
        error=round(half, 3) if math.isfinite(half) else 999.0,
        verdict=label,
        mark=mark,
        missed=missed,
        alternatives=len(screen.alternatives),
        samples=n,
        playouts=playouts,
    )


def decision_cost(
    alternatives: int, *, samples: int = ROUND_SAMPLES, batch: int = CONFIRM_BATCH, looks: int = CONFIRM_LOOKS
) -> int:
    """The most playouts :func:`assess` may run for a decision with ``alternatives`` moves."""
    return samples * alternatives + 2 * batch * looks


def analyse_round(
    steps: Sequence[tuple[GameState, int | None, Move | None]],
    seat: int,
    *,
    seed: int | str | bytes,
    samples: int = ROUND_SAMPLES,
    top: int = ROUND_TOP,
    batch: int = CONFIRM_BATCH,
    looks: int = CONFIRM_LOOKS,
    budget: int = ROUND_PLAYOUTS,
    skip: Collection[int] = (),
    progress: Callable[[int, int], None] | None = None,
) -> RoundReport:
    """Analyse ``seat``'s decisions in one round.

    ``steps`` are the round's positions as :func:`~games.engine.round_steps` gives them (the deal,
    then the state after each move, with the seat and the move): ``(state, seat, move)``. Steps in
    ``skip`` (moves a stand-in played for the seat) are left out; so are forced moves (one
    alternative) and, once ``budget`` playouts would be overrun, the rest. Each decision is judged
    by :func:`assess`. ``progress(done, total)`` is called after each decision. Deterministic given
    ``seed``.
    """
    mine = [i for i in range(1, len(steps)) if steps[i][1] == seat and steps[i][2] is not None]
    decisions: list[Decision] = []
    forced: list[int] = []
    skipped: list[int] = []
    unanalysed: list[int] = []
    spent = 0
    for done, index in enumerate(mine, start=1):
        before = steps[index - 1][0]
        played = steps[index][2]
        assert played is not None
        if index in skip:
            skipped.append(index)
        else:
            moves = alternatives(before, seat, top=top, every_discard=False)
            if move_key(played) not in {move_key(m) for m in moves}:
                moves.append(played)
            if len(moves) < 2:
                forced.append(index)
            elif spent + decision_cost(len(moves), samples=samples, batch=batch, looks=looks) > budget:
                unanalysed.append(index)
            else:
                decision = assess(
                    before,
                    seat,
                    played,
                    moves,
                    seed=f"{seed!r}/{index}",
                    step=index,
                    samples=samples,
                    batch=batch,
                    looks=looks,
                )
                if decision is None:
                    forced.append(index)
                else:
                    spent += decision.playouts
                    decisions.append(decision)
        if progress is not None:
            progress(done, len(mine))
    return RoundReport(
        seat=seat,
        samples=samples,
        decisions=tuple(decisions),
        forced=tuple(forced),
        skipped=tuple(skipped),
        unanalysed=tuple(unanalysed),
        playouts=spent,
    )
