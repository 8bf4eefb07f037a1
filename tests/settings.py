"""Test settings: the real settings, with a throwaway key, fast hashing and a static root of their own."""

import os
import tempfile

os.environ.setdefault("SECRET_KEY", "tests-only-not-secret")

from scorekeeper.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Static files as a deploy serves them: the settings' manifest storage (hashed names, compressed
# copies), collected once per test run into a directory of its own (tests/conftest.py), and served
# by whitenoise from there, never from the apps' folders.
STATIC_ROOT = tempfile.mkdtemp(prefix="sk-static-")
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
LOGGING = {"version": 1, "disable_existing_loggers": False}
# Mail and other tasks run at once in tests; the mail-outage tests switch to the database queue.
TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not memory: an in-memory test database is one connection that Django shares between
    # the live server's threads, and a browser's concurrent requests (two phones, the service
    # worker's background fetches) collided on it ("bad parameter or other API misuse"). With a
    # file, each thread opens its own connection and SQLite's locking (20 s) orders them.
    # Named after the database, so runs against different DATABASE_URLs never share a file.
    DATABASES["default"]["TEST"] = {"NAME": f"{DATABASES['default']['NAME']}.test"}  # noqa: F405

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # A test that waits on a row lock held by a connection that will never let go (the test's own
    # thread, waiting on the waiter) fails after 30 s instead of stalling the run. The web's end of
    # idle transactions (IDLE_IN_TRANSACTION_MS) is off for the test's own connection: a test is one
    # transaction from start to end, however long it waits on a server or a browser. The apps the
    # reliability tests serve (tests/reliability/served.py) run the Procfile's web line (scorekeeper.asgi,
    # which loads scorekeeper.wsgi), with it.
    DATABASES["default"]["OPTIONS"]["options"] = "-c idle_in_transaction_session_timeout=0 -c lock_timeout=30000"  # noqa: F405
