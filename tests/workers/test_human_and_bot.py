"""A person and a bot: the bot answers the person's move through the worker, on the person's socket.

Also: a stale or misplaced bot task does nothing, and staff can end a stuck turn.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games import engine, tasks
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match, MoveRecord
from games.shared.errors import MatchOverError, RoundPauseError
from remi_site.asgi import application
from tests.workers.worker_helpers import (
    bot_room,
    make_user,
    running_worker,
    session_cookie,
    task_log,
    wait_until,
)

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = b"http://testserver"
TIMEOUT = 10


@dataclass(frozen=True)
class HumanTable:
    match_id: int
    room_id: int
    user: Any
    cookie: str


def _human_vs_bot() -> HumanTable:
    ala = make_user("ala")
    room = bot_room(ala, "remik51", {}, seats=2, humans=(ala,))
    match = services.match_start(room=room)
    return HumanTable(match_id=match.pk, room_id=room.pk, user=ala, cookie=session_cookie(ala))


def _state(match_id: int) -> tuple[engine.GameState, int]:
    match = Match.objects.get(pk=match_id)
    return match.game_state(), match.version


def _is_humans_turn(match_id: int) -> bool:
    """Whether seat 0 (the person) is to move."""
    state, _ = _state(match_id)
    return state.turn == 0 and not state.is_over


def _play_until_humans_turn(table: HumanTable) -> int:
    """Without a worker: play by hand until the person is to move after at least one move.

    Returns the version then (> 0, so that an older version exists).
    """
    for _ in range(20):
        state, version = _state(table.match_id)
        if state.turn == 0 and version > 0:
            return version
        if state.turn == 0:
            _play_humans_turn(table.match_id, table.user)
        else:
            services.bot_move_play(match_id=table.match_id, expected_version=version)
    raise AssertionError("the person never got the turn")


def _play_humans_turn(match_id: int, user: Any) -> int:
    """The person's whole turn (draw ... discard) through move_submit, as the engine's bot would."""
    assert _is_humans_turn(match_id)
    while True:
        state, version = _state(match_id)
        if state.turn != 0 or state.is_over:
            return version
        move = choose_move(engine.view_for(state, 0))
        services.move_submit(match_id=match_id, user=user, move=move, expected_version=version)


@asynccontextmanager
async def seat_socket(table: HumanTable) -> AsyncIterator[WebsocketCommunicator]:
    headers = [(b"origin", ORIGIN), (b"cookie", f"{settings.SESSION_COOKIE_NAME}={table.cookie}".encode())]
    communicator = WebsocketCommunicator(application, f"/ws/match/{table.match_id}/", headers=headers)
    try:
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert connected
        yield communicator
    finally:
        await communicator.disconnect()


# --- the bot answers -----------------------------------------------------------------------------


@pytest.fixture
def human_table(worker: Any) -> HumanTable:
    """Started with the worker running: if the bot deals first, it has already begun to play."""
    return _human_vs_bot()


@pytest.mark.timeout(60)
async def test_the_bot_answers_the_persons_move_on_the_persons_socket(human_table: HumanTable) -> None:
    table = human_table
    async with seat_socket(table) as socket:
        frame = await socket.receive_json_from(timeout=TIMEOUT)
        assert frame["view"]["seat"] == 0
        # The bot may have been first: the worker plays its turn without anyone asking.
        await database_sync_to_async(wait_until)(
            lambda: _is_humans_turn(table.match_id), what="the person's turn"
        )

        mine = await database_sync_to_async(_play_humans_turn)(table.match_id, table.user)

        # Frames up to `mine` are the person's own moves; then the bot's, pushed by the worker.
        while True:
            frame = await socket.receive_json_from(timeout=TIMEOUT)
            assert frame["type"] == "state"
            assert "clock" in frame
            if frame["version"] > mine:
                break
        assert any(event.get("seat") == 1 for event in frame["events"]), frame["events"]
        assert frame["view"]["hand"] is not None  # the person's own view, never the bot's hand
        assert frame["clock"]["turn_seconds"] == 45
        # ... and it plays its turn to the end: the person gets the turn back.
        while not frame["view"]["you"]["my_turn"]:
            frame = await socket.receive_json_from(timeout=TIMEOUT)
    records = await database_sync_to_async(
        lambda: list(
            MoveRecord.objects.filter(match_id=table.match_id, seq__gt=mine).values_list("actor", "seat")
        )
    )()
    assert records
    assert set(records) == {(MoveRecord.Actor.BOT, 1)}


# --- stale and misplaced tasks -------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_a_stale_or_misplaced_bot_task_does_nothing(transactional_db: None) -> None:
    table = _human_vs_bot()
    version = _play_until_humans_turn(table)  # no worker yet: the bot played by hand
    before = MoveRecord.objects.filter(match_id=table.match_id).count()

    with task_log() as log, running_worker():
        tasks.bot_move.apply_async((table.match_id, version - 1))  # someone moved since
        tasks.bot_move.apply_async((table.match_id, version))  # the person's turn
        tasks.bot_move.apply_async((table.match_id + 1000, 0))  # no such match
        wait_until(lambda: len(log.results("games.tasks.bot_move")) == 3, what="the three tasks")

    assert log.results("games.tasks.bot_move") == ["stale", "not_bot_turn", "gone"]
    assert _state(table.match_id)[1] == version
    assert MoveRecord.objects.filter(match_id=table.match_id).count() == before
    # The direct call answers the same (the task is thin).
    assert tasks.bot_move(table.match_id, version - 1) == "stale"


@pytest.mark.timeout(60)
def test_two_tasks_for_the_same_version_play_one_move(transactional_db: None) -> None:
    table = _human_vs_bot()
    _play_until_humans_turn(table)
    version = _play_humans_turn(table.match_id, table.user)  # now the bot's turn; its task is lost:
    # the worker below purges the queue before it starts.

    with task_log() as log, running_worker():
        tasks.bot_move.apply_async((table.match_id, version))
        tasks.bot_move.apply_async((table.match_id, version))
        wait_until(lambda: _is_humans_turn(table.match_id), what="the bot to play its turn")
        wait_until(lambda: len(log.results("games.tasks.bot_move", (table.match_id, version))) == 2)

    assert sorted(log.results("games.tasks.bot_move", (table.match_id, version))) == ["played", "stale"]
    seqs = list(MoveRecord.objects.filter(match_id=table.match_id).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


# --- staff: end a stuck turn ---------------------------------------------------------------------


@pytest.fixture
def staff() -> Client:
    boss = get_user_model().objects.create_superuser(username="boss", email="boss@example.com", password="x")
    client = Client()
    client.force_login(boss)
    return client


@pytest.mark.timeout(60)
def test_a_stuck_turn_is_played_by_a_stand_in_and_the_bot_carries_on(transactional_db: None) -> None:
    table = _human_vs_bot()
    version = _play_until_humans_turn(table)

    with running_worker():
        ended = services.turn_end_stuck(match_id=table.match_id)
        # The person's whole turn was played for them; then the worker plays the bot's turn.
        wait_until(lambda: _is_humans_turn(table.match_id), what="the turn to come back to the person")

    standin = list(
        MoveRecord.objects.filter(match_id=table.match_id, seq__gt=version, seq__lte=ended).values_list(
            "actor", "seat"
        )
    )
    assert standin
    assert set(standin) == {(MoveRecord.Actor.STANDIN, 0)}
    after = set(
        MoveRecord.objects.filter(match_id=table.match_id, seq__gt=ended).values_list("actor", "seat")
    )
    assert after == {(MoveRecord.Actor.BOT, 1)}


def test_a_stuck_turn_is_not_ended_during_the_pause_or_after_the_match(transactional_db: None) -> None:
    table = _human_vs_bot()
    Match.objects.filter(pk=table.match_id).update(resume_at=timezone.now() + timedelta(hours=1))
    with pytest.raises(RoundPauseError):
        services.turn_end_stuck(match_id=table.match_id)
    Match.objects.filter(pk=table.match_id).update(resume_at=None, status=Match.Status.FINISHED)
    with pytest.raises(MatchOverError):
        services.turn_end_stuck(match_id=table.match_id)


@pytest.mark.timeout(60)
def test_the_admin_actions_end_a_stuck_turn_and_are_logged(transactional_db: None, staff: Client) -> None:
    table = _human_vs_bot()
    version = _play_until_humans_turn(table)

    response = staff.post(
        "/admin/games/match/",
        {"action": "end_stuck_turns", "_selected_action": [table.match_id]},
        follow=True,
    )

    assert response.status_code == 200
    messages = [str(m) for m in response.context["messages"]]
    assert any("stand-in" in m for m in messages), messages
    new_version = _state(table.match_id)[1]
    assert new_version > version
    assert set(
        MoveRecord.objects.filter(match_id=table.match_id, seq__gt=version).values_list("actor", flat=True)
    ) == {MoveRecord.Actor.STANDIN}
    entry = LogEntry.objects.get()
    assert entry.object_id == str(table.match_id)
    assert entry.is_change()
    assert "stand-in" in entry.get_change_message()

    # From the room: its playing match. No worker runs, so the bot's turn is still waiting: the
    # staff action plays the bot's turn too (still as a stand-in).
    response = staff.post(
        "/admin/games/room/", {"action": "end_stuck_turns", "_selected_action": [table.room_id]}, follow=True
    )
    assert response.status_code == 200
    assert _state(table.match_id)[1] > new_version
    assert LogEntry.objects.filter(object_id=str(table.room_id), content_type__model="room").count() == 1

    # A finished match is refused with a warning, and nothing is logged.
    Match.objects.filter(pk=table.match_id).update(status=Match.Status.FINISHED)
    response = staff.post(
        "/admin/games/match/",
        {"action": "end_stuck_turns", "_selected_action": [table.match_id]},
        follow=True,
    )
    messages = [str(m) for m in response.context["messages"]]
    assert any("not ended" in m for m in messages), messages
    assert LogEntry.objects.count() == 2
