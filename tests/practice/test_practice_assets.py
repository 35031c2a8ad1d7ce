"""The engine archive practice sends to the browser, and the static files finder that serves it
and Pyodide (games/practice_assets.py, games/finders.py, docs/practice.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from games import practice_assets
from games.finders import PracticeFinder


def test_the_archive_is_the_same_bytes_for_the_same_sources(tmp_path: Path) -> None:
    first, members = practice_assets.archive_bytes()
    again, _ = practice_assets.archive_bytes()
    assert first == again
    archive = practice_assets.engine_archive(build_dir=tmp_path)
    assert archive.path.read_bytes() == first
    assert archive.name == f"engine-{archive.digest[:12]}.zip"
    assert "games/engine/__init__.py" in members
    assert "games/engine/bots/hard_rummy.py" in members
    assert {"games/framing.py", "games/protocol.py", "games/rack.py"} <= set(members)
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
        "from games import engine, framing, rack;"
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


@pytest.mark.skipif(sys.version_info[:2] != practice_assets.PYODIDE_PYTHON, reason="bytecode only for 3.11")
def test_the_archive_carries_bytecode_the_interpreter_trusts(tmp_path: Path) -> None:
    """Each module's .pyc is in the archive (unchecked hash-based): Python imports it without
    compiling, or even reading, the source; a broken source beside it does not matter."""
    archive = practice_assets.engine_archive(build_dir=tmp_path / "build")
    assert "games/engine/__pycache__/game.cpython-311.pyc" in archive.members
    with zipfile.ZipFile(archive.path) as opened:
        opened.extractall(tmp_path / "unpacked")
    (tmp_path / "unpacked/games/engine/game.py").write_text("this is not Python\n")
    program = "import sys; sys.path.insert(0, sys.argv[1]); import games.practice; print('imported')"
    done = subprocess.run(
        [sys.executable, "-S", "-I", "-B", "-c", program, str(tmp_path / "unpacked")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.strip() == "imported", done.stderr
