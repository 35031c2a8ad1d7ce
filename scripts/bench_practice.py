"""``make bench-practice``: practice offline measured in headless Chromium (docs/practice.md).

It serves the site as in production (``DJANGO_DEBUG=0``: the collected, hashed, compressed static
files through WhiteNoise) with daphne on a free port, on a throwaway SQLite database, and drives
Debian's Chromium with Playwright:

* **cold load to playable**: a fresh browser profile opens ``/practice/``; the time from the
  navigation to the moment the setup's Start button works (the engine answered), with every file
  downloaded (about 12.5 MB, 5.5 MB compressed, over the loopback: no network latency);
* **warm load to playable**: the same profile reloads (the files come from the service worker's
  caches), online and offline, and with a game kept on the device (playable = its table shown).
  These restore the memory snapshot the first load kept (Python started, the engine imported);
  one more row removes it before each load, so Python starts again (and keeps a new one);
* **bot move time in the browser**: games in the worker where the player plays the hard bot's
  move and the bots play at one level; for each level the time the bot's decision took in Python
  (``games.practice.game`` measures it in the worker) and the round trip of the call from the page
  (postMessage, the decision, the new frame, back), median and p99.

It prints figures and asserts nothing. Targets (issue 15): warm load <= 2 s, hard bot p99 <= 300 ms.

    python scripts/bench_practice.py [--warm 5] [--moves 300] [--variants remik51:4,gin:2]
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
]
LEVELS = ("easy", "normal", "hard")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def serve(database: Path) -> tuple[subprocess.Popen[bytes], str]:
    env = dict(
        os.environ,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_hex(32),
        # Production's settings served on the loopback over plain http (docs/operations.md,
        # "Production settings, and make run").
        DJANGO_INSECURE_LOCAL="1",
        DATABASE_URL=f"sqlite:///{database}",
        EMBEDDED_WORKER="0",
    )
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "remi_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise SystemExit("daphne did not start") from None
            time.sleep(0.1)
    return proc, f"http://127.0.0.1:{port}"


STATE = "(document.getElementById('practice') || {dataset: {}}).dataset.state"


def load(page: Any, url: str, state: str) -> dict[str, Any]:
    """Open the page (or reload it) and wait until it is playable; its timings, ms since navigation."""
    if page.url.startswith(url):
        page.reload()
    else:
        page.goto(url)
    page.wait_for_function(f"{STATE} === '{state}'", timeout=180_000)
    timings: dict[str, Any] = page.evaluate("window.remiPractice.timings")
    return timings


def snapshot_kept(page: Any) -> None:
    """Wait until the worker has kept (or failed to keep) its snapshot for the next load."""
    page.wait_for_function("window.remiPractice.timings.snapshotKept !== undefined", timeout=120_000)


FORGET_SNAPSHOT = """async () => {
  const config = window.remiPractice.config;
  const cache = await caches.open(config.caches.app);
  for (const request of await cache.keys()) {
    if (new URL(request.url).pathname.includes("/snapshot-")) await cache.delete(request);
  }
}"""


def load_started(page: Any, url: str) -> dict[str, Any]:
    """A warm load with no snapshot kept: Python starts (and keeps a snapshot again)."""
    page.evaluate(FORGET_SNAPSHOT)
    timings = load(page, url, "setup")
    snapshot_kept(page)
    return timings


def drive(page: Any, variant: str, seats: int, level: str, moves: int) -> dict[str, list[float]]:
    """Play games in the page's worker until ``moves`` bot moves were timed; their times (ms)."""
    return page.evaluate(
        """async ([variant, seats, level, moves]) => {
          const engine = window.remiPractice.state.engine;
          const think = [], trip = [];
          while (think.length < moves) {
            const levels = [null, ...Array(seats - 1).fill(level)];
            const names = ["You", ...levels.slice(1).map((_, i) => `Bot ${i + 2}`)];
            let answer = await engine.call("start", { variant, options: {}, levels, names });
            let version = answer.ok.frame.version;
            for (let step = 0; step < 3000 && think.length < moves; step += 1) {
              if (answer.ok && answer.ok.frame && answer.ok.frame.view.phase === "over") break;
              if (answer.bot !== null && answer.bot !== undefined) {
                const began = performance.now();
                answer = await engine.call("bot");
                trip.push(performance.now() - began);
                think.push(answer.ok.ms);
                version = answer.ok.frame.version;
              } else {
                const hint = await engine.call("hint");
                if (hint.error) break;
                const command = { type: "move", id: `b${version}`, version, move: hint.ok.move };
                answer = await engine.call("command", command);
                const frames = answer.ok.frames;
                if (frames[0].type === "error") break;
                version = frames[frames.length - 1].version;
                if (frames[frames.length - 1].view.phase === "over") break;
              }
            }
          }
          return { think, trip };
        }""",
        [variant, seats, level, moves],
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warm", type=int, default=5, help="warm loads of each kind (default 5)")
    parser.add_argument("--moves", type=int, default=300, help="bot moves timed per level and variant")
    parser.add_argument(
        "--variants",
        default="remik51:4,gin:2",
        help="variant:seats, comma-separated (default remik51:4,gin:2)",
    )
    args = parser.parse_args(argv)
    plan = [(item.split(":")[0], int(item.split(":")[1])) for item in args.variants.split(",") if item]

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bench-practice-") as scratch:
        proc, base = serve(Path(scratch) / "db.sqlite3")
        url = f"{base}/practice/?delay=0"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                version = browser.version
                context = browser.new_context()
                page = context.new_page()
                cold = load(page, url, "setup")
                page.wait_for_function(
                    "document.getElementById('practice').dataset.offline === 'ready'", timeout=60_000
                )
                snapshot_kept(page)
                online = [load(page, url, "setup") for _ in range(args.warm)]
                context.set_offline(True)
                offline = [load(page, url, "setup") for _ in range(args.warm)]
                started = [load_started(page, url) for _ in range(args.warm)]
                context.set_offline(False)
                warm_online = [t["playable"] for t in online]
                warm_offline = [t["playable"] for t in offline]
                warm_started = [t["playable"] for t in started]
                restored = [t["engine"]["snapshot"] == "restored" for t in online + offline]
                # A game kept on the device: the page resumes it; playable = its table shown.
                page.select_option("#practice-variant", "remik51")
                page.click("#practice-start")
                page.wait_for_function(f"{STATE} === 'playing'", timeout=60_000)
                games = [load(page, url, "playing") for _ in range(args.warm)]
                warm_game = [t["playable"] for t in games]
                restored += [t["engine"]["snapshot"] == "restored" for t in games]
                page.evaluate("localStorage.clear()")
                load(page, url, "setup")
                bots = {
                    (variant, level): drive(page, variant, seats, level, args.moves)
                    for variant, seats in plan
                    for level in LEVELS
                }
                context.close()
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)

    engine = cold.get("engine") or {}
    python = engine.get("python", "?")
    print(f"Practice in headless Chromium {version}, Pyodide (CPython {python}), {base}")
    print(f"  {os.cpu_count()} CPUs; times in ms since the navigation began")
    print("  targets (issue 15): warm load <= 2000, hard bot p99 <= 300")
    print()
    print("Load to playable (the setup's Start works, or a kept game's table is shown):")
    print(
        f"  cold (fresh profile, everything downloaded): {cold['playable']:8.0f}   "
        f"files on the device at {cold.get('downloaded', float('nan')):.0f}, "
        f"Pyodide loaded in {engine.get('loadMs', '?')}, engine ready in {engine.get('readyMs', '?')} "
        f"(after the worker started), snapshot {engine.get('snapshot', '?')}"
    )
    print(f"  warm loads that restored the kept snapshot: {sum(restored)} of {len(restored)}")
    for name, values in (
        ("warm, online (page from the network)", warm_online),
        ("warm, offline (all from the caches)", warm_offline),
        ("warm, a kept game resumed", warm_game),
        ("warm, offline, no snapshot (Python starts)", warm_started),
    ):
        print(
            f"  {name + ':':44} median {statistics.median(values):6.0f}   "
            f"min {min(values):6.0f}   max {max(values):6.0f}   (n={len(values)})"
        )
    print()
    print("Bot move time in the browser (ms): the decision in Python / the page's round trip")
    head = ("variant", "level", "n", "median", "p99", "max", "trip med", "trip p99")
    print("  {:10} {:7} {:>5} {:>8} {:>8} {:>8}   {:>8} {:>8}".format(*head))
    for (variant, level), times in bots.items():
        think, trip = times["think"], times["trip"]
        row = (variant, level, len(think), statistics.median(think), quantile(think, 0.99), max(think))
        print("  {:10} {:7} {:5d} {:8.1f} {:8.1f} {:8.1f}".format(*row), end="")
        print(f"   {statistics.median(trip):8.1f} {quantile(trip, 0.99):8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
