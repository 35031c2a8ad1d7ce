"""The rules engine is pure: importing it loads no Django, Channels or Celery, nor the site."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_engine_loads_no_django_channels_or_celery() -> None:
    code = (
        "import sys, games.engine, games.engine.bots;"
        "import games.engine.rummy, games.engine.gin, games.engine.knock108;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'channels', 'celery', 'asgiref', 'remi_site', 'accounts'}"
        " or m in {'games.models', 'games.play.views'});"
        "print(','.join(bad))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
    )
    assert result.stdout.strip() == ""


def test_the_engine_imports_only_the_standard_library() -> None:
    code = (
        "import sys; before = set(sys.modules); import games.engine, games.engine.bots;"
        "new = {m.split('.')[0] for m in set(sys.modules) - before};"
        "third = sorted(m for m in new if m != 'games' and m not in sys.stdlib_module_names);"
        "print(','.join(third))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
    )
    assert result.stdout.strip() == ""
