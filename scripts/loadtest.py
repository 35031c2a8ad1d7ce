#!/usr/bin/env python
"""Load test: N tables of S seats played over real WebSockets against a running server.

It prints figures and asserts nothing (``make loadtest``; docs/operations.md, "Load test"):

* moves/s: moves applied by the server, over the time the tables were playing;
* move -> all frames delivered, p50 / p90 / p99 / max: from sending a move until every seat's
  socket of that table has received the state frame with the new version;
* the same percentiles for a bare echo round trip through Channels (``ws/echo/``: daphne, the
  consumer and the channel layer, no database), measured during the same run;
* errors: server errors, unexpected refusals, timeouts, closed sockets. Refusals that are part
  of the play (a candidate move the rules refuse, ``rate_limited``, a pause between rounds) are
  counted apart.

Setup runs in this process with the site's settings (``DJANGO_SETTINGS_MODULE``, and the same
``DATABASE_URL`` and ``REDIS_URL`` as the server): load-test users (``loadtest-<table>-<seat>``,
created once, no password), one private room per table with a started match, and a session
cookie per player. Then every player opens its own socket and, on its turn, chooses a move from
the view in its own last frame and sends it with the version of that frame:

* ``--player simple`` (default): draw from the stock, then discard the first card the view's
  ``you.discards`` allows. Cheap, so the client does not compete with the server for the CPU;
* ``--player bot``: the engine's bot (``games.engine.bots.choose_move(view)``, the same input:
  the view of the frame), in a separate process so the sockets' timestamps stay honest.

Several servers (``--url`` with a comma-separated list: daphne processes on one database and
one Redis, as behind a proxy) get the sockets in turn, so a table's frames cross from one
process to another through the channel layer. With ``--server-pid`` (the servers' process ids,
on this machine) the report adds the CPU time the servers used while the tables played, and
their memory (resident set size) when the play began, after ``--memory-mark`` seconds of play
(5 minutes) and at its end: a server that keeps what it should drop grows between the last two
(issue 18's target: within 5% after a 30-minute run of 200 tables).

The rooms are closed at the end (``--keep`` leaves them open).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

#: Error codes that mean the client or the server got something wrong. Others are part of
#: playing and counted apart: ``rate_limited`` and ``round_pause`` (wait, send again), and the
#: rules refusing a candidate move (try the next one).
ERROR_CODES = {"server_error", "stale_version", "not_your_turn", "not_seated", "malformed_message"}


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    parser.add_argument("--seats", type=int, default=4, help="seats per table, all played (default 4)")
    parser.add_argument("--moves", type=int, default=40, help="moves per table (default 40)")
    parser.add_argument(
        "--url",
        default="http://127.0.0.1:8000",
        help="the running server; several servers (daphne processes sharing the database and "
        "Redis) as a comma-separated list: the sockets are dealt to them in turn, so one table's "
        "players sit on different servers, as behind a proxy",
    )
    parser.add_argument(
        "--server-pid",
        default="",
        help="process ids of the servers, comma-separated, when they run on this machine: the "
        "report adds the CPU time they used while the tables played, per move (Linux /proc)",
    )
    parser.add_argument(
        "--memory-mark",
        type=float,
        default=300.0,
        help="seconds of play after which the servers' memory is read a second time (default 300); "
        "the report compares the end of the play with it",
    )
    parser.add_argument(
        "--route",
        choices=("spread", "match"),
        default="spread",
        help="with several servers, how the players' sockets are dealt to them: spread (socket n to "
        "server n mod the number of servers, so one table's players sit on different servers, as "
        "behind a round-robin proxy) or match (every socket of a match to server match id mod the "
        "number of servers, as behind a proxy that hashes the match's path: docs/operations.md, "
        '"Scaling out")',
    )
    parser.add_argument("--variant", default="remik51", help="rule set of the tables (default remik51)")
    parser.add_argument(
        "--think",
        type=float,
        default=2.0,
        help="seconds a player waits before moving, on average (default 2: a brisk game, where a turn "
        "is a draw and a discard; 0: as fast as possible)",
    )
    parser.add_argument("--player", choices=("simple", "bot"), default="simple", help="how moves are chosen")
    parser.add_argument("--echo-sockets", type=int, default=20, help="sockets timing ws/echo/ (default 20)")
    parser.add_argument("--echo-interval", type=float, default=0.5, help="seconds between echoes per socket")
    parser.add_argument(
        "--connect-concurrency",
        type=int,
        default=8,
        help="handshakes in flight at once (default 8: daphne drops a handshake not accepted within 5 s)",
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for any one frame")
    parser.add_argument("--keep", action="store_true", help="leave the load-test rooms open afterwards")
    return parser.parse_args(argv)


# --- setup (Django, synchronous, before the event loop) ----------------------------------------


@dataclass(frozen=True)
class Plan:
    room_id: int
    match_id: int
    cookies: tuple[str, ...]  # one per seat, in seat order


def setup(args: argparse.Namespace, first: int = 0) -> tuple[list[Plan], str]:
    """Users, one started match per table, session cookies. Returns the plans and the cookie name.
    Tables are numbered from ``first`` (their players' names too): a second call with ``first``
    past the first call's tables sets up other tables for other players."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.play import services

    users_model = get_user_model()
    cookies: dict[str, str] = {}

    def player(table: int, seat: int) -> Any:
        name = f"loadtest-{table}-{seat}"
        user, created = users_model.objects.get_or_create(
            username=name, defaults={"email": f"{name}@example.invalid"}
        )
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        if name not in cookies:
            client = Client()
            client.force_login(user)
            cookies[name] = client.cookies[settings.SESSION_COOKIE_NAME].value
        return user

    plans = []
    for table in range(first, first + args.tables):
        users = [player(table, seat) for seat in range(args.seats)]
        room = services.room_create(
            owner=users[0],
            name=f"loadtest {table}",
            variant=args.variant,
            options={},
            seats=args.seats,
            turn_seconds=services.TURN_SECONDS_RANGE[1],  # no turn timer fires during the run
            private=True,  # kept out of the lobby
        )
        for seat, user in enumerate(users):
            services.seat_take(room=room, user=user, index=seat)
        match = services.match_start(room=room)
        plans.append(
            Plan(
                room_id=room.pk,
                match_id=match.pk,
                cookies=tuple(cookies[f"loadtest-{table}-{seat}"] for seat in range(args.seats)),
            )
        )
    return plans, settings.SESSION_COOKIE_NAME


def close_rooms(plans: Sequence[Plan]) -> None:
    from games.play import services

    services.room_close(room_ids=[plan.room_id for plan in plans])


# --- choosing moves from a frame's view ----------------------------------------------------------


def simple_moves(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Draw, then discard the first allowed card; the bot's candidates if neither applies."""
    you = view.get("you") or {}
    if "draw" in you.get("moves", ()):
        return [{"kind": "draw"}]
    if "discard" in you.get("moves", ()) and you.get("discards"):
        return [{"kind": "discard", "card": card} for card in you["discards"]]
    return bot_moves(view)


def bot_moves(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine bot's choice, then its other candidates (as JSON moves)."""
    from games.engine import move_to_json
    from games.engine.bots import candidate_moves, choose_move

    return [move_to_json(move) for move in (choose_move(view), *candidate_moves(view))]


# --- the run --------------------------------------------------------------------------------------


@dataclass
class Stats:
    move_latencies: list[float] = field(default_factory=list)
    echo_latencies: list[float] = field(default_factory=list)
    moves: int = 0
    refused_by_rules: int = 0
    waits: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    finished_matches: int = 0
    connect_seconds: float = 0.0
    play_seconds: float = 0.0
    load_before: float = 0.0
    load_after: float = 0.0
    server_cpu: float | None = None
    client_cpu: float = 0.0
    #: Servers' resident memory in bytes (summed over ``--server-pid``): at the start of the
    #: play, after ``--memory-mark`` seconds of it (None if the play was shorter), at its end.
    rss_start: int | None = None
    rss_mark: int | None = None
    rss_end: int | None = None


class Socket:
    """One player's connection: reads frames in the background, stamping their arrival."""

    def __init__(self, ws: Any, table: TableRun, seat: int) -> None:
        self.ws = ws
        self.table = table
        self.seat = seat
        self.latest: dict[str, Any] | None = None
        self.errors: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader = asyncio.create_task(
            self.read() if not isinstance(ws, BaseException) else asyncio.sleep(0)
        )

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                arrived = time.perf_counter()
                frame = json.loads(raw)
                if frame.get("type") == "state":
                    if self.latest is None or frame["version"] > self.latest["version"]:
                        self.latest = frame
                        self.table.arrived(self.seat, frame["version"], arrived)
                elif frame.get("type") == "error":
                    await self.errors.put(frame)
                self.table.changed.set()
        except ConnectionClosed as closed:
            if not self.table.closing:
                self.table.stats.errors[
                    f"socket closed ({closed.rcvd.code if closed.rcvd else 'no code'})"
                ] += 1
                self.table.failed = True
                self.table.changed.set()


class TableRun:
    def __init__(
        self, plan: Plan, stats: Stats, args: argparse.Namespace, choose: Callable[..., Any]
    ) -> None:
        self.plan = plan
        self.stats = stats
        self.args = args
        self.choose = choose
        self.sockets: list[Socket] = []
        self.arrivals: dict[int, dict[int, float]] = {}
        self.changed = asyncio.Event()
        self.closing = False
        self.failed = False

    def arrived(self, seat: int, version: int, when: float) -> None:
        self.arrivals.setdefault(version, {})[seat] = when

    async def wait_for(self, condition: Callable[[], bool]) -> bool:
        deadline = time.perf_counter() + self.args.timeout
        while not condition():
            if self.failed:
                return False
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except TimeoutError:
                return condition()
        return True

    def everyone_at(self, version: int) -> bool:
        return all(s.latest is not None and s.latest["version"] >= version for s in self.sockets)

    async def play(self) -> None:
        if not await self.wait_for(lambda: self.everyone_at(0)):
            self.stats.errors["no first frame"] += 1
            return
        await asyncio.sleep(random.uniform(0, self.args.think))  # tables do not move in step
        for _ in range(self.args.moves):
            frame = self.sockets[0].latest
            assert frame is not None
            version, view = frame["version"], frame["view"]
            if view["phase"] == "over":
                self.stats.finished_matches += 1
                return
            mover = self.sockets[view["turn"]]
            assert mover.latest is not None
            if self.args.think:
                await asyncio.sleep(random.uniform(0.5, 1.5) * self.args.think)
            latency = await self.move(mover, version, mover.latest["view"])
            if latency is None:
                return
            self.stats.move_latencies.append(latency)
            self.stats.moves += 1

    async def move(self, mover: Socket, version: int, view: dict[str, Any]) -> float | None:
        """Send the mover's move; the seconds until every seat has the next version, or None."""
        from websockets.exceptions import ConnectionClosed

        try:
            candidates = await self.choose(view)
        except Exception as failure:  # a view no player can move from: this table's error, not the run's
            self.stats.errors[f"no move chosen: {type(failure).__name__}"] += 1
            return None
        attempt = 0
        while attempt < len(candidates):
            command = {"type": "move", "id": f"{version}.{attempt}", "version": version}
            sent = time.perf_counter()
            try:
                await mover.ws.send(json.dumps({**command, "move": candidates[attempt]}))
            except ConnectionClosed:
                return None  # counted by the socket's reader
            answered = await self.wait_for(lambda: self.everyone_at(version + 1) or not mover.errors.empty())
            if self.everyone_at(version + 1):
                return max(self.arrivals[version + 1].get(s.seat, sent) for s in self.sockets) - sent
            if not answered:
                self.stats.errors["timeout" if not self.failed else "table stopped"] += 1
                return None
            error = mover.errors.get_nowait()
            code = error.get("code", "?")
            if code == "rate_limited":
                self.stats.waits[code] += 1
                await asyncio.sleep(float(error.get("retry_after") or 0.1))
            elif code == "round_pause":
                self.stats.waits[code] += 1
                await asyncio.sleep(max(0.0, (error.get("resume_at") or 0) / 1000 - time.time()) + 0.01)
            elif code in ERROR_CODES:
                self.stats.errors[code] += 1
                return None
            else:
                self.stats.refused_by_rules += 1  # the rules refused this candidate: try the next
                attempt += 1
        self.stats.errors["no legal move found"] += 1
        return None


def _ws_base(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return f"{scheme}://{parts.netloc}", f"{parts.scheme}://{parts.netloc}"


async def _connect(url: str, origin: str, cookie: str, cookie_name: str, gate: asyncio.Semaphore) -> Any:
    from websockets.asyncio.client import connect

    async with gate:
        return await connect(
            url,
            origin=origin,  # type: ignore[arg-type]
            additional_headers={"Cookie": f"{cookie_name}={cookie}"},
            proxy=None,
            ping_interval=None,
            open_timeout=60,
            max_size=2**22,
        )


async def echo_loop(ws: Any, stats: Stats, interval: float, stop: asyncio.Event) -> None:
    """Ping ws/echo/ until ``stop``; one message in flight at a time."""
    from websockets.exceptions import ConnectionClosed

    try:
        await _echo(ws, stats, interval, stop)
    except ConnectionClosed as closed:
        stats.errors[f"echo socket closed ({closed.rcvd.code if closed.rcvd else 'no code'})"] += 1


async def _echo(ws: Any, stats: Stats, interval: float, stop: asyncio.Event) -> None:
    sequence = 0
    await asyncio.sleep(random.uniform(0, interval))
    while not stop.is_set():
        sequence += 1
        payload = json.dumps({"echo": sequence})
        sent = time.perf_counter()
        await ws.send(payload)
        while True:
            reply = await ws.recv()
            if reply == payload:
                break
            stats.waits["echo refused"] += 1  # a rate_limited frame: the echo did not happen
            await asyncio.sleep(interval)
            sent = time.perf_counter()
            await ws.send(payload)
        stats.echo_latencies.append(time.perf_counter() - sent)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), interval)


def urls(args: argparse.Namespace) -> list[str]:
    return [url.strip() for url in args.url.split(",") if url.strip()]


def _cpu_seconds(pids: Sequence[int]) -> float | None:
    """User + system CPU seconds of these processes so far (Linux), or None."""
    total = 0
    try:
        for pid in pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    except (OSError, IndexError, ValueError):
        return None
    return total / os.sysconf("SC_CLK_TCK")


def _rss_bytes(pids: Sequence[int]) -> int | None:
    """Resident memory of these processes now, summed (Linux ``/proc/<pid>/status``), or None."""
    total = 0
    try:
        for pid in pids:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024  # kB
                    break
    except (OSError, IndexError, ValueError):
        return None
    return total


async def _memory_mark(stats: Stats, pids: Sequence[int], seconds: float) -> None:
    await asyncio.sleep(seconds)
    stats.rss_mark = _rss_bytes(pids)


async def run(plans: Sequence[Plan], cookie_name: str, args: argparse.Namespace) -> Stats:
    stats = Stats(load_before=os.getloadavg()[0])
    servers = [_ws_base(url) for url in urls(args)]
    server_pids = [int(pid) for pid in args.server_pid.split(",") if pid.strip()]
    gate = asyncio.Semaphore(args.connect_concurrency)

    pool = ProcessPoolExecutor(max_workers=1) if args.player == "bot" else None
    loop = asyncio.get_running_loop()

    async def choose(view: dict[str, Any]) -> list[dict[str, Any]]:
        if pool is None:
            return simple_moves(view)
        return await loop.run_in_executor(pool, bot_moves, view)

    tables = [TableRun(plan, stats, args, choose) for plan in plans]
    started = time.perf_counter()
    # Socket n goes to server n mod the number of servers, or (--route match) every socket of a
    # match to server match id mod the number of servers (every socket to the one server if one).
    player_sockets = [(plan, cookie) for plan in plans for cookie in plan.cookies]

    def server_of(n: int, plan: Plan) -> tuple[str, str]:
        return servers[(plan.match_id if args.route == "match" else n) % len(servers)]

    connections = await asyncio.gather(
        *(
            _connect(
                f"{server_of(n, plan)[0]}/ws/match/{plan.match_id}/",
                server_of(n, plan)[1],
                cookie,
                cookie_name,
                gate,
            )
            for n, (plan, cookie) in enumerate(player_sockets)
        ),
        return_exceptions=True,
    )
    echo_plans = [plans[i % len(plans)] for i in range(args.echo_sockets)] if plans else []
    echoes = await asyncio.gather(
        *(
            _connect(
                f"{servers[n % len(servers)][0]}/ws/echo/",
                servers[n % len(servers)][1],
                plan.cookies[0],
                cookie_name,
                gate,
            )
            for n, plan in enumerate(echo_plans)
        ),
        return_exceptions=True,
    )
    stats.connect_seconds = time.perf_counter() - started
    for failed in (c for c in (*connections, *echoes) if isinstance(c, BaseException)):
        stats.errors[f"connect: {type(failed).__name__}: {failed}"] += 1  # a refused or failed handshake
    per_table = iter(connections)
    for table in tables:
        table.sockets = [Socket(next(per_table), table, seat) for seat in range(len(table.plan.cookies))]
    # A table plays only if all its players are connected; the others' sockets are closed.
    playing = [t for t in tables if not any(isinstance(s.ws, BaseException) for s in t.sockets)]
    for table in tables:
        if table not in playing:
            stats.errors["table not started: a player could not connect"] += 1
            table.closing = True
            for s in table.sockets:
                if not isinstance(s.ws, BaseException):
                    await s.ws.close()
    echoes = [ws for ws in echoes if not isinstance(ws, BaseException)]
    tables = playing

    stop = asyncio.Event()
    echo_tasks = [asyncio.create_task(echo_loop(ws, stats, args.echo_interval, stop)) for ws in echoes]
    cpu_before = _cpu_seconds(server_pids) if server_pids else None
    stats.rss_start = _rss_bytes(server_pids) if server_pids else None
    mark = asyncio.create_task(_memory_mark(stats, server_pids, args.memory_mark)) if server_pids else None
    client_before = time.process_time()
    started = time.perf_counter()
    await asyncio.gather(*(table.play() for table in tables))
    if mark is not None:
        mark.cancel()
    stats.rss_end = _rss_bytes(server_pids) if server_pids else None
    stats.play_seconds = time.perf_counter() - started
    stats.client_cpu = time.process_time() - client_before
    stats.load_after = os.getloadavg()[0]
    cpu_after = _cpu_seconds(server_pids) if server_pids else None
    if cpu_before is not None and cpu_after is not None:
        stats.server_cpu = cpu_after - cpu_before
    stop.set()
    for task in echo_tasks:
        try:
            await asyncio.wait_for(task, args.timeout)
        except Exception as error:
            stats.errors[f"echo: {type(error).__name__}"] += 1
    for table in tables:
        table.closing = True
    await asyncio.gather(
        *(s.ws.close() for table in tables for s in table.sockets),
        *(ws.close() for ws in echoes),
        return_exceptions=True,
    )
    for table in tables:
        for s in table.sockets:
            s.reader.cancel()
    if pool is not None:
        pool.shutdown()
    return stats


# --- figures ---------------------------------------------------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of ``values`` (sorted or not)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), round(fraction * len(ordered) + 0.5)))
    return ordered[rank - 1]


def _latency_line(values: Sequence[float]) -> str:
    if not values:
        return "no samples"
    ms = [value * 1000 for value in values]
    return (
        f"p50 {percentile(ms, 0.50):.1f} ms   p90 {percentile(ms, 0.90):.1f} ms   "
        f"p99 {percentile(ms, 0.99):.1f} ms   max {max(ms):.1f} ms   (n={len(ms)})"
    )


def memory_lines(args: argparse.Namespace, stats: Stats) -> list[str]:
    """The servers' memory: at the start of the play, at the mark, at the end, and the growth
    from the mark to the end (or from the start, when the play ended before the mark)."""
    if stats.rss_start is None or stats.rss_end is None:
        return []

    def mb(value: int) -> str:
        return f"{value / 2**20:.1f} MB"

    if stats.rss_mark is None:
        growth = (stats.rss_end - stats.rss_start) / stats.rss_start if stats.rss_start else 0.0
        return [
            f"server memory (RSS, pids together): {mb(stats.rss_start)} at the start of the play, "
            f"{mb(stats.rss_end)} at its end ({growth:+.1%}); the play was shorter than "
            f"--memory-mark {args.memory_mark:g} s, so there is no mark to compare with"
        ]
    growth = (stats.rss_end - stats.rss_mark) / stats.rss_mark if stats.rss_mark else 0.0
    return [
        f"server memory (RSS, pids together): {mb(stats.rss_start)} at the start of the play, "
        f"{mb(stats.rss_mark)} after {args.memory_mark:g} s, {mb(stats.rss_end)} at its end: "
        f"{growth:+.1%} from the mark to the end"
    ]


def report(args: argparse.Namespace, stats: Stats, setup_seconds: float) -> str:
    sockets = args.tables * args.seats
    rate = stats.moves / stats.play_seconds if stats.play_seconds else 0.0
    waits = ", ".join(f"{k} {v}" for k, v in sorted(stats.waits.items())) or "none"
    errors = sum(stats.errors.values())
    details = "".join(f"\n  {count} x {kind}" for kind, count in stats.errors.most_common())
    servers = urls(args)
    cpu = []
    if stats.server_cpu is not None:
        per_move = f" = {1000 * stats.server_cpu / stats.moves:.1f} ms per move" if stats.moves else ""
        cpu = [
            f"server CPU while the tables played: {stats.server_cpu:.1f} s{per_move} "
            f"(pids {args.server_pid}; echoes included)"
        ]
    cpu.extend(memory_lines(args, stats))
    if stats.play_seconds:
        cpu.append(
            f"this client's CPU while the tables played: {stats.client_cpu:.1f} s"
            f" ({stats.client_cpu / stats.play_seconds:.0%} of a core; it shares the machine with the server)"
        )
    return "\n".join(
        [
            f"load test: {args.tables} tables x {args.seats} seats ({args.variant}), "
            f"{args.moves} moves per table, player {args.player}, think {args.think:g} s, against "
            + (
                servers[0]
                if len(servers) == 1
                else f"{len(servers)} servers ({', '.join(servers)}), sockets dealt by {args.route}"
            ),
            f"setup: {args.tables} matches and {sockets} players in {setup_seconds:.1f} s; "
            f"{sockets + args.echo_sockets} sockets connected in {stats.connect_seconds:.1f} s",
            f"moves: {stats.moves} applied in {stats.play_seconds:.1f} s = {rate:.1f} moves/s "
            f"({stats.finished_matches} matches finished; "
            f"refused by the rules and retried {stats.refused_by_rules}; waits: {waits})",
            f"move -> all {args.seats} seats' frames delivered: {_latency_line(stats.move_latencies)}",
            f"echo round trip through Channels (ws/echo/, {args.echo_sockets} sockets): "
            f"{_latency_line(stats.echo_latencies)}",
            f"errors: {errors}{details}",
            f"machine: {os.cpu_count()} CPUs, load average {stats.load_before:.1f} before and "
            f"{stats.load_after:.1f} after the play (this client and everything else included)",
            *cpu,
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    plans, cookie_name = setup(args)
    setup_seconds = time.perf_counter() - started
    try:
        stats = asyncio.run(run(plans, cookie_name, args))
    finally:
        if not args.keep:
            close_rooms(plans)
    print(report(args, stats, setup_seconds), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
