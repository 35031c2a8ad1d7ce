"""Who made a move travels with its frames (``actor``, docs/protocol.md): the table's move log
marks a stand-in's moves ("bot for Ala: …", issue 14) from it."""

from __future__ import annotations

import pytest

from games import engine
from games.engine.bots import choose_move
from games.play import broadcast, framing, selectors, services
from games.play.commits import Committed
from games.play.models import Match, MoveRecord
from games.play.services.moves import standin_turn
from tests.browser.tablekit import start_match, users
from tests.schema import assert_frame

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[Committed]:
    calls: list[Committed] = []
    monkeypatch.setattr(broadcast, "publish", calls.append)
    return calls


def test_a_frame_names_its_actor_and_fits_the_schema() -> None:
    state = engine.new_game(engine.variant("gin"), ["Ana", "Bob"], seed=3)
    for actor in ("player", "bot", "standin"):
        frame = framing.frame_for(state, 0, version=4, actor=actor)
        assert frame["actor"] == actor
        assert_frame(frame)
    assert "actor" not in framing.frame_for(state, 0, version=4)


def test_a_players_move_and_a_stand_ins_turn_are_published_with_their_actor(
    published: list[Committed],
) -> None:
    players = users(2)
    match = start_match("remik51", {"max_players": 2}, players, b"actor frames")
    state = match.game_state()
    mover = state.turn

    services.move_submit(
        match_id=match.pk,
        user=players[mover],
        move=choose_move(engine.view_for(state, mover)),
        expected_version=match.version,
    )
    assert published[-1].actor == MoveRecord.Actor.PLAYER
    for frame in broadcast.frames(published[-1]):
        assert frame[1]["actor"] == "player"
        assert_frame(frame[1])

    match = Match.objects.get(pk=match.pk)
    before = len(published)
    standin_turn(match=match, state=match.game_state(), rows=selectors.seat_rows(room_id=match.room_id))
    assert len(published) > before
    assert {call.actor for call in published[before:]} == {MoveRecord.Actor.STANDIN}
