"""Settings for the Confrontation companion, read from the environment.

Zero configuration gives the embedded default: DEBUG on, a SQLite file under
``var/`` and the in-process live-update bus. A club server sets
``DEBUG=false``, ``SECRET_KEY``, ``ALLOWED_HOSTS`` and ``DATABASE_URL``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

from confrontation_site.env import env_bool, env_int, env_list, env_str, fail

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = env_bool("DEBUG", True)
# `make run`: the club's own server over plain HTTP on its Wi-Fi, DEBUG off
# unless asked (DEBUG=true, README): a stranger gets the app's own pages, never
# Django's debug ones. No TLS there: cookies are not "Secure", no redirect to
# HTTPS, static files served from the app's folders, a secret key kept in var/.
PLAIN_HTTP = env_bool("PLAIN_HTTP", False)


def _kept_secret_key() -> str:
    """The plain-HTTP server's secret key: made once, kept in var/secret_key."""
    import secrets

    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG and PLAIN_HTTP:
        SECRET_KEY = _kept_secret_key()
    elif not DEBUG:
        fail("SECRET_KEY must be set when DEBUG is false.")
    else:
        SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production-0123456789abcdef"

# Behind the site's own TLS proxy: trust its X-Forwarded-Proto (when DEBUG is
# off) and the address it appends to X-Forwarded-For (rate limits), from
# PROXY_ADDRESS only.
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False)
# The address(es) the site's own reverse proxy connects from: only these may
# say who the client is (X-Forwarded-For). See confrontation_site/serve.py.
PROXY_ADDRESSES = env_list("PROXY_ADDRESS", ["127.0.0.1"])

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG or PLAIN_HTTP else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    "rules",
    "battles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "battles.middleware.CompressionMiddleware",
    "battles.middleware.AnswerFirstMiddleware",
    "battles.middleware.PermissionsPolicyMiddleware",
    "battles.middleware.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "battles.devices.SignedInDevicesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
]

ROOT_URLCONF = "confrontation_site.urls"

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

WSGI_APPLICATION = "confrontation_site.wsgi.application"
ASGI_APPLICATION = "confrontation_site.asgi.application"

# --- Database -------------------------------------------------------------
DEFAULT_DATABASE_URL = f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
DATABASE_URL = env_str("DATABASE_URL") or DEFAULT_DATABASE_URL
try:
    _database = dj_database_url.parse(DATABASE_URL, conn_max_age=0)
except ValueError as error:
    fail(f"DATABASE_URL is not a database address Django understands ({error}).")
if _database.get("ENGINE") == "django.db.backends.sqlite3":
    # Django's, with this process's writers queued (no busy-wait polling).
    _database["ENGINE"] = "confrontation_site.backends.sqlite3"
    if _database["NAME"] not in ("", ":memory:"):
        Path(_database["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    _database["OPTIONS"] = {
        # Two phones writing at once: take the write lock at BEGIN so neither
        # fails half-way with "database is locked" (measured, see DESIGN).
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        # WAL lets readers go on during a write; FULL makes an acknowledged
        # action survive a power cut.
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; "
            "PRAGMA foreign_keys=ON; PRAGMA busy_timeout=20000;"
        ),
    }
    # Tests use a file too, not Django's shared in-memory database: that one
    # serialises threads with table locks no busy timeout waits for, so the
    # race tests (two phones writing at once) would test something else.
    # One file per test run (the process id), so two runs never share one.
    _test_file = Path(tempfile.gettempdir()) / f"confrontation-test-{os.getpid()}.db"
    _database["TEST"] = {"NAME": str(_test_file)}
elif _database.get("ENGINE") == "django.db.backends.postgresql":
    _database.setdefault("OPTIONS", {})
    _database["CONN_HEALTH_CHECKS"] = True
else:
    fail("DATABASE_URL must start with sqlite:// or postgres://.")
DATABASES = {"default": _database}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth -----------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Accounts are optional for a casual game (DESIGN "Who may act").
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- Languages ------------------------------------------------------------
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
# English dates are written the British way (confrontation_site/formats/en).
FORMAT_MODULE_PATH = ["confrontation_site.formats"]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_str("TIME_ZONE", "Europe/Paris")
USE_TZ = True

# --- Static files ---------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or PLAIN_HTTP
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- Caches (Redis, when set, also counts the rate limits: battles.ratelimit) --
REDIS_URL = env_str("REDIS_URL")
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# --- Live updates ---------------------------------------------------------
# "memory" (one process), "postgres" (LISTEN/NOTIFY) or "redis" (pub/sub).
LIVE_BUS = env_str("LIVE_BUS", "memory")
if LIVE_BUS not in ("memory", "postgres", "redis"):
    fail("LIVE_BUS must be memory, postgres or redis.")
if LIVE_BUS == "postgres" and _database["ENGINE"] != "django.db.backends.postgresql":
    fail("LIVE_BUS=postgres needs a postgres:// DATABASE_URL.")
if LIVE_BUS == "redis" and not REDIS_URL:
    fail("LIVE_BUS=redis needs REDIS_URL.")
# The channel every process of this site listens on (one per app/site).
LIVE_CHANNEL = env_str("LIVE_CHANNEL", "confrontation_live")
# A comment line on every open stream this often, so proxies keep it open.
LIVE_HEARTBEAT_SECONDS = env_int("LIVE_HEARTBEAT_SECONDS", 15)
# A stream ends after this long; the browser reconnects with Last-Event-ID
# (lets a server restart or a deployment finish without hanging on streams).
LIVE_STREAM_MAX_SECONDS = env_int("LIVE_STREAM_MAX_SECONDS", 300)
# How long a share link (opponent or spectator) stays valid.
JOIN_LINK_DAYS = env_int("JOIN_LINK_DAYS", 7)
# New accounts per client address and hour (successful sign-ups only): a club
# night behind one venue address needs more than a home (battles.ratelimit).
SIGN_UP_LIMIT_PER_HOUR = env_int("SIGN_UP_LIMIT_PER_HOUR", 20)

# --- What one client may hold (confrontation_site.connections, sync_views) --
# Connections open at once from one address, per server process (the global
# cap, serve.CONCURRENCY_LIMIT, is 4,000); a reverse proxy's own address
# (BEHIND_TLS_PROXY, PROXY_ADDRESS) has none. 0: no cap.
CONNECTIONS_PER_ADDRESS = env_int("CONNECTIONS_PER_ADDRESS", 256)
# A request body with no byte for this long, or not whole this long after its
# head, closes its connection (a slow head: HEADER_TIMEOUT_SECONDS).
BODY_TIMEOUT_SECONDS = env_int("BODY_TIMEOUT_SECONDS", 10)
BODY_MAX_SECONDS = env_int("BODY_MAX_SECONDS", 120)
# The largest request body taken (413 past it, before it is read when its
# Content-Length says so): the largest real upload is a 5 MB catalogue.
MAX_REQUEST_BYTES = env_int("MAX_REQUEST_BYTES", 8 * 1024 * 1024)
# A body, and an uploaded file, past this size waits on disk, not in memory.
FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

# --- Security -------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
# Not "no-referrer": Chrome then sends "Origin: null" on form posts, which
# CSRF rightly refuses. Same-origin still leaks nothing to other sites.
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Without collectstatic (`make run`), WhiteNoise serves the app's own folders.
WHITENOISE_USE_FINDERS = DEBUG or PLAIN_HTTP
if not DEBUG and not PLAIN_HTTP:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    # No SECURE_PROXY_SSL_HEADER: Django would take X-Forwarded-Proto from any
    # connection. uvicorn takes it from PROXY_ADDRESS only (serve.py:
    # --forwarded-allow-ips) and sets the request's scheme, which Django reads.

# A strict policy from the first template on: no inline script or style.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [NONE],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "manifest-src": [SELF],
        "form-action": [SELF],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "object-src": [NONE],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refusal (4xx) is one line, not a traceback (confrontation_site.logs);
    # what an outage repeats at every request (Redis or the database away)
    # once per 10 s, with the count of the lines left out.
    "filters": {
        "refusals": {"()": "confrontation_site.logs.RefusalsInOneLine"},
        "repeats": {"()": "confrontation_site.connections.OncePerInterval"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["refusals"]}
    },
    "loggers": {
        "django.request": {"filters": ["refusals"]},
        "battles.ratelimit": {"filters": ["repeats"]},
        "battles.middleware": {"filters": ["repeats"]},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# E-mail (optional, issue #14): when EMAIL_HOST is set, Django's own
# password-reset views (/accounts/password/reset/) send a link by e-mail.
# Without it, a member recovers with her recovery codes (/accounts/recover/).
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "webmaster@localhost")
PASSWORD_RESET_BY_EMAIL = bool(EMAIL_HOST)

# Limits on creation (issue 30), per guest and per account: how many of each
# may be made per window (0: no limit). Generous for a club evening; a script
# making hundreds of games a minute is stopped. Counted by battles.ratelimit.
CREATION_LIMITS = {
    "game": (env_int("LIMIT_GAMES_PER_HOUR", 30), 3600),
    "army": (env_int("LIMIT_ARMIES_PER_HOUR", 40), 3600),
    "custom card": (env_int("LIMIT_CUSTOM_CARDS_PER_HOUR", 100), 3600),
    "club": (env_int("LIMIT_CLUBS_PER_DAY", 5), 24 * 3600),
    "invitation": (env_int("LIMIT_INVITATIONS_PER_HOUR", 60), 3600),
}
# ...and, for guests, per client address (battles.ratelimit.client_ip): a script
# that drops its cookie gets a fresh guest allowance, not a fresh address. A club
# behind one venue address shares it, hence generous (0: no limit).
GUEST_ADDRESS_LIMITS = {
    "game": (env_int("LIMIT_GUEST_GAMES_PER_ADDRESS_HOUR", 200), 3600),
}
# /healthz answers 503 when the SQLite database's disk has less free space.
HEALTHZ_MIN_FREE_BYTES = env_int("HEALTHZ_MIN_FREE_BYTES", 1024 * 1024)
