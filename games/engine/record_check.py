"""Checking a game record: every deal against its commitment, every move against the rules.

A site's exported record (``docs/record.md``) is a ``remi-record/1`` document (rules, options,
players, the match secret, the moves) with a ``rounds`` list added: for each round, the
``commitment`` the table published before the deal, the ``seed`` it revealed afterwards and the
score ``lines`` it wrote. :func:`verify_record` re-runs it and says, round by round:

* the revealed seed hashes to the commitment (SHA-256): the deal was fixed before anyone saw it;
* the revealed seed is the one the match secret gives (``deal_seed(secret, k)``, HMAC-SHA256),
  unless the record holds a seed book (the finished rounds of a match still being played);
* the deal recomputed from the revealed seed alone (``verify_deal``) is the one the moves were
  played from;
* every move is legal from that deal, and the replay scores each round exactly as published.

>>> from games.engine import variant, new_game, legal_moves, apply_move
>>> from games.engine.records import make_record, record_to_json
>>> rules = variant("remi", opening="classic", rounds=1)
>>> state, moves = new_game(rules, ["Ana", "Bogdan"], seed=7), []
>>> while not state.is_over:
...     move = legal_moves(state, state.turn)[0]
...     moves.append((state.turn, move))
...     state = apply_move(state, state.turn, move).state
>>> document = record_to_json(make_record(rules, ["Ana", "Bogdan"], 7, moves))
>>> report = verify_record(document)
>>> report["ok"], [r["deal_ok"] for r in report["rounds"]]
(True, [True])
>>> document["moves"][3]["seat"] = 1 - document["moves"][3]["seat"]
>>> verify_record(document)["problems"][0].startswith("move 4")
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import errors
from .deal import SEED_BOOK, commitment, deal_seed
from .events import Event
from .game import apply_move, new_game
from .moves import Move, move_from_json
from .records import GameRecord, record_from_json, verify_deal
from .scoring import RoundResult
from .state import GameState, Transition, atu_of


@dataclass(frozen=True, slots=True)
class Step:
    """One frame of a round: the state after ``move`` by ``seat`` (the deal itself: no move)."""

    state: GameState
    seat: int | None = None
    move: Move | None = None
    #: Set on the step whose move ended the round: its result (``state`` is then the next
    #: round's deal, or the match's end).
    result: RoundResult | None = None
    #: What the move did (``events.Event``; the gin family's ``round_over`` holds the final table).
    events: tuple[Event, ...] = ()


def round_steps(record: GameRecord | Mapping[str, Any], round_no: int) -> list[Step]:
    """The deal of round ``round_no`` and the state after each of its moves.

    Replays the record from its first move (the rounds before set the totals and the dealer).
    Raises ``ValueError`` if the record never deals that round, or if a move is refused.
    """
    steps = list(iter_round_steps(record, round_no))
    if not steps:
        raise ValueError(f"the record never deals round {round_no}")
    return steps


def iter_round_steps(record: GameRecord | Mapping[str, Any], round_no: int) -> Iterator[Step]:
    """:func:`round_steps` one step at a time: a caller that needs a few steps (a page of a
    replay) stops early, and the steps it skips are not kept. Yields nothing if the record never
    deals that round; raises ``ValueError`` when it reaches a refused move.

    >>> from games.engine import variant, new_game, legal_moves, apply_move
    >>> from games.engine.records import make_record
    >>> rules = variant("remi", opening="classic", rounds=1)
    >>> state, moves = new_game(rules, ["Ana", "Bogdan"], seed=7), []
    >>> for _ in range(6):
    ...     move = legal_moves(state, state.turn)[0]
    ...     moves.append((state.turn, move))
    ...     state = apply_move(state, state.turn, move).state
    >>> record = make_record(rules, ["Ana", "Bogdan"], 7, moves)
    >>> from itertools import islice
    >>> [step.seat for step in islice(iter_round_steps(record, 1), 4)]
    [None, 0, 1, 1]
    >>> len(round_steps(record, 1))
    7
    """
    if not isinstance(record, GameRecord):
        record = record_from_json(record)
    state = new_game(record.rules, list(record.players), record.seed, first=record.first)
    started = state.round_no == round_no
    if started:
        yield Step(state)
    for index, (seat, move) in enumerate(record.moves, start=1):
        if state.round_no > round_no or state.is_over:
            break
        before = state
        transition = _transition(state, seat, move, index)
        state = transition.state
        if before.round_no == round_no:
            result = state.results[-1] if len(state.results) > len(before.results) else None
            yield Step(state, seat, move, result, transition.events)
        elif state.round_no == round_no and not started:
            started = True
            yield Step(state)


def _apply(state: GameState, seat: int, move: Move, index: int) -> GameState:
    return _transition(state, seat, move, index).state


def _transition(state: GameState, seat: int, move: Move, index: int) -> Transition:
    try:
        return apply_move(state, seat, move)
    except errors.IllegalMoveError as error:
        raise ValueError(f"move {index} (seat {seat}) is refused: {error.code}: {error}") from None
    except (IndexError, KeyError, TypeError, ValueError) as error:
        # A seat or a meld the table does not have: a record written by hand, or tampered with.
        raise ValueError(f"move {index} (seat {seat}) cannot be applied: {error!r}") from None


def verify_record(data: Mapping[str, Any]) -> dict[str, Any]:
    """Re-run a record and check each round's deal and score lines; never raises on bad input.

    Returns ``{"ok", "problems", "rounds", "moves", "variant", "players", "finished"}``. Each
    round: ``round``, ``commitment`` (published, or recomputed when the record has none),
    ``seed``, ``commitment_ok``, ``seed_ok`` (from the secret), ``deal_ok``, ``lines_ok``,
    ``finished``, ``moves`` (how many were played in it), ``first``, ``hands`` (as dealt),
    ``atu``, ``problems``. ``problems`` lists every failure in words, the first one first.
    """
    problems: list[str] = []
    report: dict[str, Any] = {"ok": False, "problems": problems, "rounds": [], "moves": 0}
    try:
        record = record_from_json(data)
    except (KeyError, TypeError, ValueError, errors.IllegalMoveError) as error:
        problems.append(f"not a readable game record: {_reason(error)}")
        return report
    report.update(variant=record.rules.title, players=list(record.players), moves=len(record.moves))
    published = _published_rounds(data.get("rounds"), problems)
    try:
        state = new_game(record.rules, list(record.players), record.seed, first=record.first)
    except ValueError as error:
        problems.append(f"the record's table cannot be dealt: {error}")
        return report
    rounds: dict[int, dict[str, Any]] = {}
    book = record.seed.startswith(SEED_BOOK)
    report["seed_book"] = book
    _open_round(state, rounds)
    for index, (seat, move) in enumerate(record.moves, start=1):
        before = state
        try:
            state = _apply(state, seat, move, index)
        except ValueError as error:
            problems.append(f"{error} (round {before.round_no})")
            break
        rounds[before.round_no]["moves"] += 1
        for result in state.results[len(before.results) :]:
            rounds[result.round_no]["result"] = result
        if state.round_no != before.round_no and not state.is_over:
            _open_round(state, rounds)
    for number in sorted(rounds):
        if book and number not in published:
            continue  # past the seed book: a deal nobody has seen, which the record does not claim
        report["rounds"].append(_check_round(record, rounds[number], published.get(number), problems))
    for number in sorted(set(published) - set(rounds)):
        problems.append(f"round {number}: the record publishes it, but its moves never reach it")
    report["finished"] = state.is_over
    report["ok"] = not problems
    return report


def _reason(error: BaseException) -> str:
    if isinstance(error, KeyError):
        return f"the field {error} is missing"
    return str(error)


def _published_rounds(items: Any, problems: list[str]) -> dict[int, Mapping[str, Any]]:
    if items is None:
        return {}
    if not isinstance(items, Sequence) or not all(isinstance(item, Mapping) for item in items):
        problems.append("'rounds' is not a list of rounds")
        return {}
    published: dict[int, Mapping[str, Any]] = {}
    for item in items:
        number = item.get("round")
        if not isinstance(number, int) or number in published:
            problems.append(f"'rounds' has a bad or repeated round number: {number!r}")
            continue
        published[number] = item
    return published


def _open_round(state: GameState, rounds: dict[int, dict[str, Any]]) -> None:
    rounds[state.round_no] = {
        "round": state.round_no,
        "first": state.first,
        "hands": state.hands,
        "atu": atu_of(state),
        "players": state.players,
        "rules": state.rules,
        "moves": 0,
        "result": None,
    }


def _check_round(
    record: GameRecord, dealt: dict[str, Any], published: Mapping[str, Any] | None, problems: list[str]
) -> dict[str, Any]:
    number: int = dealt["round"]
    result: RoundResult | None = dealt["result"]
    own: list[str] = []
    derived = deal_seed(record.seed, number)
    seed_text = published.get("seed") if published else None
    shown_commitment = published.get("commitment") if published else None
    if result is not None and published is not None and not seed_text:
        own.append("the round is over but the record reveals no seed for it")
    seed = derived
    seed_ok: bool | None = None
    if seed_text:
        try:
            seed = bytes.fromhex(str(seed_text))
        except ValueError:
            own.append(f"the revealed seed {seed_text!r} is not hexadecimal")
        # A seed book (the finished rounds of a match being played) holds the seeds themselves.
        seed_ok = None if record.seed.startswith(SEED_BOOK) else seed == derived
        if seed_ok is False:
            own.append("the revealed seed is not the one the match secret gives (HMAC-SHA256)")
    commitment_ok: bool | None = None
    if shown_commitment is not None:
        commitment_ok = commitment(seed) == shown_commitment
        if not commitment_ok:
            own.append(
                f"SHA-256 of the revealed seed is {commitment(seed)}, not the commitment "
                f"{shown_commitment} published before the deal"
            )
    deal = verify_deal(dealt["rules"], dealt["players"], seed, dealt["first"], atu=dealt["atu"])
    dealt_hands = [sorted(str(card) for card in hand) for hand in dealt["hands"]]
    # A seat that is out (Knock-108) is dealt nothing and the others are dealt in another order:
    # then the replay's own deal (from the checked seed) is the only recomputation.
    deal_ok: bool | None = None
    if all(dealt_hands):
        recomputed = [sorted(hand) for hand in deal["hands"]]
        deal_ok = dealt_hands == recomputed and deal["atu_ok"] is not False
        if not deal_ok:
            own.append("the hands the moves were played from are not the deal of the revealed seed")
    lines_ok: bool | None = None
    if result is not None and published is not None and published.get("lines") is not None:
        lines_ok = _lines_equal(result, published["lines"])
        if not lines_ok:
            own.append("the replayed score lines differ from the published ones")
    problems.extend(f"round {number}: {text}" for text in own)
    return {
        "round": number,
        "commitment": shown_commitment if shown_commitment is not None else commitment(seed),
        "published_commitment": shown_commitment is not None,
        "seed": seed.hex(),
        "commitment_ok": commitment_ok,
        "seed_ok": seed_ok,
        "deal_ok": deal_ok,
        "lines_ok": lines_ok,
        "finished": result is not None,
        "moves": dealt["moves"],
        "first": dealt["first"],
        "hands": [[str(card) for card in hand] for hand in dealt["hands"]],
        "atu": str(dealt["atu"]) if dealt["atu"] else None,
        "lines": [line.to_json() for line in result.lines] if result is not None else [],
        "totals": list(result.totals) if result is not None else [],
        "problems": own,
    }


_LINE_FIELDS = ("seat", "points", "hand", "table", "bonus", "atu_bonus", "multiplier", "chips")


def _lines_equal(result: RoundResult, lines: Any) -> bool:
    if not isinstance(lines, Sequence) or len(lines) != len(result.lines):
        return False
    for mine, theirs in zip(result.lines, lines, strict=True):
        if not isinstance(theirs, Mapping):
            return False
        ours = mine.to_json()
        for name in _LINE_FIELDS:
            if ours.get(name) != theirs.get(name):
                return False
    return True


def moves_from_json(items: Sequence[Mapping[str, Any]]) -> list[tuple[int, Move]]:
    """``[{"seat": 0, "move": {...}}, ...]`` as (seat, move) pairs."""
    return [(int(item["seat"]), move_from_json(item["move"])) for item in items]


__all__ = ["Step", "moves_from_json", "round_steps", "verify_record"]
