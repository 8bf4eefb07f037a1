"""The migration that brings seasons (issue 34) works out every saved seat's place points, on
SQLite and PostgreSQL alike (run with DATABASE_URL=postgres://... too)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("scorekeeper", "0024_game_number")]
AFTER = [("scorekeeper", "0025_seasons")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_finished_games_seats_their_place_points():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Book, Player = old.get_model("scorekeeper", "Scorebook"), old.get_model("scorekeeper", "Player")
    Game, Seat = old.get_model("scorekeeper", "Game"), old.get_model("scorekeeper", "Seat")
    book = Book.objects.create(name="Club")
    players = [Player.objects.create(scorebook=book, name=name, name_key=name.lower()) for name in "ABCDE"]
    done = {"status": "finished", "finished_at": timezone.now()}
    four = Game.objects.create(scorebook=book, **done)
    for position, (player, rank) in enumerate(zip(players, (2, 1, 2, None), strict=False)):
        Seat.objects.create(game=four, player=player, position=position, rank=rank)
    two = Game.objects.create(scorebook=book, **done)
    playing = Game.objects.create(scorebook=book)  # still going on: no place points yet
    for game in (two, playing):
        for position, (player, rank) in enumerate(zip(players[3:], (1, 2), strict=True)):
            Seat.objects.create(game=game, player=player, position=position, rank=rank)
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("scorekeeper", "Seat")

    def points(game):
        return list(new.objects.filter(game_id=game.pk).order_by("position").values_list("place_points", flat=True))

    # Three ranked (the fourth left): 10 for the winner, 2.5 each for the two level behind.
    assert points(four) == [25, 100, 25, None]
    assert points(two) == [100, 0]
    assert points(playing) == [None, None]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
