"""Pushing game frames to sockets: group names and the channel-layer send.

Each seat has its own group and gets a frame built with ``engine.view_for(state, seat)``, so a
seat's hand only ever travels to that seat's group; spectators get ``view_for(state, None)``.
Every frame is built by ``games.framing.frame_for``, the function practice runs in the browser.
Called from ``transaction.on_commit`` only, never inside a transaction. The send itself goes
through ``remi_site.embedded.broadcast_many``, which also works from the Celery worker thread
that runs inside the server in single-process mode.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games import engine, framing
from remi_site import embedded

#: The layer message type; consumers handle it in ``async def match_frame(self, message)``.
FRAME_MESSAGE = "match.frame"


def seat_group(match_id: int, seat: int) -> str:
    return f"match-{match_id}.seat-{seat}"


def spectators_group(match_id: int) -> str:
    return f"match-{match_id}.spectators"


def frames(
    *,
    match_id: int,
    state: engine.GameState,
    version: int,
    events: Iterable[engine.Event] = (),
    clock: Mapping[str, Any] | None = None,
    seats: Sequence[Mapping[str, Any]] | None = None,
) -> list[tuple[str, dict[str, object]]]:
    """(group, frame) for every seat and for the spectators, each built for that audience only.

    ``clock`` is the match's clock (``selectors.match_clock``) and ``seats`` the seats' states
    (``selectors.seats_field``), the same for every audience.
    """
    events = tuple(events)
    audiences: list[tuple[str, int | None]] = [
        (seat_group(match_id, seat), seat) for seat in range(state.players)
    ]
    audiences.append((spectators_group(match_id), None))
    return [
        (
            group,
            framing.frame_for(state, seat, version=version, events=events, clock=clock, seats=seats),
        )
        for group, seat in audiences
    ]


def publish(
    *,
    match_id: int,
    state: engine.GameState,
    version: int,
    events: Iterable[engine.Event] = (),
    clock: Mapping[str, Any] | None = None,
    seats: Sequence[Mapping[str, Any]] | None = None,
    except_channel: str | None = None,
) -> None:
    """Send each audience its frame. Run after commit, so a reader never sees an older row.

    A seat's presence changing (away, back, offline, connected) sends everyone a frame too, at
    the same ``version`` with the new ``seats``. ``except_channel``: a socket that does not
    forward this frame (it reads a fresh one itself: a socket that has just connected).
    """
    extra = {"except": except_channel} if except_channel is not None else {}
    embedded.broadcast_many(
        (group, {"type": FRAME_MESSAGE, "frame": frame, **extra})
        for group, frame in frames(
            match_id=match_id, state=state, version=version, events=events, clock=clock, seats=seats
        )
    )
