"""Practice offline (docs/practice.md): the page, its worker, its service worker, its manifest.

``/practice/`` needs no account. Its script loads Pyodide and the engine archive (static files,
``games/practice/finders.py``) into a Web Worker and plays the game there; the site is asked nothing
while a game is played. The service worker (``/practice/sw.js``) keeps the page, its scripts
and styles, the catalog of its language and those files in the browser, so that later visits
load and play with no network; the web app manifest makes it installable. Both live under
``/practice/`` so that their scope is the page and its worker (``/practice/worker.js``).
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import engine
from games.practice import assets as practice_assets
from games.practice.finders import PYODIDE_PREFIX, archive_static_path
from games.practice.forms import PracticeForm
from games.shared.i18n_errors import MESSAGES

#: Names of the browser caches (the service worker deletes every other ``remi-practice-*``).
CACHE_PREFIX = "remi-practice-"

#: Static files the practice page uses besides its modules (which are all of ``js/``).
PAGE_STATIC = (
    "css/site.css",
    "css/table.css",
    "css/practice.css",
    "icons/remi-192.png",
    "icons/remi-512.png",
)

WORKER_SOURCE = "js/practice/worker.js"
SW_TEMPLATE = "games/practice_sw.js"

_lock = threading.Lock()
_digests: dict[tuple[str, int, int], str] = {}


def _digest(path: str) -> str:
    """SHA-256 of a static file's bytes (remembered while the file is unchanged)."""
    found = finders.find(path)
    if not found:
        return "missing"
    stat = Path(found).stat()
    key = (str(found), stat.st_mtime_ns, stat.st_size)
    with _lock:
        if key not in _digests:
            _digests[key] = hashlib.sha256(Path(found).read_bytes()).hexdigest()
        return _digests[key]


def _module_paths() -> list[str]:
    """Every static JavaScript module (the table's and practice's), by static path."""
    paths: set[str] = set()
    for finder in finders.get_finders():
        for path, _storage in finder.list([]):
            path = path.replace("\\", "/")
            prefixed = f"{getattr(_storage, 'prefix', '') or ''}/{path}".lstrip("/")
            if prefixed.startswith("js/") and prefixed.endswith(".js") and prefixed != WORKER_SOURCE:
                paths.add(prefixed)
    return sorted(paths)


def _static_url(path: str) -> str:
    """The URL of a static file: the hashed name once collected, the plain one while ``DEBUG``."""
    try:
        return str(staticfiles_storage.url(path))
    except ValueError:  # not collected since it changed (the archive of edited sources)
        return f"{settings.STATIC_URL}{path}"


def offline_files() -> dict[str, Any]:
    """What practice keeps in the browser, and the version that names its caches.

    ``precache``: the small files the service worker stores when it installs (the page, its
    worker, styles, modules, icons, the manifest, the catalog). ``downloads``: the large ones
    the page fetches itself with a progress bar (Pyodide and the engine archive). ``version``
    changes with any of their contents, so the browser installs the new service worker on the
    next online visit and drops the caches of the old one.
    """
    archive = practice_assets.engine_archive()
    pyodide_version = practice_assets.pyodide_version() or "missing"
    static_paths = [*PAGE_STATIC, *_module_paths()]
    parts = [
        archive.name,
        pyodide_version,
        _digest(WORKER_SOURCE),
        *(f"{path}:{_digest(path)}" for path in static_paths),
    ]
    sw_template = Path(__file__).resolve().parents[2] / "templates" / SW_TEMPLATE
    if sw_template.is_file():
        parts.append(hashlib.sha256(sw_template.read_bytes()).hexdigest())
    version = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12]
    index_url = static(f"{PYODIDE_PREFIX}/")
    sizes = practice_assets.pyodide_sizes()
    pyodide_cache = f"{CACHE_PREFIX}pyodide-{pyodide_version}"
    app_cache = f"{CACHE_PREFIX}app-{version}"
    downloads = [
        {"url": f"{index_url}{name}", "size": sizes.get(name, 0), "cache": pyodide_cache}
        for name in practice_assets.PYODIDE_FILES
    ]
    downloads.append({"url": _static_url(archive_static_path()), "size": archive.size, "cache": app_cache})
    precache = [
        reverse("practice"),
        reverse("practice_worker"),
        reverse("practice_manifest"),
        reverse("javascript-catalog"),
        *(_static_url(path) for path in static_paths),
    ]
    return {
        "version": version,
        "caches": {"app": app_cache, "pyodide": pyodide_cache},
        "precache": precache,
        # Asked of the network first while online (they follow the language and the account).
        "fresh": [reverse("practice"), reverse("javascript-catalog"), reverse("practice_manifest")],
        "downloads": downloads,
        "index_url": index_url,
        "archive_url": _static_url(archive_static_path()),
        "archive": archive.name,
        "pyodide": pyodide_version,
    }


def practice(request: HttpRequest) -> HttpResponse:
    """``/practice/``: choose a game, play it on this device (no account needed)."""
    missing = practice_assets.pyodide_missing()
    variants = []
    specs = {}
    for name in engine.variant_names():
        form = PracticeForm(variant=name)
        rules = form.rules
        variants.append({"name": name, "title": _(rules.title), "summary": _(rules.summary), "form": form})
        specs[name] = form.specs
    player = request.user.get_username() if request.user.is_authenticated else _("You")
    language = get_language() or settings.LANGUAGE_CODE
    config: dict[str, Any] = {
        "missing": missing,
        "worker": reverse("practice_worker"),
        "sw": reverse("practice_sw"),
        "scope": reverse("practice"),
        "specs": specs,
        "player": player,
        "bot_name": _("Bot %(number)s"),
        # The refusals' texts in the page's language (games.shared.messages words them in the worker);
        # in English the engine's own messages stay, as on the site's socket.
        "messages": {} if language.startswith("en") else {key: _(text) for key, text in MESSAGES.items()},
    }
    if not missing:
        config.update(offline_files())
    context = {"variants": variants, "config": config, "missing": missing}
    return render(request, "games/practice.html", context)


def practice_worker(request: HttpRequest) -> HttpResponse:
    """``/practice/worker.js``: the worker script, served inside the service worker's scope."""
    found = finders.find(WORKER_SOURCE)
    if not found:  # pragma: no cover - the file is in the repository
        raise Http404("no worker")
    response = HttpResponse(Path(found).read_bytes(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


def practice_sw(request: HttpRequest) -> HttpResponse:
    """``/practice/sw.js``: the service worker, with this version's file list written in.

    A new engine (or any changed file it keeps) changes the script's bytes, so the browser
    installs it on the next online visit, and it drops the caches of the version before.
    """
    if practice_assets.pyodide_missing():
        raise Http404("practice offline is not installed")
    files = offline_files()
    config = {key: files[key] for key in ("version", "caches", "precache", "fresh")}
    response = render(
        request,
        SW_TEMPLATE,
        {"config": json.dumps(config, indent=1)},
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    return response


def practice_manifest(request: HttpRequest) -> JsonResponse:
    """``/practice/manifest.webmanifest``: what a phone needs to install practice as an app."""
    manifest = {
        "name": _("Remi: practice"),
        "short_name": "Remi",
        "description": _("Rummy against the computer, offline: Remik, Remi, Gin and more."),
        "start_url": reverse("practice"),
        "scope": reverse("practice"),
        "display": "standalone",
        "background_color": "#155736",
        "theme_color": "#155736",
        "icons": [
            {"src": _static_url(f"icons/remi-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
            for size in (192, 512)
        ]
        + [
            {
                "src": _static_url("icons/remi-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            }
        ],
    }
    response = JsonResponse(manifest, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response
