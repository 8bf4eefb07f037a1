"""Settings for the Chicken Foot scorekeeper, read from the environment.

Safe defaults for a laptop: SQLite beside the code, DEBUG off unless asked for.
Production sets SECRET_KEY, DATABASE_URL, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS and
REDIS_URL (allauth keeps its rate limits in the cache, which every worker must share).
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def development_secret_key() -> str:
    """A key generated once per checkout and kept in a git-ignored file, for DEBUG only."""
    path = BASE_DIR / ".dev-secret-key"
    if not path.exists():
        path.write_text(get_random_secret_key())
    return path.read_text().strip()


DEBUG = env_bool("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY") or (development_secret_key() if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("Set SECRET_KEY in the environment (or DEBUG=1 for local development).")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
if "*" in ALLOWED_HOSTS and not DEBUG:
    # Any Host header would be trusted: password-reset links could point at another site.
    raise ImproperlyConfigured("ALLOWED_HOSTS=* is refused when DEBUG is off: list the site's host names.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "health_check",
    "django_tasks_db",
    "simple_history",
    "statici18n",
    "allauth",
    "allauth.account",
    "allauth.headless",
    "accounts",
    "scorekeeper",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "scorekeeper.http.private.PrivateAnswersMiddleware",  # private, no-store unless the view says otherwise
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # A game's poll answered 304 from the shared cache, before sessions or views (scorekeeper.http.polls).
    "scorekeeper.http.polls.CachedPollMiddleware",
    "scorekeeper.transfer.ImportSizeMiddleware",  # an import over IMPORT_MAX_BYTES: 413 before it is read
    "scorekeeper.http.photos.PhotoUploadMiddleware",  # a photo to count: too long refused, the rest kept in memory
    "scorekeeper.http.errors.JsonBodyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # X-Account on every answer that varies by session: whose page the service worker keeps.
    "scorekeeper.http.offline.AccountMarkerMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the switch's cookie (set from the account at sign-in), else Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.LoginRateLimitMiddleware",
]

ROOT_URLCONF = "scorekeeper.urls"
CSRF_FAILURE_VIEW = "scorekeeper.http.errors.csrf_failure"
WSGI_APPLICATION = "scorekeeper.wsgi.application"

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
                "django.template.context_processors.csp",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# Database: SQLite file by default, PostgreSQL (psycopg 3) when DATABASE_URL says so.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "600")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock when their transaction starts, so two phones recording the
    # same round queue up instead of failing half-way with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})
# PostgreSQL ends a session that sits in a transaction doing nothing for IDLE_IN_TRANSACTION_MS (a
# web worker frozen or stalled mid-request): the game's row lock and the Idempotency-Key it claimed
# (which names that session) are free again within seconds instead of waiting for gunicorn's
# timeout; and a statement waits for a lock at most LOCK_TIMEOUT_MS, then answers 503 with
# Retry-After. The web entry point (scorekeeper.wsgi) sets them, 5 s and 15 s: no request of ours
# sits in its own transaction doing nothing. Commands keep them off (0) unless told: a migration or an
# import works out Python between two statements of one transaction, for seconds on a busy machine.
IDLE_IN_TRANSACTION_MS = int(os.environ.get("IDLE_IN_TRANSACTION_MS", "0"))
LOCK_TIMEOUT_MS = int(os.environ.get("LOCK_TIMEOUT_MS", "0"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = (
        f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS} -c lock_timeout={LOCK_TIMEOUT_MS}"
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cache: Redis when REDIS_URL is set, the database otherwise. Either way every worker shares it,
# so allauth's login limits count every attempt (`createcachetable` makes the table). While Redis
# cannot be reached, the database's table answers in its place (scorekeeper.caches.backends).
REDIS_URL = os.environ.get("REDIS_URL", "")
DATABASE_CACHE = {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "django_cache"}
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "scorekeeper.caches.backends.RedisWithFallback",
            "LOCATION": REDIS_URL,
            # A dead Redis costs at most a second, then it is left alone for a few (PAUSE).
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
        "database": DATABASE_CACHE,  # answers while Redis is unreachable
    }
    # Sessions read from Redis (written through to the database, which keeps them if Redis goes):
    # a signed-in request no longer costs a query for its session (an app's token is one too). A
    # copy is trusted only under its session's stamp and the epoch (scorekeeper.caches.sessions).
    SESSION_ENGINE = "scorekeeper.caches.sessions"
else:
    CACHES = {"default": DATABASE_CACHE}

# How many proxies stand in front of the app (a PaaS router: 1). The client's address is then read
# from X-Forwarded-For, that many entries from the right (scorekeeper.http.proxies); 0 trusts only the
# connection. Login limits and the live view's budget are per client address.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT is the number of proxies in front of the app: 0 or more.")
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT

# The live view's limit per client address and link (see scorekeeper.http.links.retry_after).
LIVE_REQUESTS_PER_MINUTE = int(os.environ.get("LIVE_REQUESTS_PER_MINUTE", "300"))

# Seconds a stream of pushed updates waits for its client to take one event (a client that never
# reads fills its TCP buffer): past it the client is dropped and its connection closed (http.streams).
STREAM_SEND_TIMEOUT = float(os.environ.get("STREAM_SEND_TIMEOUT", "30"))

# Photos one account may count a minute (POST /api/v1/hands/count/, scorekeeper.http.photos): a hand
# is a photo or two, so a table of eight counting every round stays far below it.
HAND_COUNTS_PER_MINUTE = int(os.environ.get("HAND_COUNTS_PER_MINUTE", "30"))

# What one import over the web may hold (the page's upload and POST /api/v1/import/): more is a 413
# that points to `manage.py import_games`, which has no limit. A request stays well inside a
# worker's timeout (bench/import.py times 1,000 games). Django reads a request body of up to the
# same size into memory (its default is 2.5 MB); a bigger one is refused from its Content-Length.
IMPORT_MAX_GAMES = 1000
IMPORT_MAX_BYTES = 5 * 1024 * 1024
# Round scores (a player's line in a round) one request imports: each is checked as if entered,
# about 125 µs apiece on PostgreSQL, so 40,000 take about 5 s (docs/benchmarks.md). An export of
# 659 games of four (the most under 5 MB) holds 33,000.
IMPORT_MAX_ENTRIES = 40_000
DATA_UPLOAD_MAX_MEMORY_SIZE = IMPORT_MAX_BYTES
# One download holds at most this many games (`manage.py export_games` writes any number), and an
# account runs one import or export at a time: no request holds a worker for long (docs/api.md).
EXPORT_MAX_GAMES = 1000
TRANSFER_LOCK_SECONDS = 60

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"

# django-allauth: email + password, no usernames.
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_PASSWORD_RESET = True
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
HEADLESS_CLIENTS = ("app", "browser")
HEADLESS_ONLY = False
# An app's token looked up with one read of its session, not two (accounts/tokens.py).
HEADLESS_TOKEN_STRATEGY = "accounts.tokens.OneReadSessionTokens"
# allauth's own OpenAPI document of sign-up, login and logout, at /_allauth/openapi.json (and .yaml);
# browsable at /api/docs/sign-in/ (Swagger UI from the sidecar). Its HTML page loads Redoc from a CDN: off.
HEADLESS_SERVE_SPECIFICATION = True
HEADLESS_SPECIFICATION_TEMPLATE_NAME = None

# Mail: printed to the console unless MAIL_BACKEND says otherwise (SMTP in production).
MAIL_BACKEND = os.environ.get(
    "MAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
MAILERS = {"default": {"BACKEND": MAIL_BACKEND}}
if MAIL_BACKEND.endswith("smtp.EmailBackend"):
    MAILERS["default"]["OPTIONS"] = {
        "host": os.environ.get("SMTP_HOST", "localhost"),
        "port": int(os.environ.get("SMTP_PORT", "25")),
        "username": os.environ.get("SMTP_USER", ""),
        "password": os.environ.get("SMTP_PASSWORD", ""),
        "use_tls": env_bool("SMTP_TLS"),
    }
# Mail is queued as a task (accounts.tasks) and sent by `manage.py task_worker` (the Procfile's
# worker), tried again after each delay below when the mail server is unreachable. `make run`
# uses the immediate backend: no worker needed on a laptop.
TASKS = {"default": {"BACKEND": os.environ.get("TASK_BACKEND", "django_tasks_db.DatabaseBackend")}}
MAIL_RETRY_SECONDS = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600]
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Chicken Foot Scorekeeper <noreply@localhost>")

# REST API v1 (docs/api.md): app token or browser session; 401 without either.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "scorekeeper.api.authentication.SessionTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "scorekeeper.api.pagination.Pagination",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "scorekeeper.api.exceptions.handle",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Chicken Foot Scorekeeper API",
    "DESCRIPTION": "Players, games, rounds and reports. Authenticate with allauth's app client (X-Session-Token): "
    "sign-up, login and logout are django-allauth's headless API, described by its own OpenAPI document "
    "[/_allauth/openapi.json](/_allauth/openapi.json), browsable at [/api/docs/sign-in/](/api/docs/sign-in/).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999}},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "scorekeeper.http.errors.document_refused_input",  # a NUL anywhere: 400 on every operation
        "scorekeeper.api.schema.complete_schema",  # typed 400s, required answers, nullable references
    ],
    "ENUM_NAME_OVERRIDES": {
        "TileSetEnum": "scorekeeper.models.TILE_SET_CHOICES",
        "RoleEnum": "scorekeeper.models.Role",
        "InviteRoleEnum": ["scorer", "viewer"],
    },
}

# English by default; Spanish when the browser asks for it or the user picks it in the menu.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # whitenoise's compressed manifest storage, the page scripts' imports hashed too (staticfiles.py)
    "staticfiles": {"BACKEND": "scorekeeper.http.staticfiles.StaticStorage"},
}
# The page scripts' words: Django's JavaScript catalogue of each language (djangojs.po), written by
# `manage.py compilejsi18n` (django-statici18n; `make messages` runs it) among the app's static
# files, scorekeeper/jsi18n/<lang>/djangojs.js. They are committed like django.mo, so collectstatic
# hashes them and a deploy needs no step of its own; tests/test_catalogue.py checks they are current.
STATICI18N_ROOT = BASE_DIR / "scorekeeper" / "static"
STATICI18N_OUTPUT_DIR = "scorekeeper/jsi18n"
STATICI18N_PACKAGES = ["scorekeeper"]  # our catalogue only (LOCALE_PATHS), not admin's or allauth's

# Content-Security-Policy on every response: only this site's own files run or style the page.
# Nothing is inlined but the Swagger page's small <style>, which carries the request's nonce.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],  # Swagger UI draws its icons from data: URIs
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Behind a TLS-terminating proxy in production: HTTPS=1 turns on secure cookies and HSTS.
if env_bool("HTTPS"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = True
    # __Host- cookies are only accepted over HTTPS, for this exact host and path /.
    SESSION_COOKIE_NAME, CSRF_COOKIE_NAME = "__Host-sessionid", "__Host-csrftoken"
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = max(int(os.environ.get("SECURE_HSTS_SECONDS", "31536000")), 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{levelname} {name} {message}", "style": "{"}},
    "handlers": {"stdout": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "plain"}},
    "root": {"handlers": ["stdout"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
