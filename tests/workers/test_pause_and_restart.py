"""The pause between rounds (refused moves, the clock in frames) and the start-up sweep."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone
from pytest_django.fixtures import Settings

from games import engine
from games.engine.bots import choose_move
from games.play import broadcast, selectors, services
from games.play.models import Match, MoveRecord
from games.shared.errors import RoundPauseError, epoch_ms
from tests.workers.worker_helpers import (
    bot_room,
    make_user,
    match_finished,
    purge_queue,
    running_worker,
    task_log,
    wait_until,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _move(match: Match, user: Any) -> None:
    """The next move at the table, by whoever is to play (seat 0 is ``user``, seat 1 a bot)."""
    state = match.game_state()
    if state.turn == 0:
        move = choose_move(engine.view_for(state, 0))
        services.move_submit(match_id=match.pk, user=user, move=move, expected_version=match.version)
    else:
        services.bot_move_play(match_id=match.pk, expected_version=match.version)


def _receive(layer: Any, channel: str, *, count: int, group: str) -> list[dict[str, Any]]:
    """``group``'s frames in the next ``count`` messages sent to ``channel``, which listens to a
    match's group (one message per move, one text per audience: games/play/fanout.py)."""

    async def receive_all() -> list[dict[str, Any]]:
        return [json.loads(dict((await layer.receive(channel))["frames"])[group]) for _ in range(count)]

    return async_to_sync(receive_all)()


@pytest.mark.timeout(60)
def test_moves_are_refused_during_the_pause_and_frames_carry_the_clock(settings: Settings) -> None:
    settings.ROUND_PAUSE_SECONDS = 1.0
    ala = make_user("ala")
    room = bot_room(ala, "remi", {"rounds": 2, "max_players": 2}, seats=2, humans=(ala,))
    match = services.match_start(room=room)  # no worker: the test plays both seats
    first = selectors.match_frame_for(match_id=match.pk, user=ala)["clock"]
    assert first["turn_seconds"] == 45
    assert first["resume_at"] is None
    assert abs(first["turn_started"] - epoch_ms(timezone.now())) < 5000

    # Listen to the match's frames: seat 0's frame of the move that ends round 1 must carry the pause.
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(broadcast.match_group(match.pk), channel)
    for _ in range(500):
        _move(match, ala)
        match.refresh_from_db()
        if match.game_state().round_no == 2:
            break
    else:
        pytest.fail("round 1 did not end")
    assert match.resume_at is not None
    resume_ms = epoch_ms(match.resume_at)

    # Every move is refused until resume_at, with the code and the time to wait for.
    with pytest.raises(RoundPauseError) as refused:
        _move(match, ala)
    assert refused.value.code == "round_pause"
    assert refused.value.fields == {"resume_at": resume_ms}
    assert Match.objects.get(pk=match.pk).version == match.version
    # The turn of round 2 begins when the pause ends.
    clock = selectors.match_frame_for(match_id=match.pk, user=ala)["clock"]
    assert clock == {"turn_seconds": 45, "turn_started": resume_ms, "resume_at": resume_ms}
    frames = _receive(layer, channel, count=match.version, group=broadcast.seat_group(match.pk, 0))
    assert [frame["version"] for frame in frames] == list(range(1, match.version + 1))
    assert all("clock" in frame for frame in frames)
    assert frames[-1]["clock"]["resume_at"] == resume_ms
    assert frames[0]["clock"]["resume_at"] is None

    # After resume_at the same move is accepted, and the clock no longer shows a pause.
    wait_until(lambda: timezone.now() >= match.resume_at, timeout=5, what="the end of the pause")
    _move(match, ala)
    match.refresh_from_db()
    assert match.resume_at is None
    assert selectors.match_frame_for(match_id=match.pk, user=ala)["clock"]["resume_at"] is None


@pytest.mark.timeout(60)
def test_a_bot_task_that_comes_early_waits_for_the_end_of_the_pause(settings: Settings) -> None:
    room = bot_room(make_user("owner"), "remik51", {}, seats=2)
    match = services.match_start(room=room)
    resume_at = timezone.now() + timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(resume_at=resume_at)

    with task_log() as log, running_worker():
        from games import tasks

        tasks.bot_move.apply_async((match.pk, 0))  # early, on purpose
        wait_until(lambda: Match.objects.get(pk=match.pk).version > 0, what="the bot's move")

    assert log.results("games.tasks.bot_move", (match.pk, 0))[:2] == ["paused", "played"]
    assert MoveRecord.objects.get(match=match, seq=1).created >= resume_at


@pytest.mark.timeout(60)
def test_a_restarted_worker_resumes_a_table_left_on_a_bots_turn() -> None:
    room = bot_room(make_user("owner"), "remik51", {"penalty_limit": 50}, seats=3)
    match = services.match_start(room=room)
    for _ in range(5):  # mid-match, on a bot's turn as always at a table of bots
        match.refresh_from_db()
        services.bot_move_play(match_id=match.pk, expected_version=match.version)
    # The server "restarts": the queued move is gone (the memory broker dies with the process).
    purge_queue()

    with task_log() as log, running_worker(announce_ready=True):
        # worker_ready queues the sweep, which schedules the bot's move from the database.
        wait_until(lambda: match_finished(match.pk), timeout=50, what="the match to finish")

    assert log.results("games.tasks.resume_tables") == [1]
    match.refresh_from_db()
    seqs = list(MoveRecord.objects.filter(match=match).values_list("seq", flat=True))
    assert seqs == list(range(1, match.version + 1))


def test_the_sweep_schedules_only_tables_waiting_for_a_bot(settings: Settings) -> None:
    owner = make_user("owner")
    bots = services.match_start(room=bot_room(owner, "remik51", {}, seats=2))
    human = services.match_start(room=bot_room(owner, "remik51", {}, seats=2, humans=(owner,)))
    finished = services.match_start(room=bot_room(owner, "remik51", {}, seats=2))
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)
    human_state = human.game_state()

    waiting = {match_id for match_id, _, _ in selectors.matches_waiting_for_a_bot()}

    assert bots.pk in waiting
    assert finished.pk not in waiting
    assert (human.pk in waiting) == (human_state.turn == 1)
    purge_queue()
    assert services.resume_pending() == len(waiting)
