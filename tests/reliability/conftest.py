import pytest
from django.conf import settings

from tests.reliability.served import MigratedDatabases


@pytest.fixture(scope="session")
def static_root(collected_static):
    """What the run collected once (tests/conftest.py), as the Procfile's release step does: the
    settings' manifest storage, which the served apps' settings use too."""
    return settings.STATIC_ROOT


@pytest.fixture(scope="session")
def migrated(tmp_path_factory, django_db_setup, static_root):
    """Databases for served apps, copied from one migrated once per run (served.MigratedDatabases);
    after the test database is set up, whose name theirs start with."""
    return MigratedDatabases(tmp_path_factory, {"STATIC_ROOT": str(static_root)})
