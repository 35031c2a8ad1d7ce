"""The site's icon (issue 14: ``/favicon.ico`` was a 404 on every page)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_favicon_ico_is_served_as_an_icon() -> None:
    response = Client().get("/favicon.ico")

    assert response.status_code == 200
    assert response["Content-Type"] == "image/vnd.microsoft.icon"
    body = b"".join(response.streaming_content)
    reserved, kind, count = struct.unpack("<HHH", body[:6])
    assert (reserved, kind, count) == (0, 1, 1)  # an ICO with one image
    width, height = body[6], body[7]
    assert (width, height) == (32, 32)
    assert "max-age=86400" in response["Cache-Control"]


def test_every_page_links_its_icon() -> None:
    page = Client().get("/").content.decode()

    assert '<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml"' in page
    found = finders.find("img/favicon.svg")
    assert found
    assert Path(found).read_text().startswith("<svg")
