"""The data migration that names personal scorebooks after their owners (issue 22), on SQLite and
PostgreSQL alike (run with DATABASE_URL=postgres://... too)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.models import Scorebook


@pytest.mark.django_db(transaction=True)
def test_the_migration_names_personal_scorebooks_still_called_personal_after_their_owners_and_back():
    before, after = [("scorekeeper", "0016_idempotency_etag")], [("scorekeeper", "0017_personal_scorebook_names")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state([*before, ("accounts", "0002_user_language")]).apps
    User, OldBook = old.get_model("accounts", "User"), old.get_model("scorekeeper", "Scorebook")
    ana = User.objects.create(email="ana@old.example", first_name="Ana")
    bob = User.objects.create(email="bob@old.example")
    lupe = User.objects.create(email="lupe@old.example", language="es")
    kim = User.objects.create(email="kim@old.example")
    for user in (ana, bob, lupe):
        OldBook.objects.create(name="Personal", personal_of=user)
    OldBook.objects.create(name="Kim's den", personal_of=kim)  # renamed by its owner: kept
    OldBook.objects.create(name="Personal", personal_of=None)  # a shared scorebook someone called so: kept
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    names = lambda: dict(Scorebook.objects.values_list("personal_of__email", "name").order_by("pk"))  # noqa: E731
    assert names() == {
        "ana@old.example": "Ana's scorebook",
        "bob@old.example": "bob's scorebook",
        "lupe@old.example": "Libreta de lupe",
        "kim@old.example": "Kim's den",
        None: "Personal",
    }
    executor = MigrationExecutor(connection)
    executor.migrate(before)  # and back: the names it gave are "Personal" again, the others kept
    assert names() == {
        "ana@old.example": "Personal",
        "bob@old.example": "Personal",
        "lupe@old.example": "Personal",
        "kim@old.example": "Kim's den",
        None: "Personal",
    }
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
