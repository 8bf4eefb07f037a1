"""A season made while a game of its scorebook finishes in another request (PostgreSQL: two
connections) still counts that game: the finishing game waits for the season's write, or the
season's rebuild sees the game, never neither."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models import Sum
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Season, SeasonTally
from tests.roles import make_club
from tests.seasons import make_season


def closing(action):
    def run():
        try:
            action()
        finally:
            connection.close()

    return run


@pytest.mark.django_db(transaction=True)
def test_a_season_made_while_a_game_finishes_counts_that_game(postgres_only):
    club = make_club()
    Season.objects.all().delete()
    today = timezone.localdate()
    made, commit = threading.Event(), threading.Event()

    def owner_makes_a_season():
        with transaction.atomic():  # the season is made (and rebuilt) but not committed yet
            make_season(book=club.book, name="Now", starts=today - timedelta(days=1), ends=today + timedelta(days=1))
            made.set()
            commit.wait(10)

    maker = threading.Thread(target=closing(owner_makes_a_season))
    maker.start()
    assert made.wait(10)
    # The game finishes while the season's transaction is open: its tally cannot see the season yet,
    # and the season's rebuild did not see the game.
    finisher = threading.Thread(target=closing(lambda: services.finish_game(game=club.game, by=club.users["owner"])))
    finisher.start()
    finisher.join(1)
    commit.set()
    maker.join(10)
    finisher.join(10)
    assert not maker.is_alive() and not finisher.is_alive()

    season = Season.objects.get(name="Now")
    tallies = SeasonTally.objects.filter(season=season)
    assert tallies.aggregate(games=Sum("games"))["games"] == 3  # Ann, Ben and Cy, one game each
    assert sorted(tallies.values_list("player__name", flat=True)) == ["Ann", "Ben", "Cy"]
