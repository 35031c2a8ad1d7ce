"""Away seats (RMI-NET-4): the bot plays an away seat's turns without waiting for the timer; the
player takes the seat back ("back", or any move) with its score and position; a seat whose
sockets are gone for longer than the grace period is marked away.
"""

from __future__ import annotations

from typing import Any

import pytest
from pytest_django.fixtures import Settings

from games import engine
from games.engine.bots import choose_move
from games.play import selectors, services
from games.play.models import Match, MoveRecord, Room, Seat
from games.shared.errors import NotBotTurnError, StaleVersionError
from tests.workers.worker_helpers import (
    bot_room,
    make_user,
    running_worker,
    task_log,
    wait_until,
)

pytestmark = pytest.mark.django_db(transaction=True)

#: Long turns: anything that happens in these tests happens without the turn timer.
LONG_TURN = 3600


def _table(*, humans: int = 1, ranked: bool = False) -> tuple[Room, list[Any]]:
    people = [make_user(name) for name in ("ala", "bartek")[:humans]]
    if ranked:
        room = services.room_create(
            owner=people[0],
            name="Ranked",
            variant="remik51",
            options={},
            seats=2,
            turn_seconds=60,
            ranked=True,
        )
        for index, user in enumerate(people):
            services.seat_take(room=room, user=user, index=index)
    else:
        room = bot_room(people[0], "remik51", {}, seats=2, humans=tuple(people))
    Room.objects.filter(pk=room.pk).update(turn_seconds=LONG_TURN)
    return room, people


def _seat(room: Room, index: int) -> Seat:
    return Seat.objects.get(room=room, index=index)


def _match(match_id: int) -> Match:
    return Match.objects.get(pk=match_id)


def _play(match: Match, people: list[Any]) -> None:
    """One move at the table, by whoever is to play (a person through move_submit)."""
    match.refresh_from_db()
    state = match.game_state()
    if state.turn < len(people):
        move = choose_move(engine.view_for(state, state.turn))
        services.move_submit(
            match_id=match.pk, user=people[state.turn], move=move, expected_version=match.version
        )
    else:
        services.bot_move_play(match_id=match.pk, expected_version=match.version)


def _until_turn_of(match: Match, seat: int, people: list[Any], *, discarded: bool = False) -> Match:
    """Play until it is ``seat``'s turn after the first move (and, with ``discarded``, after the
    round's first discard: a ranked match left before it is aborted, not played for)."""
    for _ in range(50):
        match.refresh_from_db()
        ready = match.game_state().turn == seat and match.version > 0
        if ready and (not discarded or MoveRecord.objects.filter(match=match, move__kind="discard").exists()):
            return match
        _play(match, people)
    raise AssertionError(f"seat {seat} never got the turn")


def _standin_moves(match_id: int, seat: int, after: int = 0) -> int:
    return MoveRecord.objects.filter(
        match_id=match_id, seat=seat, seq__gt=after, actor=MoveRecord.Actor.STANDIN
    ).count()


@pytest.mark.timeout(60)
def test_an_away_seat_is_played_without_waiting_for_the_timer() -> None:
    room, people = _table()
    match = _until_turn_of(services.match_start(room=room), 0, people)
    with running_worker():
        assert services.seat_away(match_id=match.pk, user=people[0]) is True
        # An hour's turn: only the stand-in can have played it.
        wait_until(lambda: _standin_moves(match.pk, 0, after=match.version) >= 2, what="the stand-in's moves")
    seat = _seat(room, 0)
    assert (seat.state, seat.is_bot, seat.user_id) == (Seat.State.AWAY, False, people[0].pk)
    assert set(
        MoveRecord.objects.filter(match_id=match.pk, seat=0, seq__gt=match.version).values_list(
            "actor", flat=True
        )
    ) == {MoveRecord.Actor.STANDIN}


@pytest.mark.timeout(90)
def test_back_takes_the_seat_back_with_its_position_and_the_stand_in_stops() -> None:
    room, people = _table()
    match = _until_turn_of(services.match_start(room=room), 0, people)
    with running_worker():
        services.seat_away(match_id=match.pk, user=people[0])
        wait_until(lambda: _standin_moves(match.pk, 0, after=match.version) >= 1, what="the stand-in")
        assert services.seat_back(match_id=match.pk, user=people[0]) is True
        back_at = _match(match.pk).version
        # Whatever was scheduled for the away seat stops; the bot's own turn goes on, and then
        # the table waits for the person (an hour's turn).
        wait_until(lambda: _match(match.pk).game_state().turn == 0, what="seat 0's turn")
        waiting = _match(match.pk)
        # The stand-in played at most the move it was already making when "back" came in.
        assert _standin_moves(match.pk, 0, after=back_at) == 0

    seat = _seat(room, 0)
    assert (seat.index, seat.user_id, seat.state, seat.timeouts) == (0, people[0].pk, Seat.State.CONNECTED, 0)
    state = waiting.game_state()
    frame = selectors.match_frame_for(match_id=match.pk, user=people[0])
    # The same seat, its own hand and score: the position the stand-in kept for the player.
    assert frame["view"]["seat"] == 0
    assert frame["view"]["hand"] == [str(card) for card in state.hands[0]]
    assert frame["view"]["scores"]["totals"] == list(state.totals)
    assert frame["seats"][0] == {
        "seat": 0,
        "kind": "human",
        "state": "connected",
        "standin": False,
        "timeouts": 0,
    }
    # ... and the player plays on, as the player.
    _play(waiting, people)
    assert MoveRecord.objects.filter(match_id=match.pk).latest("seq").actor == MoveRecord.Actor.PLAYER


def test_any_move_takes_an_away_seat_back_even_a_refused_one() -> None:
    room, people = _table()
    match = _until_turn_of(services.match_start(room=room), 0, people)
    services.seat_away(match_id=match.pk, user=people[0])
    Seat.objects.filter(room=room, index=0).update(timeouts=2)
    state = match.game_state()
    move = choose_move(engine.view_for(state, 0))

    with pytest.raises(StaleVersionError):
        services.move_submit(match_id=match.pk, user=people[0], move=move, expected_version=match.version - 1)
    seat = _seat(room, 0)
    assert (seat.state, seat.timeouts) == (Seat.State.CONNECTED, 0)  # back, though the move was refused
    assert _match(match.pk).version == match.version

    services.seat_away(match_id=match.pk, user=people[0])
    services.move_submit(match_id=match.pk, user=people[0], move=move, expected_version=match.version)
    assert _seat(room, 0).state == Seat.State.CONNECTED
    assert MoveRecord.objects.filter(match_id=match.pk).latest("seq").actor == MoveRecord.Actor.PLAYER


def test_a_stand_in_move_scheduled_before_back_does_nothing() -> None:
    room, people = _table()
    match = _until_turn_of(services.match_start(room=room), 0, people)
    services.seat_away(match_id=match.pk, user=people[0])  # schedules the stand-in's move
    services.seat_back(match_id=match.pk, user=people[0])
    # The task comes at the same version, but the seat is the player's again.
    with pytest.raises(NotBotTurnError):
        services.bot_move_play(match_id=match.pk, expected_version=match.version)
    assert _match(match.pk).version == match.version


def test_back_on_the_players_turn_gives_a_whole_turn() -> None:
    room, people = _table()
    match = _until_turn_of(services.match_start(room=room), 0, people)
    services.seat_away(match_id=match.pk, user=people[0])
    away = _match(match.pk)
    assert away.turn_deadline < match.turn_deadline  # the bot's: due at once
    services.seat_back(match_id=match.pk, user=people[0])
    back = _match(match.pk)
    assert back.turn_started > match.turn_started
    assert (back.turn_deadline - back.turn_started).total_seconds() == LONG_TURN
    assert back.version == match.version  # no move was made


@pytest.mark.timeout(60)
def test_a_seat_whose_sockets_are_gone_past_the_grace_period_is_away(settings: Settings) -> None:
    settings.AWAY_GRACE_SECONDS = 0.5
    room, people = _table()
    match = _until_turn_of(services.match_start(room=room), 0, people)
    with task_log() as log, running_worker():
        # Two tabs; closing one leaves the seat connected.
        services.seat_connect(match_id=match.pk, user=people[0])
        services.seat_connect(match_id=match.pk, user=people[0])
        assert services.seat_disconnect(match_id=match.pk, user=people[0]) is False
        assert _seat(room, 0).state == Seat.State.CONNECTED
        assert services.seat_disconnect(match_id=match.pk, user=people[0]) is True
        assert _seat(room, 0).state == Seat.State.OFFLINE
        wait_until(lambda: log.results("games.tasks.seat_grace_end") == [True], what="the grace period's end")
        assert _seat(room, 0).state == Seat.State.AWAY
        # It is the seat's turn: the stand-in plays it.
        wait_until(lambda: _standin_moves(match.pk, 0) >= 1, what="the stand-in")


@pytest.mark.timeout(60)
def test_a_socket_back_within_the_grace_period_keeps_the_seat(settings: Settings) -> None:
    settings.AWAY_GRACE_SECONDS = 0.5
    room, people = _table()
    match = _until_turn_of(services.match_start(room=room), 0, people)
    with task_log() as log, running_worker():
        services.seat_connect(match_id=match.pk, user=people[0])
        services.seat_disconnect(match_id=match.pk, user=people[0])
        assert services.seat_connect(match_id=match.pk, user=people[0]) is True  # offline -> connected
        wait_until(lambda: log.results("games.tasks.seat_grace_end"), what="the grace period's end")
    assert log.results("games.tasks.seat_grace_end") == [False]
    assert _seat(room, 0).state == Seat.State.CONNECTED
    assert _standin_moves(match.pk, 0) == 0


@pytest.mark.timeout(60)
def test_a_stand_in_plays_for_an_away_player_of_a_ranked_room_without_taking_the_seat() -> None:
    room, people = _table(humans=2, ranked=True)
    # The dealer may meld before discarding: seat 1 leaves once somebody has discarded.
    match = _until_turn_of(services.match_start(room=room), 1, people, discarded=True)
    with running_worker():
        services.seat_away(match_id=match.pk, user=people[1])
        wait_until(lambda: _match(match.pk).game_state().turn == 0, what="the stand-in to play seat 1's turn")
    seat = _seat(room, 1)
    assert (seat.is_bot, seat.user_id, seat.state) == (False, people[1].pk, Seat.State.AWAY)
    assert _standin_moves(match.pk, 1) >= 1
    assert not Seat.objects.filter(room=room, is_bot=True).exists()


def test_whoever_takes_a_seat_starts_with_a_clean_presence() -> None:
    ala, bartek = make_user("ala"), make_user("bartek")
    room = services.room_create(
        owner=ala, name="Open", variant="remik51", options={}, seats=2, turn_seconds=60
    )
    services.seat_take(room=room, user=ala, index=0)
    Seat.objects.filter(room=room, index=0).update(state=Seat.State.AWAY, timeouts=2, connections=3)
    services.seat_leave(room=room, user=ala)
    services.seat_take(room=room, user=bartek, index=0)
    seat = _seat(room, 0)
    assert (seat.user_id, seat.state, seat.timeouts, seat.connections, seat.offline_since) == (
        bartek.pk,
        Seat.State.CONNECTED,
        0,
        0,
        None,
    )
