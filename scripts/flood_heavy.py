#!/usr/bin/env python
"""Heavy requests beside live tables: replays of long uploaded rounds and round analyses (issue 32).

It prints figures and asserts nothing (``make flood-heavy``;
docs/benchmarks.md, "Replays and analyses beside live tables"). Against a running server (as
``scripts/loadtest.py``, whose setup and players it uses), two phases:

1. **quiet**: ``--tables`` tables of people (``--seats`` each, the load test's simple player) and
   ``--bot-tables`` tables of one person against a normal bot play ``--moves`` moves a table;
2. **heavy**: the same again while, in another process, ``--replayers`` clients loop on
   ``POST /verify/replay/`` with a record of one ``--replay-moves``-move Remik 51 round (two
   players who only draw and discard) and step through its pages, and two accounts ask for the
   analysis of their seat in every round of a finished ``--analysis-rounds``-round Remik 51
   match, as the issue's outside client did.

Figures of each phase: move -> all frames (the load test's), and **bot reply**: from the
person's move that ends their turn to the frame that gives them the turn again (the bot's draw
and discard, through the live worker and the fan-out). The heavy clients' answers are counted by
status and code (what the limits refused). The ratios heavy / quiet of both p99s are the figures
issue 32 asks to stay within 1.5.

The heavy clients run at nice 10: an outside client would compute on its own machine, not on
the server's CPUs. The server should run with ``BOT_MOVE_DELAY=0`` (a bot's reply is then its own work only),
``WS_HANDSHAKE_BURST=100000`` (every client is on 127.0.0.1) and ``ROUND_PAUSE_SECONDS=0.5``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import loadtest  # noqa: E402  (scripts/ is on the path when this file runs)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the running server")
    parser.add_argument("--tables", type=int, default=80, help="tables of people (default 80)")
    parser.add_argument("--seats", type=int, default=2, help="seats per table of people (default 2)")
    parser.add_argument(
        "--bot-tables", type=int, default=20, help="tables of a person and a bot (default 20)"
    )
    parser.add_argument("--moves", type=int, default=30, help="moves per table in each phase (default 30)")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a player waits before moving")
    parser.add_argument("--replayers", type=int, default=3, help="clients looping on uploaded replays")
    parser.add_argument("--replay-moves", type=int, default=1990, help="moves of the uploaded round")
    parser.add_argument("--analysis-rounds", type=int, default=6, help="rounds of the analysed match")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for any one frame")
    parser.add_argument(
        "--control",
        action="store_true",
        help="no heavy clients in the second phase: the two phases' ratio is then the machine's noise",
    )
    parser.add_argument(
        "--idle-timeout", type=float, default=1800.0, help="seconds to wait for an idle background queue"
    )
    args = parser.parse_args(argv)
    # What loadtest.run reads besides these.
    args.variant, args.player, args.echo_sockets, args.echo_interval = "remik51", "simple", 0, 1.0
    args.connect_concurrency, args.server_pid, args.keep, args.route, args.memory_mark = 8, "", False, "", 1e9
    return args


# --- setup (Django, before the event loop) -----------------------------------------------------------


@dataclass(frozen=True)
class BotPlan:
    room_id: int
    match_id: int
    cookie: str


@dataclass(frozen=True)
class Heavy:
    url: str
    record: str
    replayers: int
    analysts: tuple[tuple[str, tuple[str, ...]], ...]  # (session cookie, analysis URLs)
    cookie_name: str


def _user(name: str) -> Any:
    from django.contrib.auth import get_user_model

    user, created = get_user_model().objects.get_or_create(
        username=name, defaults={"email": f"{name}@example.invalid"}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def _cookie(user: Any) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def setup_bot_tables(args: argparse.Namespace, first: int = 0) -> list[BotPlan]:
    from games.play import services

    plans = []
    for table in range(first, first + args.bot_tables):
        person = _user(f"loadtest-bots-{table}")
        room = services.room_create(
            owner=person,
            name=f"loadtest bots {table}",
            variant="remik51",
            options={},
            seats=2,
            turn_seconds=services.TURN_SECONDS_RANGE[1],
            private=True,
        )
        services.seat_take(room=room, user=person, index=0)
        services.seat_add_bot(room=room, index=1)
        match = services.match_start(room=room)
        plans.append(BotPlan(room_id=room.pk, match_id=match.pk, cookie=_cookie(person)))
    return plans


def setup_analysis(args: argparse.Namespace) -> tuple[int, tuple[tuple[str, tuple[str, ...]], ...]]:
    """Two accounts' finished Remik 51 match (played through the services, the bot's choice for
    each); the analysis URL of every round, per account (each asks for its own seat)."""
    from django.conf import settings

    from games import engine
    from games.engine.bots import choose_move
    from games.play import services
    from games.play.models import Match

    settings.ROUND_PAUSE_SECONDS = 0  # this setup plays the rounds one after another

    # New accounts each run (the limits per account and hour would refuse the same two again).
    run = int(time.time())
    people = [_user(f"loadtest-analyst-a-{run}"), _user(f"loadtest-analyst-b-{run}")]
    room = services.room_create(
        owner=people[0],
        name="loadtest analyses",
        variant="remik51",
        options={"rounds": args.analysis_rounds},
        seats=2,
        turn_seconds=services.TURN_SECONDS_RANGE[1],
        private=True,
    )
    for seat, person in enumerate(people):
        services.seat_take(room=room, user=person, index=seat)
    match = services.match_start(room=room)
    while True:
        match = Match.objects.get(pk=match.pk)
        state = match.game_state()
        if state.is_over:
            break
        move = choose_move(engine.view_for(state, state.turn))
        services.move_submit(
            match_id=match.pk, user=people[state.turn], move=move, expected_version=match.version
        )
    rounds = len(match.game_state().results)
    urls = tuple(f"{args.url}/matches/{match.pk}/rounds/{n}/analysis/" for n in range(1, rounds + 1))
    return room.pk, tuple((_cookie(person), urls) for person in people)


def drawing_record(moves: int) -> str:
    """A Remik 51 record whose first round is ``moves`` moves of draws and discards (as
    tests/site/test_replay_limits.py makes it)."""
    from games import engine
    from games.engine import Discard, DrawStock
    from games.engine.records import make_record, record_to_json

    rules = engine.variant("remik51")
    state = engine.new_game(rules, ["Ala", "Bob"], seed=3)
    played: list[tuple[int, Any]] = []
    while len(played) < moves:
        legal = engine.legal_moves(state, state.turn)
        move = next((m for m in legal if isinstance(m, DrawStock)), None) or next(
            m for m in legal if isinstance(m, Discard)
        )
        played.append((state.turn, move))
        state = engine.apply_move(state, state.turn, move).state
    return json.dumps(record_to_json(make_record(rules, ["Ala", "Bob"], 3, played)))


# --- the heavy clients (another process: their work does not skew the tables' timestamps) ---------


def _request(
    url: str, *, data: bytes | None = None, cookie: str = "", accept: str = "text/html"
) -> tuple[int, str, str]:
    """One request (redirects followed); (status, final URL, body's code if it has one)."""
    token = secrets.token_hex(16)
    origin = "/".join(url.split("/")[:3])
    headers = {
        "Cookie": f"csrftoken={token}" + (f"; {cookie}" if cookie else ""),
        "X-CSRFToken": token,
        "Origin": origin,
        "Accept": accept,
    }
    if data is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    method = "GET" if data is None else "POST"  # an empty body is a POST too ("Analyse my round")
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            body = response.read()
            status, final = response.status, response.url
    except urllib.error.HTTPError as error:
        body, status, final = error.read(), error.code, url
    code = ""
    text = body.decode("utf-8", "replace")
    if accept == "application/json":
        with contextlib.suppress(ValueError):
            code = str(json.loads(text).get("code") or "")
    elif 'data-code="' in text:
        code = text.split('data-code="', 1)[1].split('"', 1)[0]
    return status, final, code


def _replayer(heavy: Heavy, stop: Any, counts: Any, lock: Any) -> None:
    form = urllib.parse.urlencode({"record": heavy.record, "round": "1"}).encode()
    while not stop.is_set():
        status, final, code = _request(f"{heavy.url}/verify/replay/", data=form)
        key = f"upload {status}{' ' + code if code else ''}"
        pages = []
        if status == 200 and "/verify/replay/" in final:
            for step in (40, 400, 1200, 1960):
                pages.append(_request(f"{final}frames/?step={step}", accept="application/json"))
        with lock:
            counts[key] = counts.get(key, 0) + 1
            for page_status, _, page_code in pages:
                page_key = f"page {page_status}{' ' + page_code if page_code else ''}"
                counts[page_key] = counts.get(page_key, 0) + 1
        if status != 200:
            time.sleep(0.2)


def _analyst(heavy: Heavy, index: int, counts: Any, lock: Any) -> None:
    cookie, urls = heavy.analysts[index]
    for url in urls:
        status, _, code = _request(
            url, data=b"", cookie=f"{heavy.cookie_name}={cookie}", accept="application/json"
        )
        with lock:
            key = f"analysis {status}{' ' + code if code else ''}"
            counts[key] = counts.get(key, 0) + 1


def heavy_clients(heavy: Heavy, stop: Any, counts: Any) -> None:
    import os
    import threading

    # An outside client computes on its own machine; here it shares the server's CPUs, so it
    # takes them only when the server does not (the server's answers are what is measured).
    os.nice(10)

    lock = threading.Lock()
    threads = [
        threading.Thread(target=_replayer, args=(heavy, stop, counts, lock)) for _ in range(heavy.replayers)
    ]
    threads += [
        threading.Thread(target=_analyst, args=(heavy, i, counts, lock)) for i in range(len(heavy.analysts))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


# --- the bot tables ----------------------------------------------------------------------------------


@dataclass
class BotStats:
    replies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)


async def bot_table(
    plan: BotPlan, cookie_name: str, args: argparse.Namespace, stats: BotStats, gate: asyncio.Semaphore
) -> None:
    base, origin = loadtest._ws_base(args.url)
    # As the load test connects: a few handshakes at once (daphne drops one not accepted in 5 s).
    ws = await loadtest._connect(f"{base}/ws/match/{plan.match_id}/", origin, plan.cookie, cookie_name, gate)
    latest: dict[str, Any] = {}
    arrived: dict[int, float] = {}
    refusals: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    changed = asyncio.Event()

    async def read() -> None:
        async for raw in ws:
            frame = json.loads(raw)
            if frame.get("type") == "state" and frame["version"] > latest.get("version", -1):
                latest.clear()
                latest.update(frame)
                arrived[frame["version"]] = time.perf_counter()
            elif frame.get("type") == "error":
                await refusals.put(frame)
            changed.set()

    async def until(condition: Any) -> bool:
        deadline = time.perf_counter() + args.timeout
        while not condition():
            changed.clear()
            try:
                await asyncio.wait_for(changed.wait(), max(0.01, deadline - time.perf_counter()))
            except TimeoutError:
                return condition()
        return True

    reader = asyncio.create_task(read())
    try:
        if not await until(lambda: bool(latest)):
            stats.errors["no first frame"] += 1
            return
        moves = 0
        while moves < args.moves:
            if not await until(lambda: latest["view"]["phase"] == "over" or latest["view"]["you"]["my_turn"]):
                stats.errors["the turn never came back"] += 1
                return
            if latest["view"]["phase"] == "over":
                return
            await asyncio.sleep(args.think * 0.5)
            version, view = latest["version"], latest["view"]
            candidates = loadtest.simple_moves(view)
            sent_at, answered = 0.0, False
            for candidate in candidates:
                command = {
                    "type": "move",
                    "id": f"{version}.{candidate}",
                    "version": version,
                    "move": candidate,
                }
                sent_at = time.perf_counter()
                await ws.send(json.dumps(command))
                await until(lambda at=version: latest["version"] > at or not refusals.empty())
                if latest["version"] > version:
                    answered = True
                    break
                refusal = refusals.get_nowait()
                if refusal.get("code") == "round_pause":
                    await asyncio.sleep(max(0.0, (refusal.get("resume_at") or 0) / 1000 - time.time()) + 0.01)
                    break
            if not answered:
                continue
            moves += 1
            round_no = view.get("round")
            if latest["view"]["you"]["my_turn"] or latest["view"]["phase"] == "over":
                continue  # the turn goes on (a draw), or the match ended
            # The turn passed to the bot: until it is the person's again, in the same round.
            back = await until(lambda: latest["view"]["phase"] == "over" or latest["view"]["you"]["my_turn"])
            if back and latest["view"].get("round") == round_no and latest["view"]["you"]["my_turn"]:
                stats.replies.append(arrived[latest["version"]] - sent_at)
    finally:
        reader.cancel()
        await ws.close()


async def phase(
    plans: Sequence[loadtest.Plan], bots: Sequence[BotPlan], cookie_name: str, args: argparse.Namespace
) -> tuple[loadtest.Stats, BotStats]:
    bot_stats = BotStats()
    gate = asyncio.Semaphore(4)

    async def one(plan: BotPlan) -> None:
        try:
            await bot_table(plan, cookie_name, args, bot_stats, gate)
        except Exception as error:  # one table's failure is counted, the run goes on
            bot_stats.errors[f"{type(error).__name__}: {str(error)[:80]}"] += 1

    people, _ = await asyncio.gather(
        loadtest.run(plans, cookie_name, args), asyncio.gather(*(one(p) for p in bots))
    )
    return people, bot_stats


def _p99(values: Sequence[float]) -> float:
    return loadtest.percentile(values, 0.99) * 1000


def wait_background_idle(timeout: float) -> float:
    """Wait until the background queue is empty and its worker idle (the puzzles a fresh server
    generates first, say), so that the quiet phase has no background work the heavy phase has
    not. Returns the seconds waited; nothing to wait for without a broker between processes."""
    from django.conf import settings

    from remi_site.celery import app

    if not str(settings.CELERY_BROKER_URL).startswith("redis"):
        return 0.0
    started = time.perf_counter()
    queue = settings.BACKGROUND_QUEUE
    while time.perf_counter() - started < timeout:
        with app.connection_for_read() as connection:
            waiting = int(connection.default_channel.client.llen(queue))
        inspect = app.control.inspect(timeout=2.0)
        busy = sum(
            len(tasks)
            for answer in ((inspect.active() or {}), (inspect.reserved() or {}))
            for worker, tasks in answer.items()
            if worker.startswith("background@")
        )
        if waiting == 0 and busy == 0:
            return time.perf_counter() - started
        print(f"waiting for the background queue: {waiting} queued, {busy} running", flush=True)
        time.sleep(10)
    raise SystemExit(f"the background queue was not idle after {timeout:.0f} s")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    # Each phase has tables of its own, set up before either plays: a table left by the quiet
    # phase would be played on by the stand-in bots (the seats go away after the grace period)
    # while the heavy phase measures, a load the quiet phase did not have.
    # They are set up just before their phase: a table that waits unplayed has its turns taken by
    # the turn timer and the stand-ins too.
    import django

    django.setup()
    from games.learn.models import RoundAnalysis
    from games.play import services

    # What earlier runs asked for must not load the quiet phase: their queued analyses find no
    # row and end at once ("gone"), then the wait is for what else the background has to do.
    RoundAnalysis.objects.filter(round__match__room__name="loadtest analyses").delete()
    waited = wait_background_idle(args.idle_timeout)
    analysis_room, analysts = setup_analysis(args)
    plans, cookie_name = loadtest.setup(args)
    bots = setup_bot_tables(args)
    loud_plans: list[loadtest.Plan] = []
    loud_bot_plans: list[BotPlan] = []
    heavy = Heavy(args.url, drawing_record(args.replay_moves), args.replayers, analysts, cookie_name)

    def close(people: Sequence[loadtest.Plan], with_bots: Sequence[BotPlan]) -> None:
        loadtest.close_rooms(people)
        services.room_close(room_ids=[plan.room_id for plan in with_bots])

    try:
        quiet, quiet_bots = asyncio.run(phase(plans, bots, cookie_name, args))
        close(plans, bots)
        loud_plans, _ = loadtest.setup(args, first=args.tables)
        loud_bot_plans = setup_bot_tables(args, first=args.bot_tables)
        context = multiprocessing.get_context("spawn")
        manager = context.Manager()
        stop, counts = manager.Event(), manager.dict()
        clients = context.Process(target=heavy_clients, args=(heavy, stop, counts))
        if not args.control:
            clients.start()
            time.sleep(3)  # the uploads and the analyses are under way before the tables play
        try:
            loud, loud_bots = asyncio.run(phase(loud_plans, loud_bot_plans, cookie_name, args))
        finally:
            stop.set()
            if not args.control:
                clients.join(timeout=300)
        answered = dict(sorted(counts.items())) if not args.control else {"control run": 0}
    finally:
        close(plans, bots)
        close(loud_plans, loud_bot_plans)
        services.room_close(room_ids=[analysis_room])
    lines = [
        f"heavy flood: {args.tables} tables x {args.seats} seats and {args.bot_tables} tables of a person "
        f"and a bot, {args.moves} moves a table per phase (new tables for each), think {args.think:g} s, "
        f"against {args.url}; waited {waited:.0f} s for an idle background queue",
        f"quiet: move -> all frames {loadtest._latency_line(quiet.move_latencies)}; errors "
        f"{sum(quiet.errors.values())}",
        f"quiet: bot reply {loadtest._latency_line(quiet_bots.replies)}; "
        f"errors {dict(quiet_bots.errors) or 0}",
        f"heavy: {args.replayers} clients looping on a {args.replay_moves}-move uploaded round "
        f"({len(heavy.record) // 1024} kB) and its pages; 2 accounts asking for "
        f"{len(analysts[0][1])} rounds' analyses each",
        f"heavy: answers {answered}",
        f"heavy: move -> all frames {loadtest._latency_line(loud.move_latencies)}; errors "
        f"{sum(loud.errors.values())}",
        f"heavy: bot reply {loadtest._latency_line(loud_bots.replies)}; errors {dict(loud_bots.errors) or 0}",
        f"p99 heavy / quiet: move -> frames {_p99(loud.move_latencies) / _p99(quiet.move_latencies):.2f} "
        f"({_p99(loud.move_latencies):.1f} / {_p99(quiet.move_latencies):.1f} ms); bot reply "
        f"{_p99(loud_bots.replies) / _p99(quiet_bots.replies):.2f} "
        f"({_p99(loud_bots.replies):.1f} / {_p99(quiet_bots.replies):.1f} ms)",
    ]
    print("\n".join(lines), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
