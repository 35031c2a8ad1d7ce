import json
from typing import Any

import pytest

from games import engine
from games.play import broadcast, selectors, services
from games.play.commits import Committed
from games.play.models import Match, Room, Round, Seat
from games.shared.errors import (
    AlreadySeatedError,
    BadOptionsError,
    NotOwnerError,
    RoomFullError,
    RoomNotReadyError,
    SeatTakenError,
)


def test_a_room_stores_the_engines_normalised_options(make_room: Any) -> None:
    room = make_room("remi", {"opening": 51, "rounds": 3}, seats=3)
    room.refresh_from_db()
    assert room.status == Room.Status.OPEN
    assert room.options == dict(engine.variant("remi", opening="51", rounds=3).options)
    assert list(room.seats.values_list("index", "user", "is_bot")) == [
        (0, None, False),
        (1, None, False),
        (2, None, False),
    ]
    assert room.join_code is None
    assert room in selectors.room_list_open()


def test_camel_case_options_are_accepted(make_room: Any) -> None:
    room = make_room("remik51", {"penaltyLimit": 300})
    assert room.options["penalty_limit"] == 300


@pytest.mark.parametrize(
    ("variant", "options", "fragment"),
    [
        ("remik51", {"penalty_limit": 5}, "penalty_limit"),
        ("remik51", {"colour": "red"}, "unknown option"),
        ("remi", {"rounds": 3, "target": 500}, "not both"),
        ("canasta", {}, "unknown variant"),
    ],
)
def test_options_the_engine_refuses_are_bad_options(
    make_room: Any, variant: str, options: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(ValueError, match=fragment) as engine_error:
        engine.variant(variant, **options)
    with pytest.raises(BadOptionsError) as caught:
        make_room(variant, options)
    assert caught.value.code == "bad_options"
    assert str(caught.value) == str(engine_error.value)
    assert fragment in str(caught.value)
    assert not Room.objects.exists()


@pytest.mark.parametrize("seats", [1, 7, 0])
def test_seat_count_must_suit_the_variant(make_room: Any, seats: int) -> None:
    with pytest.raises(BadOptionsError):
        make_room("remik51", seats=seats)


def test_a_private_room_has_a_join_code_and_is_not_listed(make_room: Any) -> None:
    room = make_room(private=True)
    assert room.join_code
    assert len(room.join_code) == 8
    assert room not in selectors.room_list_open()


def test_seating_fills_free_seats_and_refuses_twice_or_when_full(make_room: Any, make_user: Any) -> None:
    room = make_room(seats=2)
    ala, bartek, celina = make_user("ala"), make_user("bartek"), make_user("celina")
    assert services.seat_take(room=room, user=ala, index=1).index == 1
    with pytest.raises(AlreadySeatedError):
        services.seat_take(room=room, user=ala)
    with pytest.raises(SeatTakenError):
        services.seat_take(room=room, user=bartek, index=1)
    with pytest.raises(SeatTakenError):
        services.seat_take(room=room, user=bartek, index=5)
    assert services.seat_take(room=room, user=bartek).index == 0
    with pytest.raises(RoomFullError):
        services.seat_take(room=room, user=celina)


def test_only_the_owner_adds_bots_and_only_to_free_seats(make_room: Any, make_user: Any, owner: Any) -> None:
    room = make_room(seats=3)
    with pytest.raises(NotOwnerError):
        services.seat_add_bot(room=room, index=0, level="easy", user=make_user("ala"))
    seat = services.seat_add_bot(room=room, index=0, level="hard", user=owner)
    assert (seat.is_bot, seat.bot_level) == (True, Seat.BotLevel.HARD)
    with pytest.raises(SeatTakenError):
        services.seat_add_bot(room=room, index=0, level="easy")
    with pytest.raises(BadOptionsError):
        services.seat_add_bot(room=room, index=1, level="godlike")


def test_a_match_needs_every_seat_filled(make_room: Any) -> None:
    room = make_room(seats=2)
    services.seat_add_bot(room=room, index=0, level="easy")
    with pytest.raises(RoomNotReadyError):
        services.match_start(room=room)
    assert not Match.objects.exists()


def test_starting_a_match_stores_round_one_commitment_and_publishes_no_secret(
    make_room: Any, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    room = make_room("remi", {"rounds": 2}, seats=3)
    services.seat_take(room=room, user=make_user("ala"))
    services.seat_add_bot(room=room, index=1, level="normal")
    services.seat_add_bot(room=room, index=2, level="easy")
    with django_capture_on_commit_callbacks() as callbacks:
        match = services.match_start(room=room)
    assert len(callbacks) == 1
    match.refresh_from_db()
    room.refresh_from_db()
    secret = match.secret_bytes
    assert len(secret) == 32
    assert room.status == Room.Status.PLAYING
    assert (match.version, match.status, match.number) == (0, Match.Status.PLAYING, 1)
    state = match.game_state()
    assert state.names == ("ala", "Bot 2", "Bot 3")
    assert "secret" not in match.state
    first = Round.objects.get(match=match)
    assert first.number == 1
    assert first.commitment == engine.commitment(engine.deal_seed(secret, 1))
    assert first.revealed_seed is None

    frames = broadcast.frames(Committed(match_id=match.pk, state=state, version=0))
    frames.append(("selector", selectors.match_frame_for(match_id=match.pk, user=None)))
    for _group, frame in frames:
        text = json.dumps(frame)
        assert secret.hex() not in text
        assert engine.deal_seed(secret, 1).hex() not in text
        assert frame["view"]["commitment"] == first.commitment


def test_r40_q13_the_next_match_in_a_remik40_room_starts_with_the_next_dealer(make_room: Any) -> None:
    # R40-Q13 (docs/rules/remik40.md): the deal passes to the left each game, so each match of the
    # room starts one seat further on than the last (a remik40 match is one game, R40-Q11).
    room = make_room("remik40", seats=3)
    for index in range(3):
        services.seat_add_bot(room=room, index=index, level="easy")
    firsts = []
    for _ in range(4):
        match = services.match_start(room=room)
        firsts.append(match.game_state().first)
        assert services.match_close(match_id=match.pk) is True
    assert firsts[1:] == [(first + 1) % 3 for first in firsts[:-1]]
    assert [m.number for m in Match.objects.filter(room=room).order_by("number")] == [1, 2, 3, 4]


def test_r40_q13_other_variants_draw_each_matchs_first_dealer_from_its_secret(make_room: Any) -> None:
    room = make_room("remik51", seats=3)
    for index in range(3):
        services.seat_add_bot(room=room, index=index, level="easy")
    for _ in range(3):
        match = services.match_start(room=room)
        state = match.game_state()
        assert state.first == engine.choose_first(state.rules, 3, match.secret_bytes)
        services.match_close(match_id=match.pk)
