"""A static files finder for practice: the engine archive built from the source tree, and the
Pyodide files that npm installed (``games/practice/assets.py``, docs/practice.md).

Listed in ``STATICFILES_FINDERS``, so ``collectstatic`` copies (and hashes, and compresses) them
like every other static file, and WhiteNoise serves them straight from here while ``DEBUG`` is
on. Nothing of it is committed under ``static/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.contrib.staticfiles.finders import BaseFinder
from django.contrib.staticfiles.utils import matches_patterns
from django.core.files.storage import FileSystemStorage

from games.practice import assets as practice_assets

#: The static paths: ``practice/engine-<hash>.zip`` and ``practice/pyodide/<file>``.
PREFIX = "practice"
PYODIDE_PREFIX = f"{PREFIX}/pyodide"


class _Storage(FileSystemStorage):
    """A folder served under a static prefix (collectstatic reads ``prefix``)."""

    def __init__(self, location: Path, prefix: str) -> None:
        super().__init__(location=str(location))
        self.prefix = prefix


def archive_static_path() -> str:
    """The static path of the engine archive of the current sources (built if needed)."""
    return f"{PREFIX}/{practice_assets.engine_archive().name}"


class PracticeFinder(BaseFinder):
    def _files(self) -> list[tuple[str, str, Path]]:
        """(static path, path inside its folder, folder) of every file practice serves."""
        archive = practice_assets.engine_archive()
        files = [(f"{PREFIX}/{archive.name}", archive.name, archive.path.parent)]
        directory = practice_assets.PYODIDE_DIR
        for name in practice_assets.PYODIDE_FILES:
            if (directory / name).is_file():
                files.append((f"{PYODIDE_PREFIX}/{name}", name, directory))
        return files

    def find(  # type: ignore[override]  # Django 5.2 renamed ``all``; django-stubs has the old name
        self, path: str, find_all: bool = False, **kwargs: Any
    ) -> str | list[str]:
        if not path.startswith(f"{PREFIX}/"):
            return []
        for static_path, name, folder in self._files():
            if static_path == path:
                found = str(folder / name)
                return [found] if find_all else found
        return []

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        storages: dict[Path, _Storage] = {}
        for static_path, name, folder in self._files():
            if ignore_patterns and matches_patterns(static_path, ignore_patterns):
                continue  # collectstatic --ignore, as Django's own finders do
            prefix = static_path[: -len(name) - 1]
            storage = storages.setdefault(folder, _Storage(folder, prefix))
            yield name, storage
