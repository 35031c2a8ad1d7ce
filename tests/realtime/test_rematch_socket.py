""" "Play again" over the socket (docs/protocol.md, "Rematch"): once every person seated agrees
(bots at once), the room's next match starts with the same seats, options and ranking; a "no",
or a player who never answers, starts nothing; Remik 40's deal passes on (R40-Q13)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from games import engine
from games.engine.bots import choose_move
from games.play import services
from games.play.models import Match, Room, Seat
from tests.realtime.sockets import TIMEOUT, Player, joined, session_cookie
from tests.schema import assert_command

pytestmark = pytest.mark.django_db(transaction=True)

QUIET = 0.3


@dataclass(frozen=True)
class Finished:
    match_id: int
    room_id: int
    people: list[Player]
    spectator: Player


def play_to_the_end(match: Match) -> Match:
    """Every seat plays the engine's bot moves until the match is over (an away seat's by the
    stand-in, so that it stays away)."""
    for _ in range(3000):
        match.refresh_from_db()
        state = match.game_state()
        if state.is_over:
            return match
        seat = Seat.objects.get(room_id=match.room_id, index=state.turn)
        if seat.is_bot or seat.state == Seat.State.AWAY:  # the stand-in plays an away seat
            services.bot_move_play(match_id=match.pk, expected_version=match.version)
        else:
            move = choose_move(engine.view_for(state, state.turn))
            services.move_submit(match_id=match.pk, user=seat.user, move=move, expected_version=match.version)
    raise AssertionError("the match did not end")


def finished_match(
    variant: str, options: dict[str, Any], *, people: int, bots: int, ranked: bool
) -> Finished:
    make = get_user_model().objects.create_user
    users = [make(username=name, password=None) for name in ("ala", "bartek", "celina")[:people]]
    watcher = make(username="wiktor", password=None)
    room = services.room_create(
        owner=users[0],
        name="Again",
        variant=variant,
        options=options,
        seats=people + bots,
        turn_seconds=45,
        ranked=ranked,
    )
    for index, user in enumerate(users):
        services.seat_take(room=room, user=user, index=index)
    for index in range(people, people + bots):
        services.seat_add_bot(room=room, index=index)
    match = play_to_the_end(services.match_start(room=room))
    assert match.status == Match.Status.FINISHED
    return Finished(
        match_id=match.pk,
        room_id=room.pk,
        people=[Player(user=u, cookie=session_cookie(u), seat=i, hand=()) for i, u in enumerate(users)],
        spectator=Player(user=watcher, cookie=session_cookie(watcher), seat=None, hand=()),
    )


@pytest.fixture
def ranked_pair(transactional_db: None) -> Finished:
    """A ranked one-round Remi match of two people, over."""
    return finished_match("remi", {"rounds": 1, "max_players": 2}, people=2, bots=0, ranked=True)


async def send(socket: Any, command: dict[str, Any]) -> None:
    assert_command(command)
    await socket.send_json_to(command)


async def next_rematch(socket: Any) -> dict[str, Any]:
    """The next ``rematch`` frame (state frames about seats going offline may come first)."""
    for _ in range(5):
        frame = await socket.receive_json_from(timeout=TIMEOUT)
        if frame["type"] == "rematch":
            return frame  # type: ignore[no-any-return]
    raise AssertionError("no rematch frame")


def _room_matches(room_id: int) -> list[tuple[int, int, str]]:
    matches = Match.objects.filter(room_id=room_id).order_by("number")
    return list(matches.values_list("pk", "number", "status"))


async def test_two_people_agree_and_the_next_match_starts_ranked_in_the_same_seats(
    ranked_pair: Finished,
) -> None:
    ala, bartek = ranked_pair.people
    async with (
        joined(ranked_pair.match_id, ala) as (first, _),
        joined(ranked_pair.match_id, bartek) as (second, _),
        joined(ranked_pair.match_id, ranked_pair.spectator) as (watcher, _),
    ):
        await send(first, {"type": "rematch", "id": "r1"})
        for socket in (first, second, watcher):
            assert await socket.receive_json_from(timeout=TIMEOUT) == {
                "type": "rematch",
                "match": ranked_pair.match_id,
                "agreed": [0],
                "declined": [],
                "waiting": [1],
                "next_match": None,
            }
        assert len(await database_sync_to_async(_room_matches)(ranked_pair.room_id)) == 1

        await send(second, {"type": "rematch", "agree": True})
        frames = [await socket.receive_json_from(timeout=TIMEOUT) for socket in (first, second, watcher)]
        assert frames[0] == frames[1] == frames[2]
        assert (frames[0]["agreed"], frames[0]["waiting"]) == ([0, 1], [])
        next_match = frames[0]["next_match"]
        assert isinstance(next_match, int)

    matches = await database_sync_to_async(_room_matches)(ranked_pair.room_id)
    assert matches == [(ranked_pair.match_id, 1, "finished"), (next_match, 2, "playing")]
    room = await database_sync_to_async(Room.objects.get)(pk=ranked_pair.room_id)
    assert (room.ranked, room.status, room.turn_seconds, room.options["rounds"]) == (True, "playing", 45, 1)
    new = await database_sync_to_async(Match.objects.get)(pk=next_match)
    assert new.state["names"] == ["ala", "bartek"]  # the same people in the same seats

    # The new match's socket deals the same seats their own hands.
    async with joined(next_match, ala) as (_, frame):
        assert (frame["type"], frame["version"]) == ("state", 0)
        assert frame["view"]["seat"] == 0

    # A socket opening on the finished match reads where the table went.
    async with joined(ranked_pair.match_id, bartek) as (late, _):
        assert (await late.receive_json_from(timeout=TIMEOUT))["next_match"] == next_match
        # Asking again starts nothing more.
        await send(late, {"type": "rematch"})
        assert (await late.receive_json_from(timeout=TIMEOUT))["next_match"] == next_match
    assert len(await database_sync_to_async(_room_matches)(ranked_pair.room_id)) == 2


async def test_one_refusal_starts_nothing(ranked_pair: Finished) -> None:
    ala, bartek = ranked_pair.people
    async with (
        joined(ranked_pair.match_id, ala) as (first, _),
        joined(ranked_pair.match_id, bartek) as (second, _),
    ):
        await send(first, {"type": "rematch"})
        await first.receive_json_from(timeout=TIMEOUT)
        await second.receive_json_from(timeout=TIMEOUT)
        await send(second, {"type": "rematch", "agree": False})
        for socket in (first, second):
            frame = await socket.receive_json_from(timeout=TIMEOUT)
            assert (frame["agreed"], frame["declined"], frame["next_match"]) == ([0], [1], None)
        assert await first.receive_nothing(timeout=QUIET)
    assert len(await database_sync_to_async(_room_matches)(ranked_pair.room_id)) == 1


async def test_a_player_who_leaves_without_answering_starts_nothing(ranked_pair: Finished) -> None:
    ala, bartek = ranked_pair.people
    async with joined(ranked_pair.match_id, ala) as (first, _):
        async with joined(ranked_pair.match_id, bartek) as (_second, _):
            await send(first, {"type": "rematch"})
            assert (await first.receive_json_from(timeout=TIMEOUT))["waiting"] == [1]
        # Bartek's socket is gone; Ala asking again does not start the match without him.
        await send(first, {"type": "rematch"})
        frame = await next_rematch(first)
        assert (frame["waiting"], frame["next_match"]) == ([1], None)
    assert len(await database_sync_to_async(_room_matches)(ranked_pair.room_id)) == 1


async def test_spectators_do_not_vote_and_a_match_being_played_has_no_rematch(
    ranked_pair: Finished,
) -> None:
    async with joined(ranked_pair.match_id, ranked_pair.spectator) as (watcher, _):
        await send(watcher, {"type": "rematch", "id": "w1"})
        assert (await watcher.receive_json_from(timeout=TIMEOUT))["code"] == "not_seated"
    ala, bartek = ranked_pair.people
    async with (
        joined(ranked_pair.match_id, ala) as (first, _),
        joined(ranked_pair.match_id, bartek) as (second, _),
    ):
        await send(first, {"type": "rematch"})
        await send(second, {"type": "rematch"})
        frames = [await first.receive_json_from(timeout=TIMEOUT) for _ in range(2)]
        next_match = frames[-1]["next_match"]
    async with joined(next_match, ala) as (playing, _):
        await send(playing, {"type": "rematch", "id": "p1"})
        error = await playing.receive_json_from(timeout=TIMEOUT)
        assert (error["code"], error["id"]) == ("rematch_unavailable", "p1")


@pytest.fixture
def remik40_with_a_bot(transactional_db: None) -> Finished:
    return finished_match("remik40", {"max_players": 3}, people=2, bots=1, ranked=False)


async def test_bots_agree_at_once_and_remik40s_deal_passes_to_the_left(remik40_with_a_bot: Finished) -> None:
    """R40-Q13: the next game is begun by the player after the one who began the last."""
    finished = remik40_with_a_bot
    ala, bartek = finished.people
    async with joined(finished.match_id, ala) as (first, _), joined(finished.match_id, bartek) as (second, _):
        await send(second, {"type": "rematch"})
        frame = await first.receive_json_from(timeout=TIMEOUT)
        assert (frame["agreed"], frame["waiting"]) == ([1, 2], [0])  # the bot in seat 2 agreed
        await second.receive_json_from(timeout=TIMEOUT)
        await send(first, {"type": "rematch"})
        next_match = (await first.receive_json_from(timeout=TIMEOUT))["next_match"]
    previous, new = await database_sync_to_async(_states)(finished.match_id, next_match)
    assert new.first == (previous.first + 1) % 3
    assert new.rules.options == previous.rules.options


def _states(*match_ids: int) -> list[engine.GameState]:
    return [Match.objects.get(pk=pk).game_state() for pk in match_ids]


@pytest.fixture
def finished_while_away(transactional_db: None) -> Finished:
    """A one-round Remi match whose seat 1 went away (the bot played for it) before the end."""
    make = get_user_model().objects.create_user
    ala, bartek = make(username="ala", password=None), make(username="bartek", password=None)
    room = services.room_create(
        owner=ala,
        name="Away",
        variant="remi",
        options={"rounds": 1, "max_players": 2},
        seats=2,
        turn_seconds=45,
    )
    services.seat_take(room=room, user=ala, index=0)
    services.seat_take(room=room, user=bartek, index=1)
    match = services.match_start(room=room)
    services.seat_away(match_id=match.pk, user=bartek)
    match = play_to_the_end(match)
    assert Seat.objects.get(room=room, index=1).state == Seat.State.AWAY
    return Finished(
        match_id=match.pk,
        room_id=room.pk,
        people=[
            Player(user=u, cookie=session_cookie(u), seat=i, hand=()) for i, u in enumerate((ala, bartek))
        ],
        spectator=Player(user=ala, cookie=session_cookie(ala), seat=0, hand=()),
    )


async def test_a_finished_match_has_no_stand_in_any_more(finished_while_away: Finished) -> None:
    """Issue 14, item 8: the finished table said "away — bot playing for bartek"."""
    _, bartek = finished_while_away.people
    async with joined(finished_while_away.match_id, bartek) as (_socket, frame):
        assert frame["view"]["phase"] == "over"
        assert [seat["standin"] for seat in frame["seats"]] == [False, False]
    # Agreeing to play again takes the seat back: the new match is played by its person.
    async with joined(finished_while_away.match_id, bartek) as (socket, _):
        await send(socket, {"type": "rematch"})
        await next_rematch(socket)
    seat = await database_sync_to_async(Seat.objects.get)(room_id=finished_while_away.room_id, index=1)
    assert seat.state == Seat.State.OFFLINE  # not away: its socket has just closed
