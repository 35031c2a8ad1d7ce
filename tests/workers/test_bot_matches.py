"""Started matches run by themselves: bots play through a real Celery worker to the match's end."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_django.fixtures import Settings

from games.play import services
from games.play.models import Match, MoveRecord, Round, ScoreLine
from tests.workers.worker_helpers import bot_room, make_user, match_finished, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("variant", "options", "seats"),
    [("remik51", {"penalty_limit": 50}, 4), ("remi", {"rounds": 2}, 3)],
    ids=["remik51-4-bots", "remi-3-bots"],
)
def test_a_room_of_bots_plays_its_match_to_the_end_through_the_worker(
    worker: Any, settings: Settings, variant: str, options: dict[str, Any], seats: int
) -> None:
    settings.ROUND_PAUSE_SECONDS = 0.2
    room = bot_room(make_user("owner"), variant, options, seats=seats)

    match = services.match_start(room=room)  # nothing else: the worker plays every move

    wait_until(lambda: match_finished(match.pk), timeout=50, what="the bots to finish the match")
    match.refresh_from_db()
    state = match.game_state()
    assert state.is_over
    assert match.winners == list(state.winners)
    records = list(MoveRecord.objects.filter(match=match).order_by("seq"))
    # Each version was played exactly once, all by bots: no move lost or applied twice.
    assert [record.seq for record in records] == list(range(1, match.version + 1))
    assert {record.actor for record in records} == {MoveRecord.Actor.BOT}
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    assert [r.number for r in rounds] == list(range(1, len(state.results) + 1))
    for round_ in rounds:
        assert round_.revealed_seed is not None
        lines = ScoreLine.objects.filter(round=round_)
        assert sorted(lines.values_list("seat", flat=True)) == list(range(seats))
    if variant == "remi":
        assert len(rounds) == 2


@pytest.mark.timeout(60)
def test_the_next_round_waits_for_the_pause(worker: Any, settings: Settings) -> None:
    settings.ROUND_PAUSE_SECONDS = 1.0
    room = bot_room(make_user("owner"), "remi", {"rounds": 2}, seats=3)

    match = services.match_start(room=room)

    wait_until(lambda: match_finished(match.pk), timeout=50, what="the bots to finish the match")
    second = Round.objects.get(match=match, number=2)
    first_move = MoveRecord.objects.filter(match=match, round_number=2).order_by("seq").first()
    assert first_move is not None
    # Round 2 was dealt by the last move of round 1; its first move came only after the pause.
    waited = (first_move.created - second.started).total_seconds()
    assert waited >= 1.0 - 0.05
    assert Match.objects.get(pk=match.pk).resume_at is None
