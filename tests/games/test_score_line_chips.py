"""Chips of the site (Remik 40's prize pool) are stored on each round's score lines."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.play import services
from games.play.models import Match, Room, ScoreLine


@pytest.mark.django_db
def test_a_finished_remik40_game_stores_each_seats_chips(make_room: Callable[..., Room]) -> None:
    room = make_room("remik40", seats=3)
    for index in range(3):
        services.seat_add_bot(room=room, index=index)
    match = services.match_start(room=room)
    for _ in range(3000):
        match = Match.objects.get(pk=match.pk)
        if match.status == Match.Status.FINISHED:
            break
        services.bot_move_play(match_id=match.pk, expected_version=match.version)
    assert match.status == Match.Status.FINISHED

    state = match.game_state()
    stored = {line.seat: line.chips for line in ScoreLine.objects.filter(round__match=match)}
    expected: dict[int, Any] = {line.seat: line.chips for line in state.results[-1].lines}
    assert stored == expected
    assert all(chips is not None for chips in stored.values())
