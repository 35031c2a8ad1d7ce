"""Ranked rooms and matches played to their end, for the ranked tests.

Every seat of a ranked room is a person; the engine's bot chooses their moves here (through
``services.move_submit``, as the person would), or a staff stand-in plays their turns
(``services.turn_end_stuck``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games import engine
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match, Room


def ranked_room(
    players: list[Any], variant: str = "remi", options: dict[str, Any] | None = None, *, ranked: bool = True
) -> Room:
    """A room with ``players`` seated in order (seat 0 is the owner)."""
    room = services.room_create(
        owner=players[0],
        name="Ranked table",
        variant=variant,
        options=options if options is not None else {"rounds": 1},
        seats=len(players),
        turn_seconds=60,
        ranked=ranked,
    )
    for index, player in enumerate(players):
        services.seat_take(room=room, user=player, index=index)
    return room


def play_moves(match: Match, players: list[Any], *, standins: Iterable[int] = (), limit: int = 5000) -> Match:
    """Play until the match is over (or ``limit`` moves): the bot chooses each person's move.

    The seats in ``standins`` are played by the staff stand-in (``turn_end_stuck``) instead.
    """
    standins = set(standins)
    match.refresh_from_db()
    for _ in range(limit):
        state = match.game_state()
        if state.is_over:
            break
        seat = state.turn
        if seat in standins:
            services.turn_end_stuck(match_id=match.pk)
        else:
            move = choose_move(engine.view_for(state, seat))
            services.move_submit(
                match_id=match.pk, user=players[seat], move=move, expected_version=match.version
            )
        match.refresh_from_db()
    return match


def play_ranked(
    players: list[Any], variant: str = "remi", options: dict[str, Any] | None = None, **kw: Any
) -> Match:
    """A new ranked room for ``players``, one match played to its end."""
    room = ranked_room(players, variant, options)
    match = play_moves(services.match_start(room=room), players, **kw)
    assert match.game_state().is_over
    return match
