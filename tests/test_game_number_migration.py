"""The data migration that keeps the number of games named "Game 3 · Mon 23 Nov" by the pages
(issue 33: such a name stayed in the language of whoever started the game), on SQLite and
PostgreSQL alike."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import translation

from scorekeeper.models import Game


@pytest.mark.django_db(transaction=True)
def test_the_migration_numbers_games_the_pages_named_and_keeps_names_people_gave():
    before, after = [("scorekeeper", "0023_player_record_score_sum")], [("scorekeeper", "0024_game_number")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Book, OldGame = old.get_model("scorekeeper", "Scorebook"), old.get_model("scorekeeper", "Game")
    book = Book.objects.create(name="Family")
    names = [
        "Game 1 · Thu 26 Nov",
        "Partida 2 · jue 26 nov",
        "Game night",
        "Game 3 · Thursday",
        "Partida 12 · vie 27 nov",
    ]
    for name in names:
        OldGame.objects.create(scorebook=book, name=name)
    OldGame.objects.update(created_at=datetime.datetime(2026, 11, 26, 20, tzinfo=datetime.UTC))
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    # The games as the migration left them (the model of that state: later migrations add columns).
    migrated = executor.loader.project_state(after).apps.get_model("scorekeeper", "Game")
    rows = list(migrated.objects.order_by("pk").values("pk", "name", "number", "created_at"))
    assert [(row["name"], row["number"]) for row in rows] == [
        ("", 1), ("", 2), ("Game night", None), ("Game 3 · Thursday", None), ("", 12)
    ]  # fmt: skip
    first = Game(**rows[0])  # what the app calls it, unsaved
    with translation.override("es"):
        assert str(first) == "Partida 1 · jue 26 nov"
    assert str(first) == "Game 1 · Thu 26 Nov"
    executor = MigrationExecutor(connection)
    executor.migrate(before)  # and back: a numbered game is named as the pages named it, in English
    back = list(old.get_model("scorekeeper", "Game").objects.order_by("pk").values_list("name", flat=True))
    assert back == [
        *(f"Game {n} · Thu 26 Nov" for n in (1, 2)),
        "Game night",
        "Game 3 · Thursday",
        "Game 12 · Thu 26 Nov",
    ]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
