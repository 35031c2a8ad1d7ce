"""The files practice needs in the browser: the engine archive and Pyodide (docs/practice.md).

Practice runs the rules engine in the player's browser: CPython compiled to WebAssembly
(Pyodide, from the npm registry: ``package.json``, installed into ``node_modules/`` by ``npm
ci``) imports ``games.engine`` and the pure modules around it from one zip archive built here,
from the source tree. Nothing of it is committed under ``static/``: the static files finder
``games.finders.PracticeFinder`` serves both (``collectstatic`` copies them like any other
static file), as

* ``practice/engine-<hash>.zip``: the archive, named by the SHA-256 of its bytes (12 hex
  digits), so a new engine is a new name and no cache can serve an old one;
* ``practice/pyodide/<file>``: the Pyodide files the worker loads (:data:`PYODIDE_FILES`).

The archive is deterministic (sorted entries, fixed dates and modes): the same sources give the
same bytes and the same name. The worker imports it as it is (zipimport). Beside each module
goes its bytecode when the site runs on the CPython Pyodide runs (:data:`PYODIDE_PYTHON`), as an
unchecked hash-based ``.pyc`` (PEP 552: the same bytes on every build, and trusted without
reading the source); on another CPython the browser compiles the sources, once: later loads
restore the worker's memory snapshot, the engine already imported (docs/practice.md). Standard
library only; no Django here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import marshal
import os
import sys
import tempfile
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Where built archives are written (git-ignored; ``make clean`` removes it).
BUILD_DIR = ROOT / "build" / "practice"

#: The modules beside the engine that the browser imports: all pure Python (no Django), which
#: an import contract of ``pyproject.toml`` and ``tests/practice`` check.
BROWSER_MODULES = (
    "games/__init__.py",
    "games/errors.py",
    "games/protocol.py",
    "games/framing.py",
    "games/rack.py",
    "games/messages.py",
    "games/practice.py",
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

_ZIP_DATE = (1980, 1, 1, 0, 0, 0)

#: The CPython of the pinned Pyodide (0.29.3: CPython 3.13.2); bytecode only when we are it too.
PYODIDE_PYTHON = (3, 13)


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


def archive_bytes(root: Path = ROOT) -> tuple[bytes, tuple[str, ...]]:
    """The zip of :func:`source_files`, byte for byte the same for the same sources."""
    buffer = io.BytesIO()
    members = []
    compiled = sys.version_info[:2] == PYODIDE_PYTHON
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for relative in source_files(root):
            name = relative.as_posix()
            source = (root / relative).read_bytes()
            entries = [(name, source)]
            if compiled:
                entries.append((importlib.util.cache_from_source(name), _bytecode(name, source)))
            for entry, data in entries:
                info = zipfile.ZipInfo(entry, date_time=_ZIP_DATE)
                info.external_attr = 0o644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, data)
                members.append(entry)
    return buffer.getvalue(), tuple(members)


def _bytecode(name: str, source: bytes) -> bytes:
    """The ``.pyc`` of a module: unchecked-hash based (PEP 552), so no date is in it."""
    code = compile(source, name, "exec", dont_inherit=True)
    flags = 0b01  # hash based, source not checked
    header = importlib.util.MAGIC_NUMBER + flags.to_bytes(4, "little") + importlib.util.source_hash(source)
    return header + marshal.dumps(code)


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
    a process that finds it already there reuses it.
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
            build_dir.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=build_dir, prefix=".engine-", suffix=".zip")
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.chmod(temporary, 0o644)
            os.replace(temporary, path)
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
    "PYODIDE_DIR",
    "PYODIDE_FILES",
    "Archive",
    "archive_bytes",
    "engine_archive",
    "pyodide_missing",
    "pyodide_sizes",
    "pyodide_version",
    "source_files",
]
