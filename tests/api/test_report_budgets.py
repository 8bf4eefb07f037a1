"""Leaderboard and player stats cost the same number of queries at 10 and at 200 games."""

import random

import pytest

from scorekeeper.demo import PlayerFactory, seed_games
from tests.api.conftest import app_for

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[10, 200])
def seeded(request):
    app = app_for(f"budget{request.param}@example.com")
    players = [PlayerFactory(owner=app.user, name=name) for name in ("Ann", "Ben", "Cy", "Dot", "Eve")]
    seed_games(app.user, players, request.param, random.Random(request.param))
    return app, players


def test_the_leaderboard_runs_a_fixed_number_of_queries(seeded, django_assert_num_queries):
    app, players = seeded
    # 1-2 token lookup, 3 user, 4 every player with their figures (one grouped join on the records)
    with django_assert_num_queries(4):
        response = app.get("/api/v1/leaderboard/")
    assert response.json()["count"] == len(players)


def test_player_stats_run_a_fixed_number_of_queries(seeded, django_assert_num_queries):
    app, players = seeded
    # 1-2 token lookup, 3 user, 4 the player, 5 figures, 6 per starting double, 7 head to head
    with django_assert_num_queries(7):
        response = app.get(f"/api/v1/players/{players[0].pk}/stats/")
    assert response.json()["games"] == players[0].seats.count()
