"""Turn timers (RMI-NET-3): a turn that runs out is played by the normal bot as a stand-in and
counted; ``AWAY_AFTER_TIMEOUTS`` in a row mark the seat away. A stale timer does nothing; the
sweep fires a deadline whose task was lost, once, however many sweeps run at once.

Turn times are 1 s here (the room row is changed directly: the site's own minimum is 5 s).
"""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from celery.signals import before_task_publish
from django.db import connection
from django.utils import timezone
from pytest_django.fixtures import Settings

from games import engine, tasks
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match, MoveRecord, Room, Seat
from tests.workers.worker_helpers import (
    bot_room,
    make_user,
    purge_queue,
    running_worker,
    task_log,
    wait_until,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _table(*, turn_seconds: int = 1, humans: int = 1) -> tuple[Match, list[Any]]:
    """A remik51 table of two: ``humans`` people first, then a normal bot; not started."""
    people = [make_user(name) for name in ("ala", "bartek")[:humans]]
    room = bot_room(people[0], "remik51", {}, seats=2, humans=tuple(people))
    Room.objects.filter(pk=room.pk).update(turn_seconds=turn_seconds)
    return room, people


def _seat(room: Room, index: int) -> Seat:
    return Seat.objects.get(room=room, index=index)


def _actors(match_id: int, seat: int) -> list[str]:
    return list(MoveRecord.objects.filter(match_id=match_id, seat=seat).values_list("actor", flat=True))


def _play_until_turn_of(match: Match, seat: int, people: list[Any], *, phase: str | None = None) -> Match:
    """Without a worker: play the table by hand (people and bot alike) until ``seat`` is to move
    (in ``phase`` if given: "draw" is the start of a turn, "play" may be a dealer's melds)."""
    for _ in range(50):
        match.refresh_from_db()
        state = match.game_state()
        if state.turn == seat and match.version > 0 and phase in (None, state.phase):
            return match
        if state.turn < len(people):
            move = choose_move(engine.view_for(state, state.turn))
            services.move_submit(
                match_id=match.pk, user=people[state.turn], move=move, expected_version=match.version
            )
        else:
            services.bot_move_play(match_id=match.pk, expected_version=match.version)
    raise AssertionError(f"seat {seat} never got the turn")


@pytest.mark.timeout(90)
def test_turns_that_run_out_are_played_by_a_stand_in_then_the_seat_is_away(settings: Settings) -> None:
    settings.AWAY_AFTER_TIMEOUTS = 2
    room, _people = _table(turn_seconds=1)
    with task_log() as log, running_worker():
        match = services.match_start(room=room)
        # Nobody plays seat 0: its turns run out, twice, and then it is away.
        wait_until(lambda: "away" in log.results("games.tasks.turn_timeout"), what="seat 0 to be marked away")
        results = log.results("games.tasks.turn_timeout")

    seat = _seat(room, 0)
    assert seat.timeouts == 2
    assert results.count("timeout") == 1
    assert results.count("away") == 1
    # Every move of seat 0 was the stand-in's, of the bot seat the bot's; the log says so.
    assert set(_actors(match.pk, 0)) == {MoveRecord.Actor.STANDIN}
    assert set(_actors(match.pk, 1)) <= {MoveRecord.Actor.BOT}
    seqs = list(MoveRecord.objects.filter(match_id=match.pk).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def test_the_deadline_is_the_turn_start_plus_the_rooms_turn_time(settings: Settings) -> None:
    room, people = _table(turn_seconds=45)
    match = services.match_start(room=room)
    match = _play_until_turn_of(match, 0, people)
    assert match.turn_deadline == match.turn_started + timedelta(seconds=45)
    # A move within the turn (the draw) keeps the turn's deadline.
    state = match.game_state()
    services.move_submit(
        match_id=match.pk,
        user=people[0],
        move=choose_move(engine.view_for(state, 0)),
        expected_version=match.version,
    )
    after = Match.objects.get(pk=match.pk)
    if after.game_state().turn == 0:
        assert after.turn_deadline == match.turn_deadline
    # The bot's turn: due after BOT_MOVE_DELAY (0 in tests), not after the turn time.
    match = _play_until_turn_of(after, 1, people)
    assert match.turn_deadline is not None
    assert match.turn_deadline <= timezone.now()


def test_a_stale_or_early_timer_does_nothing_and_a_due_one_plays_the_turn() -> None:
    room, people = _table(turn_seconds=45)
    match = _play_until_turn_of(services.match_start(room=room), 0, people)
    version = match.version
    purge_queue()

    assert tasks.turn_timeout(match.pk, version - 1) == "stale"
    assert tasks.turn_timeout(match.pk, version) == "early"  # 45 s to go: scheduled again
    assert tasks.turn_timeout(match.pk + 1000, 0) == "gone"
    assert Match.objects.get(pk=match.pk).version == version
    assert _seat(room, 0).timeouts == 0

    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.turn_timeout(match.pk, version) == "timeout"
    after = Match.objects.get(pk=match.pk)
    assert after.version > version
    assert after.game_state().turn == 1  # the stand-in played the whole turn, to its discard
    assert set(
        MoveRecord.objects.filter(match_id=match.pk, seq__gt=version).values_list("actor", "seat")
    ) == {(MoveRecord.Actor.STANDIN, 0)}
    assert _seat(room, 0).timeouts == 1
    assert _seat(room, 0).state == Seat.State.CONNECTED  # one timeout of two
    # The same timer again: stale now.
    assert tasks.turn_timeout(match.pk, version) == "stale"


def test_a_move_by_the_player_resets_the_count() -> None:
    room, people = _table(turn_seconds=45)
    match = _play_until_turn_of(services.match_start(room=room), 0, people)
    Seat.objects.filter(room=room, index=0).update(timeouts=1)
    state = match.game_state()
    services.move_submit(
        match_id=match.pk,
        user=people[0],
        move=choose_move(engine.view_for(state, 0)),
        expected_version=match.version,
    )
    assert _seat(room, 0).timeouts == 0
    assert _actors(match.pk, 0)[-1] == MoveRecord.Actor.PLAYER


@pytest.mark.timeout(60)
def test_one_timer_per_turn_holds_for_every_move_of_the_turn() -> None:
    room, people = _table(turn_seconds=1)
    # The start of seat 0's turn: a dealer who laid melds first is still in its turn, and its
    # next move, a discard, would end it (the test skipped itself on such deals).
    match = _play_until_turn_of(services.match_start(room=room), 0, people, phase="draw")
    # The player draws (the version moves on, the turn does not): no new timer is queued.
    state = match.game_state()
    sent: list[str] = []

    def note(sender: Any = None, **kwargs: Any) -> None:
        sent.append(str(sender))

    before_task_publish.connect(note, weak=False)
    try:
        services.move_submit(
            match_id=match.pk,
            user=people[0],
            move=choose_move(engine.view_for(state, 0)),
            expected_version=match.version,
        )
    finally:
        before_task_publish.disconnect(note)
    drawn = Match.objects.get(pk=match.pk)
    assert drawn.game_state().turn == 0  # a draw (or a take) does not end the turn
    assert drawn.turn_started == match.turn_started
    assert "games.tasks.turn_timeout" not in sent
    earlier_turn = match.turn_started - timedelta(seconds=30)
    with task_log() as log, running_worker():
        # The worker purged the queue: schedule the turn's timer as the turn's first commit did
        # (at the turn's first version), and a timer of an earlier turn.
        services.turn_timer_schedule(
            match_id=match.pk,
            version=match.version,
            deadline=drawn.turn_deadline,
            turn_started=match.turn_started,
        )
        services.turn_timer_schedule(
            match_id=match.pk, version=match.version, deadline=drawn.turn_deadline, turn_started=earlier_turn
        )
        wait_until(lambda: len(log.results("games.tasks.turn_timeout")) >= 2, what="both timers")
    results = log.results("games.tasks.turn_timeout")
    # The first two to run are the two scheduled above (both due at this turn's deadline); a
    # 1-second turn that follows can time out too before the worker stops on a busy machine
    # (seen: ['away', 'stale', 'timeout'] at load 10).
    assert sorted(results[:2]) == ["stale", "timeout"]
    after = Match.objects.get(pk=match.pk)
    assert after.version > drawn.version
    # The stand-in played the rest of the turn (the move after the draw, seat 0's discard).
    rest = MoveRecord.objects.get(match_id=match.pk, seq=drawn.version + 1)
    assert (rest.seat, rest.actor) == (0, MoveRecord.Actor.STANDIN)
    assert _seat(room, 0).timeouts == 1


# --- the sweep ---------------------------------------------------------------------------------


def test_the_sweep_fires_an_overdue_deadline_whose_task_was_lost() -> None:
    room, people = _table(turn_seconds=45)
    match = _play_until_turn_of(services.match_start(room=room), 0, people)
    purge_queue()  # the timer task is lost (a worker killed hard holds it for an hour)

    assert services.sweep_overdue() == {"turns": 0, "away": 0, "servers": 0}  # not overdue yet
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=10))
    assert services.sweep_overdue() == {"turns": 1, "away": 0, "servers": 0}

    assert set(
        MoveRecord.objects.filter(match_id=match.pk, seq__gt=match.version).values_list("actor", "seat")
    ) == {(MoveRecord.Actor.STANDIN, 0)}
    assert _seat(room, 0).timeouts == 1
    # The bot's move is due now (its task lost too): a later sweep plays it.
    after = Match.objects.get(pk=match.pk)
    assert after.game_state().turn == 1
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=10))
    assert services.sweep_overdue()["turns"] == 1
    assert MoveRecord.objects.filter(match_id=match.pk, seq__gt=after.version).get().actor == "bot"


@pytest.mark.timeout(60)
def test_two_sweeps_at_once_apply_one_move() -> None:
    room, people = _table(turn_seconds=45)
    match = _play_until_turn_of(services.match_start(room=room), 0, people)
    purge_queue()
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=10))
    start = threading.Barrier(2)
    results: list[dict[str, int]] = []

    def sweep() -> None:
        try:
            start.wait(timeout=10)
            results.append(services.sweep_overdue())
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert sorted(r["turns"] for r in results) == [0, 1]
    assert _seat(room, 0).timeouts == 1  # counted once
    seqs = list(MoveRecord.objects.filter(match_id=match.pk).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    turn = list(
        MoveRecord.objects.filter(match_id=match.pk, seq__gt=match.version).values_list("seat", "move")
    )
    # One turn of seat 0 (each kind of move at most once), not two.
    kinds = [move["kind"] for seat, move in turn if seat == 0]
    assert kinds.count("discard") == 1


@pytest.mark.timeout(60)
def test_every_worker_sweeps_by_itself(settings: Settings) -> None:
    settings.TURN_SWEEP_SECONDS = 0.2
    room, people = _table(turn_seconds=45)
    match = _play_until_turn_of(services.match_start(room=room), 0, people)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=10))
    # running_worker purges the queue: no timer left. Only the worker's own sweep can fire it.
    with running_worker():
        wait_until(
            lambda: MoveRecord.objects.filter(match_id=match.pk, seq__gt=match.version, seat=0).exists(),
            what="the worker's sweep to play the overdue turn",
        )
    assert _actors(match.pk, 0)[-1] == MoveRecord.Actor.STANDIN


@pytest.mark.timeout(60)
def test_a_starting_worker_schedules_the_timers_of_waiting_tables() -> None:
    room, people = _table(turn_seconds=45)
    match = _play_until_turn_of(services.match_start(room=room), 0, people)
    # An old table: no deadline stored, its turn began long ago.
    Match.objects.filter(pk=match.pk).update(
        turn_deadline=None, turn_started=timezone.now() - timedelta(seconds=60)
    )
    with task_log() as log, running_worker(announce_ready=True):
        wait_until(lambda: "timeout" in log.results("games.tasks.turn_timeout"), what="the resumed timer")
    assert _seat(room, 0).timeouts == 1


# --- one timer carries the next ------------------------------------------------------------------


def _play_turn(match_id: int, people: list[Any]) -> Match:
    """The seat to move (a person) plays its whole turn; the match after it."""
    match = Match.objects.get(pk=match_id)
    seat = match.game_state().turn
    for _ in range(10):
        state = match.game_state()
        if state.turn != seat:
            return match
        services.move_submit(
            match_id=match.pk,
            user=people[seat],
            move=choose_move(engine.view_for(state, seat)),
            expected_version=match.version,
        )
        match = Match.objects.get(pk=match_id)
    raise AssertionError(f"seat {seat}'s turn did not end")


def _timers_published() -> tuple[list[dict[str, Any]], Any]:
    """(the turn timers published from now on, each with its headers; the receiver to disconnect)."""
    published: list[dict[str, Any]] = []

    def note(sender: Any = None, headers: Any = None, **kwargs: Any) -> None:
        if str(sender) == "games.tasks.turn_timeout":
            published.append(dict(headers or {}))

    before_task_publish.connect(note, weak=False)
    return published, note


def test_a_turn_that_begins_while_a_timer_is_queued_queues_none_and_the_stale_timer_passes_it_on() -> None:
    room, people = _table(turn_seconds=45, humans=2)
    match = services.match_start(room=room)
    match = _play_turn(match.pk, people)  # the second seat's turn begins: its own timer
    first_deadline, first_started, first_version = match.turn_deadline, match.turn_started, match.version
    assert match.timer_at == first_deadline
    published, note = _timers_published()
    try:
        match = _play_turn(match.pk, people)  # the next turn begins before that timer fires
        assert published == []
        assert match.timer_at == first_deadline
        assert match.turn_deadline is not None
        assert match.turn_deadline > first_deadline

        # The first timer's time comes: it finds a later turn and queues that turn's timer.
        Match.objects.filter(pk=match.pk).update(timer_at=timezone.now() - timedelta(seconds=1))
        assert tasks.turn_timeout(match.pk, first_version, first_started.isoformat()) == "stale"
        assert len(published) == 1
        assert published[0]["eta"] == match.turn_deadline.isoformat()
        assert published[0]["argsrepr"] == repr((match.pk, match.version, match.turn_started.isoformat()))
        assert Match.objects.get(pk=match.pk).timer_at == match.turn_deadline
        # A duplicate of that first timer: the turn is covered now, nothing more is queued.
        assert tasks.turn_timeout(match.pk, first_version, first_started.isoformat()) == "stale"
        assert len(published) == 1
    finally:
        before_task_publish.disconnect(note)
    assert Match.objects.get(pk=match.pk).version == match.version  # nothing was played


@pytest.mark.timeout(60)
def test_a_turn_without_a_timer_of_its_own_still_runs_out_at_its_deadline() -> None:
    room, people = _table(turn_seconds=45, humans=2)
    match = _play_turn(services.match_start(room=room).pk, people)
    first_started, first_version = match.turn_started, match.version
    match = _play_turn(match.pk, people)  # covered by the first turn's timer: none of its own
    seat = match.game_state().turn
    with task_log() as log, running_worker():
        # The worker purged the queue: queue the first turn's timer again, to fire in a moment,
        # and bring this turn's deadline near (the turn times of a real table, shortened).
        now = timezone.now()
        soon, deadline = now + timedelta(seconds=0.3), now + timedelta(seconds=3)
        Match.objects.filter(pk=match.pk).update(timer_at=soon, turn_deadline=deadline)
        services.turn_timer_schedule(
            match_id=match.pk, version=first_version, deadline=soon, turn_started=first_started
        )
        wait_until(lambda: "timeout" in log.results("games.tasks.turn_timeout"), what="the passed-on timer")
        results = log.results("games.tasks.turn_timeout")
    assert results[:2] == ["stale", "timeout"]
    assert _seat(room, seat).timeouts == 1
    assert set(
        MoveRecord.objects.filter(match_id=match.pk, seq__gt=match.version).values_list("actor", "seat")
    ) >= {(MoveRecord.Actor.STANDIN, seat)}
