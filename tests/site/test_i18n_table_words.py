"""Words of the site read in Polish and Romanian outside the game's sentences (issue 33, items 1
and 5): the screen-reader names of the table's regions, and the error pages (docs/i18n.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

#: An attribute a screen reader speaks, written as a bare English literal in the table's scripts.
_BARE_LABEL = re.compile(r'"aria-label":\s*"([A-Za-z][^"]*)"')


def test_the_tables_regions_have_screen_reader_names_in_the_pages_language() -> None:
    bare = {
        f"{path.relative_to(ROOT)}: {match.group(1)}"
        for path in (ROOT / "static" / "js").rglob("*.js")
        for line in path.read_text().splitlines()
        if not line.lstrip().startswith("//")
        for match in _BARE_LABEL.finditer(line)
    }
    assert not bare, f"aria-label written in English, not through t()/pt(): {sorted(bare)}"


@pytest.mark.parametrize(
    ("language", "title", "english"),
    [
        ("pl", "Nie ma takiej strony", "Not Found"),
        ("ro", "Pagina nu există", "Not Found"),
    ],
)
def test_a_missing_page_says_so_in_the_visitors_language(language: str, title: str, english: str) -> None:
    response = Client().get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    text = response.content.decode()
    assert f'<html lang="{language}">' in text
    assert title in text
    assert english not in text


@pytest.mark.parametrize(("language", "title"), [("pl", "Błąd serwera"), ("ro", "Eroare de server")])
def test_the_server_error_page_is_in_the_visitors_language(language: str, title: str) -> None:
    from django.template.loader import render_to_string
    from django.utils import translation

    with translation.override(language):
        text = render_to_string("500.html")
    assert f'<html lang="{language}">' in text
    assert title in text
