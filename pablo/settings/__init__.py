"""Settings, read from the environment (django-environ).

The binding variable names are those of API.md "Running it". With nothing set,
the service runs on an embedded default: SQLite in ``var/db.sqlite3`` and
Celery's file-system broker in ``var/broker/``, so no server is needed. Set
``DATABASE_URL`` and ``CELERY_BROKER_URL`` for PostgreSQL and Redis.
"""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(environ.Env().str("PABLO_VAR_DIR", default=str(BASE_DIR / "var")))

VAR_DIR.mkdir(parents=True, exist_ok=True)

env = environ.Env(
    DJANGO_DEBUG=(bool, False),
    DJANGO_ALLOWED_HOSTS=(list, ["localhost", "127.0.0.1", "[::1]"]),
    PABLO_ALLOW_STACKED_DECKS=(bool, False),
)
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env("DJANGO_DEBUG")
# Production must set DJANGO_SECRET_KEY; the fallback exists only so that the
# embedded default and the tests run from a fresh clone with nothing set.
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="") or "insecure-local-only-" + "x" * 40
ALLOWED_HOSTS = env("DJANGO_ALLOWED_HOSTS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served by us: /api/docs/ works offline
    "games",
    "replays",
    "play",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "pablo.middleware.ApiTrailingSlashMiddleware",  # before CommonMiddleware's redirect
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "pablo.urls"
WSGI_APPLICATION = "pablo.wsgi.application"

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

# An empty value (e.g. `DATABASE_URL=` in .env) counts as unset: the embedded default.
DATABASES = {
    "default": env.db_url_config(
        env.str("DATABASE_URL", default="") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
    ),
}
DATABASES["default"].setdefault("TEST", {})
if env.str("PABLO_TEST_DB_NAME", default=""):
    # Lets several test runs share one PostgreSQL server without clashing.
    DATABASES["default"]["TEST"]["NAME"] = env.str("PABLO_TEST_DB_NAME")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite serialises writers; wait for the lock instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("timeout", 20)
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", 60)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 6},
    },
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        # The web table's own script calls the API with the browser's session
        # (and a CSRF header, which SessionAuthentication enforces).
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "pablo.exceptions.exception_handler",
    # JSON only, everywhere (API.md); pablo.parsers refuses what would be a 500.
    "DEFAULT_PARSER_CLASSES": ["pablo.parsers.JSONParser"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "UNAUTHENTICATED_USER": None,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Pablo",
    "DESCRIPTION": "Asynchronous, turn-based card games (the Pablo family and Skip-Bo) "
    "on an immutable event log.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Celery. The embedded default is the file-system transport, so that web,
# worker and beat share a broker with no server running.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="") or "filesystem://"
CELERY_BROKER_TRANSPORT_OPTIONS = (
    {
        "data_folder_in": str(VAR_DIR / "broker" / "queue"),
        "data_folder_out": str(VAR_DIR / "broker" / "queue"),
        "processed_folder": str(VAR_DIR / "broker" / "processed"),
        "control_folder": str(VAR_DIR / "broker" / "control"),
        "store_processed": False,
    }
    if CELERY_BROKER_URL.startswith("filesystem")
    else {}
)
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

EMAIL_BACKEND = env.str(
    "DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = env.str("DJANGO_DEFAULT_FROM_EMAIL", default="pablo@localhost")

# --------------------------------------------------------------------------- the web table
# docs/table.md. PABLO_SITE_URL is the base of the links in notifications.
PABLO_SITE_URL = env.str("PABLO_SITE_URL", default="http://localhost:8000").rstrip("/")
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
# A form without a valid CSRF token on the table is shown as a refusal there.
CSRF_FAILURE_VIEW = "play.views.csrf_failure"

# API.md: stacked decks only where the operator allows them (the tests do).
PABLO_ALLOW_STACKED_DECKS = env("PABLO_ALLOW_STACKED_DECKS")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", default="INFO")},
}

# --------------------------------------------------------------------------- deadlines
# Turn deadlines and notifications (docs/deadlines.md). Celery beat runs the
# deadline sweep -- the primary mechanism, against the database clock -- and
# the reminder sweep every PABLO_SWEEP_SECONDS. Every ETA/countdown we use
# (fast path <= PABLO_FAST_PATH_SECONDS, webhook backoff) stays far below
# Redis's visibility timeout (1 hour), so no message is delivered twice for
# being held too long; multi-day deadlines are never ETA tasks.
PABLO_SWEEP_SECONDS = env.float("PABLO_SWEEP_SECONDS", default=1.0)
PABLO_SWEEP_BATCH = env.int("PABLO_SWEEP_BATCH", default=50)
PABLO_SWEEP_BUDGET = env.float("PABLO_SWEEP_BUDGET", default=30.0)
PABLO_FAST_PATH_SECONDS = env.float("PABLO_FAST_PATH_SECONDS", default=300.0)
PABLO_ENFORCE_PAUSE = env.float("PABLO_ENFORCE_PAUSE", default=0.0)  # crash tests only
PABLO_REMINDER_FRACTION = env.float("PABLO_REMINDER_FRACTION", default=0.8)
PABLO_WEBHOOK_TIMEOUT = env.float("PABLO_WEBHOOK_TIMEOUT", default=5.0)
PABLO_WEBHOOK_RETRIES = env.int("PABLO_WEBHOOK_RETRIES", default=6)
PABLO_WEBHOOK_BACKOFF = env.float("PABLO_WEBHOOK_BACKOFF", default=10.0)
# Off in a public deployment: no webhooks to loopback/private/link-local addresses.
# Webhooks to loopback/private addresses: allowed when debugging locally (make
# run sets DJANGO_DEBUG=1) and in tests; refused by default on a real server.
PABLO_WEBHOOK_ALLOW_PRIVATE = env.bool("PABLO_WEBHOOK_ALLOW_PRIVATE", default=DEBUG)
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {
        "task": "games.sweep_deadlines",
        "schedule": PABLO_SWEEP_SECONDS,
        # A sweep queued while the workers were down is worthless later.
        "options": {"expires": max(5.0, 5 * PABLO_SWEEP_SECONDS)},
    },
    "send-due-reminders": {
        "task": "games.send_due_reminders",
        "schedule": PABLO_SWEEP_SECONDS,
        "options": {"expires": max(5.0, 5 * PABLO_SWEEP_SECONDS)},
    },
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Deliveries (webhooks, e-mail) have their own queue, so that a slow receiver
# can be kept away from the deadline sweep by running dedicated workers
# (`celery -A pablo worker -Q celery` / `-Q notifications`); a plain
# `celery -A pablo worker` consumes both.
CELERY_TASK_QUEUES = {"celery": {}, "notifications": {}}
CELERY_TASK_ROUTES = {
    "games.notify_game": {"queue": "notifications"},
    "games.deliver_webhook": {"queue": "notifications"},
    "games.deliver_email": {"queue": "notifications"},
}
if CELERY_BROKER_URL.startswith("filesystem"):
    # The file-system transport does not create its folders.
    for _folder in ("queue", "processed"):
        (VAR_DIR / "broker" / _folder).mkdir(parents=True, exist_ok=True)

# --------------------------------------------------------------------------- replays
# The replay viewer keeps each built replay (derived from a finished game's events,
# which never change) in a cache that every worker process shares, so a game is
# folded once, not once per worker (docs/viewer.md "Speed"). Default: files under
# VAR_DIR; PABLO_REPLAY_CACHE_URL (a django-environ cache URL, e.g.
# redis://127.0.0.1:6379/3) shares it between hosts. Entries are never stale: their
# key names the game's version and the code that built them.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "replays": env.cache_url(
        "PABLO_REPLAY_CACHE_URL", default=f"filecache://{VAR_DIR / 'cache' / 'replays'}"
    ),
}
CACHES["replays"].setdefault("TIMEOUT", None)
CACHES["replays"].setdefault("OPTIONS", {}).setdefault("MAX_ENTRIES", 1000)
