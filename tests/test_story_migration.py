"""The migration of the story (issue 34) works out what is saved from now on for what was saved until
now: each rating step's rating going in and each seat's worst deficit, the same as the services write
them (on SQLite and PostgreSQL alike: run with DATABASE_URL=postgres://... too)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.models import Player, RatingStep, Seat
from scorekeeper.services import scorebooks
from tests.factories import UserFactory
from tests.seasons import at
from tests.story import play

BEFORE = [("scorekeeper", "0025_seasons")]
AFTER = [("scorekeeper", "0026_story")]


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target or executor.loader.graph.leaf_nodes())
    return executor.loader.project_state(target).apps if target else None


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_ratings_going_in_and_the_deficits_as_the_services_write_them():
    owner = UserFactory()
    book = scorebooks.create(by=owner, name="Club")
    ann, ben, cy = (Player.objects.create(scorebook=book, name=name) for name in ("Ann", "Ben", "Cy"))
    play(book, owner, [ann, ben, cy], [{ben: 0, ann: 12, cy: 3}, {ann: 0, ben: 10, cy: 2}], finished_at=at(2025, 1, 1))
    play(book, owner, [cy, ann], [{cy: 0, ann: 4}], finished_at=at(2025, 1, 2))
    play(book, owner, [ann, ben], [{ann: 0, ben: 9}], finish=False)  # still going on: a deficit all the same
    written_steps = set(RatingStep.objects.values_list("game_id", "player_id", "mu_before", "sigma_before"))
    written_seats = set(Seat.objects.values_list("pk", "deficit", "deficit_after"))
    assert {(behind, after) for _pk, behind, after in written_seats} >= {(12, 1), (5, 2), (4, 1), (9, 1)}
    migrate(BEFORE)
    new = migrate(AFTER)
    steps = new.get_model("scorekeeper", "RatingStep").objects.values_list("game_id", "player_id", "mu_before",
                                                                            "sigma_before")  # fmt: skip
    seats = new.get_model("scorekeeper", "Seat").objects.values_list("pk", "deficit", "deficit_after")
    assert set(seats) == written_seats
    assert {row[:2]: pytest.approx(row[2:]) for row in steps} == {row[:2]: row[2:] for row in written_steps}
    migrate(None)
