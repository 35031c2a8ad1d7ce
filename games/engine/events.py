"""Domain events: what a transition did, each saying who may see it.

The snapshot (``view_for``) is the truth; events only drive animations and the game log. A private
event (``to`` set) goes to that seat alone — e.g. which card was drawn.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    #: ``None``: everyone (players and spectators); otherwise only this seat.
    to: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


def public(kind: str, **data: Any) -> Event:
    return Event(kind, data)


def private(to: int, kind: str, **data: Any) -> Event:
    return Event(kind, data, to=to)


def events_for(events: Iterable[Event], seat: int | None) -> list[dict[str, Any]]:
    """The events ``seat`` may see (``None``: a spectator), as JSON."""
    return [event.to_json() for event in events if event.to is None or event.to == seat]
