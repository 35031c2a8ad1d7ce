#!/usr/bin/env python
"""One move's whole server path, in this process: CPU per move, queries per move, a profile.

It prints figures and asserts nothing (docs/benchmarks.md, "Where a move's CPU goes"). Setup
makes ``--tables`` matches of ``--seats`` people (the load test's users) with the site's
settings (``DATABASE_URL``, ``REDIS_URL``: the channel layer the frames are published to);
then every table plays ``--moves`` moves in turn through ``services.move_submit``, each move
chosen from the mover's own view as the load test's simple player does (draw, then the first
allowed discard). As in a daphne process, the moves run in one thread and an event loop runs in
another (``broadcast.remember_loop``): the frames published after commit are handed to that
loop's outbox and sent to the channel layer there.

* CPU per move: this process's CPU time (``time.process_time``) over the moves, per move;
* queries per move: the statements Django ran (``CaptureQueriesContext``), per move;
* ``--profile N``: cProfile (each thread's CPU time: ``time.thread_time``) over the moves, in the moves'
  thread and in the loop's, the top N functions by own time and by cumulative time, and the
  time by category (engine, frames and JSON, ORM and database driver, channel
  layer, the rest).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import hashlib
import os
import pstats
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

#: Where a function's own time is counted, by the first matching part of its file name.
CATEGORIES = (
    ("engine", ("games/engine/",)),
    ("frames (view, protocol, JSON)", ("games/framing", "games/protocol", "games/broadcast", "json/")),
    ("ORM and driver", ("django/db/", "psycopg", "sqlite3", "django/utils/", "django/dispatch")),
    (
        "channel layer, asyncio, msgpack",
        ("channels", "asgiref", "asyncio/", "msgpack", "redis/", "selectors"),
    ),
    ("Celery (timers)", ("celery/", "kombu/", "amqp/", "vine/", "billiard/")),
    ("services, models, selectors", ("games/",)),
)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--moves", type=int, default=40, help="moves per table")
    parser.add_argument("--variant", default="remik51")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the top N of a cProfile")
    parser.add_argument(
        "--seed",
        default=None,
        help="derive the matches' secrets from this text, so that two runs (two checkouts, say) play "
        "the same deals and the same moves: the opening hint's search, whose cost depends on the "
        "hands, then costs the same in both (default: random secrets, as the site deals)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import engine
    from games.play import services
    from games.play.models import Match
    from games.play.services import rooms

    users_model = get_user_model()

    def player(table: int, seat: int) -> Any:
        name = f"loadtest-{table}-{seat}"
        user, _ = users_model.objects.get_or_create(
            username=name, defaults={"email": f"{name}@example.invalid"}
        )
        return user

    tables = []
    for table in range(args.tables):
        users = [player(table, seat) for seat in range(args.seats)]
        room = services.room_create(
            owner=users[0],
            name=f"profile {table}",
            variant=args.variant,
            options={},
            seats=args.seats,
            turn_seconds=services.TURN_SECONDS_RANGE[1],
            private=True,
        )
        for seat, user in enumerate(users):
            services.seat_take(room=room, user=user, index=seat)
        if args.seed is None:
            match = services.match_start(room=room)
        else:  # the service deals from ``secrets.token_bytes``: here, from the seed
            secret = hashlib.sha256(f"{args.seed}:{table}".encode()).digest()
            with mock.patch.object(rooms.secrets, "token_bytes", lambda size, secret=secret: secret[:size]):
                match = services.match_start(room=room)
        tables.append((room.pk, match.pk, users))

    def next_move(match_id: int) -> tuple[int, engine.Move, int]:
        match = Match.objects.get(pk=match_id)
        state = match.game_state()
        view = engine.view_for(state, state.turn)
        moves = view["you"]["moves"]
        if "draw" in moves:
            move: dict[str, Any] = {"kind": "draw"}
        else:
            move = {"kind": "discard", "card": view["you"]["discards"][0]}
        return state.turn, engine.move_from_json(move), match.version

    from games.play import broadcast

    loop = asyncio.new_event_loop()
    ready = threading.Event()

    async def serve() -> None:
        broadcast.remember_loop()
        ready.set()
        await asyncio.Event().wait()

    threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True).start()
    ready.wait()
    # One profiler per thread: the moves' and the loop's (the sends to the channel layer).
    profiler = cProfile.Profile(time.thread_time) if args.profile else None
    loop_profiler = cProfile.Profile(time.thread_time) if args.profile else None
    if loop_profiler is not None:
        loop.call_soon_threadsafe(loop_profiler.enable)

    def settle() -> None:
        """Wait until the loop has sent everything handed to it (the outbox is drained)."""
        while True:
            done = threading.Event()
            loop.call_soon_threadsafe(done.set)
            done.wait()
            outbox = broadcast._outboxes.get(loop)
            if outbox is None or not (outbox.queue or outbox.draining):
                return
            time.sleep(0.001)

    # The choices are made before the timed part: only the server's path is measured.
    choosing = 0.0
    queries = 0
    moves = 0
    if profiler is not None:
        profiler.enable()
    started = time.process_time()  # the whole process: both threads
    for _ in range(args.moves):
        for _room_id, match_id, users in tables:
            if profiler is not None:
                profiler.disable()
            before = time.process_time()
            seat, move, version = next_move(match_id)
            choosing += time.process_time() - before
            if profiler is not None:
                profiler.enable()
            with CaptureQueriesContext(connection) as captured:
                services.move_submit(
                    match_id=match_id,
                    user=users[seat],
                    move=move,
                    expected_version=version,
                    command_id=f"p{version}",
                )
            queries += len(captured)
            moves += 1
        settle()
    settle()
    cpu = time.process_time() - started - choosing
    if profiler is not None:
        profiler.disable()
    if loop_profiler is not None:
        stopped = threading.Event()
        loop.call_soon_threadsafe(lambda: (loop_profiler.disable(), stopped.set()))
        stopped.wait()
    services.room_close(room_ids=[room_id for room_id, _, _ in tables])
    print(
        f"{moves} moves ({args.tables} tables x {args.seats} seats, {args.variant}): "
        f"{1000 * cpu / moves:.2f} ms CPU per move, {queries / moves:.2f} queries per move "
        f"(database {connection.vendor})"
    )
    if profiler is not None and loop_profiler is not None:
        report(profiler, loop_profiler, moves, args.profile)
    return 0


def report(profiler: cProfile.Profile, loop_profiler: cProfile.Profile, moves: int, top: int) -> None:
    stats = pstats.Stats(profiler)
    stats.add(loop_profiler)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in raw.values())
    by_category: dict[str, float] = defaultdict(float)
    for (filename, _line, _name), (_cc, _nc, own, _cum, _callers) in raw.items():
        name = filename.replace("\\", "/")
        category = next((label for label, parts in CATEGORIES if any(p in name for p in parts)), "other")
        by_category[category] += own
    print(f"profiled: {1000 * total / moves:.2f} ms per move under cProfile (its own overhead included)")
    print("own time by category, per move:")
    for label, seconds in sorted(by_category.items(), key=lambda item: -item[1]):
        print(f"  {1000 * seconds / moves:6.3f} ms  {100 * seconds / total:4.1f}%  {label}")
    for key, title in (("tottime", "own time"), ("cumulative", "cumulative time")):
        print(f"top {top} by {title} (ms per move):")
        rows = sorted(raw.items(), key=lambda item: -item[1][2 if key == "tottime" else 3])[:top]
        for (filename, line, name), (_cc, calls, own, cum, _callers) in rows:
            short = filename.split("site-packages/")[-1].replace(str(ROOT) + "/", "")
            print(
                f"  {1000 * own / moves:6.3f} own {1000 * cum / moves:6.3f} cum "
                f"{calls / moves:7.1f} calls  {short}:{line}({name})"
            )


if __name__ == "__main__":
    raise SystemExit(main())
