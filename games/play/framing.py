"""The one function that builds a seat's state frame, on the server and in the browser.

The site's broadcasts (``games.play.broadcast``) and the frames it sends on request
(``games.play.selectors.match_frame_for``) build every frame here; so does practice, in the
player's browser (``games.practice.game``, run by Pyodide in a Web Worker: docs/practice.md). The
table's scripts therefore get the same frame for the same seat, state and table facts, and
cannot tell a local game from a live one except by their connection object.

Pure Python, no Django: it goes into the engine archive the browser loads
(``games/practice/assets.py``).

>>> from games import engine
>>> state = engine.new_game(engine.variant("gin"), ["Ana", "Bob"], seed=3)
>>> frame = frame_for(state, 0, version=0)
>>> frame["type"], frame["version"], frame["view"]["seat"], len(frame["view"]["hand"]), frame["events"]
('state', 0, 0, 10, [])
>>> frame_for(state, None, version=0)["view"]["hand"] is None      # a spectator sees no hand
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games import engine
from games.play import protocol


def frame_for(
    state: engine.GameState,
    seat: int | None,
    *,
    version: int,
    events: Iterable[engine.Event] = (),
    clock: Mapping[str, Any] | None = None,
    seats: Iterable[Mapping[str, Any]] | None = None,
    actor: str | None = None,
    sealed: bool = False,
) -> dict[str, Any]:
    """The state frame of ``seat`` (None: the spectators) at ``version``.

    ``view`` is ``engine.view_for(state, seat)``; ``events`` are the events of the move that
    led here, each as that seat may see it (``engine.events_for``); ``clock`` and ``seats`` are
    the table's facts (``protocol.clock``, ``protocol.seats``), the same for every audience.
    Once the match is over no bot plays for anybody: no seat is a ``standin`` any more (an away
    seat stays ``away``). ``sealed``: the deal's seed stays out of the view even once the match
    is over, and out of the events (a round's end announces it): a deal of the day's, whose
    seed waits for the end of its day (games/learn/daily.py).
    """
    if seats is not None and state.is_over:
        seats = [{**entry, "standin": False} for entry in seats]
    view = engine.view_for(state, seat)
    if sealed:
        # The seed a view reveals once the match is over (and a round's end announces: below).
        view.pop("revealed_seed", None)
    return protocol.state_frame(
        view,
        version,
        events_seen(events, seat, sealed=sealed),
        clock=clock,
        seats=seats,
        actor=actor,
    )


def events_seen(
    events: Iterable[engine.Event], seat: int | None, *, sealed: bool = False
) -> list[dict[str, Any]]:
    """The events of a move as ``seat`` (None: the spectators) sees them in its frame: those it
    may see (``engine.events_for``), without the seed a round's end announces when ``sealed``.
    The frames after a move and the round's log a page opens with (``selectors.round_log``)
    both read them here."""
    seen = engine.events_for(tuple(events), seat)
    if sealed:
        seen = [{key: value for key, value in event.items() if key != "seed"} for event in seen]
    return seen


__all__ = ["events_seen", "frame_for"]
