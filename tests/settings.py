"""Test settings: the real settings, with a throwaway key, fast hashing and plain static storage."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-not-secret")

from scorekeeper.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# pytest-django runs with DEBUG off; the manifest storage would need collectstatic first.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
LOGGING = {"version": 1, "disable_existing_loggers": False}
# Serve static files straight from the apps, as `runserver` does; nothing is collected in tests.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Mail and other tasks run at once in tests; the mail-outage tests switch to the database queue.
TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not memory: an in-memory test database is one connection that Django shares between
    # the live server's threads, and a browser's concurrent requests (two phones, the service
    # worker's background fetches) collided on it ("bad parameter or other API misuse"). With a
    # file, each thread opens its own connection and SQLite's locking (20 s) orders them.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "db.sqlite3.test")}  # noqa: F405
