import pytest
from django.db import connection

from tests.factories import UserFactory, make_game


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
