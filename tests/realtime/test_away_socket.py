"""Seats over the socket: the ``away`` and ``back`` commands, sockets closing and opening, and the
``seats`` list every state frame carries, the same for everyone and with nothing private in it.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from pytest_django.fixtures import Settings

from games.play import services
from games.play.models import Seat
from tests.realtime.sockets import TIMEOUT, Table, joined, strings_in

pytestmark = pytest.mark.django_db(transaction=True)

QUIET = 0.3
SEAT_KEYS = {"seat", "kind", "state", "standin", "timeouts"}


def _entry(
    seat: int, state: str = "connected", *, standin: bool = False, timeouts: int = 0
) -> dict[str, Any]:
    return {"seat": seat, "kind": "human", "state": state, "standin": standin, "timeouts": timeouts}


async def test_every_frame_carries_the_seats_and_nothing_private(table: Table) -> None:
    async with (
        joined(table.match_id, table.mover) as (mover, first),
        joined(table.match_id, table.spectator) as (spectator, watching),
    ):
        assert first["seats"] == watching["seats"] == [_entry(0), _entry(1)]
        await mover.send_json_to({"type": "move", "id": "c1", "version": 0, "move": table.a_discard})
        for frame in (
            await mover.receive_json_from(timeout=TIMEOUT),
            await spectator.receive_json_from(timeout=TIMEOUT),
        ):
            assert frame["version"] == 1
            assert [set(entry) for entry in frame["seats"]] == [SEAT_KEYS, SEAT_KEYS]
            # Who sits there is the view's business (names); the seats say nothing of users.
            names = {table.mover.user.username, table.other.user.username}
            assert not names & strings_in(frame["seats"])
            assert not {str(table.mover.user.pk)} & strings_in(frame["seats"])


async def test_away_and_back_reach_everyone(table: Table) -> None:
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (other, _),
        joined(table.match_id, table.spectator) as (spectator, _),
    ):
        await other.send_json_to({"type": "away"})
        for socket in (mover, other, spectator):
            frame = await socket.receive_json_from(timeout=TIMEOUT)
            assert frame["type"] == "state"
            assert frame["version"] == 0  # no move was made
            assert frame["seats"][table.other.seat] == _entry(table.other.seat, "away", standin=True)
            assert frame["seats"][table.mover.seat] == _entry(table.mover.seat)

        await other.send_json_to({"type": "back"})
        for socket in (mover, other, spectator):
            frame = await socket.receive_json_from(timeout=TIMEOUT)
            assert frame["seats"][table.other.seat] == _entry(table.other.seat)

        # "back" again changes nothing: the sender alone gets a fresh frame.
        await other.send_json_to({"type": "back"})
        assert (await other.receive_json_from(timeout=TIMEOUT))["seats"][table.other.seat] == _entry(
            table.other.seat
        )
        assert await mover.receive_nothing(timeout=QUIET)


async def test_a_spectator_cannot_be_away(table: Table) -> None:
    async with joined(table.match_id, table.spectator) as (spectator, _):
        await spectator.send_json_to({"type": "away", "id": "s1"})
        error = await spectator.receive_json_from(timeout=TIMEOUT)
        assert (error["type"], error["id"], error["code"]) == ("error", "s1", "not_seated")


async def test_a_closed_socket_is_offline_and_a_new_one_connected_again(table: Table) -> None:
    async with joined(table.match_id, table.mover) as (mover, _):
        async with joined(table.match_id, table.other) as (_other, _):
            pass
        offline = await mover.receive_json_from(timeout=TIMEOUT)
        assert offline["seats"][table.other.seat] == _entry(table.other.seat, "offline")

        async with joined(table.match_id, table.other) as (other, first):
            # The new socket reads the seat connected in its first frame, and nothing more.
            assert first["seats"][table.other.seat] == _entry(table.other.seat)
            assert await other.receive_nothing(timeout=QUIET)
            back = await mover.receive_json_from(timeout=TIMEOUT)
            assert back["seats"][table.other.seat] == _entry(table.other.seat)


async def test_a_seat_offline_past_its_grace_period_is_away_for_everyone(
    table: Table, settings: Settings
) -> None:
    settings.AWAY_GRACE_SECONDS = 0.2
    async with joined(table.match_id, table.mover) as (mover, _):
        async with joined(table.match_id, table.other) as (_other, _):
            pass
        assert (await mover.receive_json_from(timeout=TIMEOUT))["seats"][table.other.seat][
            "state"
        ] == "offline"

        # No worker runs here: the sweep (which every worker also runs) ends the grace period.
        def sweep_until_away() -> None:
            for _ in range(100):
                services.sweep_overdue()
                if Seat.objects.get(room_id=table.room_id, index=table.other.seat).state == Seat.State.AWAY:
                    return
                time.sleep(0.05)
            raise AssertionError("the seat never went away")

        await database_sync_to_async(sweep_until_away)()
        frame = await mover.receive_json_from(timeout=TIMEOUT)
        assert frame["seats"][table.other.seat] == _entry(table.other.seat, "away", standin=True)


async def test_away_from_one_of_two_tabs_changes_nothing_while_the_other_is_open(table: Table) -> None:
    """Issue 32 item 2: a seat is away only when none of its sockets is left (docs/protocol.md,
    "`away` and `back`"). The page sends ``away`` when a tab closes; with a second tab of the same
    seat still open, the seat stays connected and no stand-in plays; the last tab's ``away``
    still marks it away."""
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (second_tab, _),
    ):
        async with joined(table.match_id, table.other) as (first_tab, _):
            await first_tab.send_json_to({"type": "away"})
            # Only the sender hears back (a fresh frame): nothing changed for anybody.
            fresh = await first_tab.receive_json_from(timeout=TIMEOUT)
            assert fresh["seats"][table.other.seat] == _entry(table.other.seat)
        assert await mover.receive_nothing(timeout=QUIET)
        assert await second_tab.receive_nothing(timeout=QUIET)
        seat = await database_sync_to_async(Seat.objects.get)(room_id=table.room_id, index=table.other.seat)
        assert (seat.state, seat.connections) == (Seat.State.CONNECTED, 1)

        # The last tab's "away" is the player leaving the table: away at once.
        await second_tab.send_json_to({"type": "away"})
        frame = await mover.receive_json_from(timeout=TIMEOUT)
        assert frame["seats"][table.other.seat] == _entry(table.other.seat, "away", standin=True)
