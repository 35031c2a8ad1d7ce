"""Settings for Remi, read from the environment.

With no environment at all you get a development setup that needs only Python: SQLite, an
in-memory channel layer and an in-memory Celery broker. Setting DATABASE_URL and REDIS_URL
switches to PostgreSQL and Redis. Every variable read here is listed in .env.example.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# --- Core -------------------------------------------------------------------------------------

DEBUG = env_bool("DJANGO_DEBUG", default=True)

_INSECURE_DEV_KEY = "django-insecure-remi-dev-only-do-not-use-in-production"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", _INSECURE_DEV_KEY)
if not DEBUG and SECRET_KEY == _INSECURE_DEV_KEY:
    raise ImproperlyConfigured("Set DJANGO_SECRET_KEY when DJANGO_DEBUG is off.")

# AllowedHostsOriginValidator also checks the Origin of WebSocket handshakes against this list.
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,testserver")

INSTALLED_APPS = [
    "daphne",  # first, so that `runserver` serves ASGI (WebSockets included)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
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
        _db.setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": 4, "timeout": 10}

# --- Channels and Celery ----------------------------------------------------------------------

REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, float]
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    # Separate `celery worker` processes consume the queue (make worker).
    CELERY_EMBEDDED_WORKER = False
    # Must exceed the longest countdown plus run time, or Redis redelivers ETA tasks early.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
else:
    # Single-process mode: the in-memory layer and broker only work inside one process, so the
    # worker will have to run inside daphne. CELERY_EMBEDDED_WORKER records that; nothing
    # starts an embedded worker yet.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_EMBEDDED_WORKER = True
    # The memory transport polls once a second by default, which delays immediate tasks.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.05}

CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# --- Static files -----------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files served by WhiteNoise; needs `manage.py collectstatic`.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
