"""The room socket (``ws/rooms/<room_id>/``) and commands resent with an id already applied."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.play.models import Match, MoveRecord
from tests.realtime.sockets import TIMEOUT, Table, joined, open_socket, room_path

pytestmark = pytest.mark.django_db(transaction=True)

QUIET = 0.3


def _moves_and_version(match_id: int) -> tuple[list[tuple[int, str | None]], int]:
    records = list(MoveRecord.objects.filter(match_id=match_id).values_list("seq", "command_id"))
    return records, Match.objects.values_list("version", flat=True).get(pk=match_id)


# --- the room socket ----------------------------------------------------------------------------


async def test_the_room_socket_attaches_to_the_rooms_match(table: Table) -> None:
    async with (
        joined(table.match_id, table.mover, path=room_path(table.room_id)) as (by_room, first),
        joined(table.match_id, table.other) as (by_match, _),
    ):
        assert (first["type"], first["version"], first["view"]["seat"]) == ("state", 0, table.mover.seat)
        assert first["view"]["hand"] == list(table.mover.hand)

        # A move sent on the room socket is the match's move: both kinds of socket hear of it.
        await by_room.send_json_to({"type": "move", "id": "r1", "version": 0, "move": table.a_discard})
        assert (await by_room.receive_json_from(timeout=TIMEOUT))["version"] == 1
        assert (await by_match.receive_json_from(timeout=TIMEOUT))["version"] == 1


async def test_a_spectator_can_watch_through_the_room_socket(table: Table) -> None:
    async with joined(table.match_id, table.spectator, path=room_path(table.room_id)) as (_socket, frame):
        assert (frame["type"], frame["version"], frame["view"]["seat"], frame["view"]["hand"]) == (
            "state",
            0,
            None,
            None,
        )


@pytest.mark.parametrize("which", ["without a match", "unknown"])
async def test_a_room_without_a_match_is_closed_with_4404(
    table: Table, empty_room_id: int, which: str
) -> None:
    room_id = empty_room_id if which == "without a match" else empty_room_id + 1000
    async with open_socket(table.match_id, table.mover.cookie, path=room_path(room_id)) as socket:
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        assert await socket.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4404}


async def test_an_anonymous_room_socket_is_closed_with_4401(table: Table) -> None:
    async with open_socket(table.match_id, path=room_path(table.room_id)) as socket:
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        assert await socket.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4401}


# --- command ids ---------------------------------------------------------------------------------


async def test_a_repeated_command_id_is_applied_once(table: Table) -> None:
    command = {"type": "move", "id": "c1", "version": 0, "move": table.a_discard}
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (other, _),
    ):
        await mover.send_json_to(command)
        assert (await mover.receive_json_from(timeout=TIMEOUT))["version"] == 1
        assert (await other.receive_json_from(timeout=TIMEOUT))["version"] == 1

        await mover.send_json_to(command)
        ack = await mover.receive_json_from(timeout=TIMEOUT)
        assert ack == {"type": "ack", "id": "c1", "version": 1, "duplicate": True}
        fresh = await mover.receive_json_from(timeout=TIMEOUT)
        assert (fresh["type"], fresh["version"]) == ("state", 1)
        assert fresh["view"]["hand"] == [c for c in table.mover.hand if c != table.a_discard["card"]]

        # Nobody else hears of the copy, and the sender gets nothing more.
        assert await other.receive_nothing(timeout=QUIET)
        assert await mover.receive_nothing(timeout=QUIET)

    records, version = await database_sync_to_async(_moves_and_version)(table.match_id)
    assert records == [(1, "c1")]
    assert version == 1


async def test_a_command_resent_after_a_reconnect_is_acknowledged_not_replayed(table: Table) -> None:
    command = {"type": "move", "id": 41, "version": 0, "move": table.a_discard}
    async with joined(table.match_id, table.mover) as (socket, _):
        await socket.send_json_to(command)
        assert (await socket.receive_json_from(timeout=TIMEOUT))["version"] == 1

    # The client lost the socket before seeing its frame, reconnects (by room) and resends.
    async with joined(table.match_id, table.mover, path=room_path(table.room_id)) as (socket, first):
        assert first["version"] == 1
        await socket.send_json_to(command)
        ack: dict[str, Any] = await socket.receive_json_from(timeout=TIMEOUT)
        assert ack == {"type": "ack", "id": 41, "version": 1, "duplicate": True}
        assert (await socket.receive_json_from(timeout=TIMEOUT))["version"] == 1

    records, version = await database_sync_to_async(_moves_and_version)(table.match_id)
    assert records == [(1, "41")]
    assert version == 1


async def test_the_same_id_from_the_other_seat_is_a_new_command(table: Table) -> None:
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (other, _),
    ):
        await mover.send_json_to({"type": "move", "id": "x", "version": 0, "move": table.a_discard})
        assert (await mover.receive_json_from(timeout=TIMEOUT))["version"] == 1
        assert (await other.receive_json_from(timeout=TIMEOUT))["version"] == 1

        # Not a duplicate (another seat): it is judged, and a draw is B's legal next move.
        await other.send_json_to({"type": "move", "id": "x", "version": 1, "move": {"kind": "draw"}})
        assert (await other.receive_json_from(timeout=TIMEOUT))["version"] == 2
        assert (await mover.receive_json_from(timeout=TIMEOUT))["version"] == 2
