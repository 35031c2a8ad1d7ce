"""A table of rule cases: a position, the moves played from it, and what the last one must give.

A :class:`Case` is one row: the rule it checks (its id leads the test id), the position (built by
``position(...)`` when the case runs), the moves played before the one under test, the move, and the
expected outcome: a refusal's ``code`` (with its ``fields`` and ``rule``), or facts of the new state
(``expect``). :func:`check` plays a case and checks every fact; a refused move must leave the state
it was tried on unchanged and still playable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.engine import GameState, Move, Transition, apply_move, legal_moves, position, view_for
from games.engine.rules import Rules
from games.engine.scoring import table_points
from tests.engine.helpers import faces, refused, table_cards


def at(rules: Rules, **where: Any) -> Callable[[], GameState]:
    """The position ``position(rules, **where)``, built when the case runs."""
    return lambda: position(rules, **where)


@dataclass(frozen=True)
class Case:
    """One row of a rule table (see the module note)."""

    rule: str
    what: str
    start: Callable[[], GameState]
    move: Move
    seat: int = 0
    #: ``(seat, move)`` played first, in order.
    before: Sequence[tuple[int, Move]] = ()
    #: The refusal's code (None: the move is accepted).
    code: str | None = None
    #: The refusal's fields and rule id (``{"rule": "R51-41", "points": 44}``), or the new state's
    #: facts (see ``FACTS``).
    expect: Mapping[str, Any] = field(default_factory=dict)
    #: Facts of the state the move is tried on (see ``FACTS``).
    given: Mapping[str, Any] = field(default_factory=dict)

    def param(self) -> Any:
        return pytest.param(self, id=f"{self.rule} {self.what}")


def _lines(state: GameState, wanted: Mapping[int, Mapping[str, int]]) -> None:
    lines = state.results[-1].lines
    for seat, values in wanted.items():
        got = {name: getattr(lines[seat], name) for name in values}
        assert got == dict(values), (seat, got, values)


def _view(state: GameState, wanted: Mapping[tuple[Any, ...], Any]) -> None:
    """``{(seat, key, key...): value}``: what ``view_for(state, seat)`` holds at that path."""
    for (seat, *path), value in wanted.items():
        found: Any = view_for(state, seat)
        for key in path:
            found = found[key]
        assert found == value, (seat, path, found, value)


def _cycle(state: GameState, wanted: Mapping[str, Any]) -> None:
    for name, value in wanted.items():
        got = getattr(state.cycle, name)
        if name == "consumed":
            got = len(got)
        assert got == value, (name, got, value)


#: What ``expect`` may say of the new state, each checked by its function.
FACTS: dict[str, Callable[[Transition, Any], None]] = {
    "table": lambda t, v: _same("table", {m: table_cards(t.state, m) for m in v}, dict(v)),
    "hand": lambda t, v: _same("hand", {s: faces(t.state.hands[s]) for s in v}, v),
    "discard": lambda t, v: _same("discard", [c.face for c in t.state.discard], v),
    "opened": lambda t, v: _same("opened", t.state.cycle.opened, v),
    "placed_by": lambda t, v: _same("placed_by", {m: t.state.meld_by_id(m).placed_by for m in v}, v),  # type: ignore[union-attr]
    "points": lambda t, v: _same("points", [line.points for line in t.state.results[-1].lines], v),
    "lines": lambda t, v: _lines(t.state, v),
    "result": lambda t, v: _same("result", {k: getattr(t.state.results[-1], k) for k in v}, v),
    "state": lambda t, v: _same("state", {k: getattr(t.state, k) for k in v}, v),
    "hand_sizes": lambda t, v: _same("hand_sizes", [len(h) for h in t.state.hands], v),
    "table_points": lambda t, v: _same("table_points", table_points(t.state), v),
    "cycle": lambda t, v: _cycle(t.state, v),
    "events": lambda t, v: _same("events", [e.kind for e in t.events if e.kind in v], list(v)),
    "no_events": lambda t, v: _same("no_events", [e.kind for e in t.events if e.kind in v], []),
    "event_points": lambda t, v: _same(
        "event_points", [(e.kind, e.data["points"]) for e in t.events if e.kind == v[0]], [v]
    ),
    "view": lambda t, v: _view(t.state, v),
    "refuses": lambda t, v: _refuses(t.state, v),
}


def _same(name: str, got: Any, wanted: Any) -> None:
    assert got == wanted, (name, got, wanted)


def _refuses(state: GameState, tries: Sequence[tuple[int, Move, str]]) -> None:
    """``[(seat, move, code)]``: moves the new state refuses."""
    for seat, move, code in tries:
        refused(state, seat, move, code)


def check(case: Case) -> None:
    """Play ``case`` and check its outcome (see the module note)."""
    state = case.start()
    for seat, move in case.before:
        state = apply_move(state, seat, move).state
    _facts(Transition(state, ()), case.given)
    if case.code is not None:
        error = refused(state, case.seat, case.move, case.code)
        wanted = dict(case.expect)
        if "rule" in wanted:
            assert error.rule == wanted.pop("rule")
        if "view" in wanted:
            _view(state, wanted.pop("view"))
        assert {k: error.fields[k] for k in wanted} == wanted, (error.fields, wanted)
        # Still playable: the seat to move can make a legal move from the state tried.
        if state.phase != "over":
            moves = legal_moves(state, state.turn)
            assert moves
            apply_move(state, state.turn, moves[0])
        return
    _facts(apply_move(state, case.seat, case.move), case.expect)


def _facts(transition: Transition, wanted: Mapping[str, Any]) -> None:
    unknown = set(wanted) - set(FACTS)
    assert not unknown, f"no such fact: {sorted(unknown)}"
    for name, value in wanted.items():
        FACTS[name](transition, value)
