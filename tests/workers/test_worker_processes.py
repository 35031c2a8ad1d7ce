"""Workers, for real: separate ``celery -A remi_site worker`` processes on Redis and PostgreSQL.

The production shape of issue 5: the test process only starts matches (as the site's pages do);
every bot move is a task that a worker process picks from Redis, plays through the same service
as a person's move, and whose next move it schedules after commit. Run with REDIS_URL and a
PostgreSQL DATABASE_URL (the second pass of .ci/run); skipped otherwise.

What is checked after each match: every version was played exactly once (the move log's ``seq``
runs 1..version with no gap), and the engine, replaying that log from the match secret, reaches
exactly the stored state.
"""

from __future__ import annotations

import hashlib
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone
from pytest_django.fixtures import Settings

from games import engine, tasks
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match, MoveRecord, Round, ScoreLine, Seat
from tests.workers.procs import (
    BOT_MOVE,
    RESUME_TABLES,
    TURN_TIMEOUT,
    HeldTask,
    WorkerProcess,
    WorkerSet,
    held_tasks,
    queued_tasks,
    redeliver,
    worker_env,
)
from tests.workers.worker_helpers import bot_room, make_user, match_finished, purge_queue, wait_until

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.skipif(
        not settings.REDIS_URL.startswith(("redis://", "rediss://")) or connection.vendor != "postgresql",
        reason="needs REDIS_URL=redis://... and DATABASE_URL=postgres://... (the second pass of .ci/run)",
    ),
]

#: Generous: whole matches, on a shared 2-core machine (about a tenth of this when it is idle).
MATCH_TIMEOUT = 120.0


@pytest.fixture
def workers(transactional_db: None, tmp_path: Path) -> Iterator[WorkerSet]:
    """Workers started by the test, all stopped before the test database is emptied."""
    purge_queue()
    started = WorkerSet(log_dir=tmp_path, env=worker_env())
    try:
        yield started
    finally:
        started.stop_all()
        print(started.report())  # shown when the test fails


def logged(check: Callable[[], bool], what: str) -> None:
    """A worker writes a task's result to its log just after the task's commit: wait for it."""
    wait_until(check, timeout=10, what=what)


def start_bot_match(
    variant: str, options: dict[str, Any], seats: int, *, secret: bytes | None = None
) -> Match:
    """A match of normal bots; ``secret``: its match secret (a fresh one otherwise, as the site)."""
    room = bot_room(make_user(f"owner-{variant}-{time.monotonic_ns()}"), variant, options, seats=seats)
    if secret is None:
        return services.match_start(room=room)
    with mock.patch("secrets.token_bytes", return_value=secret):
        return services.match_start(room=room)


#: The match of the kill tests (gin to 10 points). With a fresh secret, a match that short
#: sometimes ends within its first moves (a knock at the fourth move: 13 deals of 3,000 ended
#: before the fifth move, 8 more at it): the test then waited for moves that never came (seen
#: in the PostgreSQL + Redis run of 2026-12-03). Normal bots choose deterministically (no luck
#: key outside the deal of the day), so this secret's match is known to last.
KILL_SECRET = hashlib.sha256(b"worker processes: a gin match that lasts").digest()


def bot_moves_to_the_end(match: Match) -> int:
    """How many moves the match's normal bots play from its deal to its end (as the workers will)."""
    state = match.game_state()
    moves = 0
    while not state.is_over:
        state = engine.apply_move(state, state.turn, choose_move(engine.view_for(state, state.turn))).state
        moves += 1
    return moves


def start_lasting_gin_match() -> Match:
    match = start_bot_match("gin", {"target": 10}, 2, secret=KILL_SECRET)
    assert bot_moves_to_the_end(match) >= 15, "the kill tests need a match that lasts past a few moves"
    return match


def assert_played_once_and_replays(match: Match, *, all_by_bots: bool = True) -> None:
    """The log has each version once (all by bots, unless told) and replays to the stored state."""
    match.refresh_from_db()
    records = list(MoveRecord.objects.filter(match=match).order_by("seq"))
    assert [record.seq for record in records] == list(range(1, match.version + 1))
    if all_by_bots:
        assert {record.actor for record in records} == {MoveRecord.Actor.BOT}
    stored = match.game_state()
    replayed = engine.replay(
        {
            "format": "remi-record/1",
            "variant": match.room.variant,
            "options": match.room.options,
            "players": list(stored.names),
            "seed": match.secret_bytes.hex(),
            "first": None,  # as match_start: the dealer follows from the secret
            "moves": [{"seat": record.seat, "move": record.move} for record in records],
        }
    )
    assert engine.state_to_json(replayed) == engine.state_to_json(stored)


def assert_finished(match: Match) -> engine.GameState:
    match.refresh_from_db()
    state = match.game_state()
    assert match.status == Match.Status.FINISHED
    assert state.is_over
    assert match.winners == list(state.winners)
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    assert [r.number for r in rounds] == list(range(1, len(state.results) + 1))
    for round_ in rounds:
        assert round_.revealed_seed is not None
        seats = ScoreLine.objects.filter(round=round_).values_list("seat", flat=True)
        assert sorted(seats) == list(range(state.players))
    return state


# --- 1. every variant plays to its end through a worker process ------------------------------------

#: Short end conditions where a variant has them. Gin and Oklahoma are two-player games.
VARIANTS = [
    ("gin", {"target": 10}, 2),
    ("knock108", {}, 4),  # to the last player standing
    ("oklahoma", {"target": 10}, 2),
    ("remi", {"rounds": 1}, 4),
    ("remik40", {}, 4),  # one deal
    ("remik51", {"penalty_limit": 50}, 4),
    ("rummy500", {"target": 50}, 4),
]


@pytest.mark.timeout(180)
def test_a_room_of_bots_of_every_variant_plays_to_the_end_through_worker_processes(
    workers: WorkerSet,
) -> None:
    # Seven tables at once, as on a site: two worker processes share them.
    for worker in [workers.start(wait=False), workers.start(wait=False)]:
        worker.wait_ready()
    matches = {variant: start_bot_match(variant, options, seats) for variant, options, seats in VARIANTS}

    # Nothing else: the workers play every move.
    def unfinished() -> list[str]:
        return [variant for variant, match in matches.items() if not match_finished(match.pk)]

    try:
        wait_until(lambda: not unfinished(), timeout=MATCH_TIMEOUT, what="the bots to finish")
    except AssertionError as failure:
        raise AssertionError(f"{failure}; still playing: {', '.join(unfinished())}") from None
    versions = 0
    for variant, match in matches.items():
        try:
            assert_finished(match)
            assert_played_once_and_replays(match)
        except AssertionError as failure:
            raise AssertionError(f"{variant}: {failure}") from failure
        versions += match.version
    # Every move was played in a worker process: by one 'played' task per version, or by the
    # periodic sweep when a bot's task was late (a busy machine); no failure.
    wait_until(
        lambda: workers.results(BOT_MOVE)["'played'"] + workers.swept() == versions,
        timeout=10,
        what="the workers' log of the last moves",
    )
    assert workers.failures() == []


# --- 2. two workers on one queue -------------------------------------------------------------------


@pytest.mark.timeout(180)
def test_two_workers_on_one_queue_apply_each_move_exactly_once(workers: WorkerSet) -> None:
    matches = [
        start_bot_match("rummy500", {"target": 50}, 4),
        start_bot_match("remi", {"rounds": 1}, 4),
    ]
    # Both start together: each one's start-up sweep schedules the move every match waits for,
    # on top of the move match_start scheduled. Two or three tasks for one version from the start.
    for worker in [workers.start(wait=False), workers.start(wait=False)]:
        worker.wait_ready()

    # Meanwhile a second copy of the task for each version a match reaches (as a redelivery,
    # a second sweep or a retry would send): it races the one the previous move scheduled.
    copies = 0
    copied: dict[int, int] = {}
    deadline = time.monotonic() + MATCH_TIMEOUT
    while not all(match_finished(match.pk) for match in matches):
        for match_id, version in Match.objects.filter(
            pk__in=[match.pk for match in matches], status=Match.Status.PLAYING
        ).values_list("pk", "version"):
            if copied.get(match_id) != version:
                tasks.bot_move.apply_async((match_id, version))
                copied[match_id] = version
                copies += 1
        time.sleep(0.02)
        assert time.monotonic() < deadline, "the matches did not finish"

    versions = 0
    for match in matches:
        assert_finished(match)
        assert_played_once_and_replays(match)
        versions += match.version

    # Every task sent has run: the chain (one per version), the copies, the sweeps' and the
    # reschedules at the end of each pause. Exactly one per version played (or the periodic
    # sweep played it, when its task was late); all others refused.
    def all_ran() -> bool:
        results = workers.results(BOT_MOVE)
        resumed = sum(int(n) for n in workers.results(RESUME_TABLES).elements())
        return sum(results.values()) == versions + copies + resumed + results["'paused'"]

    wait_until(all_ran, timeout=20, what="every bot_move task to run")
    results = workers.results(BOT_MOVE)
    assert results["'played'"] + workers.swept() == versions
    assert results["'stale'"] + results["'not_bot_turn'"] >= copies
    assert set(results) <= {"'played'", "'stale'", "'not_bot_turn'", "'paused'"}
    # Both processes took part.
    assert all(w.results(BOT_MOVE).count("'played'") > 0 for w in workers.started)
    assert sum(workers.results(RESUME_TABLES).values()) == 2  # one start-up sweep each
    assert workers.failures() == []


# --- 3. a worker killed hard mid-match --------------------------------------------------------------


def _kill_while_holding(
    doomed: WorkerProcess, match: Match, *, others: tuple[WorkerProcess, ...] = (), task: str = BOT_MOVE
) -> HeldTask:
    """SIGKILL ``doomed`` at a moment it holds the ``task`` (the bot's move, or the turn timer)
    that ``match`` waits for at its current version.

    Every worker is frozen (SIGSTOP) while we look, so what we see is what ``doomed`` holds
    when it dies; which worker holds a message, its log says (``Task ...[id] received``). If
    ``doomed`` holds nothing for the current version just then, all run on a little.
    """
    frozen = (doomed, *others)
    deadline = time.monotonic() + MATCH_TIMEOUT
    while time.monotonic() < deadline:
        for worker in frozen:
            worker.signal(signal.SIGSTOP)
        # A commit a worker sent just before it stopped still lands in the database: let it, so
        # that the version read is the one the match stays at while they are stopped.
        time.sleep(0.05)
        version = Match.objects.values_list("version", flat=True).get(pk=match.pk)
        held = [
            message
            for message in held_tasks()
            if message.task == task
            and message.args[:2] == (match.pk, version)
            and doomed.received(message.task_id)
        ]
        if held:
            doomed.kill()
            # Still that version when the holder died: its move is lost, not played elsewhere.
            assert Match.objects.values_list("version", flat=True).get(pk=match.pk) == version
        for worker in others if held else frozen:
            worker.signal(signal.SIGCONT)
        if held:
            return held[0]
        time.sleep(0.03)
    raise AssertionError(f"the worker never held the match's {task}")


@pytest.mark.timeout(180)
def test_a_worker_killed_mid_match_loses_no_move_and_plays_none_twice(workers: WorkerSet) -> None:
    # A human-like delay in the first worker: each move waits in its hands as a countdown task
    # (delivered, not acknowledged) most of the time, as a timer would.
    doomed = workers.start(BOT_MOVE_DELAY="0.3")
    match = start_lasting_gin_match()
    wait_until(lambda: Match.objects.get(pk=match.pk).version >= 5, timeout=MATCH_TIMEOUT, what="a few moves")

    held = _kill_while_holding(doomed, match)

    # The trap of acks_late on Redis: the move is neither in the queue nor played; the broker
    # keeps it for the dead worker until the visibility timeout (an hour). The match is stuck.
    match.refresh_from_db()
    stuck_at = match.version
    assert held.args[:2] == (match.pk, stuck_at)
    assert match.status == Match.Status.PLAYING
    assert held in held_tasks()
    assert not [task for task in queued_tasks() if task.args[:1] == (match.pk,)]

    # A new worker's start-up sweep finds the table waiting for a bot and sets it going again.
    survivor = workers.start()
    wait_until(lambda: match_finished(match.pk), timeout=MATCH_TIMEOUT, what="the match to finish")
    logged(lambda: survivor.results(RESUME_TABLES) == ["1"], "the survivor's start-up sweep found the table")
    assert_finished(match)
    assert_played_once_and_replays(match)
    assert match.version > stuck_at

    # An hour later Redis would hand the dead worker's message out again: it must do nothing.
    redeliver([held])
    wait_until(lambda: survivor.result_of(held.task_id), timeout=20, what="the redelivered task to run")
    assert survivor.result_of(held.task_id) == "'stale'"
    final = match.version
    match.refresh_from_db()
    assert match.version == final
    assert MoveRecord.objects.filter(match=match).count() == final
    assert workers.failures() == []


@pytest.mark.timeout(180)
def test_a_worker_killed_mid_match_is_covered_by_the_periodic_sweep_of_another(workers: WorkerSet) -> None:
    # Two workers from the start; no worker starts after the kill, so no start-up sweep runs:
    # only the other worker's periodic sweep (every TURN_SWEEP_SECONDS) can find the lost move.
    doomed = workers.start(BOT_MOVE_DELAY="0.3", TURN_SWEEP_SECONDS="0", wait=False)
    survivor = workers.start(TURN_SWEEP_SECONDS="0.5")
    doomed.wait_ready()
    wait_until(lambda: workers.results(RESUME_TABLES) == {"0": 2}, what="the start-up sweeps (no table yet)")
    match = start_lasting_gin_match()
    wait_until(lambda: Match.objects.get(pk=match.pk).version >= 5, timeout=MATCH_TIMEOUT, what="a few moves")

    held = _kill_while_holding(doomed, match, others=(survivor,))
    # The match stood at the held move's version when its holder died (checked while the
    # survivor was stopped: once it runs, its sweep may play that move at any moment).
    assert held.args[0] == match.pk
    assert held in held_tasks()
    match.refresh_from_db()
    assert match.turn_deadline is not None  # a bot's move is always due: the sweep will see it

    wait_until(lambda: match_finished(match.pk), timeout=MATCH_TIMEOUT, what="the match to finish")
    assert_finished(match)
    assert_played_once_and_replays(match)
    # The survivor's periodic sweep fired the lost move (no start-up sweep ran since the start).
    logged(lambda: "sweep fired 1 overdue turn(s)" in survivor.text(), "the survivor's sweep fired the move")
    assert workers.results(RESUME_TABLES) == {"0": 2}

    redeliver([held])
    wait_until(lambda: survivor.result_of(held.task_id), timeout=20, what="the redelivered task to run")
    assert survivor.result_of(held.task_id) == "'stale'"
    assert MoveRecord.objects.filter(match=match).count() == match.version
    assert workers.failures() == []


# --- 4. turn timers, away and back -----------------------------------------------------------------


def _seat(seat_id: int) -> Seat:
    return Seat.objects.get(pk=seat_id)


def _last_seq(match: Match) -> int:
    return Match.objects.values_list("version", flat=True).get(pk=match.pk)


def _persons_turn_ready(match: Match) -> bool:
    """Seat 0 (the person) is to move, and the pause between rounds (if any) is over."""
    current = Match.objects.get(pk=match.pk)
    state = current.game_state()
    return (
        state.turn == 0
        and not state.is_over
        and (current.resume_at is None or current.resume_at <= timezone.now())
    )


def _play_persons_turn(match: Match, user: Any) -> None:
    """The person's whole turn (draw ... discard) through move_submit, as the site's socket would."""
    round_no = Match.objects.get(pk=match.pk).game_state().round_no
    while True:
        current = Match.objects.get(pk=match.pk)
        state = current.game_state()
        if state.turn != 0 or state.is_over or state.round_no != round_no:
            return
        move = choose_move(engine.view_for(state, 0))
        services.move_submit(match_id=match.pk, user=user, move=move, expected_version=current.version)


@pytest.mark.timeout(180)
def test_turn_timers_and_away_seats_run_in_worker_processes(workers: WorkerSet, settings: Settings) -> None:
    doomed = workers.start(TURN_SWEEP_SECONDS="0")
    settings.AWAY_GRACE_SECONDS = 1.0  # the countdown of the grace period is set where the socket closes
    ala = make_user("ala")
    room = services.room_create(
        owner=ala, name="Timers", variant="remik51", options={"penalty_limit": 500}, seats=2, turn_seconds=5
    )
    seat = services.seat_take(room=room, user=ala, index=0)
    services.seat_add_bot(room=room, index=1)
    match = services.match_start(room=room)

    # Ala never plays. Her first turn timer (a countdown task) is in a worker's hands when it is
    # killed hard: nothing will fire it before the broker's visibility timeout.
    held = _kill_while_holding(doomed, match, task=TURN_TIMEOUT)
    match.refresh_from_db()
    stuck_at = match.version
    assert held.args[:2] == (match.pk, stuck_at)
    assert match.game_state().turn == 0
    assert not [task for task in queued_tasks() if task.args[:1] == (match.pk,)]

    # The next worker fires it anyway (its start-up sweep schedules the timer of every table
    # waiting for a person; its periodic sweep fires overdue deadlines). The stand-in plays her
    # turn; her next timer runs out too, and two in a row mark her away (RMI-NET-3).
    worker = workers.start(AWAY_AFTER_TIMEOUTS="2", AWAY_GRACE_SECONDS="1", TURN_SWEEP_SECONDS="0.5")
    wait_until(lambda: _seat(seat.pk).state == Seat.State.AWAY, timeout=MATCH_TIMEOUT, what="ala marked away")
    timed_out = f"match {match.pk}: seat 0 timed out"

    def timeouts_logged() -> str:  # the timeout's task or the periodic sweep logs it
        return "".join(w.text() for w in workers.started)

    logged(lambda: timeouts_logged().count(timed_out) == 2, "the workers' log of the two timeouts")
    assert f"{timed_out} (1 in a row)" in timeouts_logged()
    assert f"{timed_out} (2 in a row)" in timeouts_logged()
    away_at = _last_seq(match)
    # The dead worker's timer, handed out again (as after the visibility timeout), does nothing.
    redeliver([held])
    logged(lambda: worker.result_of(held.task_id) == "'stale'", "the redelivered timer found nothing to do")

    # Away: the bot plays her turns without waiting for a timer, as a stand-in.
    wait_until(
        lambda: MoveRecord.objects.filter(match=match, seat=0, seq__gt=away_at).exists(),
        timeout=MATCH_TIMEOUT,
        what="a turn of hers played while away",
    )
    assert timeouts_logged().count(timed_out) == 2  # played for without waiting for a timer

    # "I'm back": the same seat, score and position; the stand-in stops; her turns wait for her.
    assert services.seat_back(match_id=match.pk, user=ala)
    back_at = _last_seq(match)
    assert (_seat(seat.pk).state, _seat(seat.pk).timeouts, _seat(seat.pk).index) == (
        Seat.State.CONNECTED,
        0,
        0,
    )
    wait_until(lambda: _persons_turn_ready(match), timeout=MATCH_TIMEOUT, what="her turn")
    _play_persons_turn(match, ala)
    played_at = _last_seq(match)

    # She closes the tab: after the grace period the worker marks her away, and plays for her.
    services.seat_connect(match_id=match.pk, user=ala)
    services.seat_disconnect(match_id=match.pk, user=ala)
    wait_until(
        lambda: _seat(seat.pk).state == Seat.State.AWAY, timeout=MATCH_TIMEOUT, what="the grace period"
    )
    # By the grace period's task or by the periodic sweep, whichever came first: both log it.
    logged(
        lambda: worker.text().count(f"seat {seat.pk} is away: its grace period ended") == 1,
        "the worker's end of the grace period",
    )
    grace_at = _last_seq(match)
    wait_until(
        lambda: MoveRecord.objects.filter(match=match, seat=0, seq__gt=grace_at).exists(),
        timeout=MATCH_TIMEOUT,
        what="a turn of hers played after the grace period",
    )
    workers.stop_all()  # the log stands still: check it

    records = list(MoveRecord.objects.filter(match=match).order_by("seq"))
    hers = [(r.seq, r.actor) for r in records if r.seat == 0]
    assert {actor for seq, actor in hers if seq <= back_at} == {MoveRecord.Actor.STANDIN}
    assert {actor for seq, actor in hers if back_at < seq <= played_at} == {MoveRecord.Actor.PLAYER}
    assert {actor for seq, actor in hers if seq > grace_at} == {MoveRecord.Actor.STANDIN}
    assert {r.actor for r in records if r.seat == 1} == {MoveRecord.Actor.BOT}
    assert_played_once_and_replays(match, all_by_bots=False)
    assert workers.failures() == []
