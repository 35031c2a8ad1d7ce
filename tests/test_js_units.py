"""The unit tests of the browser's pure modules (tests/js/: the rack, the draft, cards, i18n),
run with Node's own test runner (``node --test``; no package needed), so that ``make test``,
pytest-xdist and CI run them with everything else. Skipped where Node is missing, unless
``REQUIRE_BROWSER`` is set (CI), where that is a failure."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = sorted((ROOT / "tests" / "js").glob("*.test.js"))


def test_the_javascript_unit_tests_pass() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail("node is missing (apt-get install nodejs): the JavaScript unit tests cannot run")
        pytest.skip("the JavaScript unit tests need node (apt-get install nodejs)")
    assert TESTS, "no tests/js/*.test.js"
    done = subprocess.run(
        [node, "--test", *map(str, TESTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        pytest.fail(f"node --test failed ({done.returncode}):\n{done.stdout}\n{done.stderr}", pytrace=False)
    assert "# fail 0" in done.stdout, done.stdout
