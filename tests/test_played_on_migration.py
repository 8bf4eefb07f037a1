"""The data migration that gives every finished game the day it was played (issue 40): the day it
finished in its scorebook's time zone; a game still going on has none yet."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


@pytest.mark.django_db(transaction=True)
def test_the_migration_dates_finished_games_by_the_day_they_finished_where_their_scorebook_plays():
    before, after = [("scorekeeper", "0030_cache_notes")], [("scorekeeper", "0031_game_played_on")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Book, OldGame = old.get_model("scorekeeper", "Scorebook"), old.get_model("scorekeeper", "Game")
    madrid = Book.objects.create(name="Madrid", time_zone="Europe/Madrid")
    mexico = Book.objects.create(name="Mexico", time_zone="America/Mexico_City")
    late = datetime.datetime(2026, 11, 26, 23, 30, tzinfo=datetime.UTC)  # the 27th in Madrid, the 26th in Mexico
    for book in (madrid, mexico):
        OldGame.objects.create(scorebook=book, name="done", status="finished", finished_at=late)
        OldGame.objects.create(scorebook=book, name="going")
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    migrated = executor.loader.project_state(after).apps.get_model("scorekeeper", "Game")
    rows = migrated.objects.order_by("scorebook__name", "name").values_list("scorebook__name", "name", "played_on")
    assert list(rows) == [
        ("Madrid", "done", datetime.date(2026, 11, 27)), ("Madrid", "going", None),
        ("Mexico", "done", datetime.date(2026, 11, 26)), ("Mexico", "going", None),
    ]  # fmt: skip
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
