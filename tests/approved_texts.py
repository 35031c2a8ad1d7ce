"""Shared by the approved-text tests (tests/site/test_i18n_approved.py,
tests/site/test_puzzle_analysis_approved.py): compare a rendering with its file under
tests/approved/ (``APPROVE=1`` rewrites it), and render the page's sentences with node."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPROVED = ROOT / "tests" / "approved"


def approve(name: str, text: str) -> None:
    path = APPROVED / name
    if os.environ.get("APPROVE"):
        path.write_text(text)
    approved = path.read_text() if path.exists() else ""
    assert text == approved, (
        f"{name} differs from the approved text (review, then APPROVE=1):\n"
        + "\n".join(
            f"- {a}\n+ {b}" for a, b in zip(approved.splitlines(), text.splitlines(), strict=False) if a != b
        )
        + ("" if len(approved.splitlines()) == len(text.splitlines()) else "\n(line counts differ)")
    )


def render_with_node(script: str, what: str, languages: Iterable[str], cases: list[dict[str, Any]]) -> Any:
    """Runs tests/js/<script> on {catalogs, cases}, the catalogs the site's /jsi18n/ of each language;
    without node the test skips (fails under REQUIRE_BROWSER)."""
    from django.test import Client

    node = shutil.which("node")
    if node is None:
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"node is missing: {what} cannot be rendered")
        pytest.skip(f"{what} are rendered by node (apt-get install nodejs)")
    catalogs = {}
    for language in languages:
        client = Client()
        client.cookies["django_language"] = language
        catalogs[language] = client.get("/jsi18n/").content.decode()
    done = subprocess.run(
        [node, str(ROOT / "tests" / "js" / script)],
        input=json.dumps({"catalogs": catalogs, "cases": cases}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)
