"""Practice can be installed as an app (issue 15, docs/practice.md): Chromium, on a profile of its
own (not incognito, where nothing installs), finds no reason not to offer it, and reads the
manifest without an error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.practice]


def test_chromium_finds_practice_installable(
    server_url: str, tmp_path: Path, playwright: Any, launch_options: dict[str, Any]
) -> None:
    context: Any = playwright.chromium.launch_persistent_context(str(tmp_path / "profile"), **launch_options)
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
