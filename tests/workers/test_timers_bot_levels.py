"""Bot seats play at their own level (``Seat.bot_level``); a stand-in always plays ``normal``."""

from __future__ import annotations

import pytest

from games import engine
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match, MoveRecord, Seat
from tests.workers.worker_helpers import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_each_bot_seat_plays_at_its_level_and_a_stand_in_at_normal() -> None:
    ala = make_user("ala")
    room = services.room_create(
        owner=ala, name="Levels", variant="remik51", options={}, seats=3, turn_seconds=60
    )
    services.seat_take(room=room, user=ala, index=0)
    services.seat_add_bot(room=room, index=1, level="easy")
    services.seat_add_bot(room=room, index=2, level="hard")
    match = services.match_start(room=room)
    services.seat_away(match_id=match.pk, user=ala)  # seat 0: the stand-in plays it
    levels = {0: "normal", 1: "easy", 2: "hard"}
    differs = set()
    for _ in range(40):
        match = Match.objects.get(pk=match.pk)
        state = match.game_state()
        view = engine.view_for(state, state.turn)
        expected = choose_move(view, level=levels[state.turn])
        if expected != choose_move(view, level="normal"):
            differs.add(state.turn)
        services.bot_move_play(match_id=match.pk, expected_version=match.version)
        record = MoveRecord.objects.get(match=match, seq=match.version + 1)
        try:
            engine.apply_move(state, state.turn, expected)
        except engine.IllegalMoveError:
            pass  # the service falls back on the bot's next candidate
        else:
            assert record.move == engine.move_to_json(expected), (state.turn, levels[state.turn])
        assert record.actor == (MoveRecord.Actor.STANDIN if state.turn == 0 else MoveRecord.Actor.BOT)
    # The levels did choose differently from the normal bot somewhere (else this proved little).
    assert differs & {1, 2}
    assert Seat.objects.get(room=room, index=0).is_bot is False
