"""The rules of ranked results: a stood-in player cannot gain; an early end is an abort."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from openskill.models import PlackettLuce

from games import engine
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match, MoveRecord, RatingStatus, Room
from games.ranked import ratings
from games.ranked.models import Rating, RatingChange
from tests.ranked.ranked_helpers import play_moves, ranked_room

pytestmark = pytest.mark.django_db


# --- the stand-in rule ---------------------------------------------------------------------------


def _log(match: Match, turns: list[tuple[int, int, list[str]]]) -> None:
    """Write a made-up move log: (round, seat, actors of the turn's moves) per turn."""
    rows, seq = [], 0
    for round_number, seat, actors in turns:
        for actor in actors:
            seq += 1
            rows.append(
                MoveRecord(
                    match=match,
                    seq=seq,
                    round_number=round_number,
                    seat=seat,
                    move={"kind": "draw"},
                    actor=actor,
                )
            )
    MoveRecord.objects.bulk_create(rows)


def test_more_than_half_of_the_turns_by_a_stand_in(people: list[Any]) -> None:
    match = services.match_start(room=ranked_room(people[:3]))
    p, s = "player", "standin"
    _log(
        match,
        [
            (1, 0, [s]),
            (1, 1, [s, s]),
            (1, 2, [p, p]),
            (1, 0, [p, p]),
            (1, 1, [p, s]),  # the player drew, the stand-in finished the turn: the stand-in's
            (1, 2, [s]),
            (2, 0, [s]),
            (2, 1, [p]),
            (2, 2, [p]),
            (2, 0, [p]),
        ],
    )
    # Seat 0: 2 of 4 turns (exactly half: not more); seat 1: 2 of 3; seat 2: 1 of 3.
    assert ratings.standin_seats(match.pk) == {1}


def test_the_clamp_keeps_a_stood_in_winner_where_they_were() -> None:
    model = PlackettLuce()
    befores = [(25.0, 25 / 3), (25.0, 25 / 3), (25.0, 25 / 3)]
    plain = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma in befores], ranks=[1, 2, 3])
    got = ratings.rate(befores, [1, 2, 3], [True, False, True])
    assert plain[0][0].mu > 25.0  # the winner would have gained
    assert got[0] == befores[0]  # clamped: no gain at all
    assert got[1] == (plain[1][0].mu, plain[1][0].sigma)  # the others are rated as usual
    assert got[2][0] == plain[2][0].mu < 25.0  # a loss stays a loss
    assert ratings.ordinal(*got[2]) <= ratings.ordinal(*befores[2])


def test_a_loser_whose_ordinal_would_rise_keeps_their_sigma() -> None:
    # Second of three: a small loss of mu, a larger drop of sigma: mu - 3 sigma would rise.
    befores = [(25.0, 25 / 3), (20.0, 1.0), (20.0, 1.0)]
    ranks = [2, 1, 3]
    mu, sigma = ratings.rate(befores, ranks, [False] * 3)[0]
    before = befores[0]
    assert mu <= before[0]
    assert ratings.ordinal(mu, sigma) > ratings.ordinal(*before)
    clamped = ratings.rate(befores, ranks, [True, False, False])[0]
    assert clamped == (mu, before[1])
    assert ratings.ordinal(*clamped) <= ratings.ordinal(*before)


def test_a_player_played_by_the_stand_in_cannot_gain_from_a_real_match(people: list[Any]) -> None:
    """Seat 0's every turn is played by the stand-in; the match is replayed with fresh secrets
    until seat 0 wins (the bots on both sides are the same, so that comes soon)."""
    players = people[:2]
    for attempt in range(40):
        with mock.patch("secrets.token_bytes", return_value=bytes([attempt]) * 32):
            match = services.match_start(room=ranked_room(players))
        match = play_moves(match, players, standins={0})
        assert match.rating_status == RatingStatus.RATED
        stood_in = RatingChange.objects.get(match=match, seat=0)
        other = RatingChange.objects.get(match=match, seat=1)
        assert stood_in.standin
        assert not other.standin
        assert stood_in.mu_after <= stood_in.mu_before
        assert stood_in.ordinal_after <= stood_in.ordinal_before
        if match.winners == [0]:
            assert (stood_in.mu_after, stood_in.sigma_after) == (stood_in.mu_before, stood_in.sigma_before)
            # The opponent is rated from the same standings as usual: a loss.
            model = PlackettLuce()
            plain = model.rate(
                [
                    [model.rating(mu=stood_in.mu_before, sigma=stood_in.sigma_before)],
                    [model.rating(mu=other.mu_before, sigma=other.sigma_before)],
                ],
                ranks=[1, 2],
            )
            assert plain[0][0].mu > stood_in.mu_before  # without the rule, seat 0 would have gained
            assert (other.mu_after, other.sigma_after) == pytest.approx((plain[1][0].mu, plain[1][0].sigma))
            assert MoveRecord.objects.filter(match=match, seat=0).exclude(actor="standin").count() == 0
            return
        for player in players:  # start each attempt from fresh ratings
            Rating.objects.filter(user=player).delete()
    pytest.fail("seat 0 never won")


# --- an early end is an abort --------------------------------------------------------------------


def test_a_match_closed_before_any_move_is_aborted(people: list[Any]) -> None:
    room = ranked_room(people[:3], "remik51", {})
    match = services.match_start(room=room)
    assert services.room_close(room_ids=[room.pk]) == 1
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert match.game_state().is_over
    assert match.rating_status == RatingStatus.ABORTED
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_a_match_closed_after_moves_but_before_the_first_discard_is_aborted(people: list[Any]) -> None:
    players = people[:2]
    room = ranked_room(players, "rummy500", {})  # the first player draws before discarding
    match = services.match_start(room=room)
    state = match.game_state()
    moved = 0
    while moved < 5:  # draws and plays, stopping before anyone discards
        seat = state.turn
        move = choose_move(engine.view_for(state, seat))
        if isinstance(move, engine.Discard):
            break
        services.move_submit(match_id=match.pk, user=players[seat], move=move, expected_version=match.version)
        match.refresh_from_db()
        state = match.game_state()
        moved += 1
    assert moved >= 1
    assert not MoveRecord.objects.filter(match=match, move__kind="discard").exists()

    services.room_close(room_ids=[room.pk])

    match.refresh_from_db()
    assert match.rating_status == RatingStatus.ABORTED
    assert not RatingChange.objects.exists()


def test_leaving_a_ranked_match_before_the_first_discard_aborts_it(people: list[Any]) -> None:
    players = people[:2]
    room = ranked_room(players, "remik51", {})
    match = services.match_start(room=room)
    leaver = players[1 - match.game_state().turn]  # not the one to move: nobody has discarded

    assert services.seat_away(match_id=match.pk, user=leaver)

    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert match.rating_status == RatingStatus.ABORTED
    assert not RatingChange.objects.exists()


def test_leaving_a_ranked_match_after_the_first_discard_lets_the_bot_stand_in(people: list[Any]) -> None:
    players = people[:2]
    room = ranked_room(players, "remik51", {})
    match = services.match_start(room=room)
    state = match.game_state()
    while not MoveRecord.objects.filter(match=match, move__kind="discard").exists():
        seat = state.turn
        move = choose_move(engine.view_for(state, seat))
        services.move_submit(match_id=match.pk, user=players[seat], move=move, expected_version=match.version)
        match.refresh_from_db()
        state = match.game_state()

    assert services.seat_away(match_id=match.pk, user=players[0])

    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert match.rating_status == RatingStatus.NONE


def test_a_match_closed_after_the_first_discard_is_rated_from_its_standings(people: list[Any]) -> None:
    players = people[:2]
    room = ranked_room(players, "remi", {"rounds": 3})
    match = services.match_start(room=room)
    for _ in range(20):
        match.refresh_from_db()
        state = match.game_state()
        seat = state.turn
        move = choose_move(engine.view_for(state, seat))
        services.move_submit(match_id=match.pk, user=players[seat], move=move, expected_version=match.version)
        if isinstance(move, engine.Discard):
            break
    version = Match.objects.get(pk=match.pk).version

    services.room_close(room_ids=[room.pk])

    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert match.version == version + 1
    assert match.rating_status == RatingStatus.RATED
    # Nothing was scored: the totals tie, both players share first place (and both "won").
    assert match.winners == [0, 1]
    changes = list(RatingChange.objects.filter(match=match).order_by("seat"))
    assert [change.rank for change in changes] == [1, 1]
    model = PlackettLuce()
    tie = model.rate([[model.rating()], [model.rating()]], ranks=[1, 1])
    assert [(c.mu_after, c.sigma_after) for c in changes] == [(t[0].mu, t[0].sigma) for t in tie]


def test_closing_a_casual_room_ends_its_match_without_ratings(people: list[Any]) -> None:
    room = ranked_room(people[:2], ranked=False)
    match = services.match_start(room=room)
    services.room_close(room_ids=[room.pk])
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert match.rating_status == RatingStatus.NONE
    assert services.match_close(match_id=match.pk) is False  # over already


def test_match_close_on_its_own_finishes_the_room(people: list[Any]) -> None:
    room = ranked_room(people[:2], "remik51", {})
    match = services.match_start(room=room)
    assert services.match_close(match_id=match.pk) is True
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED  # a new match may be started there
    assert Match.objects.get(pk=match.pk).rating_status == RatingStatus.ABORTED
    second = services.match_start(room=room)
    assert second.number == 2
