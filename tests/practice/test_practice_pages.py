"""The practice page and the files that make it work offline (games/practice/views.py)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from django.test import Client

from games.practice import assets as practice_assets
from games.practice import views as views_practice

pytestmark = pytest.mark.django_db

needs_pyodide = pytest.mark.skipif(
    bool(practice_assets.pyodide_missing()) and not os.environ.get("REQUIRE_BROWSER"),  # .ci/run requires it
    reason="Pyodide is not installed (make npm: needs npm)",
)


def config(client: Client) -> dict:
    response = client.get("/practice/")
    assert response.status_code == 200
    match = re.search(
        r'<script id="practice-config" type="application/json">(.*?)</script>', response.content.decode()
    )
    assert match
    return json.loads(match.group(1))


@needs_pyodide
def test_the_page_needs_no_account_and_names_every_file_it_keeps(client: Client) -> None:
    data = config(client)
    assert data["missing"] == []
    assert data["archive"] == practice_assets.engine_archive().name
    assert data["archive_url"].endswith(".zip")
    assert "/practice/" in data["archive_url"]
    downloads = {item["url"].rsplit("/", 1)[-1]: item for item in data["downloads"]}
    assert set(practice_assets.PYODIDE_FILES) <= set(downloads)
    assert sum(item["size"] for item in data["downloads"]) > 10_000_000  # ~12.7 MB, shown as progress
    assert "/practice/" in data["precache"]
    assert "/practice/worker.js" in data["precache"]
    # The table's modules and practice's, by their hashed names once collected.
    for module in ("js/table/main", "js/practice/local", "js/practice/practice", "css/practice"):
        hashed = re.compile(rf"/static/{module}(\.[0-9a-f]{{12}})?\.(js|css)$")
        assert any(hashed.search(url) for url in data["precache"]), module
    assert set(data["specs"]) == {"gin", "knock108", "oklahoma", "remi", "remik40", "remik51", "rummy500"}
    page = client.get("/practice/").content.decode()
    assert 'rel="manifest"' in page
    for variant in data["specs"]:
        assert f'data-variant="{variant}"' in page


@needs_pyodide
def test_the_service_worker_carries_the_version_and_the_file_list(client: Client) -> None:
    response = client.get("/practice/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    text = response.content.decode()
    files = views_practice.offline_files()
    assert f'"version": "{files["version"]}"' in text
    assert files["caches"]["app"] in text
    assert files["caches"]["pyodide"] in text
    for url in files["precache"]:
        assert f'"{url}"' in text


@needs_pyodide
def test_a_new_engine_is_a_new_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed engine source gives a new archive name, hence a new version and new cache names,
    so the browser installs the new service worker on its next online visit and drops the old."""
    before = views_practice.offline_files()
    source = tmp_path / "src"
    for relative in practice_assets.source_files():
        target = source / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((practice_assets.ROOT / relative).read_bytes())
    (source / "games/engine/rules.py").write_text(
        (source / "games/engine/rules.py").read_text() + "\n# new\n"
    )
    real = practice_assets.engine_archive
    monkeypatch.setattr(practice_assets, "engine_archive", lambda *a, **k: real(source, tmp_path / "build"))
    after = views_practice.offline_files()
    assert after["archive"] != before["archive"]
    assert after["version"] != before["version"]
    assert after["caches"]["app"] != before["caches"]["app"]
    assert after["caches"]["pyodide"] == before["caches"]["pyodide"]  # Pyodide is not fetched again


def test_the_worker_is_served_inside_the_practice_scope(client: Client) -> None:
    response = client.get("/practice/worker.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert b"games.practice.game" in response.content


def test_the_manifest_makes_it_installable(client: Client) -> None:
    response = client.get("/practice/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == "/practice/"
    assert manifest["scope"] == "/practice/"
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200


def test_without_npm_the_page_says_what_is_missing(
    client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(practice_assets, "PYODIDE_DIR", tmp_path / "node_modules" / "pyodide")
    response = client.get("/practice/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="practice-missing"' in page
    assert "make npm" in page
    assert "pyodide.asm.wasm" in page
    assert "practice.js" not in page  # nothing tries to load what is not there
    assert client.get("/practice/sw.js").status_code == 404
    assert client.get("/").status_code == 200  # the rest of the site runs


@needs_pyodide
@pytest.mark.parametrize(
    ("language", "title", "status"),
    [("pl", "Trening", "Trening · bez internetu"), ("ro", "Antrenament", "Antrenament · fără internet")],
)
def test_the_page_speaks_the_players_language(client: Client, language: str, title: str, status: str) -> None:
    """The page in Polish or Romanian, with the refusals' texts for the worker in that language
    (English keeps the engine's own: its catalog is empty), and the table's status line, which
    says practice, not a live table (its script's catalog)."""
    from django.conf import settings

    from games.shared.i18n_errors import MESSAGES

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get("/practice/").content.decode()
    assert f"<h1>{title}</h1>" in page
    data = config(client)
    assert set(data["messages"]) == set(MESSAGES)
    assert data["messages"]["not_your_turn"] != MESSAGES["not_your_turn"]
    catalog = client.get("/jsi18n/").content.decode()  # a JSON object in a script
    assert f"{json.dumps('Practice · offline')}: {json.dumps(status)}" in catalog
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert config(client)["messages"] == {}


def test_a_downloaded_practice_record_verifies_and_replays_on_the_site(client: Client) -> None:
    """/verify/ takes the record a practice game downloads, and replays its rounds move by move."""
    from games import engine
    from games.practice.game import Practice, bot_choice

    game = Practice.start("gin", {}, levels=[None, "normal"], names=["Ana", "Bot 2"], secret=bytes(range(32)))
    while game.state.round_no == 1:
        if game.bot_to_move() is not None:
            game.bot_move()
        else:
            move = engine.move_to_json(bot_choice(game.state, 0, "hard")[0])
            game.command({"type": "move", "id": "c", "version": game.version, "move": move})
    text = json.dumps(game.record())
    page = client.post("/verify/", {"record": text}).content.decode()
    assert 'id="verify-verdict"' in page
    assert "The record verifies." in page
    assert 'id="verify-replay-1"' in page  # round 1 is over: it can be replayed
    assert 'id="verify-replay-2"' not in page  # round 2 is being played
    # The record is kept (docs/record.md, "Replays"): the replay is a page of its own, paged.
    response = client.post("/verify/replay/", {"record": text, "round": "1"}, follow=True)
    assert response.status_code == 200
    replay = response.content.decode()
    assert "Round 1, move by move" in replay
    frames = json.loads(
        re.search(r'<script id="replay-frames" type="application/json">(.*?)</script>', replay).group(1)
    )
    last = int(re.search(r'data-last="(\d+)"', replay).group(1))
    assert last == sum(1 for move in game.record()["moves"] if move["round"] == 1)
    assert len(frames) == min(last + 1, 40)
    assert all(hand["cards"] is not None for hand in frames[0]["hands"])  # the record holds the deal
    refused = client.post("/verify/replay/", {"record": text, "round": "9"}, follow=True).content.decode()
    assert "This round cannot be replayed" in refused
