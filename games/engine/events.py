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


# Every move makes events: they are made through their slots, as ``__init__`` would, but without
# the frozen dataclass's ``object.__setattr__`` per field (``make bench``).
_NEW = object.__new__
_SET_KIND = vars(Event)["kind"].__set__
_SET_DATA = vars(Event)["data"].__set__
_SET_TO = vars(Event)["to"].__set__


def public(kind: str, **data: Any) -> Event:
    """An event everyone may see."""
    event: Event = _NEW(Event)
    _SET_KIND(event, kind)
    _SET_DATA(event, data)
    _SET_TO(event, None)
    return event


def private(to: int, kind: str, **data: Any) -> Event:
    """An event for seat ``to`` alone."""
    event: Event = _NEW(Event)
    _SET_KIND(event, kind)
    _SET_DATA(event, data)
    _SET_TO(event, to)
    return event


def events_for(events: Iterable[Event], seat: int | None) -> list[dict[str, Any]]:
    """The events ``seat`` may see (``None``: a spectator), as JSON."""
    return [event.to_json() for event in events if event.to is None or event.to == seat]
