"""Settings, read from the environment (django-environ).

The binding variable names are those of API.md "Running it". With nothing set,
the service runs on an embedded default: SQLite in ``var/db.sqlite3`` and
Celery's file-system broker in ``var/broker/``, so no server is needed. Set
``DATABASE_URL`` and ``CELERY_BROKER_URL`` for PostgreSQL and Redis.
"""

import os
import secrets
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

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
ALLOWED_HOSTS = env("DJANGO_ALLOWED_HOSTS")


def _secret_key() -> str:
    """``DJANGO_SECRET_KEY``; without it a debug run keeps a local key in ``VAR_DIR``.

    Without debug and without a key the service refuses to start: a server
    with a guessable key signs sessions and password-reset links anyone can
    forge. (The test settings bring their own key.)
    """
    key = env.str("DJANGO_SECRET_KEY", default="")
    if key:
        if is_public_key(key):
            raise ImproperlyConfigured(
                "DJANGO_SECRET_KEY is a key published with the code or with Django (a default "
                "or an example): anyone can sign cookies with it. Set it to a long random "
                "string of your own, for example the output of "
                "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
            )
        return key
    if os.environ.get("DJANGO_SETTINGS_MODULE") == "pablo.settings.test":
        return "tests-only-key-" + "k" * 50  # pablo.settings.test imports this package first
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set: set it to a long random string (for example the "
            "output of `python -c 'import secrets; print(secrets.token_urlsafe(50))'`), "
            "or set DJANGO_DEBUG=1 for a local run, which keeps a key in "
            f"{VAR_DIR / 'secret_key'}."
        )
    return local_secret_key(VAR_DIR / "secret_key")


#: Keys that were published (defaults and examples of this project, and of Django):
#: a server signing with one of them signs cookies anyone can forge.
PUBLIC_KEYS = frozenset(
    {
        "change-me-in-production",  # the old docker-compose.yml default
        "change-me",
        "changeme",
        "secret",
        "secret-key",
        "your-secret-key",
        "django-insecure",
        "tests-only-key-" + "k" * 50,  # pablo.settings.test's
    }
)


def is_public_key(key: str) -> bool:
    """Whether ``key`` is a published one: listed, or Django's ``django-insecure-`` keys."""
    return key.strip().lower() in PUBLIC_KEYS or key.startswith("django-insecure-")


def local_secret_key(path: Path) -> str:
    """The key kept in ``path``, made (readable by its owner only) on first use."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(50)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first
        return path.read_text().strip()
    with os.fdopen(fd, "w") as out:
        out.write(key + "\n")
    return key


SECRET_KEY = _secret_key()

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
    "games",
    "games.ratings",  # its own app label and migrations (docs/ratings.md)
    "tabletop",
    "replays",
    "play",
    "pablo.apps.PabloConfig",  # site-wide receivers (throttling)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "pablo.headers.SecurityHeadersMiddleware",  # CSP, Permissions-Policy
    "pablo.unavailable.DatabaseUnavailableMiddleware",  # 503 while the database is away
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the cookie, then Accept-Language
    "pablo.middleware.ApiTrailingSlashMiddleware",  # before CommonMiddleware's redirect
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "play.language.LanguageMiddleware",  # the account's language; the API: Accept-Language
    "play.timezones.TimezoneMiddleware",  # the account's timezone for the pages' times
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
                "django.template.context_processors.i18n",
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
    # A persistent connection is checked before a request reuses it: after a
    # PostgreSQL restart the stale one is replaced instead of failing the request.
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
    # PABLO_DB_POOL=n: at most n connections per process, shared by its threads
    # (psycopg's pool; a thread that finds them all busy waits up to 10 s).
    # Off by default: gunicorn's threads bound its connections (workers x threads),
    # and the ASGI process's executor threads bound its own (PABLO_ASGI_THREADS);
    # docs/operations.md "Database connections".
    _pool = env.int("PABLO_DB_POOL", default=0)
    if _pool > 0:
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": _pool,
            "timeout": 10,
        }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 6},
    },
]

# docs/table.md "Languages": pages, sentences, mails and the API's details.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "pablo.storage.StaticFilesStorage"},  # WhiteNoise's, kept
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        # The web table's own script calls the API with the browser's session
        # (and a CSRF header, which SessionAuthentication enforces).
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "games.api.openapi.ThrottledAutoSchema",
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
        # How long the worker sleeps when it finds nothing it may take (kombu's
        # default, 1 s, let beat's messages pile up; issue 19, docs/bots.md).
        "polling_interval": 0.1,
    }
    if CELERY_BROKER_URL.startswith("filesystem")
    else {}
)
if CELERY_BROKER_URL.startswith("filesystem"):
    # kombu's transport, writing each message atomically (pablo/filebroker.py).
    CELERY_BROKER_TRANSPORT = "pablo.filebroker:Transport"
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# How long the worker's ETA timer may sleep between looks (Celery's default, 1 s,
# held every bot action a third of PABLO_BOT_DELAY apart for a whole second).
CELERY_WORKER_TIMER_PRECISION = 0.1
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
# Ratings (docs/ratings.md): the leaderboard lists people with at least this many
# rated games in the ruleset.
PABLO_LEADERBOARD_MIN_GAMES = env.int("PABLO_LEADERBOARD_MIN_GAMES", default=10)

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
# Bots act about this many seconds after they may (games/turns/bots.py).
PABLO_BOT_DELAY = env.float("PABLO_BOT_DELAY", default=1.0)
# The expert bot's budget: rollouts per decision (docs/bots.md; the default decides
# within 1 s at p95 on one core).
PABLO_EXPERT_ITERATIONS = env.int("PABLO_EXPERT_ITERATIONS", default=96)
# Game analysis (docs/analysis.md): rollouts per decision, and the smallest gap of
# each mark -- inaccuracy, mistake, blunder -- in round points (Pablo family) and
# in win probability (Skip-Bo). A gap is marked only beyond 2 standard errors.
PABLO_ANALYSIS_ITERATIONS = env.int("PABLO_ANALYSIS_ITERATIONS", default=120)
PABLO_ANALYSIS_MARKS = env.list("PABLO_ANALYSIS_MARKS", cast=float, default=[1.0, 3.0, 6.0])
PABLO_ANALYSIS_MARKS_SKIPBO = env.list(
    "PABLO_ANALYSIS_MARKS_SKIPBO", cast=float, default=[0.03, 0.08, 0.15]
)
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
# Web Push (docs/notifications.md, docs/operations.md "VAPID keys"): keys unset ->
# push off, except a debug run (make run), which makes a pair once into VAR_DIR.
PABLO_VAPID_PRIVATE_KEY = env.str("PABLO_VAPID_PRIVATE_KEY", default="")
PABLO_VAPID_PUBLIC_KEY = env.str("PABLO_VAPID_PUBLIC_KEY", default="")
PABLO_VAPID_SUBJECT = env.str("PABLO_VAPID_SUBJECT", default="mailto:pablo@localhost")
# Where a pair is made and kept when no keys are set: a debug run's var/, or the file
# scripts/run.sh names (make run: var/vapid.json); unset in production -> push off.
_vapid_file = env.str("PABLO_VAPID_FILE", default="")
PABLO_VAPID_FILE = Path(_vapid_file) if _vapid_file else (VAR_DIR / "vapid.json" if DEBUG else None)
PABLO_PUSH_ALLOW_PRIVATE = env.bool("PABLO_PUSH_ALLOW_PRIVATE", default=False)
PABLO_PUSH_TTL = env.int("PABLO_PUSH_TTL", default=12 * 3600)
PABLO_PUSH_SECONDS = env.float("PABLO_PUSH_SECONDS", default=5.0)  # the push sweep
# ... re-enqueues a push still pending this long past its time (its task was lost).
PABLO_PUSH_LOST_SECONDS = env.float("PABLO_PUSH_LOST_SECONDS", default=30.0)
# A table long-polling its feed marks its player "looking" this long past the poll.
PABLO_PUSH_LOOKING_SECONDS = env.float("PABLO_PUSH_LOOKING_SECONDS", default=15.0)
# Quiet hours and the e-mail digest (docs/notifications.md): a reminder whose turn ends
# in a player's quiet hours goes PABLO_QUIET_MARGIN seconds before they begin; at most
# one "your turn" mail per PABLO_DIGEST_SECONDS; the mail sweep every PABLO_MAIL_SECONDS.
PABLO_QUIET_MARGIN = env.float("PABLO_QUIET_MARGIN", default=900.0)
PABLO_DIGEST_SECONDS = env.float("PABLO_DIGEST_SECONDS", default=3600.0)
PABLO_MAIL_SECONDS = env.float("PABLO_MAIL_SECONDS", default=10.0)
CELERY_BEAT_SCHEDULE = {
    "mail-sweep": {
        "task": "games.mail_sweep",
        "schedule": PABLO_MAIL_SECONDS,
        "options": {"expires": max(10.0, 5 * PABLO_MAIL_SECONDS)},
    },
    "push-sweep": {
        "task": "games.push_sweep",
        "schedule": PABLO_PUSH_SECONDS,
        "options": {"expires": max(5.0, 5 * PABLO_PUSH_SECONDS)},
    },
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
# A bot's move whose task was lost with a killed worker (games/turns/bots.py
# ``sweep_stalled``): beat looks every PABLO_BOT_SWEEP_SECONDS at active games with
# bots that have waited at least PABLO_BOT_SWEEP_GRACE (and at most
# PABLO_BOT_SWEEP_WINDOW) seconds since their last event.
PABLO_BOT_SWEEP_SECONDS = env.float("PABLO_BOT_SWEEP_SECONDS", default=10.0)
PABLO_BOT_SWEEP_GRACE = env.float("PABLO_BOT_SWEEP_GRACE", default=30.0)
PABLO_BOT_SWEEP_WINDOW = env.float("PABLO_BOT_SWEEP_WINDOW", default=900.0)
CELERY_BEAT_SCHEDULE["sweep-bots"] = {
    "task": "games.sweep_bots",
    "schedule": PABLO_BOT_SWEEP_SECONDS,
    "options": {"expires": max(10.0, 2 * PABLO_BOT_SWEEP_SECONDS)},
}
# The outbox (games/outbox/): messages the broker refused are kept in the
# database and published by this beat task once it is back.
PABLO_OUTBOX_SECONDS = env.float("PABLO_OUTBOX_SECONDS", default=2.0)
CELERY_BEAT_SCHEDULE["flush-outbox"] = {
    "task": "pablo.flush_outbox",
    "schedule": PABLO_OUTBOX_SECONDS,
    "options": {"expires": max(10.0, 5 * PABLO_OUTBOX_SECONDS)},
}
# The followers of the log (games/followers/): beat runs them every
# PABLO_FOLLOW_SECONDS besides the hint after each append; /health/ready answers
# 503 while one of them is more than PABLO_FOLLOWER_MAX_LAG seconds behind.
PABLO_FOLLOW_SECONDS = env.float("PABLO_FOLLOW_SECONDS", default=1.0)
PABLO_FOLLOWER_MAX_LAG = env.float("PABLO_FOLLOWER_MAX_LAG", default=60.0)
CELERY_BEAT_SCHEDULE["follow"] = {
    "task": "games.follow",
    "schedule": PABLO_FOLLOW_SECONDS,
    "options": {"expires": max(5.0, 5 * PABLO_FOLLOW_SECONDS)},
}
# Stored answers to actions sent with an Idempotency-Key (docs/api.md): kept at least
# PABLO_IDEMPOTENCY_SECONDS (7 days), then deleted by beat's prune, which runs every
# PABLO_IDEMPOTENCY_PRUNE_SECONDS (an hour).
PABLO_IDEMPOTENCY_SECONDS = env.int("PABLO_IDEMPOTENCY_SECONDS", default=7 * 24 * 3600)
PABLO_IDEMPOTENCY_PRUNE_SECONDS = env.float("PABLO_IDEMPOTENCY_PRUNE_SECONDS", default=3600.0)
# A day at least: a retry comes within minutes, and a smaller value (0, negative) would
# forget answers a client may still be retrying, or prune without a pause.
if PABLO_IDEMPOTENCY_SECONDS < 86400:
    raise ImproperlyConfigured(
        f"PABLO_IDEMPOTENCY_SECONDS is {PABLO_IDEMPOTENCY_SECONDS}: keep stored answers at "
        "least a day (86400 seconds); the default is a week (604800)."
    )
if not 60 <= PABLO_IDEMPOTENCY_PRUNE_SECONDS <= 86400:
    raise ImproperlyConfigured(
        f"PABLO_IDEMPOTENCY_PRUNE_SECONDS is {PABLO_IDEMPOTENCY_PRUNE_SECONDS:g}: prune "
        "between once a minute (60) and once a day (86400); the default is an hour (3600)."
    )
CELERY_BEAT_SCHEDULE["prune-idempotent-answers"] = {
    "task": "games.prune_idempotent_answers",
    "schedule": PABLO_IDEMPOTENCY_PRUNE_SECONDS,
    # A prune queued while the workers were down is worthless once the next is due.
    "options": {"expires": max(10.0, PABLO_IDEMPOTENCY_PRUNE_SECONDS)},
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis: kombu's transport with one fix (pablo/broker.py) -- without it a worker
# running a task while Redis restarts dies with "AttributeError ... 'hostname'".
if CELERY_BROKER_URL.startswith("redis://"):
    CELERY_BROKER_TRANSPORT = "pablo.broker:Transport"
# Remote control (celery inspect/control) off by default: its reply queue is torn
# down and rebuilt when Redis restarts, and the worker could stop consuming after
# the reconnection (tests/faults/test_redis_outage.py). Nothing here uses it.
CELERY_WORKER_ENABLE_REMOTE_CONTROL = env.bool("CELERY_WORKER_ENABLE_REMOTE_CONTROL", default=False)
# Deliveries (webhooks, e-mail) have their own queue, so that a slow receiver
# can be kept away from the deadline sweep by running dedicated workers
# (`celery -A pablo worker -Q celery` / `-Q notifications`); a plain
# `celery -A pablo worker` consumes both.
# Heavy work (analyses; the expert bot's moves) has queues of its own, "analysis" and
# "bots", which a plain worker's pool does not consume: it runs them in
# PABLO_HEAVY_LANES threads each, outside its pool, so interactive work always finds
# a free slot; dedicated workers take them with `-Q bots,analysis` (games/lanes.py,
# docs/operations.md "Workers").
CELERY_TASK_QUEUES = {"celery": {}, "notifications": {}}
# Every delivery to a destination a user chose (a webhook URL, a push endpoint) goes to
# ``notifications``: one may wait PABLO_WEBHOOK_TIMEOUT on a host that never answers, and
# must not hold the slots of the deadlines' sweeps and the bots' moves (``celery``).
CELERY_TASK_ROUTES = {
    "games.notify_game": {"queue": "notifications"},
    "games.deliver_webhook": {"queue": "notifications"},
    "games.deliver_push": {"queue": "notifications"},
    "games.deliver_pushes": {"queue": "notifications"},
    "games.deliver_email": {"queue": "notifications"},
    "games.send_mail": {"queue": "notifications"},
    "games.analyse_game": {"queue": "analysis"},
}
PABLO_HEAVY_LANES = env.int("PABLO_HEAVY_LANES", default=1)
PABLO_HEAVY_NICE = env.int("PABLO_HEAVY_NICE", default=10)
if CELERY_BROKER_URL.startswith("filesystem"):
    # The file-system transport does not create its folders.
    for _folder in ("queue", "processed"):
        (VAR_DIR / "broker" / _folder).mkdir(parents=True, exist_ok=True)

# --------------------------------------------------------------------------- caches
# Two caches, both shared by every process of the service (never a per-process
# dict): "default" keeps derived data such as the replay viewer's built replays
# (docs/viewer.md "Speed"; entries name the game's version and the code that
# built them, so they are never stale), "throttle" the rate-limit counters
# (games/api/throttling.py). Redis when one is configured (PABLO_CACHE_URL, a
# django-environ cache URL, else the broker's Redis), else files under VAR_DIR
# (shared by the processes of one machine). Each has its own key prefix.
# A cache server that is away never fails a request: the viewer builds the
# replay instead, the throttles let the request through (and log it).


def _shared_cache(prefix: str, folder: str) -> dict:
    url = env.str("PABLO_CACHE_URL", default="")
    if not url and CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        url = CELERY_BROKER_URL  # the broker's server and database; keys are prefixed
    if url:
        config = env.cache_url_config(url)
        if config["BACKEND"] == "django_redis.cache.RedisCache":  # environ's default
            config["BACKEND"] = "django.core.cache.backends.redis.RedisCache"
        config.setdefault("OPTIONS", {})
        if config["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
            # A Redis that is away must not hang a request.
            config["OPTIONS"].update(socket_connect_timeout=0.5, socket_timeout=0.5)
    else:
        config = {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache" / folder),
            "OPTIONS": {"MAX_ENTRIES": 1000},
        }
    config["KEY_PREFIX"] = prefix
    config["TIMEOUT"] = 86400
    return config


CACHES = {
    "default": _shared_cache("pablo", "default"),
    "throttle": _shared_cache("pablo-throttle", "throttle"),
}


# --------------------------------------------------------------------------- throttling
# API.md "Throttling"; the code is games/api/throttling.py, the operator's view
# docs/operations.md. Rates in DRF's format (N/s, N/min, N/hour, N/day); an
# empty value turns that limit off. The counters live in the "throttle" cache,
# which every worker process shares: Redis when one is configured
# (PABLO_CACHE_URL, else the broker's Redis), else files under VAR_DIR (shared
# by the processes of one machine) -- never a per-process dict.
PABLO_THROTTLE_LOGIN_FAILURES = env.str("PABLO_THROTTLE_LOGIN_FAILURES", default="10/hour") or None
PABLO_THROTTLE_AUTH = env.str("PABLO_THROTTLE_AUTH", default="60/min") or None
PABLO_THROTTLE_ACTIONS = env.str("PABLO_THROTTLE_ACTIONS", default="120/min") or None
# Analyses started per user (POST /api/games/{id}/analysis/ and the viewer's button).
PABLO_THROTTLE_ANALYSES = env.str("PABLO_THROTTLE_ANALYSES", default="20/hour") or None
PABLO_THROTTLE_GAMES = env.str("PABLO_THROTTLE_GAMES", default="30/hour") or None
# Each new notification address is mailed a confirmation link: a user cannot
# make the service mail strangers more often than this.
PABLO_THROTTLE_EMAILS = env.str("PABLO_THROTTLE_EMAILS", default="5/hour") or None
# Accounts are cheap: accounts made per client address (API and web sign-up).
PABLO_THROTTLE_SIGNUPS = env.str("PABLO_THROTTLE_SIGNUPS", default="10/hour") or None
# Heavy work unfinished at once, per account and per address (games/api/shares.py;
# 0 = no limit): games with bots waiting or active, analyses queued or running.
PABLO_BOT_GAMES = env.int("PABLO_BOT_GAMES", default=3)
PABLO_BOT_GAMES_PER_ADDRESS = env.int("PABLO_BOT_GAMES_PER_ADDRESS", default=6)
PABLO_ANALYSES_QUEUED = env.int("PABLO_ANALYSES_QUEUED", default=3)
PABLO_ANALYSES_QUEUED_PER_ADDRESS = env.int("PABLO_ANALYSES_QUEUED_PER_ADDRESS", default=6)
# Every authenticate() counts failed log-ins per username key and address
# (the API's token call, the web log-in, the admin log-in): games/api/throttling.py.
AUTHENTICATION_BACKENDS = ["games.api.throttling.ThrottledModelBackend"]
# How many reverse proxies stand in front of gunicorn: the client's address is
# then read from X-Forwarded-For that many hops back (0: REMOTE_ADDR only, so a
# client cannot choose its own address).
PABLO_TRUSTED_PROXIES = env.int("PABLO_TRUSTED_PROXIES", default=0)
REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] = ["games.api.throttling.ApiThrottle"]
REST_FRAMEWORK["NUM_PROXIES"] = PABLO_TRUSTED_PROXIES


# --------------------------------------------------------------------------- HTTPS
# Production behind a reverse proxy that terminates TLS (docs/operations.md):
# DJANGO_HTTPS=1 turns on every setting below at once; each can be set alone.
HTTPS = env.bool("DJANGO_HTTPS", default=False)
SECURE_PROXY_SSL_HEADER = (
    tuple(env.list("DJANGO_SECURE_PROXY_SSL_HEADER", default=["HTTP_X_FORWARDED_PROTO", "https"]))
    if env.bool("DJANGO_BEHIND_PROXY", default=HTTPS)
    else None
)
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=HTTPS)
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31_536_000 if HTTPS else 0)
# includeSubDomains and preload bind every subdomain, and the preload list is
# hard to leave: only when the operator asks for them.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=False)
# `check --deploy` would warn that they are off: a decision, not an oversight.
SILENCED_SYSTEM_CHECKS = [
    *([] if SECURE_HSTS_INCLUDE_SUBDOMAINS else ["security.W005"]),
    *([] if SECURE_HSTS_PRELOAD else ["security.W021"]),
]
SESSION_COOKIE_SECURE = env.bool("DJANGO_SESSION_COOKIE_SECURE", default=HTTPS)
CSRF_COOKIE_SECURE = env.bool("DJANGO_CSRF_COOKIE_SECURE", default=HTTPS)
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy and Permissions-Policy on every answer (pablo/headers.py):
# the defaults there; a value here replaces them, an empty one sends none.
if "PABLO_CONTENT_SECURITY_POLICY" in os.environ:
    PABLO_CONTENT_SECURITY_POLICY = env.str("PABLO_CONTENT_SECURITY_POLICY")
if "PABLO_PERMISSIONS_POLICY" in os.environ:
    PABLO_PERMISSIONS_POLICY = env.str("PABLO_PERMISSIONS_POLICY")

# --------------------------------------------------------------------------- the live feed
# Waiting for a game's next event (games/feed/, docs/design.md "Live updates").
# PABLO_FEED_WAITS: concurrent long-poll waits per user (API.md; 0 = no limit).
PABLO_FEED_WAITS = env.int("PABLO_FEED_WAITS", default=8)
# The fan-out's Redis (pub/sub; any database number): PABLO_FEED_REDIS_URL, else the
# broker's Redis; none (the embedded default) -> each ASGI process re-checks instead.
PABLO_FEED_REDIS_URL = env.str("PABLO_FEED_REDIS_URL", default="") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else ""
)
PABLO_FEED_CHANNEL = env.str("PABLO_FEED_CHANNEL", default="pablo-feed")
# Seconds between the shared re-checks while the fan-out is away (one query per
# ASGI process for all its waited games).
PABLO_FEED_RECHECK = env.float("PABLO_FEED_RECHECK", default=0.5)
# Seconds between the audits while the fan-out is up (one query per ASGI process for
# all its subscribed games: renews the fast path's exact versions, catches a lost
# message; games/feed/hub.py).
PABLO_FEED_AUDIT = env.float("PABLO_FEED_AUDIT", default=20.0)
# Executor threads of an ASGI process: its synchronous code runs there, each keeps one
# persistent database connection, so they bound its connections (games/feed/asgi.py).
PABLO_ASGI_THREADS = env.int("PABLO_ASGI_THREADS", default=16)
if os.environ.get("PABLO_SERVER") == "asgi" and DATABASES["default"].get("CONN_HEALTH_CHECKS"):
    # One round trip less per request in the feed process, whose requests are mostly
    # short reads: after a database restart a thread's first request answers 503 (and
    # drops the broken connection) instead of reconnecting first; clients retry.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
