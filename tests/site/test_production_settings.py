"""The site's settings are production's unless asked otherwise, and production's refuse to start
without what it needs (issue 34; docs/operations.md, "Production settings, and make run").

Each case imports ``remi_site.settings`` (the site's, not the test runner's) in a fresh Python
process with exactly the environment given, as a server started with it would: a refusal is the
``ImproperlyConfigured`` that import raises, with the sentence saying what to set.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEY = "k" * 50
HOSTS = "remi.example.org"

#: Prints the settings read, or the class and message of what the import raised.
PROBE = """
import json
try:
    from django.conf import settings
    settings.DEBUG  # the first read imports the settings module
except Exception as error:
    print(json.dumps({"raised": type(error).__name__, "message": str(error)}))
else:
    print(json.dumps({
        "DEBUG": settings.DEBUG,
        "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
        "SESSION_COOKIE_SECURE": settings.SESSION_COOKIE_SECURE,
        "CSRF_COOKIE_SECURE": settings.CSRF_COOKIE_SECURE,
        "SECRET_KEY": settings.SECRET_KEY,
    }))
"""


def settings_with(**env: str) -> dict[str, Any]:
    """The site's settings in a process whose environment has none of the site's variables but
    ``env`` (and what Python needs to run)."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("DJANGO_") and key not in ("PYTHONPATH",)
    }
    environment |= {"DJANGO_SETTINGS_MODULE": "remi_site.settings", "PYTHONPATH": str(ROOT), **env}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def refusal(**env: str) -> str:
    result = settings_with(**env)
    assert result.get("raised") == "ImproperlyConfigured", result
    message: str = result["message"]
    return message


def test_debug_is_off_unless_asked_for() -> None:
    # A deployment that sets only the secret key gets production's settings, not a debug site:
    # here refused for the hosts it did not name.
    assert "DJANGO_ALLOWED_HOSTS" in refusal(DJANGO_SECRET_KEY=KEY)
    production = settings_with(DJANGO_SECRET_KEY=KEY, DJANGO_ALLOWED_HOSTS=HOSTS)
    assert production["DEBUG"] is False
    assert settings_with(DJANGO_DEBUG="1")["DEBUG"] is True
    asked = settings_with(DJANGO_DEBUG="0", DJANGO_SECRET_KEY=KEY, DJANGO_ALLOWED_HOSTS=HOSTS)
    assert asked["DEBUG"] is False


def test_production_refuses_to_start_without_a_secret_key() -> None:
    message = refusal(DJANGO_ALLOWED_HOSTS=HOSTS)
    assert message.startswith("Set DJANGO_SECRET_KEY (DJANGO_DEBUG is off: these are production settings).")
    assert message.endswith("(A developer's machine asks for a developer's settings: DJANGO_DEBUG=1.)")
    assert "DJANGO_ALLOWED_HOSTS" not in message
    assert refusal(DJANGO_ALLOWED_HOSTS=HOSTS, DJANGO_SECRET_KEY="  ") == message
    # The local exception forgives the hosts and the cookies, never the key.
    assert refusal(DJANGO_INSECURE_LOCAL="1") == message


def test_production_refuses_to_start_without_explicit_allowed_hosts() -> None:
    message = refusal(DJANGO_SECRET_KEY=KEY)
    assert message.startswith("Set DJANGO_ALLOWED_HOSTS to the host names the site answers to")
    assert refusal(DJANGO_SECRET_KEY=KEY, DJANGO_ALLOWED_HOSTS=" , ") == message
    assert "DJANGO_SECRET_KEY" not in message
    assert "COOKIE" not in message


def test_production_refuses_to_start_without_secure_cookies() -> None:
    message = refusal(DJANGO_SECRET_KEY=KEY, DJANGO_ALLOWED_HOSTS=HOSTS, DJANGO_SECURE_COOKIES="0")
    assert message.startswith("DJANGO_SECURE_COOKIES is off: production sends the session and CSRF cookies")
    assert "SESSION_COOKIE_SECURE" in message
    assert "CSRF_COOKIE_SECURE" in message


def test_every_missing_requirement_is_named_at_once() -> None:
    message = refusal(DJANGO_SECURE_COOKIES="0")
    assert "DJANGO_SECRET_KEY" in message
    assert "DJANGO_ALLOWED_HOSTS" in message
    assert "DJANGO_SECURE_COOKIES is off" in message


def test_production_with_what_it_needs_starts_with_secure_cookies_and_its_hosts() -> None:
    production = settings_with(DJANGO_SECRET_KEY=KEY, DJANGO_ALLOWED_HOSTS=f"{HOSTS}, www.{HOSTS}")
    assert production == {
        "DEBUG": False,
        "ALLOWED_HOSTS": [HOSTS, f"www.{HOSTS}"],
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECRET_KEY": KEY,
    }


def test_insecure_local_relaxes_exactly_the_hosts_and_the_cookies() -> None:
    local = settings_with(DJANGO_SECRET_KEY=KEY, DJANGO_INSECURE_LOCAL="1")
    assert local == {
        "DEBUG": False,
        "ALLOWED_HOSTS": ["localhost", "127.0.0.1", "[::1]"],
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
        "SECRET_KEY": KEY,
    }
    # What is set explicitly still wins.
    named = settings_with(
        DJANGO_SECRET_KEY=KEY,
        DJANGO_INSECURE_LOCAL="1",
        DJANGO_ALLOWED_HOSTS=HOSTS,
        DJANGO_SECURE_COOKIES="1",
    )
    assert named["ALLOWED_HOSTS"] == [HOSTS]
    assert named["SESSION_COOKIE_SECURE"] is True
    assert named["CSRF_COOKIE_SECURE"] is True


@pytest.mark.parametrize("debug", ["1", "true", "on"])
def test_a_developer_who_asks_for_debug_needs_nothing_else(debug: str) -> None:
    developer = settings_with(DJANGO_DEBUG=debug)
    assert developer["DEBUG"] is True
    assert developer["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]", "testserver"]
    assert developer["SESSION_COOKIE_SECURE"] is False
    assert developer["SECRET_KEY"].startswith("django-insecure-")
