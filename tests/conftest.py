import os
import shutil

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from hypothesis import settings as hypothesis_settings

from scorekeeper.rules import fill
from tests.factories import UserFactory, make_game

# Property tests: the same examples every run (a fixed seed) and no per-example deadline, so a busy
# machine (CI runs the SQLite and PostgreSQL suites side by side) never turns slowness into a failure.
hypothesis_settings.register_profile("scorekeeper", deadline=None, derandomize=True)
hypothesis_settings.load_profile("scorekeeper")

# Check 11 settles what it can within 5 ms (rules.fill.TIME_BUDGET), so what it settles depends on
# how busy the machine is. The tests give it a second: a crafted round is then settled the same way
# on any machine, however loaded (bench/fill.py measures the real budget; tests/rules/test_fill.py
# runs the search out of time on purpose).
fill.TIME_BUDGET = 1.0

# The deploy stage's smoke test needs the two nodes `.ci/deploy` starts; it runs only there.
collect_ignore = [] if os.environ.get("DEPLOY_NODES") else ["deploy"]


@pytest.fixture(scope="session", autouse=True)
def collected_static():
    """collectstatic into the run's own STATIC_ROOT, as the Procfile's release step does, so every
    page and /sw.js meet the manifest storage a deploy uses (a name it lacks raises)."""
    call_command("collectstatic", "--noinput", verbosity=0)
    yield
    shutil.rmtree(settings.STATIC_ROOT, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def static_files_scanned_once():
    """Each test client loads the middleware anew, and WhiteNoise's reads the whole static root
    as it starts: the headers of every file, its compressed copies, whether its name is hashed.
    That was a fifth of a second of every test that made a request (the better part of the run's
    time on some API files). The files do not change once collected: a scan is kept per root,
    per WhiteNoise configuration and per state of the files (names, sizes, times), and a new
    middleware gets exactly what its own scan would have found."""
    from whitenoise.base import WhiteNoise, scantree

    original = WhiteNoise.update_files_dictionary
    scans = {}

    def update_files_dictionary(self, root, prefix):
        files_now = frozenset((path, stat.st_size, stat.st_mtime_ns) for path, stat in scantree(root))
        whitenoise = {name: repr(getattr(settings, name)) for name in dir(settings) if name.startswith("WHITENOISE_")}
        configuration = (
            type(self), self.autorefresh, self.max_age, self.allow_all_origins, self.charset, self.index_file,
            settings.DEBUG, settings.STATIC_URL, settings.FORCE_SCRIPT_NAME, repr(settings.STORAGES), repr(whitenoise),
        )  # fmt: skip
        key = (root, prefix, configuration, files_now)
        if key not in scans:
            found, self.files = self.files, {}
            try:
                original(self, root, prefix)
                scans[key] = self.files
            finally:
                self.files = {**found, **self.files}
            return
        self.files.update(scans[key])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WhiteNoise, "update_files_dictionary", update_files_dictionary)
        yield


@pytest.fixture(scope="session")
def live_server(request, collected_static, django_db_setup):
    """The Procfile's web application (scorekeeper.asgi) served by uvicorn in a thread (tests/live.py),
    its static files served as a deploy serves them: by whitenoise, from the collected root. It
    stands on the test database (django_db_setup), so it stops, closing its threads' connections,
    before the database is dropped."""
    from tests.live import AsgiLiveServer

    address = request.config.getvalue("liveserver") or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS") or "localhost"
    server = AsgiLiveServer(address)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def game(user):
    """A double-6 game for Ann, Ben and Cy: short rounds, easy numbers."""
    return make_game(owner=user, tile_set=6)


@pytest.fixture
def postgres_only(db):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: run with DATABASE_URL=postgres://...")


@pytest.fixture(autouse=True)
def english_to_start():
    """A request in Spanish leaves its language active in the thread: every test starts in English."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_cache():
    """allauth counts sign-ups and logins in the cache: every test starts with none."""
    from django.core.cache import cache

    cache.clear()
