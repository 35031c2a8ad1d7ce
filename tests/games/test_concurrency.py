import threading
from typing import Any

import pytest
from django.db import connection

from games import engine
from games.play import services
from games.play.models import MoveRecord
from games.shared.errors import StaleVersionError


@pytest.mark.django_db(transaction=True)
def test_two_submissions_of_the_same_version_let_exactly_one_through(make_room: Any, make_user: Any) -> None:
    # PostgreSQL serialises them with the Match row lock; SQLite with its IMMEDIATE write lock.
    room = make_room("remik51", seats=2)
    users = [make_user("ala"), make_user("bartek")]
    for user in users:
        services.seat_take(room=room, user=user)
    match = services.match_start(room=room)
    state = match.game_state()
    user = users[state.turn]
    move = engine.Discard(state.hands[state.turn][0])

    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def submit() -> None:
        try:
            barrier.wait(timeout=10)
            outcomes.append(services.move_submit(match_id=match.pk, user=user, move=move, expected_version=0))
        except Exception as error:  # collected and checked below
            outcomes.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert outcomes.count(1) == 1
    stale = [o for o in outcomes if isinstance(o, StaleVersionError)]
    assert len(stale) == 1
    assert stale[0].current == 1
    assert MoveRecord.objects.filter(match=match).count() == 1
    match.refresh_from_db()
    assert match.version == 1
