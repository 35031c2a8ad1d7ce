"""Staff annul a match for ratings (everyone's ratings replayed) and block a user; both are logged."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.test import Client
from openskill.models import PlackettLuce

from games.play.models import Match, RatingStatus
from games.ranked import ratings
from games.ranked.models import Rating, RatingChange
from tests.ranked.ranked_helpers import play_ranked

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss() -> Any:
    return get_user_model().objects.create_superuser(username="boss", email="boss@example.com", password="x")


@pytest.fixture
def staff(boss: Any) -> Client:
    client = Client()
    client.force_login(boss)
    return client


def ratings_now() -> dict[tuple[int, str], tuple[float, float, int, int]]:
    return {(r.user_id, r.category): (r.mu, r.sigma, r.matches, r.wins) for r in Rating.objects.all()}


def test_a_replay_of_untouched_history_gives_the_same_numbers(people: list[Any]) -> None:
    ala, bartek, celina, _ = people
    play_ranked([ala, bartek])
    play_ranked([bartek, celina])
    play_ranked([celina, ala, bartek])
    before = ratings_now()
    changes = list(RatingChange.objects.order_by("pk").values_list("mu_before", "sigma_before", "mu_after"))

    assert ratings.category_replay(category="remi-45") == 3

    assert ratings_now() == before  # exactly, not approximately
    assert (
        list(RatingChange.objects.order_by("pk").values_list("mu_before", "sigma_before", "mu_after"))
        == changes
    )


def test_annul_removes_the_changes_and_replays_everyone_affected(
    people: list[Any], staff: Client, boss: Any
) -> None:
    ala, bartek, celina, _ = people
    first = play_ranked([ala, bartek])
    second = play_ranked([bartek, celina])
    third = play_ranked([celina, ala])
    ranks = {
        match.pk: [c.rank for c in RatingChange.objects.filter(match=match).order_by("seat")]
        for match in (second, third)
    }

    response = staff.post(
        "/admin/games/match/", {"action": "annul_for_ratings", "_selected_action": [first.pk]}, follow=True
    )

    page = response.content.decode()
    assert "the rating changes of 2 player(s) were removed" in page
    first.refresh_from_db()
    assert first.rating_status == RatingStatus.ANNULLED
    assert not RatingChange.objects.filter(match=first).exists()
    # The history as if the first match had never been played, by openskill itself.
    model = PlackettLuce()
    fresh = {user.pk: model.rating() for user in (ala, bartek, celina)}
    for match, pair in ((second, (bartek, celina)), (third, (celina, ala))):
        rated = model.rate([[fresh[user.pk]] for user in pair], ranks=ranks[match.pk])
        for user, team in zip(pair, rated, strict=True):
            change = RatingChange.objects.get(match=match, user=user)
            assert (change.mu_before, change.sigma_before) == (fresh[user.pk].mu, fresh[user.pk].sigma)
            assert change.mu_after == pytest.approx(team[0].mu, abs=1e-9)
            assert change.sigma_after == pytest.approx(team[0].sigma, abs=1e-9)
            fresh[user.pk] = team[0]
    for user in (ala, bartek, celina):
        rating = Rating.objects.get(user=user, category="remi-45")
        assert rating.mu == pytest.approx(fresh[user.pk].mu, abs=1e-9)
        assert rating.sigma == pytest.approx(fresh[user.pk].sigma, abs=1e-9)
        assert rating.matches == {ala: 1, bartek: 1, celina: 2}[user]
        assert rating.wins == RatingChange.objects.filter(user=user, won=True).count()
    entry = LogEntry.objects.get(object_id=str(first.pk), content_type__model="match")
    assert entry.user_id == boss.pk
    assert "Annulled" in entry.get_change_message()


def test_annulling_a_players_only_match_removes_their_rating(people: list[Any], staff: Client) -> None:
    ala, bartek, _, _ = people
    match = play_ranked([ala, bartek])
    staff.post("/admin/games/match/", {"action": "annul_for_ratings", "_selected_action": [match.pk]})
    assert not Rating.objects.exists()
    assert Match.objects.get(pk=match.pk).rating_status == RatingStatus.ANNULLED


def test_annulling_an_unrated_match_changes_nothing_and_says_so(people: list[Any], staff: Client) -> None:
    rated = play_ranked(people[:2])
    Match.objects.filter(pk=rated.pk).update(rating_status=RatingStatus.ABORTED)  # as if aborted
    before = ratings_now()
    response = staff.post(
        "/admin/games/match/", {"action": "annul_for_ratings", "_selected_action": [rated.pk]}, follow=True
    )
    assert "not annulled (it is not a rated match)" in response.content.decode()
    assert ratings_now() == before
    assert not LogEntry.objects.filter(content_type__model="match").exists()


def test_the_match_admin_shows_the_rating_changes(people: list[Any], staff: Client) -> None:
    match = play_ranked(people[:2])
    page = staff.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert "Rating changes" in page
    assert staff.get("/admin/games/rating/").status_code == 200
    assert "(provisional)" in staff.get("/admin/games/rating/").content.decode()
    assert staff.get("/admin/games/ratingchange/").status_code == 200


def test_staff_block_a_user_and_it_is_logged(people: list[Any], staff: Client, boss: Any) -> None:
    ala, bartek, _, _ = people
    response = staff.post(
        "/admin/accounts/user/",
        {"action": "block_users", "_selected_action": [ala.pk, boss.pk]},
        follow=True,
    )
    page = response.content.decode()
    assert "1 user(s) blocked." in page
    assert "left as they were" in page
    ala.refresh_from_db()
    boss.refresh_from_db()
    assert not ala.is_active
    assert boss.is_active  # staff never block themselves
    entry = LogEntry.objects.get(object_id=str(ala.pk), content_type__model="user")
    assert entry.user_id == boss.pk
    assert "Blocked" in entry.get_change_message()
    # A blocked player's session no longer authenticates, and their profile is gone.
    assert Client().get(f"/u/{ala.username}/").status_code == 404
    assert Client().get(f"/u/{bartek.username}/").status_code == 200


def test_a_blocked_players_session_stops_working(people: list[Any], staff: Client) -> None:
    ala = people[0]
    player = Client()
    player.force_login(ala)
    assert player.get("/matches/").status_code == 200
    staff.post("/admin/accounts/user/", {"action": "block_users", "_selected_action": [ala.pk]})
    assert player.get("/matches/").status_code == 302  # sent to the login page
