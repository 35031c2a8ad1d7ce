"""Settings of the test runner (``DJANGO_SETTINGS_MODULE`` in pyproject.toml): base, with the
defaults that tests want. An environment variable still wins over each of them.

* No Celery worker inside the process (tests start their own: tests/workers), no bot delay, no
  pause between rounds, no periodic sweep and no heartbeat (tests that need them set them, or
  call the sweep and the beat themselves).
* A fast password hasher: tests create many users.

Like every setting, DEBUG comes from base, where it is off unless asked for: the test runner asks
for a developer's settings (``DJANGO_DEBUG=1``, tests/developer_settings.py) before these are
read, so base's production checks do not apply (pytest-django turns DEBUG off while a test runs).

The servers and workers that tests start in subprocesses run ``remi_site.settings`` (base), with
what they need set in their environment (tests/live_server.py).
"""

from remi_site.settings.base import *  # noqa: F403
from remi_site.settings.base import env_bool, env_float

CELERY_EMBEDDED_WORKER = env_bool("EMBEDDED_WORKER", default=False)
# In-process tests run the background tasks themselves, on the test database (a child process
# would read the site's own database settings).
BACKGROUND_IN_CHILD = env_bool("BACKGROUND_IN_CHILD", default=CELERY_EMBEDDED_WORKER)
BOT_MOVE_DELAY = env_float("BOT_MOVE_DELAY", 0.0)
ROUND_PAUSE_SECONDS = env_float("ROUND_PAUSE_SECONDS", 0.0)
TURN_SWEEP_SECONDS = env_float("TURN_SWEEP_SECONDS", 0.0)
SERVER_HEARTBEAT_SECONDS = env_float("SERVER_HEARTBEAT_SECONDS", 0.0)

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
