"""The bots decide in the browser's Python as on the server (docs/practice.md, issue 15).

Practice runs the engine's bots in Pyodide (CPython 3.13 in WebAssembly), the site in CPython 3.11,
from one engine archive (games/practice/assets.py: sources, and bytecode Pyodide compiled). Seeded
games are played by the same bots on both (``games.practice.game.bot_choice``, the worker's own call,
every seat a bot): the same decisions, move for move, at every level, in Remik 51 and Gin. Run in
Pyodide under Node, which loads the archive as the worker does (a zip on ``sys.path``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from games.practice import assets as practice_assets

pytestmark = pytest.mark.skipif(
    (shutil.which("node") is None or bool(practice_assets.pyodide_missing()))
    and not os.environ.get("REQUIRE_BROWSER"),  # .ci/run requires it
    reason="needs node and Pyodide (make npm)",
)

#: Plays seeded games with bots in every seat; the moves, as the record writes them.
DECISIONS = """
import hashlib
from games import engine
from games.practice.game import bot_choice

def decisions(name, players, level, count):
    moves = []
    game = 0
    while len(moves) < count:
        secret = hashlib.sha256(f"pyodide-bots-{name}-{level}-{game}".encode()).digest()
        state = engine.new_game(engine.variant(name), [f"p{i}" for i in range(players)], secret)
        game += 1
        while not state.is_over and len(moves) < count:
            move, transition = bot_choice(state, state.turn, level)
            moves.append(engine.move_to_json(move))
            state = transition.state
    return moves
"""

#: (variant, seats, level, moves): the practice table's games, the hard bot most.
CASES = [
    ("remik51", 4, "hard", 150),
    ("remik51", 4, "normal", 40),
    ("remik51", 4, "easy", 40),
    ("gin", 2, "hard", 100),
    ("gin", 2, "normal", 30),
    ("gin", 2, "easy", 30),
]

#: Loads Pyodide and the archive as the worker does, then runs DECISIONS for every case.
IN_PYODIDE = """
import { readFileSync } from "node:fs";
const [folder, archive, program, cases] = process.argv.slice(1);
const { loadPyodide } = await import(`file://${folder}/pyodide.mjs`);
const pyodide = await loadPyodide({ indexURL: `${folder}/` });
pyodide.FS.writeFile("/home/pyodide/remi-engine.zip", readFileSync(archive));
pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/remi-engine.zip')");
pyodide.runPython(program);
pyodide.globals.set("cases_json", cases);
const answer = pyodide.runPython(
  "import json, sys\\n" +
  "moves = [decisions(*case) for case in json.loads(cases_json)]\\n" +
  "json.dumps({'python': sys.version.split()[0], 'moves': moves})"
);
console.log(answer);
"""


def test_the_bots_decide_in_pyodide_as_on_the_server(tmp_path: Path) -> None:
    archive = practice_assets.engine_archive(build_dir=tmp_path / "build")
    done = subprocess.run(
        [
            "node",
            "--input-type=module",
            "-e",
            IN_PYODIDE,
            str(practice_assets.PYODIDE_DIR),
            str(archive.path),
            DECISIONS,
            json.dumps(CASES),
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    browser = json.loads(done.stdout)
    assert browser["python"].startswith("3.13.")  # Pyodide's CPython, not the site's
    namespace: dict[str, Any] = {}
    exec(DECISIONS, namespace)
    for case, moves in zip(CASES, browser["moves"], strict=True):
        server = namespace["decisions"](*case)
        assert len(moves) == case[3]
        first = next((i for i, (a, b) in enumerate(zip(moves, server, strict=True)) if a != b), None)
        assert first is None, f"{case}: move {first} differs: {moves[first]} in Pyodide, {server[first]} here"
