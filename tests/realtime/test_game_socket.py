"""The match WebSocket end to end: auth, audiences, moves, and errors that reach the sender only.

Each test drives ``remi_site.asgi.application`` (origin check + session auth + routing) with
``WebsocketCommunicator``s; the services commit for real and broadcast through the channel layer
the environment chose (in-memory, or channels_redis under REDIS_URL).
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import consumers
from games.play import broadcast, services
from games.play.models import Match, MoveRecord
from tests.realtime.sockets import TIMEOUT, Player, Table, joined, open_socket, strings_in

pytestmark = pytest.mark.django_db(transaction=True)

#: How long "receives nothing" waits: long enough for a wrongly routed frame to show up.
QUIET = 0.3


def _assert_seat_frame(frame: dict[str, Any], player: Player, version: int) -> None:
    assert frame["type"] == "state"
    assert frame["version"] == version
    assert frame["view"]["seat"] == player.seat
    assert frame["view"]["hand"] is not None


def _snapshot(match_id: int) -> tuple[Any, ...]:
    """What a refused command must leave alone: version, stored state, move log."""
    match = Match.objects.get(pk=match_id)
    return match.version, match.state, MoveRecord.objects.filter(match_id=match_id).count()


def _errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Log records at ERROR or above: bad input from a client must never produce one."""
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


def _assert_spectator_frame(frame: dict[str, Any], table: Table, version: int) -> None:
    assert frame["type"] == "state"
    assert frame["version"] == version
    assert frame["view"]["seat"] is None
    assert frame["view"]["hand"] is None
    assert "you" not in frame["view"]
    assert not strings_in(frame) & (set(table.mover.hand) | set(table.other.hand)) - set(
        frame["view"]["discard"]
    )


# --- connecting ----------------------------------------------------------------------------------


async def test_an_anonymous_socket_is_closed_with_4401(table: Table) -> None:
    async with open_socket(table.match_id) as socket:
        connected, _ = await socket.connect(timeout=TIMEOUT)
        # Accepted, then closed: the browser can read the code (a refused handshake is just 1006).
        assert connected
        assert await socket.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4401}


async def test_a_socket_for_an_unknown_match_is_closed_with_4404(table: Table) -> None:
    async with open_socket(table.match_id + 1000, table.mover.cookie) as socket:
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        assert await socket.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4404}


async def test_a_socket_from_another_site_is_refused(table: Table) -> None:
    async with open_socket(table.match_id, table.mover.cookie, origin=b"https://elsewhere.example") as socket:
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert not connected


async def test_a_seated_player_gets_their_own_hand_and_nobody_elses(table: Table) -> None:
    for player, opponent in ((table.mover, table.other), (table.other, table.mover)):
        async with joined(table.match_id, player) as (_socket, frame):
            _assert_seat_frame(frame, player, version=0)
            assert frame["view"]["hand"] == list(player.hand)
            assert not strings_in(frame) & set(opponent.hand)


async def test_a_spectator_gets_a_frame_without_any_hand(table: Table) -> None:
    async with joined(table.match_id, table.spectator) as (_socket, frame):
        _assert_spectator_frame(frame, table, version=0)


# --- moves ---------------------------------------------------------------------------------------


async def test_a_move_reaches_every_audience_with_its_own_view(table: Table) -> None:
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (other, _),
        joined(table.match_id, table.spectator) as (spectator, _),
    ):
        card = table.a_discard["card"]
        await mover.send_json_to({"type": "move", "id": "c1", "version": 0, "move": table.a_discard})

        mover_frame = await mover.receive_json_from(timeout=TIMEOUT)
        other_frame = await other.receive_json_from(timeout=TIMEOUT)
        spectator_frame = await spectator.receive_json_from(timeout=TIMEOUT)

        _assert_seat_frame(mover_frame, table.mover, version=1)
        assert mover_frame["view"]["hand"] == [c for c in table.mover.hand if c != card]
        assert mover_frame["view"]["discard"][-1] == card
        assert mover_frame["events"]

        _assert_seat_frame(other_frame, table.other, version=1)
        assert other_frame["view"]["hand"] == list(table.other.hand)
        assert other_frame["view"]["discard"][-1] == card
        # Only the card that went face up is public; the rest of the mover's hand never reaches B.
        assert not strings_in(other_frame) & (set(table.mover.hand) - {card})

        _assert_spectator_frame(spectator_frame, table, version=1)

        # One frame per audience per move, and no direct answer besides it.
        for socket in (mover, other, spectator):
            assert await socket.receive_nothing(timeout=QUIET)


async def test_the_broadcast_message_type_is_the_consumers_handler() -> None:
    # broadcast.publish sends {"type": "match.frame"}; channels calls GameConsumer.match_frame.
    assert broadcast.FRAME_MESSAGE.replace(".", "_") == "match_frame"
    assert callable(consumers.GameConsumer.match_frame)


async def test_an_illegal_move_is_answered_to_the_sender_only(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    before = await database_sync_to_async(_snapshot)(table.match_id)
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (other, _),
        joined(table.match_id, table.spectator) as (spectator, _),
    ):
        # The remik51 dealer starts by discarding: drawing is the wrong phase.
        await mover.send_json_to({"type": "move", "id": "c1", "version": 0, "move": {"kind": "draw"}})
        error = await mover.receive_json_from(timeout=TIMEOUT)
        assert error["type"] == "error"
        assert (error["id"], error["code"]) == ("c1", "wrong_phase")
        assert error["message"]

        await other.send_json_to({"id": 7, "version": 0, "move": {"kind": "draw"}})
        error = await other.receive_json_from(timeout=TIMEOUT)
        assert (error["type"], error["id"], error["code"]) == ("error", 7, "not_your_turn")

        # A card the mover does not hold: the engine refuses it.
        not_held = {"kind": "discard", "card": table.other.hand[0]}
        await mover.send_json_to({"type": "move", "id": "c1b", "version": 0, "move": not_held})
        error = await mover.receive_json_from(timeout=TIMEOUT)
        assert (error["type"], error["id"], error["code"]) == ("error", "c1b", "card_not_in_hand")

        for socket in (mover, other, spectator):
            assert await socket.receive_nothing(timeout=QUIET)
        assert await database_sync_to_async(_snapshot)(table.match_id) == before
        assert _errors_logged(caplog) == []

        # Nothing was applied: the next legal move is version 1 for everybody.
        await mover.send_json_to({"type": "move", "id": "c2", "version": 0, "move": table.a_discard})
        for socket in (mover, other, spectator):
            assert (await socket.receive_json_from(timeout=TIMEOUT))["version"] == 1


async def test_a_stale_version_gets_an_error_and_a_fresh_frame(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (other, _),
    ):
        await mover.send_json_to({"type": "move", "id": "c1", "version": 0, "move": table.a_discard})
        assert (await mover.receive_json_from(timeout=TIMEOUT))["version"] == 1
        assert (await other.receive_json_from(timeout=TIMEOUT))["version"] == 1

        after_move = await database_sync_to_async(_snapshot)(table.match_id)
        # B still thinks the game is at version 0.
        await other.send_json_to({"type": "move", "id": "c9", "version": 0, "move": {"kind": "draw"}})
        error = await other.receive_json_from(timeout=TIMEOUT)
        assert error == {
            "type": "error",
            "id": "c9",
            "code": "stale_version",
            "message": "the game is at version 1",
            "current": 1,
        }
        resync = await other.receive_json_from(timeout=TIMEOUT)
        _assert_seat_frame(resync, table.other, version=1)
        assert resync["view"]["hand"] == list(table.other.hand)

        assert await mover.receive_nothing(timeout=QUIET)
    assert await database_sync_to_async(_snapshot)(table.match_id) == after_move
    assert _errors_logged(caplog) == []


async def test_malformed_messages_are_answered_and_the_socket_stays_open(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    before = await database_sync_to_async(_snapshot)(table.match_id)
    async with joined(table.match_id, table.mover) as (socket, _):
        for raw in ("{not json", " ", "\u0000\udcff", "[1, 2", "null"):
            await socket.send_to(text_data=raw)
            error = await socket.receive_json_from(timeout=TIMEOUT)
            assert (error["type"], error["id"], error["code"]) == ("error", None, "malformed_message")
        await socket.send_to(bytes_data=b"\xff\xfe not utf-8")
        error = await socket.receive_json_from(timeout=TIMEOUT)
        assert (error["type"], error["id"], error["code"]) == ("error", None, "malformed_message")

        for content, request_id in (
            ({"type": "move", "id": "c1", "version": -1, "move": {"kind": "draw"}}, "c1"),
            ({"type": "move", "id": "c2", "version": 0, "move": {"kind": "fly"}}, "c2"),
            ({"type": "shout", "id": "c3"}, "c3"),
            (["not", "an", "object"], None),
            ({"type": "move", "id": "c4", "version": 0, "move": {"kind": "discard", "card": "ZZ#9"}}, "c4"),
            ({"type": "move", "id": "c5", "version": 0}, "c5"),
            ({"type": "move", "id": "c6", "version": "0", "move": {"kind": "draw"}}, "c6"),
            # An id that is not a valid one is not echoed back.
            ({"type": "move", "id": "x" * 65, "version": 0, "move": {"kind": "draw"}}, None),
            ({"type": "move", "id": ["c7"], "version": 0, "move": {"kind": "draw"}}, None),
            ({"type": "move", "version": 0, "move": {"kind": "play", "melds": "9S TS JS"}}, None),
            ({"type": "move", "version": 0, "move": {"kind": "discard", "card": None}}, None),
        ):
            await socket.send_json_to(content)
            error = await socket.receive_json_from(timeout=TIMEOUT)
            assert (error["type"], error["id"], error["code"]) == ("error", request_id, "malformed_message")

        await socket.send_json_to({"type": "resync"})
        _assert_seat_frame(await socket.receive_json_from(timeout=TIMEOUT), table.mover, version=0)
    assert await database_sync_to_async(_snapshot)(table.match_id) == before
    assert _errors_logged(caplog) == []


async def test_a_spectator_cannot_move(table: Table) -> None:
    async with (
        joined(table.match_id, table.spectator) as (spectator, _),
        joined(table.match_id, table.mover) as (mover, _),
    ):
        await spectator.send_json_to({"type": "move", "id": "s1", "version": 0, "move": table.a_discard})
        error = await spectator.receive_json_from(timeout=TIMEOUT)
        assert (error["type"], error["id"], error["code"]) == ("error", "s1", "not_seated")
        assert await mover.receive_nothing(timeout=QUIET)


async def test_resync_sends_a_fresh_frame(table: Table) -> None:
    async with joined(table.match_id, table.other) as (socket, first):
        await socket.send_json_to({"type": "resync"})
        assert await socket.receive_json_from(timeout=TIMEOUT) == first


async def test_an_unexpected_failure_is_a_server_error_plus_a_fresh_frame(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(**kwargs: Any) -> int:
        raise RuntimeError("the database caught fire")

    monkeypatch.setattr(services, "move_submit", broken)
    async with joined(table.match_id, table.mover) as (socket, _):
        await socket.send_json_to({"type": "move", "id": "c1", "version": 0, "move": table.a_discard})
        error = await socket.receive_json_from(timeout=TIMEOUT)
        assert (error["type"], error["id"], error["code"]) == ("error", "c1", "server_error")
        assert "fire" not in error["message"]  # no internals on the wire
        _assert_seat_frame(await socket.receive_json_from(timeout=TIMEOUT), table.mover, version=0)
    assert "the database caught fire" in caplog.text


async def test_a_closed_socket_leaves_its_group(table: Table) -> None:
    async with joined(table.match_id, table.mover) as (mover, _):
        async with joined(table.match_id, table.other) as (_other, _):
            pass
        # B's socket is gone, and A hears that B's seat is offline (same version, new seats).
        offline = await mover.receive_json_from(timeout=TIMEOUT)
        assert (offline["version"], offline["seats"][table.other.seat]["state"]) == (0, "offline")
        # A move still reaches A, and publishing to B's group breaks nothing.
        await mover.send_json_to({"type": "move", "id": "c1", "version": 0, "move": table.a_discard})
        assert (await mover.receive_json_from(timeout=TIMEOUT))["version"] == 1
    layer = get_channel_layer()
    groups = getattr(layer, "groups", None)
    if groups is not None:  # the in-memory layer shows its groups; channels_redis does not
        for seat in (0, 1):
            assert not groups.get(broadcast.seat_group(table.match_id, seat))


def test_these_tests_use_the_layer_the_environment_chose(settings: Any) -> None:
    # Run with and without REDIS_URL: the consumer must work over channels_redis too.
    expected = "PubSubChannelLayer" if settings.REDIS_URL else "InMemoryChannelLayer"
    assert type(get_channel_layer()).__name__ == expected
