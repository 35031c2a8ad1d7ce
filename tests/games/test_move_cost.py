"""What a move costs the server, pinned where it can be counted: its SQL statements, the rows its
prepared statements read back, and the frames it builds
(docs/benchmarks.md, "Where a move's CPU goes"). Nothing here is timed."""

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import engine
from games.play import broadcast, selectors, services, statements
from games.play.commits import Committed
from games.play.models import Match, MoveRecord, Room, Seat

#: Statements that only open, close or nest a transaction (the test's own atomic block on
#: SQLite makes savepoints of the service's).
_TRANSACTION_ONLY = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


def _work(captured: CaptureQueriesContext) -> list[str]:
    return [
        query["sql"]
        for query in captured.captured_queries
        if not query["sql"].upper().startswith(_TRANSACTION_ONLY)
    ]


@pytest.fixture
def players(make_user: Any) -> tuple[Any, Any]:
    return make_user("ala"), make_user("bartek")


@pytest.fixture
def match(make_room: Any, players: tuple[Any, Any]) -> Match:
    room = make_room("remik51", seats=2)
    for user in players:
        services.seat_take(room=room, user=user)
    return services.match_start(room=room)


def _a_move(state: engine.GameState) -> engine.Move:
    """A draw, or a discard where the turn starts without one (the dealer's 15 cards)."""
    if "draw" in engine.view_for(state, state.turn)["you"]["moves"]:
        return engine.DrawStock()
    return engine.Discard(state.hands[state.turn][0])


def _play(match: Match, players: tuple[Any, Any], command_id: str | None = None) -> int:
    state = match.game_state()
    return services.move_submit(
        match_id=match.pk,
        user=players[state.turn],
        move=_a_move(state),
        expected_version=match.version,
        command_id=command_id,
    )


@pytest.mark.parametrize("command_id", [None, "c-1"])
def test_a_move_is_four_statements(
    match: Match, players: tuple[Any, Any], command_id: str | None, django_capture_on_commit_callbacks: Any
) -> None:
    # Lock the match with its room; the seats (and the command id's EXISTS); log; update.
    with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks(execute=True):
        _play(match, players, command_id)
    work = _work(captured)
    assert [sql.split()[0].upper() for sql in work] == ["SELECT", "SELECT", "INSERT", "UPDATE"], work
    assert ("EXISTS" in work[1].upper()) == (command_id is not None)


def test_a_resent_command_is_two_statements(match: Match, players: tuple[Any, Any]) -> None:
    state = match.game_state()
    user, move = players[state.turn], _a_move(state)
    version = services.move_submit(
        match_id=match.pk, user=user, move=move, expected_version=0, command_id="c-1"
    )
    with CaptureQueriesContext(connection) as captured:
        again = services.move_submit(
            match_id=match.pk, user=user, move=move, expected_version=0, command_id="c-1"
        )
    assert (again, type(again)) == (version, services.AlreadyApplied)
    assert len(_work(captured)) == 2


def test_the_locked_match_is_the_orms(match: Match) -> None:
    with transaction.atomic():
        prepared = statements.locked_match(match.pk)
        orm = Match.objects.select_for_update().select_related("room").get(pk=match.pk)
    assert prepared is not None
    for field in Match._meta.concrete_fields:
        assert getattr(prepared, field.attname) == getattr(orm, field.attname), field.name
    with CaptureQueriesContext(connection) as captured:
        room = prepared.room  # loaded with the match, not read again
    assert captured.captured_queries == []
    for field in Room._meta.concrete_fields:
        assert getattr(room, field.attname) == getattr(orm.room, field.attname), field.name
    assert prepared.game_state() == orm.game_state()
    with transaction.atomic():
        assert statements.locked_match(match.pk + 1000) is None


@pytest.mark.django_db(transaction=True)
def test_the_locked_match_needs_a_transaction(match: Match) -> None:
    with pytest.raises(transaction.TransactionManagementError):
        statements.locked_match(match.pk)


def test_the_seat_rows_are_the_orms(match: Match, players: tuple[Any, Any]) -> None:
    mover = match.game_state().turn
    Seat.objects.filter(room_id=match.room_id, index=1 - mover).update(state=Seat.State.AWAY, timeouts=2)
    orm = [
        selectors.SeatRow(*values)
        for values in Seat.objects.filter(room_id=match.room_id)
        .order_by("index")
        .values_list("index", "is_bot", "state", "timeouts", "bot_level", "user_id", "pk")
    ]
    assert selectors.seat_rows(room_id=match.room_id) == orm
    assert [type(row.is_bot) for row in orm] == [bool, bool]
    _play(match, players, "c-9")
    seat, applied, rows = selectors.seat_for_move(
        match_id=match.pk, room_id=match.room_id, user=players[mover], command_id="c-9"
    )
    assert (seat, applied, rows) == (mover, True, orm)
    other = players[1 - mover]
    assert selectors.seat_for_move(match_id=match.pk, room_id=match.room_id, user=other, command_id="c-9")[
        :2
    ] == (
        1 - mover,
        False,
    )


def test_the_logged_move_and_the_match_update_are_the_orms(match: Match, players: tuple[Any, Any]) -> None:
    state = match.game_state()
    _play(match, players, "c-2")
    record = MoveRecord.objects.get(match=match)
    assert (record.seq, record.seat, record.round_number, record.actor, record.command_id) == (
        1,
        state.turn,
        state.round_no,
        MoveRecord.Actor.PLAYER,
        "c-2",
    )
    assert engine.move_from_json(record.move) == _a_move(state)
    assert record.created is not None
    stored = Match.objects.get(pk=match.pk)
    assert stored.version == 1
    assert stored.game_state() == engine.apply_move(state, state.turn, _a_move(state)).state
    assert stored.turn_deadline is not None
    assert stored.turn_started is not None
    assert match.turn_started is not None
    assert stored.turn_started >= match.turn_started


def test_a_bot_seat_gets_no_frame(
    make_room: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Nobody listens in a bot's seat group (a bot seat has no user): its view is not built."""
    room = make_room("remik51", seats=2)
    person = make_user("ala")
    services.seat_take(room=room, user=person, index=0)
    services.seat_add_bot(room=room, index=1)
    match = services.match_start(room=room)
    layer = get_channel_layer()
    groups = [
        broadcast.seat_group(match.pk, 0),
        broadcast.seat_group(match.pk, 1),
        broadcast.spectators_group(match.pk),
    ]
    # The move's frames, one text per audience, in one message to the match's group.
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(broadcast.match_group(match.pk), channel)
    state = match.game_state()
    with django_capture_on_commit_callbacks(execute=True):
        if state.turn == 0:
            services.move_submit(match_id=match.pk, user=person, move=_a_move(state), expected_version=0)
        else:
            services.bot_move_play(match_id=match.pk, expected_version=0)
    published = broadcast.frames(
        Committed(
            match_id=match.pk,
            state=Match.objects.get(pk=match.pk).game_state(),
            version=1,
            seats=selectors.seats_field(selectors.seat_rows(room_id=room.pk)),
        )
    )
    assert [group for group, _ in published] == [groups[0], groups[2]]
    message = async_to_sync(layer.receive)(channel)
    assert [group for group, _ in message["frames"]] == [groups[0], groups[2]]
    assert all(json.loads(text)["version"] == 1 for _, text in message["frames"])
    with pytest.raises(TimeoutError):  # and nothing else
        async_to_sync(_receive_within)(layer, channel, 0.2)


async def _receive_within(layer: Any, channel: str, seconds: float) -> Any:
    import asyncio

    return await asyncio.wait_for(layer.receive(channel), seconds)


def test_the_inserted_move_is_the_orms(match: Match) -> None:
    values = {
        "seq": 7,
        "round_number": 1,
        "seat": 1,
        "move": {"kind": "discard", "card": "QH"},
        "command_id": "c-7",
        "events": [{"kind": "discarded", "to": None, "data": {"card": "QH"}}],
    }
    statements.insert_move(match_id=match.pk, **values)
    MoveRecord.objects.create(match=match, **{**values, "seq": 8, "command_id": "c-8"})
    prepared, orm = MoveRecord.objects.filter(match=match).order_by("seq")
    for field in MoveRecord._meta.concrete_fields:
        if field.name not in ("id", "seq", "command_id", "created"):
            assert getattr(prepared, field.attname) == getattr(orm, field.attname), field.name
    assert prepared.actor == MoveRecord.Actor.PLAYER  # a field left out takes its default
    assert prepared.created is not None
    assert prepared.created <= orm.created


def test_an_inserted_move_with_an_unknown_field_is_refused(match: Match) -> None:
    with pytest.raises(TypeError, match="no field"):
        statements.insert_move(match_id=match.pk, seq=1, round_number=1, seat=0, move={}, turn=3)
    assert not MoveRecord.objects.filter(match=match).exists()
