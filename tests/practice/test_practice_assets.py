"""The engine archive practice sends to the browser, and the static files finder that serves it
and Pyodide (games/practice/assets.py, games/practice/finders.py, docs/practice.md)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from games.practice import assets as practice_assets
from games.practice.finders import PracticeFinder


def test_the_archive_is_the_same_bytes_for_the_same_sources(tmp_path: Path) -> None:
    first, members = practice_assets.archive_bytes()
    again, _ = practice_assets.archive_bytes()
    assert first == again
    archive = practice_assets.engine_archive(build_dir=tmp_path)
    assert archive.path.read_bytes() == first
    assert archive.name == f"engine-{archive.digest[:12]}.zip"
    assert "games/engine/__init__.py" in members
    assert "games/engine/rummy/bots/hard.py" in members
    assert {"games/play/framing.py", "games/play/protocol.py", "games/play/rack.py"} <= set(members)
    assert not any(name.startswith(("games/models", "games/views", "games/services")) for name in members)


def test_a_changed_source_gives_a_new_name(tmp_path: Path) -> None:
    """A new engine is a new file name: no cache can serve the old one under it."""
    source = tmp_path / "src"
    for relative in practice_assets.source_files():
        target = source / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((practice_assets.ROOT / relative).read_bytes())
    before = practice_assets.engine_archive(source, tmp_path / "build")
    rules = source / "games/engine/rules.py"
    rules.write_text(rules.read_text() + "\n# changed\n")
    after = practice_assets.engine_archive(source, tmp_path / "build")
    assert after.name != before.name
    assert before.path.is_file()
    assert after.path.is_file()


def test_the_archive_runs_on_the_standard_library_alone(tmp_path: Path) -> None:
    """What the browser imports needs nothing but the standard library: a Python started
    without site-packages (-S, -I) imports it from the zip alone and builds a frame."""
    archive = practice_assets.engine_archive(build_dir=tmp_path)
    program = (
        "import sys, json; sys.path.insert(0, sys.argv[1]);"
        "from games import engine; from games.play import framing, rack;"
        "from games.engine.bots import choose_move;"
        "s = engine.new_game(engine.variant('remik51'), ['a', 'b', 'c', 'd'], seed=1);"
        "m = choose_move(engine.view_for(s, s.turn), level='hard');"
        "t = engine.apply_move(s, s.turn, m);"
        "f = framing.frame_for(t.state, 0, version=1, events=t.events);"
        "import django"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-I", "-c", program, str(archive.path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    # Everything up to the last import worked; Django itself is out of reach, as in Pyodide.
    assert "ModuleNotFoundError: No module named 'django'" in done.stderr, done.stderr
    assert done.stderr.count("Traceback") == 1


def test_the_finder_serves_the_archive_of_the_current_sources() -> None:
    archive = practice_assets.engine_archive()
    found = finders.find(f"practice/{archive.name}")
    assert found is not None
    assert Path(found).read_bytes() == archive.path.read_bytes()
    assert finders.find("practice/engine-000000000000.zip") is None
    listed = {path for path, _storage in PracticeFinder().list([])}
    assert archive.name in listed


@pytest.mark.skipif(
    bool(practice_assets.pyodide_missing()) and not os.environ.get("REQUIRE_BROWSER"),  # .ci/run requires it
    reason="Pyodide is not installed (make npm: needs npm)",
)
def test_the_finder_serves_the_pyodide_files_npm_installed() -> None:
    pinned = json.loads((practice_assets.ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    assert practice_assets.pyodide_version() == pinned
    for name in practice_assets.PYODIDE_FILES:
        found = finders.find(f"practice/pyodide/{name}")
        assert found == str(practice_assets.PYODIDE_DIR / name)
    assert finders.find("practice/pyodide/package.json") is None  # only what a worker loads
    with zipfile.ZipFile(practice_assets.PYODIDE_DIR / "python_stdlib.zip") as stdlib:
        assert any(name.startswith("json/") for name in stdlib.namelist())


needs_node_and_pyodide = pytest.mark.skipif(
    (shutil.which("node") is None or bool(practice_assets.pyodide_missing()))
    and not os.environ.get("REQUIRE_BROWSER"),
    reason="the bytecode is compiled by Pyodide under Node (make npm: needs npm and node)",
)

#: Imports the archive in Pyodide under Node, as the worker does (a zip on sys.path), and prints
#: where games.engine.game came from.
IMPORT_IN_PYODIDE = """
import { readFileSync } from "node:fs";
const [folder, archive] = process.argv.slice(1);
const { loadPyodide } = await import(`file://${folder}/pyodide.mjs`);
const pyodide = await loadPyodide({ indexURL: `${folder}/` });
pyodide.FS.writeFile("/home/pyodide/remi-engine.zip", readFileSync(archive));
pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/remi-engine.zip')");
pyodide.pyimport("games.practice.game").call("warm");
console.log(pyodide.runPython("import sys; sys.modules['games.engine.game'].__file__"));
"""


@needs_node_and_pyodide
def test_the_archive_carries_bytecode_pyodide_trusts(tmp_path: Path) -> None:
    """Beside each module goes its .pyc (game.py's game.pyc, where zipimport looks), compiled by
    Pyodide under Node as an unchecked hash-based .pyc: Pyodide imports it without compiling, or
    even reading, the source, so a broken source beside it does not matter."""
    archive = practice_assets.engine_archive(build_dir=tmp_path / "build")
    sources = [name for name in archive.members if name.endswith(".py")]
    assert [name for name in archive.members if name.endswith(".pyc")] == [name + "c" for name in sources]
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(archive.path) as opened, zipfile.ZipFile(broken, "w") as out:
        for info in opened.infolist():
            data = opened.read(info)
            out.writestr(
                info, b"def (: this is not Python\n" if info.filename == "games/engine/game.py" else data
            )
    done = subprocess.run(
        [
            "node",
            "--input-type=module",
            "-e",
            IMPORT_IN_PYODIDE,
            str(practice_assets.PYODIDE_DIR),
            str(broken),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "/home/pyodide/remi-engine.zip/games/engine/game.pyc"
    # The site's CPython (another magic number) skips that bytecode and reads the broken source.
    program = "import sys; sys.path.insert(0, sys.argv[1]); import games.engine"
    refused = subprocess.run(
        [sys.executable, "-S", "-I", "-B", "-c", program, str(broken)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "SyntaxError" in refused.stderr


@needs_node_and_pyodide
def test_pyodide_compiles_the_same_bytecode_every_time(tmp_path: Path) -> None:
    """The bytecode is the same bytes on every build (so is the archive's name), kept or not."""
    sources = {
        path.as_posix(): (practice_assets.ROOT / path).read_bytes() for path in practice_assets.source_files()
    }
    kept = practice_assets.pyodide_bytecode(sources)
    fresh = practice_assets.pyodide_bytecode(sources, build_dir=tmp_path)
    assert kept is not None
    assert fresh == kept
    assert list(tmp_path.glob("bytecode-*.json"))  # kept for the next build
    assert practice_assets.pyodide_bytecode(sources, build_dir=tmp_path) == kept
    header = kept["games/engine/game.py"][:16]
    assert int.from_bytes(header[4:8], "little") == 0b01  # hash based, the source not checked (PEP 552)


def test_without_node_the_archive_holds_the_sources_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where node is missing the archive is built all the same, of sources only: the browser
    compiles them (once: later loads restore the memory snapshot)."""
    monkeypatch.setenv("PATH", str(tmp_path))  # no node on it
    data, members = practice_assets.archive_bytes(bytecode_dir=tmp_path)
    assert members == tuple(path.as_posix() for path in practice_assets.source_files())
    assert not list(tmp_path.glob("bytecode-*.json"))
    with zipfile.ZipFile(io.BytesIO(data)) as opened:
        assert (
            opened.read("games/engine/game.py")
            == (practice_assets.ROOT / "games/engine/game.py").read_bytes()
        )
