"""The files practice needs in the browser: the engine archive and Pyodide (docs/practice.md).

Practice runs the rules engine in the player's browser: CPython compiled to WebAssembly
(Pyodide, from the npm registry: ``package.json``, installed into ``node_modules/`` by ``npm
ci``) imports ``games.engine`` and the pure modules around it from one zip archive built here,
from the source tree. Nothing of it is committed under ``static/``: the static files finder
``games.practice.finders.PracticeFinder`` serves both (``collectstatic`` copies them like any other
static file), as

* ``practice/engine-<hash>.zip``: the archive, named by the SHA-256 of its bytes (12 hex
  digits), so a new engine is a new name and no cache can serve an old one;
* ``practice/pyodide/<file>``: the Pyodide files the worker loads (:data:`PYODIDE_FILES`).

The archive is deterministic (sorted entries, fixed dates and modes): the same sources give the
same bytes and the same name. The worker imports it as it is (zipimport). Beside each module
(``games/engine/game.py``) goes its bytecode (``games/engine/game.pyc``, where zipimport looks
for it) compiled by Pyodide itself under Node (``games/practice/bytecode.mjs``: the site's
CPython is not the browser's 3.13 and cannot write its bytecode), as an unchecked hash-based
``.pyc`` (PEP 552: the same bytes on every build, and trusted without reading the source). The
bytecode of a set of sources is kept under :data:`BUILD_DIR`, so Node runs once per change.
Where Node or Pyodide is missing, or Node fails, the archive holds the sources alone and the
browser compiles them, once: later loads restore the worker's memory snapshot, the engine
already imported (docs/practice.md). Standard library only; no Django here.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import logging
import os
import shutil
import subprocess
import tempfile
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: Where built archives are written (git-ignored; ``make clean`` removes it).
BUILD_DIR = ROOT / "build" / "practice"

#: The modules beside the engine that the browser imports: all pure Python (no Django), which
#: an import contract of ``pyproject.toml`` and ``tests/practice`` check.
BROWSER_MODULES = (
    "games/__init__.py",
    "games/play/__init__.py",
    "games/shared/__init__.py",
    "games/shared/errors.py",
    "games/play/protocol.py",
    "games/play/framing.py",
    "games/play/rack.py",
    "games/shared/messages.py",
    "games/practice/__init__.py",
    "games/practice/game.py",
)

#: The whole engine package goes, minus nothing: it is the rules and the bots.
ENGINE_PACKAGE = "games/engine"

#: The Pyodide files a worker loads (``importScripts(pyodide.js)``, then ``loadPyodide({indexURL})``
#: fetches the others by these names from the same folder). Nothing else of the npm package is served.
PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

#: Where npm installs Pyodide.
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"

#: The Node script that compiles the archive's bytecode with Pyodide.
BYTECODE_SCRIPT = ROOT / "games" / "practice" / "bytecode.mjs"

#: Seconds Node may take to start Pyodide and compile the sources (a few on an idle machine).
BYTECODE_TIMEOUT = 300

_ZIP_DATE = (1980, 1, 1, 0, 0, 0)

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Archive:
    """A built engine archive: its static name (``engine-<hash>.zip``), file and members."""

    name: str
    path: Path
    digest: str
    size: int
    members: tuple[str, ...]


def source_files(root: Path = ROOT) -> list[Path]:
    """The files that go into the archive, relative to ``root``, in archive order."""
    files = [root / name for name in BROWSER_MODULES]
    files += sorted(p for p in (root / ENGINE_PACKAGE).rglob("*.py") if "__pycache__" not in p.parts)
    return sorted({f.relative_to(root) for f in files if f.is_file()})


def archive_bytes(root: Path = ROOT, bytecode_dir: Path = BUILD_DIR) -> tuple[bytes, tuple[str, ...]]:
    """The zip of :func:`source_files`, and beside each module its Pyodide bytecode when Node and
    Pyodide are there (:func:`pyodide_bytecode`, kept in ``bytecode_dir``), byte for byte the same
    for the same sources."""
    sources = {relative.as_posix(): (root / relative).read_bytes() for relative in source_files(root)}
    compiled = pyodide_bytecode(sources, build_dir=bytecode_dir) or {}
    buffer = io.BytesIO()
    members = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, source in sources.items():
            entries = [(name, source)]
            if name in compiled:
                entries.append((name + "c", compiled[name]))  # game.py's game.pyc, as zipimport looks for it
            for entry, data in entries:
                info = zipfile.ZipInfo(entry, date_time=_ZIP_DATE)
                info.external_attr = 0o644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, data)
                members.append(entry)
    return buffer.getvalue(), tuple(members)


def pyodide_bytecode(
    sources: dict[str, bytes], directory: Path | None = None, build_dir: Path = BUILD_DIR
) -> dict[str, bytes] | None:
    """The ``.pyc`` of each source (by its archive name), compiled by the installed Pyodide under
    Node (:data:`BYTECODE_SCRIPT`); None where Node or Pyodide is missing, or Node failed.

    Kept under ``build_dir`` by a hash of the Pyodide version, the script and the sources, so
    Node runs once for a set of sources, not once per process.
    """
    directory = directory or PYODIDE_DIR
    version = pyodide_version(directory)
    if version is None or pyodide_missing(directory) or not BYTECODE_SCRIPT.is_file():
        return None
    key = hashlib.sha256(version.encode() + b"\0" + BYTECODE_SCRIPT.read_bytes())
    for name in sorted(sources):
        key.update(b"\0" + name.encode() + b"\0" + hashlib.sha256(sources[name]).digest())
    kept = build_dir / f"bytecode-{key.hexdigest()[:16]}.json"
    try:
        answer = json.loads(kept.read_text())
    except (OSError, ValueError):
        answer = _compile_in_node(sources, directory)
        if answer is None:
            return None
        _write_atomically(kept, json.dumps(answer, sort_keys=True).encode())
    return {name: base64.b64decode(data) for name, data in answer["files"].items()}


def _compile_in_node(sources: dict[str, bytes], directory: Path) -> dict[str, Any] | None:
    node = shutil.which("node")
    if node is None:
        logger.info("node is missing: the practice engine archive holds sources only (no bytecode)")
        return None
    request = {"files": {name: base64.b64encode(data).decode() for name, data in sources.items()}}
    try:
        done = subprocess.run(
            [node, str(BYTECODE_SCRIPT), str(directory)],
            input=json.dumps(request).encode(),
            capture_output=True,
            timeout=BYTECODE_TIMEOUT,
            check=False,
        )
        answer = json.loads(done.stdout) if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError) as error:
        logger.warning("Pyodide could not compile the practice engine (%s): sources only", error)
        return None
    if not isinstance(answer, dict) or set(answer.get("files", ())) != set(sources):
        logger.warning(
            "Pyodide could not compile the practice engine (node exited %s: %s): sources only",
            done.returncode,
            done.stderr.decode(errors="replace")[-2000:],
        )
        return None
    return answer


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=path.suffix)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.chmod(temporary, 0o644)
    os.replace(temporary, path)


_lock = threading.Lock()
_built: dict[tuple[object, ...], Archive] = {}


def _signature(root: Path) -> tuple[object, ...]:
    stats = []
    for relative in source_files(root):
        stat = (root / relative).stat()
        stats.append((relative.as_posix(), stat.st_mtime_ns, stat.st_size))
    return (str(root), tuple(stats))


def engine_archive(root: Path = ROOT, build_dir: Path = BUILD_DIR) -> Archive:
    """Build the archive (once per change of the sources) and return where it is.

    Written atomically under ``build_dir`` as ``engine-<first 12 hex digits of its SHA-256>.zip``;
    a process that finds it already there reuses it. The bytecode is kept under :data:`BUILD_DIR`
    whatever ``build_dir`` is (:func:`pyodide_bytecode`).
    """
    key = (*_signature(root), str(build_dir))
    with _lock:
        if key in _built and _built[key].path.is_file():
            return _built[key]
        data, members = archive_bytes(root)
        digest = hashlib.sha256(data).hexdigest()
        name = f"engine-{digest[:12]}.zip"
        path = build_dir / name
        if not path.is_file():
            _write_atomically(path, data)
        archive = Archive(name=name, path=path, digest=digest, size=len(data), members=members)
        _built.clear()
        _built[key] = archive
        return archive


def pyodide_version(directory: Path | None = None) -> str | None:
    """The installed Pyodide's version (``node_modules/pyodide/package.json``), or None."""
    directory = directory or PYODIDE_DIR
    try:
        return str(json.loads((directory / "package.json").read_text())["version"])
    except (OSError, ValueError, KeyError):
        return None


def pyodide_missing(directory: Path | None = None) -> list[str]:
    """The Pyodide files that are not installed (all of them when npm never ran)."""
    directory = directory or PYODIDE_DIR
    return [name for name in PYODIDE_FILES if not (directory / name).is_file()]


def pyodide_sizes(directory: Path | None = None) -> dict[str, int]:
    """Bytes of each file of :data:`PYODIDE_FILES` that is installed."""
    directory = directory or PYODIDE_DIR
    return {name: (directory / name).stat().st_size for name in PYODIDE_FILES if (directory / name).is_file()}


__all__ = [
    "BROWSER_MODULES",
    "BUILD_DIR",
    "BYTECODE_SCRIPT",
    "PYODIDE_DIR",
    "PYODIDE_FILES",
    "Archive",
    "archive_bytes",
    "engine_archive",
    "pyodide_bytecode",
    "pyodide_missing",
    "pyodide_sizes",
    "pyodide_version",
    "source_files",
]
