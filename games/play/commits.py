"""A committed change of a match, as one value: what its frames show and what plays next.

A move (or a match's start, a seat's presence, a match's close) is written under the match's row
lock; ``games.play.services.core.publish_after_commit`` then builds one ``Committed`` from the row it
wrote and hands it to ``transaction.on_commit``. After commit the same value goes, whole, to
``games.play.broadcast.publish`` (every audience's frame, built by ``games.play.framing.frame_for``) and
to the scheduling of the bot's move or of the person's turn timer
(``games.play.services.core.after_commit``). Where frames are built and why: docs/architecture.md,
"Where frames are built".

Plain values only (the engine's state is immutable; ``clock`` and ``seats`` are the frames'
fields, built once for every audience and not changed after): a callback after commit never
holds a model instance. Pure Python, no Django, held to it by the contract of the modules sent
to the browser (pyproject.toml): ``games.play.framing``, which practice runs in the browser, may read
it (it would then be shipped with it: ``games/practice/assets.py``, ``BROWSER_MODULES``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games import engine


@dataclass(frozen=True, slots=True)
class Committed:
    """A change of match ``match_id`` committed at ``version``.

    What its frames show (``games.play.broadcast.frames``): ``state`` and the ``events`` of the move
    that led there; ``clock`` (``selectors.match_clock``) and ``seats`` (``selectors.seats_field``),
    the same for every audience; ``actor``, who made the move (``MoveRecord.Actor``; None for other
    changes); ``sealed``, a deal of the day's: no frame carries its seed (``framing.frame_for``).
    ``except_channel``: a socket that does not forward these frames (it reads a fresh one itself).

    What plays next, once the frames are sent (``services.core.after_commit``): the bot's move
    when ``bot_to_move`` (not before ``resume_at``, the end of the pause between rounds), else a
    person's turn timer at ``timer_at`` for the turn that began at ``turn_started``; neither when
    the change left the awaited move as it was.
    """

    match_id: int
    state: engine.GameState
    version: int
    events: tuple[engine.Event, ...] = ()
    clock: Mapping[str, Any] | None = None
    seats: Sequence[Mapping[str, Any]] | None = None
    actor: str | None = None
    sealed: bool = False
    except_channel: str | None = None
    bot_to_move: bool = False
    timer_at: datetime | None = None
    turn_started: datetime | None = None
    resume_at: datetime | None = None


__all__ = ["Committed"]
