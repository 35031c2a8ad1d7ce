#!/usr/bin/env python
"""Flood test: what one account flooding the server inside its limits does to another table.

It prints figures and asserts nothing (``make flood``; docs/operations.md, "Security"). Against a
running server (as ``scripts/loadtest.py``, whose setup and players it uses), in one run:

1. **quiet**: the load test's tables play ``--moves`` moves each; move -> all frames p50/p99;
2. **flood**: one account (``loadtest-flood``) opens ``--flood-sockets`` sockets on a public
   table it watches and sends ``resync`` on each as fast as ``--flood-rate`` a second, while the
   same tables play as many moves again; the same figures, the flood's own (frames answered,
   ``rate_limited`` refusals, sockets refused with 4409), and the ratio of the two p99s.

The issue this answers (19): before the per-account limits, 60 spectator sockets at 9 resyncs a
second moved another table's p50 from 22 to 502 ms. The server's limits decide how much of the
flood is read: ``WS_MAX_SOCKETS_PER_ACCOUNT`` sockets, ``WS_ACCOUNT_RATE_LIMIT_*`` messages.
The server must allow this client's handshakes (all from one address): start it with, e.g.,
``WS_HANDSHAKE_BURST=100000``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import loadtest  # noqa: E402  (scripts/ is on the path when this file runs)


@dataclass
class Flood:
    sent: int = 0
    frames: int = 0
    closes: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the running server")
    parser.add_argument("--tables", type=int, default=20, help="tables playing (default 20)")
    parser.add_argument("--seats", type=int, default=4, help="seats per table (default 4)")
    parser.add_argument("--moves", type=int, default=30, help="moves per table in each phase (default 30)")
    parser.add_argument("--think", type=float, default=0.5, help="seconds a player waits before moving")
    parser.add_argument("--flood-sockets", type=int, default=60, help="sockets the flooding account opens")
    parser.add_argument("--flood-rate", type=float, default=9.0, help="resyncs a second per socket")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for any one frame")
    args = parser.parse_args(argv)
    # What loadtest.run reads besides these.
    args.variant, args.player, args.echo_sockets, args.echo_interval = "remik51", "simple", 0, 1.0
    args.connect_concurrency, args.server_pid, args.keep = 8, "", False
    return args


def setup_flood(args: argparse.Namespace) -> tuple[int, str]:
    """A public table with two people seated and a started match; the flooder's session cookie."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.play import services

    users = get_user_model().objects

    def user(name: str) -> Any:
        found, _ = users.get_or_create(username=name, defaults={"email": f"{name}@example.invalid"})
        return found

    host, guest, flooder = user("loadtest-flood-host"), user("loadtest-flood-guest"), user("loadtest-flood")
    room = services.room_create(
        owner=host, name="flood target", variant="remik51", options={}, seats=2, turn_seconds=3600
    )
    services.seat_take(room=room, user=host, index=0)
    services.seat_take(room=room, user=guest, index=1)
    match = services.match_start(room=room)
    client = Client()
    client.force_login(flooder)
    from django.conf import settings

    return match.pk, client.cookies[settings.SESSION_COOKIE_NAME].value


async def flood(
    args: argparse.Namespace, match_id: int, cookie: str, cookie_name: str, stop: asyncio.Event
) -> Flood:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    base, origin = loadtest._ws_base(loadtest.urls(args)[0])
    result = Flood()

    async def one() -> None:
        try:
            ws = await connect(
                f"{base}/ws/match/{match_id}/",
                origin=origin,  # type: ignore[arg-type]
                additional_headers={"Cookie": f"{cookie_name}={cookie}"},
                proxy=None,
                ping_interval=None,
            )
        except Exception as error:
            result.errors[f"connect: {type(error).__name__}"] += 1
            return

        async def read() -> None:
            async for raw in ws:
                frame = json.loads(raw)
                if frame.get("type") == "state":
                    result.frames += 1
                else:
                    result.errors[frame.get("code", "?")] += 1

        reader = asyncio.create_task(read())
        try:
            while not stop.is_set():
                await ws.send('{"type": "resync"}')
                result.sent += 1
                await asyncio.sleep(1 / args.flood_rate)
        except ConnectionClosed as closed:
            result.closes[str(closed.rcvd.code if closed.rcvd else "no code")] += 1
        finally:
            await ws.close()
            with contextlib.suppress(ConnectionClosed, TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(reader, 5)
            if ws.close_code not in (None, 1000) and not result.closes:
                result.closes[str(ws.close_code)] += 1

    started = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(args.flood_sockets)))
    result.seconds = time.perf_counter() - started
    return result


async def flooded_run(
    plans: Sequence[loadtest.Plan], cookie_name: str, args: argparse.Namespace, match_id: int, cookie: str
) -> tuple[loadtest.Stats, Flood]:
    stop = asyncio.Event()
    flooding = asyncio.create_task(flood(args, match_id, cookie, cookie_name, stop))
    await asyncio.sleep(2)  # the flood is under way before the tables play
    try:
        stats = await loadtest.run(plans, cookie_name, args)
    finally:
        stop.set()
    return stats, await flooding


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    # Each phase has tables of its own: a table left by the quiet phase would be played on by
    # the stand-in bots (its seats go away after the grace period) while the flood is measured.
    # Each is set up just before its phase (a table waiting unplayed has its turns taken too).
    plans, cookie_name = loadtest.setup(args)
    loud_plans: list[loadtest.Plan] = []
    match_id, cookie = setup_flood(args)
    try:
        quiet = asyncio.run(loadtest.run(plans, cookie_name, args))
        loadtest.close_rooms(plans)
        loud_plans, _ = loadtest.setup(args, first=args.tables)
        loud, flooded = asyncio.run(flooded_run(loud_plans, cookie_name, args, match_id, cookie))
    finally:
        loadtest.close_rooms(plans)
        loadtest.close_rooms(loud_plans)
    q99 = loadtest.percentile(quiet.move_latencies, 0.99) * 1000
    l99 = loadtest.percentile(loud.move_latencies, 0.99) * 1000
    rate = flooded.sent / flooded.seconds if flooded.seconds else 0.0
    print(
        "\n".join(
            [
                f"flood test: {args.tables} tables x {args.seats} seats, {args.moves} moves a table "
                f"per phase, against {args.url}",
                f"quiet: move -> all frames {loadtest._latency_line(quiet.move_latencies)}; errors "
                f"{sum(quiet.errors.values())}",
                f"flood: {args.flood_sockets} sockets of one account x {args.flood_rate:g} resyncs/s: "
                f"{flooded.sent} sent ({rate:.0f}/s), {flooded.frames} answered with a frame, "
                f"refused: {dict(flooded.errors) or 'none'}, "
                f"sockets closed: {dict(flooded.closes) or 'none'}",
                f"during the flood: move -> all frames {loadtest._latency_line(loud.move_latencies)}; "
                f"errors {sum(loud.errors.values())}",
                f"p99 during the flood / quiet: {l99 / q99:.2f} ({l99:.1f} / {q99:.1f} ms)",
            ]
        ),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    import django

    django.setup()
    sys.exit(main())
