"""Practice can be installed as an app (issue 15, docs/practice.md): Chromium, on a profile of its
own (not incognito, where nothing installs), finds no reason not to offer it, and reads the
manifest without an error."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from games import practice_assets
from tests.browser.conftest import CHROMIUM_ARGS

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists() and not os.environ.get("REQUIRE_BROWSER"):  # .ci/run sets REQUIRE_BROWSER
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
if practice_assets.pyodide_missing() and not os.environ.get("REQUIRE_BROWSER"):
    pytest.skip("practice needs Pyodide from npm (make npm)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(180)]


def test_chromium_finds_practice_installable(
    server_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        context: Any = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        try:
            page = context.new_page()
            page.goto(f"{server_url}/practice/")
            page.wait_for_function(
                "document.getElementById('practice').dataset.offline === 'ready'", timeout=120_000
            )
            cdp = context.new_cdp_session(page)
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            manifest = cdp.send("Page.getAppManifest")
            assert manifest["errors"] == []
            assert manifest["url"].endswith("/practice/manifest.webmanifest")
        finally:
            context.close()
