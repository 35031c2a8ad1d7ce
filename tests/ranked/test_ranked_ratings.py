"""A ranked match moves its players' ratings exactly as openskill's Plackett-Luce model does."""

from __future__ import annotations

from typing import Any

import pytest
from openskill.models import PlackettLuce

from games.play import services
from games.play.models import Match, RatingStatus
from games.ranked import ratings
from games.ranked.models import Rating, RatingChange
from games.shared.errors import RankedNoBotsError
from tests.ranked.ranked_helpers import play_moves, play_ranked, ranked_room

pytestmark = pytest.mark.django_db


def expected_ranks(totals: list[int], winners: list[int], lower_wins: bool) -> list[int]:
    """Written apart from games.ranked.ratings: winners first, then by total, ties sharing a place."""
    ranks = []
    for seat, total in enumerate(totals):
        if seat in winners:
            ranks.append(0)
            continue
        better = {
            other_total
            for other, other_total in enumerate(totals)
            if other not in winners and (other_total < total if lower_wins else other_total > total)
        }
        ranks.append(1 + len(better))
    return ranks


@pytest.mark.parametrize(
    ("variant", "options", "seats"),
    [
        ("remi", {"rounds": 1}, 2),
        ("remi", {"rounds": 1, "opening": "51"}, 3),
        ("remik51", {"penalty_limit": 50}, 4),
    ],
)
def test_two_matches_move_ratings_as_openskill_does(
    people: list[Any], variant: str, options: dict[str, Any], seats: int
) -> None:
    players = people[:seats]
    model = PlackettLuce()
    expected = [model.rating() for _ in players]
    for _ in range(2):  # the second match starts from the first one's ratings
        match = play_ranked(players, variant, options)
        state = match.game_state()
        lower_wins = match.room.rules().lower_wins
        ranks = expected_ranks(list(state.totals), list(state.winners), lower_wins)
        expected = [team[0] for team in model.rate([[rating] for rating in expected], ranks=ranks)]

        assert match.rating_status == RatingStatus.RATED
        changes = list(RatingChange.objects.filter(match=match).order_by("seat"))
        assert [change.user_id for change in changes] == [player.pk for player in players]
        category = ratings.category_for(variant, match.room.options)
        for change, player, rating in zip(changes, players, expected, strict=True):
            assert change.category == category
            assert change.mu_after == pytest.approx(rating.mu, abs=1e-9)
            assert change.sigma_after == pytest.approx(rating.sigma, abs=1e-9)
            assert change.ordinal_after == pytest.approx(rating.ordinal(), abs=1e-9)
            assert change.won == (change.seat in state.winners)
            stored = Rating.objects.get(user=player, category=category)
            assert (stored.mu, stored.sigma) == (change.mu_after, change.sigma_after)
            assert stored.ordinal == pytest.approx(rating.ordinal(), abs=1e-9)
    assert all(r.matches == 2 for r in Rating.objects.all())


def test_a_change_records_before_and_after_and_chains_from_the_previous_one(people: list[Any]) -> None:
    first = play_ranked(people[:2])
    second = play_ranked(people[:2])
    for player in people[:2]:
        one = RatingChange.objects.get(match=first, user=player)
        two = RatingChange.objects.get(match=second, user=player)
        assert (one.mu_before, one.sigma_before) == (25.0, 25 / 3)
        assert one.ordinal_before == pytest.approx(0.0)
        assert (two.mu_before, two.sigma_before) == (one.mu_after, one.sigma_after)
        assert two.ordinal_before == one.ordinal_after
        assert two.sigma_after < one.sigma_after < one.sigma_before  # more certain with every match


def test_remi_is_rated_by_opening_and_variants_apart(people: list[Any]) -> None:
    play_ranked(people[:2], "remi", {"rounds": 1, "opening": "classic"})
    play_ranked(people[:2], "remi", {"rounds": 1})  # the default opening, 45
    assert set(Rating.objects.filter(user=people[0]).values_list("category", flat=True)) == {
        "remi-classic",
        "remi-45",
    }
    assert ratings.category_title("remi-45") == "Remi (opening 45)"
    assert [key for key, _ in ratings.CATEGORIES].count("remi-51") == 1


@pytest.mark.parametrize(
    ("totals", "winners", "lower_wins", "ranks"),
    [
        ([120, 40, 300], [1], True, [2, 1, 3]),
        ([10, 10, 30, 50], [0, 1], True, [1, 1, 2, 3]),
        ([90, 90, 30, 30], [0, 1], False, [1, 1, 2, 2]),
        ([500, 20], [1], True, [2, 1]),
        # The engine's winners come first even when the totals say otherwise (a gin settlement).
        ([80, 95], [0], False, [1, 2]),
    ],
)
def test_standings_from_totals_and_winners(
    totals: list[int], winners: list[int], lower_wins: bool, ranks: list[int]
) -> None:
    assert ratings.standings(totals, winners, lower_wins) == ranks


def test_a_tie_is_rated_as_openskill_rates_it() -> None:
    model = PlackettLuce()
    befores = [(27.0, 7.0), (24.0, 8.0), (25.0, 8.333), (30.0, 5.0)]
    ranks = [1, 1, 2, 3]
    got = ratings.rate(befores, ranks, [False] * 4)
    want = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma in befores], ranks=ranks)
    assert got == [(team[0].mu, team[0].sigma) for team in want]


def test_the_shown_rating_is_the_scaled_ordinal_with_its_uncertainty() -> None:
    assert ratings.display(25.0, 25 / 3) == 1000  # a new player
    assert ratings.display(30.0, 4.0) == 1000 + 40 * 18
    assert ratings.display_uncertainty(25 / 3) == 333
    assert ratings.is_provisional(25 / 3)
    assert not ratings.is_provisional(6.0)


# --- who may sit in a ranked room ----------------------------------------------------------------


def test_a_ranked_room_refuses_a_bot_with_a_stable_code(people: list[Any]) -> None:
    room = services.room_create(
        owner=people[0], name="R", variant="remik51", options={}, seats=2, turn_seconds=60, ranked=True
    )
    services.seat_take(room=room, user=people[0], index=0)
    with pytest.raises(RankedNoBotsError) as refused:
        services.seat_add_bot(room=room, index=1, user=people[0])
    assert refused.value.code == "ranked_no_bots"
    assert not room.seats.filter(is_bot=True).exists()


def test_a_ranked_room_with_a_bot_put_in_by_hand_does_not_start(people: list[Any]) -> None:
    room = services.room_create(
        owner=people[0], name="R", variant="remik51", options={}, seats=2, turn_seconds=60, ranked=True
    )
    services.seat_take(room=room, user=people[0], index=0)
    room.seats.filter(index=1).update(is_bot=True, bot_level="normal")  # not through the services
    with pytest.raises(RankedNoBotsError):
        services.match_start(room=room)
    assert not Match.objects.filter(room=room).exists()


def test_a_casual_match_leaves_ratings_alone(people: list[Any]) -> None:
    room = ranked_room(people[:2], ranked=False)
    match = play_moves(services.match_start(room=room), people[:2])
    assert match.game_state().is_over
    assert match.rating_status == RatingStatus.NONE
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_the_room_page_offers_no_bot_in_a_ranked_room(people: list[Any], client: Any) -> None:
    room = services.room_create(
        owner=people[0], name="R", variant="remik51", options={}, seats=2, turn_seconds=60, ranked=True
    )
    services.seat_take(room=room, user=people[0], index=0)
    client.force_login(people[0])
    page = client.get(f"/rooms/{room.pk}/").content.decode()
    assert "Take this seat" not in page  # the owner is seated already
    assert "Add bot" not in page
    assert "only people" in page
    response = client.post(f"/rooms/{room.pk}/seats/bot/", {"index": 1, "level": "normal"}, follow=True)
    assert "a ranked room seats only people" in response.content.decode()
