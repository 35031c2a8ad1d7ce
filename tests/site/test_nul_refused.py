"""NUL characters in HTTP requests (issue 32, item 11; docs/operations.md, "Security").

PostgreSQL's text fields cannot hold NUL: ``GET /rooms/join/%00/`` and ``/u/%00/`` answered 500
(``DataError``). Every URL pattern of the site (the admin's included) is walked, as a visitor, a
player and staff: a NUL in the path is answered 404; in a query's value or name, a form field, a
JSON body, a cookie or a header, 400 (JSON endpoints' clients get the code ``malformed_query``).
Never a server error, and nothing reaches a view, a form or the session. The same requests
without NUL are not refused.
"""

from __future__ import annotations

import asyncio
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.live_server import start_daphne

pytestmark = pytest.mark.django_db

NUL = "\x00"
#: A route's parameters: ``<int:room_id>``, ``<str:code>``, ``<path:object_id>``, ``<token>``.
PARAMETER = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")


def _routes() -> Iterator[tuple[str, str]]:
    """(route, name) of every URL pattern, the includes' prefixes joined."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[tuple[str, str]]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                assert isinstance(pattern, URLPattern)
                yield prefix + str(pattern.pattern), str(pattern.name)

    yield from walk(get_resolver().url_patterns, "")


def _path(route: str, text: str) -> str | None:
    """A path of ``route`` with ``text`` in every parameter but numbers (which get 1); None if
    ``text`` goes nowhere in it."""
    # The admin's two regular expressions: an application's index, and its catch-all.
    route = route.replace("^(?P<app_label>auth|axes|accounts|games)/$", "games/")
    route = route.replace("(?P<url>.*)$", "<str:url>")
    assert "(?P" not in route, route
    placed = False

    def fill(found: re.Match[str]) -> str:
        nonlocal placed
        if found["converter"] == "int":
            return "1"
        placed = True
        return text

    path = "/" + PARAMETER.sub(fill, route)
    return path if placed or text == "x" else None


def _clients() -> list[tuple[str, Client]]:
    make = get_user_model().objects.create_user
    player = make(username="ala", password=None)
    staff = get_user_model().objects.create_superuser(username="szef", password=None, email="s@example.com")
    clients = [("visitor", Client(raise_request_exception=False))]
    for name, user in (("player", player), ("staff", staff)):
        client = Client(raise_request_exception=False)
        client.force_login(user)
        clients.append((name, client))
    return clients


def _attempts(client: Client, path: str) -> Iterator[tuple[str, Any]]:
    """NUL in a query's value, in its name, in form fields and in a JSON body, at ``path``."""
    yield "GET ?q=NUL", client.get(path, {"q": "a" + NUL})
    yield "GET ?NUL=1", client.get(path, {NUL: "1"})
    yield "POST form", client.post(path, {"q": "a" + NUL, "username": NUL})
    yield "POST JSON", client.post(path, '{"move": "\\u0000"}', content_type="application/json")


def test_every_url_refuses_nul_in_its_path_query_form_and_body_with_404_or_400() -> None:
    wrong: list[tuple[str, str, str, int]] = []
    routes = list(_routes())
    assert len(routes) > 100  # the admin's too
    for who, client in _clients():
        for route, name in routes:
            if route.startswith("admin/") and who != "staff":
                continue  # the others are sent to the admin's login page before any lookup
            spoiled = _path(route, "a" + NUL + "b")
            if spoiled is not None:
                response = client.get(spoiled)
                if response.status_code != 404:
                    wrong.append((who, name, f"GET {spoiled!r}", response.status_code))
            clean = _path(route, "x")
            assert clean is not None
            for what, response in _attempts(client, clean):
                if response.status_code != 400:
                    wrong.append((who, name, f"{what} {clean}", response.status_code))
                elif what == "POST JSON":
                    assert response.json()["code"] == "malformed_query", (name, response.content[:200])
    server_errors = [row for row in wrong if row[3] >= 500]
    assert server_errors == []
    assert wrong == []


def test_the_two_paths_of_the_report_answer_404_not_a_server_error() -> None:
    client = Client(raise_request_exception=False)
    assert client.get("/rooms/join/%00/").status_code == 404
    assert client.get("/u/%00/").status_code == 404
    assert client.get("/u/ala%00/").status_code == 404


def test_a_session_cookie_or_a_header_holding_nul_is_refused_with_400() -> None:
    client = Client(raise_request_exception=False)
    # A quoted cookie value may write NUL as an octal escape, which the cookie parser decodes.
    nul_session = 'sessionid="\\000\\000\\000\\000\\000\\000\\000\\000"'
    assert client.get("/", HTTP_COOKIE=nul_session).status_code == 400
    assert client.get("/matches/", HTTP_COOKIE=nul_session).status_code == 400
    # A failed login records the browser's User-Agent (django-axes).
    get_user_model().objects.create_user(username="ala", password="right-one-9")
    response = client.post(
        "/accounts/login/", {"username": "ala", "password": "wrong"}, HTTP_USER_AGENT="Mozilla" + NUL
    )
    assert response.status_code == 400


def test_the_same_requests_without_nul_are_not_refused() -> None:
    client = Client(raise_request_exception=False)
    assert client.get("/", {"q": "a"}).status_code == 200
    assert client.get("/u/nobody/").status_code == 404  # no such player: the view's own 404
    assert client.get("/matches/all/", {"player": "ala"}).status_code == 200
    response = client.post(
        "/accounts/login/", {"username": "ala", "password": "wrong"}, HTTP_USER_AGENT="Mozilla"
    )
    assert response.status_code == 200  # the form again, with its error
    assert (
        client.post("/table/display/", '{"large": true}', content_type="application/json").status_code == 401
    )


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_real_server_answers_the_reported_requests_404_and_closes_a_nul_handshake_with_4400(
    transactional_db: None, tmp_path: Path
) -> None:
    """The same through daphne, as deployed: its own decoding of the path and the headers."""
    server = start_daphne(tmp_path, embedded_worker=False)
    try:
        for path, status in (
            ("/rooms/join/%00/", 404),
            ("/u/%00/", 404),
            ("/?q=%00", 400),
            ("/u/nobody/", 404),
        ):
            with pytest.raises(urllib.error.HTTPError) as answer:
                urllib.request.urlopen(f"{server.url}{path}", timeout=30)
            assert answer.value.code == status, path

        async def handshake() -> int | None:
            cookie = 'sessionid="\\000\\000\\000\\000\\000\\000\\000\\000"'
            async with connect(
                server.ws_url("/ws/match/1/"),
                origin=server.origin,
                additional_headers={"Cookie": cookie},
                proxy=None,
            ) as ws:
                with pytest.raises(ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 30)
                return ws.close_code

        assert asyncio.run(handshake()) == 4400
    finally:
        server.stop()
    assert "Traceback" not in server.text(), server.text()[-3000:]
