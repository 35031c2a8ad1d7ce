"""The match page without a browser: the table container, the embedded frame, the JS module, and
the module served by whitenoise after collectstatic (hashed entry point, plain-named imports)."""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from pytest_django.fixtures import Settings

from games.play import services
from games.play.models import Match


@pytest.fixture
def started(db: None) -> tuple[Any, Match]:
    make = get_user_model().objects.create_user
    ala, bob = make(username="ala", password=None), make(username="bob", password=None)
    room = services.room_create(
        owner=ala, name="Markup", variant="remik51", options={}, seats=2, turn_seconds=60
    )
    services.seat_take(room=room, user=ala, index=0)
    services.seat_take(room=room, user=bob, index=1)
    return ala, services.match_start(room=room)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_match_page_holds_the_table_the_frame_and_the_module(
    started: tuple[Any, Match], settings: Settings
) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    ala, match = started

    html = _client(ala).get(f"/matches/{match.pk}/").content.decode()

    assert re.search(rf'<div id="table-app" class="table-app"\s+data-ws-path="/ws/match/{match.pk}/"', html)
    assert 'data-authenticated="true"' in html
    frame = json.loads(
        re.search(r'<script id="initial-frame" type="application/json">(.*?)</script>', html)[1]
    )
    assert frame["type"] == "state"
    assert frame["version"] == match.version
    assert frame["view"]["seat"] == 0
    assert '<script type="module" src="/static/js/table/main.js"></script>' in html
    assert 'href="/static/css/table.css"' in html


def test_an_anonymous_visitor_gets_the_snapshot_and_no_socket(
    started: tuple[Any, Match], settings: Settings
) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    _, match = started

    html = Client().get(f"/matches/{match.pk}/").content.decode()

    assert 'data-authenticated="false"' in html
    assert "nobody's hand is shown" in html


def test_collectstatic_and_whitenoise_serve_the_modules(
    started: tuple[Any, Match], settings: Settings, tmp_path: Path
) -> None:
    settings.STATIC_ROOT = tmp_path / "static"
    settings.DEBUG = False
    # Practice's files (Pyodide's 13 MB, the engine archive) play no part in the table's page, and
    # hashing and compressing them is most of a collectstatic (tests/practice covers them).
    call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=["practice/*"])
    ala, match = started
    client = _client(ala)  # a new client: whitenoise indexes STATIC_ROOT when it is created

    html = client.get(f"/matches/{match.pk}/").content.decode()

    entry = re.search(
        r'<script type="module" src="(/static/js/table/main\.[0-9a-f]{12}\.js)"></script>', html
    )
    assert entry, "the page names the hashed entry module"
    response = client.get(entry[1])
    assert response.status_code == 200
    assert "javascript" in response["Content-Type"]
    body = b"".join(response.streaming_content) if response.streaming else response.content
    # The entry module imports its siblings by plain name; whitenoise serves those too.
    for name in re.findall(rb'from "(\.\.?/[a-z/]+\.js)"', body):
        sibling = client.get(posixpath.normpath(f"/static/js/table/{name.decode()}"))
        assert sibling.status_code == 200, name
    css = re.search(r'href="(/static/css/table\.[0-9a-f]{12}\.css)"', html)
    assert css
    assert client.get(css[1]).status_code == 200
