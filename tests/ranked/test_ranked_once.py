"""A ranked match changes ratings exactly once: on a repeated call, and with two finishers at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, connection

from games import engine
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match, RatingStatus
from games.ranked import ratings
from games.ranked.models import Rating, RatingChange
from games.shared.errors import StaleVersionError
from tests.ranked.ranked_helpers import play_ranked, ranked_room


def snapshot() -> list[tuple[Any, ...]]:
    return list(
        Rating.objects.order_by("pk").values_list("user_id", "category", "mu", "sigma", "matches", "wins")
    )


@pytest.mark.django_db
def test_a_repeated_call_changes_nothing(people: list[Any]) -> None:
    match = play_ranked(people[:3])
    before = snapshot()
    changes = list(RatingChange.objects.filter(match=match).values_list("pk", "mu_after", "sigma_after"))
    assert len(changes) == 3

    assert ratings.match_rate(match_id=match.pk) == RatingStatus.RATED
    assert ratings.match_rate(match_id=match.pk) == RatingStatus.RATED
    locked = Match.objects.get(pk=match.pk)
    assert ratings.on_match_over(match=locked, state=locked.game_state()) == RatingStatus.RATED

    assert snapshot() == before
    assert (
        list(RatingChange.objects.filter(match=match).values_list("pk", "mu_after", "sigma_after")) == changes
    )


@pytest.mark.django_db
def test_the_unique_constraint_refuses_a_second_set_of_changes(people: list[Any]) -> None:
    match = play_ranked(people[:2])
    before = snapshot()
    Match.objects.filter(pk=match.pk).update(rating_status=RatingStatus.NONE)  # the flag lost
    with pytest.raises(IntegrityError):
        ratings.match_rate(match_id=match.pk)
    assert snapshot() == before  # the whole rating transaction was rolled back
    assert RatingChange.objects.filter(match=match).count() == 2


def _last_move(match: Match, players: list[Any]) -> tuple[Any, engine.Move]:
    """Play until the next move ends the match; the player to make it and that move."""
    for _ in range(5000):
        match.refresh_from_db()
        state = match.game_state()
        seat = state.turn
        move = choose_move(engine.view_for(state, seat))
        if engine.apply_move(state, seat, move).state.is_over:
            return players[seat], move
        services.move_submit(match_id=match.pk, user=players[seat], move=move, expected_version=match.version)
    raise AssertionError("the match did not come to its last move")


def _race(target: Callable[[], Any], count: int = 2) -> list[Any]:
    barrier = threading.Barrier(count)
    outcomes: list[Any] = []

    def run() -> None:
        try:
            barrier.wait(timeout=10)
            outcomes.append(target())
        except Exception as error:  # collected and checked by the caller
            outcomes.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


# On PostgreSQL the Match row lock (and the Rating row locks) serialise the two finishers; on
# SQLite every write transaction takes the database's IMMEDIATE lock at BEGIN, so the race is
# serialised before it reaches the code under test: run it there too, but the PostgreSQL run is
# the one that exercises the locks.


@pytest.mark.django_db(transaction=True)
def test_two_finishers_of_the_last_move_rate_the_match_once(people: list[Any]) -> None:
    players = people[:2]
    match = services.match_start(room=ranked_room(players))
    player, move = _last_move(match, players)
    version = Match.objects.get(pk=match.pk).version

    outcomes = _race(
        lambda: services.move_submit(match_id=match.pk, user=player, move=move, expected_version=version)
    )

    assert outcomes.count(version + 1) == 1, outcomes
    assert sum(isinstance(o, StaleVersionError) for o in outcomes) == 1, outcomes
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.rating_status == RatingStatus.RATED
    assert RatingChange.objects.filter(match=match).count() == 2
    assert sorted(Rating.objects.values_list("matches", flat=True)) == [1, 1]


@pytest.mark.django_db(transaction=True)
def test_two_callers_rating_an_unrated_finished_match_rate_it_once(people: list[Any]) -> None:
    players = people[:3]
    match = play_ranked(players)
    expected = list(
        RatingChange.objects.filter(match=match).order_by("seat").values_list("mu_after", "sigma_after")
    )
    # As if it had ended without being rated: no changes, no ratings, no flag.
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    Match.objects.filter(pk=match.pk).update(rating_status=RatingStatus.NONE)

    outcomes = _race(lambda: ratings.match_rate(match_id=match.pk), count=3)

    assert outcomes == [RatingStatus.RATED] * 3, outcomes
    changes = RatingChange.objects.filter(match=match).order_by("seat")
    assert list(changes.values_list("mu_after", "sigma_after")) == expected
    assert sorted(Rating.objects.values_list("matches", flat=True)) == [1, 1, 1]
