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

import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from games import engine, services, tasks
from games.models import Match, MoveRecord, Round, ScoreLine
from tests.workers.procs import (
    BOT_MOVE,
    RESUME_TABLES,
    HeldTask,
    WorkerProcess,
    WorkerSet,
    held_tasks,
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


def start_bot_match(variant: str, options: dict[str, Any], seats: int) -> Match:
    room = bot_room(make_user(f"owner-{variant}-{time.monotonic_ns()}"), variant, options, seats=seats)
    return services.match_start(room=room)


def assert_played_once_and_replays(match: Match) -> None:
    """The log has each version once, all by bots, and replays to the stored state exactly."""
    match.refresh_from_db()
    records = list(MoveRecord.objects.filter(match=match).order_by("seq"))
    assert [record.seq for record in records] == list(range(1, match.version + 1))
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
    workers.start()
    workers.start()
    matches = {variant: start_bot_match(variant, options, seats) for variant, options, seats in VARIANTS}

    # Nothing else: the workers play every move.
    wait_until(
        lambda: all(match_finished(match.pk) for match in matches.values()),
        timeout=MATCH_TIMEOUT,
        what="the bots to finish: " + ", ".join(v for v, m in matches.items() if not match_finished(m.pk)),
    )
    versions = 0
    for variant, match in matches.items():
        try:
            assert_finished(match)
            assert_played_once_and_replays(match)
        except AssertionError as failure:
            raise AssertionError(f"{variant}: {failure}") from failure
        versions += match.version
    # Every move was played in a worker process: one 'played' task per version, no failure.
    wait_until(
        lambda: workers.results(BOT_MOVE)["'played'"] == versions,
        timeout=10,
        what="the workers' log of the last moves",
    )
    assert workers.failures() == []


# --- 2. two workers on one queue -------------------------------------------------------------------


@pytest.mark.timeout(180)
def test_two_workers_on_one_queue_apply_each_move_exactly_once(workers: WorkerSet) -> None:
    matches = [
        start_bot_match("remik51", {"penalty_limit": 50}, 4),
        start_bot_match("rummy500", {"target": 50}, 4),
        start_bot_match("remi", {"rounds": 1}, 4),
    ]
    # Both start together: each one's start-up sweep schedules the move every match waits for,
    # on top of the move match_start scheduled. Two or three tasks for one version from the start.
    first, second = workers.start(wait=False), workers.start(wait=False)
    first.wait_ready()
    second.wait_ready()

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
        time.sleep(0.005)
        assert time.monotonic() < deadline, "the matches did not finish"

    versions = 0
    for match in matches:
        assert_finished(match)
        assert_played_once_and_replays(match)
        versions += match.version

    # Every task sent has run: the chain (one per version), the copies, the sweeps' and the
    # reschedules at the end of each pause. Exactly one per version played; all others refused.
    def all_ran() -> bool:
        results = workers.results(BOT_MOVE)
        swept = sum(int(n) for n in workers.results(RESUME_TABLES).elements())
        return sum(results.values()) == versions + copies + swept + results["'paused'"]

    wait_until(all_ran, timeout=20, what="every bot_move task to run")
    results = workers.results(BOT_MOVE)
    assert results["'played'"] == versions
    assert results["'stale'"] + results["'not_bot_turn'"] >= copies
    assert set(results) <= {"'played'", "'stale'", "'not_bot_turn'", "'paused'"}
    # Both processes took part.
    assert all(w.results(BOT_MOVE).count("'played'") > 0 for w in workers.started)
    assert sum(workers.results(RESUME_TABLES).values()) == 2  # one start-up sweep each
    assert workers.failures() == []


# --- 3. a worker killed hard mid-match --------------------------------------------------------------


def _kill_while_holding(
    doomed: WorkerProcess, match: Match, *, others: tuple[WorkerProcess, ...] = ()
) -> HeldTask:
    """SIGKILL ``doomed`` at a moment it holds the task of the move ``match`` waits for.

    Every worker is frozen (SIGSTOP) while we look, so what we see is what ``doomed`` holds
    when it dies; which worker holds a message, its log says (``Task ...[id] received``). If
    ``doomed`` holds nothing for the current version just then, all run on a little.
    """
    frozen = (doomed, *others)
    for _ in range(300):
        for worker in frozen:
            worker.signal(signal.SIGSTOP)
        version = Match.objects.values_list("version", flat=True).get(pk=match.pk)
        held = [
            task
            for task in held_tasks()
            if task.task == BOT_MOVE and task.args == (match.pk, version) and doomed.received(task.task_id)
        ]
        if held:
            doomed.kill()
        for worker in others if held else frozen:
            worker.signal(signal.SIGCONT)
        if held:
            return held[0]
        time.sleep(0.03)
    raise AssertionError("the worker never held the match's next move")


@pytest.mark.timeout(180)
def test_a_worker_killed_mid_match_loses_no_move_and_plays_none_twice(workers: WorkerSet) -> None:
    # A human-like delay in the first worker: each move waits in its hands as a countdown task
    # (delivered, not acknowledged) most of the time, as a timer would.
    doomed = workers.start(BOT_MOVE_DELAY="0.3")
    match = start_bot_match("remik51", {"penalty_limit": 50}, 4)
    wait_until(lambda: Match.objects.get(pk=match.pk).version >= 5, timeout=MATCH_TIMEOUT, what="a few moves")

    held = _kill_while_holding(doomed, match)

    # The trap of acks_late on Redis: the move is neither in the queue nor played; the broker
    # keeps it for the dead worker until the visibility timeout (an hour). The match is stuck.
    match.refresh_from_db()
    stuck_at = match.version
    assert held.args == (match.pk, stuck_at)
    assert match.status == Match.Status.PLAYING
    assert held in held_tasks()

    # A new worker's start-up sweep finds the table waiting for a bot and sets it going again.
    survivor = workers.start()
    wait_until(lambda: match_finished(match.pk), timeout=MATCH_TIMEOUT, what="the match to finish")
    assert survivor.results(RESUME_TABLES) == ["1"]
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
