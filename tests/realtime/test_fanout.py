"""A match's frames to the sockets of a process (games/play/fanout.py): one message per move, each
socket its own audience's text, sockets registered while open, a process listening on a match
only while it has sockets of it, and frames that come while a socket connects sent after its
first frame. Two daphne processes sharing Redis: ``tests/workers/test_fanout_servers.py``."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from autobahn.exception import Disconnected
from django.conf import settings

from games.play import broadcast, fanout, selectors, services
from tests.realtime.sockets import TIMEOUT, Table, joined, strings_in

pytestmark = pytest.mark.django_db(transaction=True)

QUIET = 0.3


async def test_two_tabs_of_a_seat_and_a_spectator_each_get_one_frame_of_their_own_per_move(
    table: Table,
) -> None:
    async with (
        joined(table.match_id, table.mover) as (tab1, _),
        joined(table.match_id, table.mover) as (tab2, _),
        joined(table.match_id, table.spectator) as (spectator, _),
        joined(table.match_id, table.other) as (other, _),
    ):
        here = fanout.here()
        assert here.count() == 4
        assert set(here.sockets[table.match_id]) == {
            broadcast.seat_group(table.match_id, table.mover.seat or 0),
            broadcast.seat_group(table.match_id, table.other.seat or 0),
            broadcast.spectators_group(table.match_id),
        }
        if settings.REDIS_URL:  # the process listens on the match while it has sockets of it
            assert here.listening == {table.match_id}
        await tab1.send_json_to({"type": "move", "id": "m1", "version": 0, "move": table.a_discard})
        mine = [await tab.receive_json_from(timeout=TIMEOUT) for tab in (tab1, tab2)]
        assert [frame["version"] for frame in mine] == [1, 1]
        assert mine[0] == mine[1]  # the same text, encoded once for the seat
        assert mine[0]["view"]["seat"] == table.mover.seat
        theirs = await other.receive_json_from(timeout=TIMEOUT)
        assert theirs["version"] == 1
        assert not strings_in(theirs) & (set(table.mover.hand) - {table.a_discard["card"]})
        watched = await spectator.receive_json_from(timeout=TIMEOUT)
        assert (watched["version"], watched["view"]["hand"]) == (1, None)
        for socket in (tab1, tab2, other, spectator):
            assert await socket.receive_nothing(timeout=QUIET)
    # Every socket closed: none is left registered, and the process no longer listens.
    assert here.count() == 0
    assert table.match_id not in here.sockets
    assert not here.listening


async def test_a_frame_that_comes_while_a_socket_connects_follows_its_first_frame(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The socket is registered before its first frame is read: a move committed in between
    reaches it, after that first frame (never before it, never lost)."""
    real = selectors.match_frame_for
    moved: list[int] = []

    def first_frame_then_a_move(**kwargs: Any) -> dict[str, Any]:
        frame = real(**kwargs)  # version 0
        if not moved:
            moved.append(
                services.move_submit(
                    match_id=table.match_id,
                    user=table.mover.user,
                    move=_move(table.a_discard),
                    expected_version=0,
                )
            )
        return frame

    monkeypatch.setattr(selectors, "match_frame_for", first_frame_then_a_move)
    async with joined(table.match_id, table.other) as (socket, first):
        assert moved == [1]
        assert first["version"] == 0
        second = await socket.receive_json_from(timeout=TIMEOUT)
        assert second["version"] == 1
        assert second["events"]
        assert await socket.receive_nothing(timeout=QUIET)
        # A resync at version 1 sends the frame the socket last had, without its events.
        monkeypatch.setattr(selectors, "match_frame_for", real)
        await socket.send_json_to({"type": "resync"})
        again = await socket.receive_json_from(timeout=TIMEOUT)
        assert (again["version"], again["events"]) == (1, [])
        assert again["view"] == second["view"]


def _move(move: dict[str, Any]) -> Any:
    from games import engine

    return engine.move_from_json(move)


class _Socket:
    def __init__(self, name: str, *, fails: bool = False, closed: bool = False) -> None:
        self.channel_name = name
        self.fails = fails
        self.closed = closed
        self.got: list[tuple[str, int, bool]] = []

    async def match_frame(self, text: str, version: int, state: bool) -> None:
        if self.closed:  # what daphne's socket raises once its connection has closed
            raise Disconnected("Attempt to send on a closed protocol")
        if self.fails:
            raise ConnectionError("gone")
        self.got.append((text, version, state))


async def test_a_frame_for_a_socket_that_has_just_closed_is_not_logged_as_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A tab shut between a move and its frame is ordinary (issue 32: the heavy flood's server log
    was full of ERROR tracebacks for it); another socket's fault is still an error."""
    here = fanout.Fanout(asyncio.get_running_loop())
    closed, broken, open_ = _Socket("c", closed=True), _Socket("x", fails=True), _Socket("o")
    for socket in (closed, broken, open_):
        here.sockets.setdefault(7, {}).setdefault("seat-0", {})[socket] = None
    with caplog.at_level(logging.DEBUG, logger="games.play.fanout"):
        await here.deliver(fanout.frames_message(match_id=7, version=2, frames=[("seat-0", "{}")]))
    assert open_.got == [("{}", 2, True)]
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert [record.exc_info[0] for record in errors if record.exc_info] == [ConnectionError]
    assert any("after its socket closed" in record.getMessage() for record in caplog.records)


async def test_the_fanout_hands_each_socket_its_audiences_text_and_skips_the_excepted_one() -> None:
    here = fanout.Fanout(asyncio.get_running_loop())
    a, b, c, broken, elsewhere = (
        _Socket("a"),
        _Socket("b"),
        _Socket("c"),
        _Socket("x", fails=True),
        _Socket("e"),
    )
    # No layer listening is needed for these: deliver is what the reader and the sender call.
    for socket, group in ((broken, "seat-0"), (a, "seat-0"), (b, "seat-1"), (c, "spectators")):
        here.sockets.setdefault(7, {}).setdefault(group, {})[socket] = None
    here.sockets.setdefault(8, {}).setdefault("seat-0", {})[elsewhere] = None
    message = fanout.frames_message(
        match_id=7,
        version=3,
        frames=[("seat-0", '{"s": 0}'), ("seat-1", '{"s": 1}'), ("spectators", '{"s": null}')],
        except_channel="c",
    )
    await here.deliver(json.loads(json.dumps(message)))  # as it comes back from a layer
    assert a.got == [('{"s": 0}', 3, True)]  # after a socket that failed
    assert b.got == [('{"s": 1}', 3, True)]
    assert c.got == []  # it read these seats in its own first frame
    assert elsewhere.got == []  # another match
    await here.deliver(fanout.frames_message(match_id=7, version=3, frames=[("seat-1", "{}")], state=False))
    assert b.got[-1] == ("{}", 3, False)
    await here.deliver(fanout.frames_message(match_id=99, version=1, frames=[("seat-0", "{}")]))
    assert len(a.got) == 1


async def test_a_process_listens_on_a_match_only_while_it_has_sockets_of_it() -> None:
    """Joins and leaves, some at once: the fanout registers each socket and, with a layer that
    reaches other processes, subscribes once per match and lets go with the last socket."""
    if not settings.REDIS_URL:
        pytest.skip("the in-memory layer has one process: nothing to listen to")
    here = fanout.Fanout(asyncio.get_running_loop())
    sockets = [_Socket(f"s{n}") for n in range(6)]
    await asyncio.gather(*(here.join(5 + n % 2, f"seat-{n % 3}", s) for n, s in enumerate(sockets)))
    assert here.listening == {5, 6}
    assert here.count() == 6
    assert await _listeners(fanout.group_of_match(5)) == 1
    reader = here.reader
    assert reader is not None
    await asyncio.gather(*(here.leave(5, f"seat-{n % 3}", s) for n, s in enumerate(sockets) if n % 2 == 0))
    assert here.listening == {6}
    assert here.reader is reader
    await asyncio.gather(*(here.leave(6, f"seat-{n % 3}", s) for n, s in enumerate(sockets) if n % 2 == 1))
    assert here.listening == set()
    assert here.count() == 0
    assert here.reader is None
    await asyncio.wait([reader], timeout=TIMEOUT)
    assert reader.cancelled()
    # Redis agrees: nobody listens on either match's group any more.
    assert await _listeners(fanout.group_of_match(5)) == 0
    assert await _listeners(fanout.group_of_match(6)) == 0


async def _listeners(group: str) -> int:
    import redis.asyncio as redis
    from channels.layers import get_channel_layer

    name = get_channel_layer()._get_layer()._get_group_channel_name(group)  # channels_redis' own naming
    client = redis.from_url(settings.REDIS_URL)
    try:
        return int(dict(await client.pubsub_numsub(name))[name.encode()])
    finally:
        await client.aclose()
