"""Settings for Remi, read from the environment (``remi_site.settings`` imports these).

With no environment at all you get a development setup that needs only Python: SQLite, an
in-memory channel layer and an in-memory Celery broker. Setting DATABASE_URL and REDIS_URL
switches to PostgreSQL and Redis. Every variable read here is listed in .env.example. The test
runner uses ``remi_site.settings.test`` (pyproject.toml), which changes a few defaults.
"""

import os
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

BASE_DIR = Path(__file__).resolve().parents[2]


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return float(value)


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# --- Core -------------------------------------------------------------------------------------

# Off unless asked for: a deployment that sets nothing more gets production's settings, and their
# checks below. A developer asks with DJANGO_DEBUG=1; the test runner does (settings/test.py).
DEBUG = env_bool("DJANGO_DEBUG", default=False)

# DJANGO_INSECURE_LOCAL=1: this machine serves itself over plain http://127.0.0.1, as `make run`
# does (it sets this and says so). It relaxes exactly two of production's requirements: the
# allowed hosts may be left unset (they are then the loopback names alone), and the session and
# CSRF cookies are not marked Secure (a browser keeps no Secure cookie over plain http). Nothing
# else: the secret key is still required (`make run` makes one in .secret_key).
INSECURE_LOCAL = env_bool("DJANGO_INSECURE_LOCAL", default=False)

_INSECURE_DEV_KEY = "django-insecure-remi-dev-only-do-not-use-in-production"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "").strip() or _INSECURE_DEV_KEY

# The key every deal of the day's secret is derived from (games/learn/daily.py): HMAC-SHA256 of the day
# and variant. Keep it as secret as DJANGO_SECRET_KEY; by default it is derived from that key.
DAILY_SECRET = os.environ.get("DAILY_SECRET", "") or f"remi-daily-key:{SECRET_KEY}"

# AllowedHostsOriginValidator also checks the Origin of WebSocket handshakes against this list.
# Production names its hosts (DJANGO_ALLOWED_HOSTS); a developer's default is this machine's names.
_LOCAL_HOSTS = "localhost,127.0.0.1,[::1]"
ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", f"{_LOCAL_HOSTS},testserver" if DEBUG else _LOCAL_HOSTS if INSECURE_LOCAL else ""
)

# Session and CSRF cookies only over HTTPS (and the browser id's, accounts/signins.py): on in
# production, off for a developer (DEBUG) or a machine serving itself (INSECURE_LOCAL).
# DJANGO_SECURE_COOKIES=1/0 says so either way; production refuses 0 (below).
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", default=not DEBUG and not INSECURE_LOCAL)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE


def production_problems(
    *, debug: bool, insecure_local: bool, secret_key: str, allowed_hosts_set: bool, secure_cookies: bool
) -> list[str]:
    """What production settings (DEBUG off) lack, one sentence each; empty when nothing.

    A developer's settings (DEBUG on) need none of it. ``insecure_local`` (DJANGO_INSECURE_LOCAL)
    forgives the allowed hosts and the secure cookies, never the secret key.
    """
    if debug:
        return []
    problems = []
    if secret_key == _INSECURE_DEV_KEY:
        problems.append("Set DJANGO_SECRET_KEY (DJANGO_DEBUG is off: these are production settings).")
    if not allowed_hosts_set and not insecure_local:
        problems.append(
            "Set DJANGO_ALLOWED_HOSTS to the host names the site answers to, comma-separated"
            " (DJANGO_DEBUG is off: these are production settings; DJANGO_INSECURE_LOCAL=1 serves"
            " the loopback names alone, as `make run` does)."
        )
    if not secure_cookies and not insecure_local:
        problems.append(
            "DJANGO_SECURE_COOKIES is off: production sends the session and CSRF cookies over HTTPS"
            " only (SESSION_COOKIE_SECURE, CSRF_COOKIE_SECURE). Unset it, or set"
            " DJANGO_INSECURE_LOCAL=1 to serve this machine over plain http, as `make run` does."
        )
    return problems


_problems = production_problems(
    debug=DEBUG,
    insecure_local=INSECURE_LOCAL,
    secret_key=SECRET_KEY,
    allowed_hosts_set=bool(env_list("DJANGO_ALLOWED_HOSTS", "")),
    secure_cookies=SESSION_COOKIE_SECURE and CSRF_COOKIE_SECURE,
)
if _problems:
    raise ImproperlyConfigured(
        " ".join([*_problems, "(A developer's machine asks for a developer's settings: DJANGO_DEBUG=1.)"])
    )

INSTALLED_APPS = [
    "daphne",  # first, so that `runserver` serves ASGI (WebSockets included)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "remi_site.staticfiles.StaticFiles",  # django.contrib.staticfiles, without the type check's files
    "channels",
    "axes",  # login rate limiting (see accounts/rate_limit.py)
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A request holding a NUL character is refused before anything reads it (games/play/edges.py).
    "games.play.edges.NulRefusalMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Django's LocaleMiddleware, after authentication: a logged-in player's stored language wins,
    # then the switcher's cookie, then Accept-Language (accounts/middleware.py).
    "accounts.middleware.PlayerLocaleMiddleware",
    # Gives a browser its id cookie when a sign-in or a deal of the day needed one (accounts/signins.py).
    "accounts.signins.BrowserIdMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes requires: turns a lockout into the 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "remi_site.urls"
ASGI_APPLICATION = "remi_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Accounts ---------------------------------------------------------------------------------

# The lockout check runs first; the model backend then checks the password.
AUTHENTICATION_BACKENDS = [
    "accounts.rate_limit.LoginRateLimitBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# django-axes: after 5 failed logins for one username from one IP address, that pair is refused
# (HTTP 429) for 15 minutes. Attempts are stored in the database, so this works the same with or
# without Redis and across processes.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
#: Failed logins from one address, whatever the usernames, before it is locked out the same way
#: (accounts/rate_limit.py).
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "20"))
#: New accounts one address may register in an hour.
REGISTRATIONS_PER_ADDRESS_PER_HOUR = int(os.environ.get("REGISTRATIONS_PER_ADDRESS_PER_HOUR", "5"))
AXES_USERNAME_CALLABLE = "accounts.rate_limit.lockout_username"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.rate_limit.lockout_response"
AXES_VERBOSE = False


def email_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """E-mail settings: SMTP from EMAIL_URL or EMAIL_HOST, else printed to the console.

    EMAIL_URL looks like ``smtp://user:password@host:587?tls=1`` (``smtps://`` for implicit TLS,
    port 465 by default); the EMAIL_* variables set the same things one by one.
    """
    url = environ.get("EMAIL_URL", "").strip()
    if url:
        parts = urlsplit(url)
        if parts.scheme not in {"smtp", "smtps"}:
            raise ImproperlyConfigured(
                f"EMAIL_URL must start with smtp:// or smtps://, not {parts.scheme}://"
            )
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        ssl = parts.scheme == "smtps" or query.get("ssl", "").lower() in {"1", "true", "yes", "on"}
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": parts.hostname or "localhost",
            "EMAIL_PORT": parts.port or (465 if ssl else 25),
            "EMAIL_HOST_USER": unquote(parts.username or ""),
            "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
            "EMAIL_USE_SSL": ssl,
            "EMAIL_USE_TLS": not ssl and query.get("tls", "").lower() in {"1", "true", "yes", "on"},
        }
    host = environ.get("EMAIL_HOST", "").strip()
    if host:
        ssl = environ.get("EMAIL_USE_SSL", "").strip().lower() in {"1", "true", "yes", "on"}
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": host,
            "EMAIL_PORT": int(environ.get("EMAIL_PORT", "") or (465 if ssl else 25)),
            "EMAIL_HOST_USER": environ.get("EMAIL_HOST_USER", ""),
            "EMAIL_HOST_PASSWORD": environ.get("EMAIL_HOST_PASSWORD", ""),
            "EMAIL_USE_SSL": ssl,
            "EMAIL_USE_TLS": environ.get("EMAIL_USE_TLS", "").strip().lower() in {"1", "true", "yes", "on"},
        }
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
        "EMAIL_HOST": "localhost",
        "EMAIL_PORT": 25,
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        "EMAIL_USE_SSL": False,
        "EMAIL_USE_TLS": False,
    }


_email = email_settings(os.environ)
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email["EMAIL_HOST"]
EMAIL_PORT = _email["EMAIL_PORT"]
EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Remi <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
# The site's languages (docs/i18n.md); translations in locale/, compiled .mo files committed.
LANGUAGES = [("en", "English"), ("pl", "Polski"), ("ro", "Română")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_TZ = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Database ---------------------------------------------------------------------------------

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Keep 0 under ASGI: persistent connections leak under daphne. Use DB_POOL=1 instead.
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
_db = DATABASES["default"]
# TOX_PARALLEL_ENV (e.g. "w1") gives a test run its own test databases (pytest-django appends it
# to the names below) and its own Celery queue (below), so runs side by side never share them;
# within a run, each pytest-xdist worker (PYTEST_XDIST_WORKER, "gw0", ...) has its own too. Both
# reach the servers and workers that tests start (they inherit the environment).
_TEST_SUFFIX = "".join(
    f"_{os.environ[name]}" for name in ("TOX_PARALLEL_ENV", "PYTEST_XDIST_WORKER") if os.environ.get(name)
)
if _db["ENGINE"].endswith("sqlite3"):
    _db["OPTIONS"] = {
        # Take the write lock at BEGIN: with the default DEFERRED, concurrent writers get
        # "database is locked" instead of waiting.
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file, not :memory:, so that a server or worker subprocess can open the test database.
    _db["TEST"] = {"NAME": str(BASE_DIR / "test_db.sqlite3")}
else:
    # The database in DATABASE_URL is only where tests connect; they create and drop test_remi.
    _db["TEST"] = {"NAME": "test_remi"}
    if env_bool("DB_POOL", default=False):
        if _db.get("CONN_MAX_AGE"):
            raise ImproperlyConfigured("DB_POOL=1 needs DB_CONN_MAX_AGE=0.")
        _db.setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": 8, "timeout": 10}

# --- Channels and Celery ----------------------------------------------------------------------

REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, float]
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels_redis' pub/sub layer (one PUBLISH per group, nothing stored per channel),
            # plus one pipeline for all the frames of a move: see remi_site/channel_layer.py.
            "BACKEND": "remi_site.channel_layer.PubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # redis-py 8 reads with a 5 s socket timeout by default; an idle
                        # connection must outwait the layers' 5 s waits (channels_redis#422).
                        "socket_timeout": 15,
                        "socket_connect_timeout": 5,
                        # redis-py's default pool of 100 ran out when ~1,000 sockets closed at
                        # once ("Too many connections").
                        "max_connections": 2000,
                    }
                ],
                # Redis pub/sub channels are shared by every db number of a Redis server: groups
                # are named after match and room ids, so two sites (or two test runs, or two
                # pytest-xdist workers with their own databases) on one Redis would hear each
                # other's frames. CHANNEL_LAYER_PREFIX names a site's own; tests add their suffix.
                "prefix": f"{os.environ.get('CHANNEL_LAYER_PREFIX', 'asgi')}{_TEST_SUFFIX}",
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    # Must exceed the longest countdown plus run time, or Redis redelivers ETA tasks early.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
else:
    # Single-process mode: the in-memory layer and broker only work inside one process, so the
    # worker runs inside daphne (remi_site/embedded.py).
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    # The memory transport polls once a second by default, which delays immediate tasks.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.05}

#: Run a Celery worker in a thread of the server process (remi_site/embedded.py). On by default
#: without Redis (the memory:// broker is per process); with REDIS_URL, separate `celery worker`
#: processes consume the queue (make worker). EMBEDDED_WORKER=1/0 overrides.
CELERY_EMBEDDED_WORKER = env_bool("EMBEDDED_WORKER", default=not REDIS_URL)
#: Its own queue per parallel test run (see TOX_PARALLEL_ENV above); "celery" otherwise.
CELERY_TASK_DEFAULT_QUEUE = f"celery{_TEST_SUFFIX}"
#: Long background work (a round's analysis, puzzle generation) has a queue of its own, so that
#: a bot's move or a turn timer never waits behind it: the embedded mode runs a second worker
#: thread on it, and with Redis a worker started with ``-Q background`` may take it alone
#: (docs/operations.md). A plain ``celery worker`` consumes both queues (``CELERY_TASK_QUEUES``).
BACKGROUND_QUEUE = f"background{_TEST_SUFFIX}"
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name) for name in (CELERY_TASK_DEFAULT_QUEUE, BACKGROUND_QUEUE)
)
#: The tasks that are not live play: everything else (bot moves, timers, sweeps) stays on the default queue.
BACKGROUND_TASKS = (
    "round_analyse",
    "analyses_resume",
    "puzzles_step",
    "puzzles_resume",
    "puzzles_from_matches",
)
CELERY_TASK_ROUTES = {f"games.tasks.{name}": {"queue": BACKGROUND_QUEUE} for name in BACKGROUND_TASKS}

# --- Heavy work off the socket servers, and its limits (games/play/offload.py; docs/operations.md,
# "Heavy work and its limits") ---------------------------------------------------------------------

#: A replay's page and a record's check are computed in a child process of the server (spawned on
#: first use), never in the process that serves the sockets. 0: in the server's own threads.
OFFLOAD_PROCESSES = env_bool("OFFLOAD_PROCESSES", default=True)
#: Child processes per server process for replays and checks, and the requests that may wait for
#: them (the next one is answered ``replay_busy`` at once).
REPLAY_PROCESSES = max(1, int(env_float("REPLAY_PROCESSES", 1)))
REPLAY_WAITING = max(1, int(env_float("REPLAY_WAITING", 4)))
#: The children's (and ``make worker``'s background worker's) niceness: lower priority than the
#: servers and the live worker, so that on busy CPUs the tables come first.
OFFLOAD_NICE = int(env_float("OFFLOAD_NICE", 10))
#: On Linux, also the idle scheduling class (SCHED_IDLE) for them: they run only on CPU time no
#: other process wants (docs/architecture.md, "Heavy work"; docs/benchmarks.md for the figures).
OFFLOAD_IDLE = env_bool("OFFLOAD_IDLE", default=False)
#: The embedded worker computes background tasks (analyses, puzzle batches) in a child process,
#: so that they do not hold the interpreter the server's event loop needs.
BACKGROUND_IN_CHILD = env_bool("BACKGROUND_IN_CHILD", default=CELERY_EMBEDDED_WORKER)
#: A round of an uploaded record with more moves than this is not replayed (it is still checked).
REPLAY_MAX_ROUND_MOVES = int(env_float("REPLAY_MAX_ROUND_MOVES", 2000))
#: Per address, and per account when signed in: records sent to /verify/ (checked or replayed)
#: in an hour, and replay pages (of any round, the site's or a record's) in a minute.
REPLAY_UPLOADS_PER_HOUR = int(env_float("REPLAY_UPLOADS_PER_HOUR", 30))
REPLAY_PAGES_PER_MINUTE = int(env_float("REPLAY_PAGES_PER_MINUTE", 60))
#: Seconds an uploaded record is kept for its replay's pages.
REPLAY_KEEP_SECONDS = int(env_float("REPLAY_KEEP_SECONDS", 3600))
#: A round's analysis: at most this many asked by one account in an hour, and at most this many
#: waiting or running on the whole site (docs/learn.md, "Analysis of a round").
ANALYSES_PER_ACCOUNT_PER_HOUR = int(env_float("ANALYSES_PER_ACCOUNT_PER_HOUR", 6))
ANALYSES_WAITING = int(env_float("ANALYSES_WAITING", 20))

#: Seconds a bot waits before each of its moves (a human-like pace).
BOT_MOVE_DELAY = env_float("BOT_MOVE_DELAY", 0.8)
#: Seconds between a round's end and the first move of the next one (everyone sees the scores).
ROUND_PAUSE_SECONDS = env_float("ROUND_PAUSE_SECONDS", 5.0)
#: Turns in a row that may run out of time before the seat is marked away (the bot then plays
#: its turns without waiting for the timer, until the player is back).
AWAY_AFTER_TIMEOUTS = max(1, int(env_float("AWAY_AFTER_TIMEOUTS", 2)))
#: Seconds a seat whose sockets are all gone stays "offline" before it is marked away.
AWAY_GRACE_SECONDS = env_float("AWAY_GRACE_SECONDS", 30.0)
#: Every worker sweeps the turn deadlines, grace periods and away seats this often (seconds), and
#: fires what is overdue (a task lost with a worker killed hard). 0 turns the sweep off (the
#: default of remi_site.settings.test: tests that need it set it or call the sweep themselves).
TURN_SWEEP_SECONDS = env_float("TURN_SWEEP_SECONDS", 5.0)
#: Every server process (daphne) writes its heartbeat this often (seconds; games/play/servers.py). 0
#: turns it off (the default of remi_site.settings.test).
SERVER_HEARTBEAT_SECONDS = env_float("SERVER_HEARTBEAT_SECONDS", 10.0)
#: A server process whose heartbeat is older than this is gone (killed hard): the sweep closes
#: the sockets it held, and their seats go offline, then away after their grace period.
SERVER_GONE_AFTER_SECONDS = env_float("SERVER_GONE_AFTER_SECONDS", 45.0)

# --- Limits on game sockets (docs/protocol.md, "Limits") ----------------------------------------
#: Each socket's message budget: a burst, then so many a second; far over it (the factor times
#: both), the socket is closed with 4429.
WS_RATE_LIMIT_BURST = int(env_float("WS_RATE_LIMIT_BURST", 20))
WS_RATE_LIMIT_PER_SECOND = env_float("WS_RATE_LIMIT_PER_SECOND", 10.0)
WS_RATE_LIMIT_CLOSE_FACTOR = env_float("WS_RATE_LIMIT_CLOSE_FACTOR", 5.0)
#: One account's budget over all its sockets on one server process (a message must fit both).
WS_ACCOUNT_RATE_LIMIT_BURST = int(env_float("WS_ACCOUNT_RATE_LIMIT_BURST", 40))
WS_ACCOUNT_RATE_LIMIT_PER_SECOND = env_float("WS_ACCOUNT_RATE_LIMIT_PER_SECOND", 20.0)
#: Game sockets one account may have open at once, over every server process (more: 4409).
WS_MAX_SOCKETS_PER_ACCOUNT = int(env_float("WS_MAX_SOCKETS_PER_ACCOUNT", 8))
#: Socket handshakes one address may make on one server process: a burst, then so many a minute
#: (more: 4409, before the session is looked up). Behind a proxy, run daphne with --proxy-headers.
WS_HANDSHAKE_BURST = int(env_float("WS_HANDSHAKE_BURST", 30))
WS_HANDSHAKES_PER_MINUTE = env_float("WS_HANDSHAKES_PER_MINUTE", 60.0)
#: Chat lines one account may send on one server process: a burst, then so many a minute (more:
#: ``chat_rate_limited``). Each line is also one of its socket's messages.
WS_CHAT_BURST = int(env_float("WS_CHAT_BURST", 5))
WS_CHAT_PER_MINUTE = env_float("WS_CHAT_PER_MINUTE", 20.0)
#: How many of a room's latest chat lines a socket gets when it connects.
CHAT_HISTORY = int(env_float("CHAT_HISTORY", 50))

# Redis is also the cache when it is there; otherwise each process has its own memory cache.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # Runs side by side (and pytest-xdist workers) keep their counters apart.
            "KEY_PREFIX": f"remi{_TEST_SUFFIX}",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# --- Static files -----------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # Practice: the engine archive built from the source tree and the Pyodide files npm
    # installed (games/practice/finders.py, docs/practice.md); nothing of it is committed in static/.
    "games.practice.finders.PracticeFinder",
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files served by WhiteNoise (JS module imports point at the hashed
    # names); needs `manage.py collectstatic`.
    "staticfiles": {"BACKEND": "remi_site.storage.StaticFilesStorage"},
}
