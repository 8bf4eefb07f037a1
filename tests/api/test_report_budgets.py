"""Leaderboard and player stats cost the same number of queries at 10 and at 100 games."""

import random
from datetime import date

import pytest

from scorekeeper.demo import seed_games
from scorekeeper.models import Membership, Player
from scorekeeper.services import scorebooks
from tests.api.conftest import app_for
from tests.factories import PlayerFactory
from tests.seasons import make_season

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[10, 100])
def seeded(request):
    app = app_for(f"budget{request.param}@example.com")
    players = [PlayerFactory(owner=app.user, name=name) for name in ("Ann", "Ben", "Cy", "Dot", "Eve")]
    seed_games(app.user, players, request.param, random.Random(request.param))
    # Several scorebooks: a club the user belongs to, and a stranger's, both with games of their own.
    for owner, name in ((app.user, "Club"), (app_for(f"other{request.param}@example.com").user, "Elsewhere")):
        book = scorebooks.create(by=owner, name=name)
        table = [Player.objects.create(scorebook=book, name=f"{name} {i}") for i in range(4)]
        seed_games(owner, table, request.param // 10, random.Random(7), scorebook=book)
    Membership.objects.filter(user=app.user).update(last_used_at=None)
    return app, players


def test_the_leaderboard_runs_a_fixed_number_of_queries(seeded, django_assert_num_queries):
    app, players = seeded
    # 1 the token's session (one read: accounts.tokens), 2 user, 3 the players of the personal
    # scorebook, 4 their per-set records (summed in Python: a few rows per player whatever the history)
    with django_assert_num_queries(4):
        response = app.get("/api/v1/leaderboard/")
    assert response.json()["count"] == len(players)
    club = app.get("/api/v1/scorebooks/").json()["results"][1]
    # 1 the token's session, 2 user, 3 the scorebook with the caller's role (membership), 4 its
    # players, 5 their per-set records
    with django_assert_num_queries(5):
        response = app.get(f"/api/v1/leaderboard/?scorebook={club['id']}")
    assert response.json()["count"] == 4
    # Filtered by set and day: 1 session, 2 user, 3 the personal scorebook (its time zone: when the day
    # begins), 4 its players, 5 their figures over the games chosen (summed from the window's seats)
    with django_assert_num_queries(5):
        response = app.get("/api/v1/leaderboard/?tile_set=12&since=2020-01-01&sort=rating")
    assert response.json()["count"] == len(players)
    season = make_season(book=players[0].scorebook, name="Long", starts=date(2020, 1, 1), ends=date(2099, 1, 1))
    # By season: 1 session, 2 user, 3 the season with the caller's role and its scorebook, 4 its
    # players, 5 their figures over the season's games (summed from the window's seats)
    with django_assert_num_queries(5):
        response = app.get(f"/api/v1/leaderboard/?season={season.pk}")
    assert response.json()["count"] == len(players)


def test_player_stats_run_a_fixed_number_of_queries(seeded, django_assert_num_queries):
    app, players = seeded
    # 1 the token's session, 2 user, 3 the player (of a scorebook of the user's) with their best and
    # worst totals (along the seat_player_total index), 4 their per-set records, 5 per-double records,
    # 6 head-to-head records, 7 nemesis and victim (one grouped self-join of the ranked seats),
    # 8 the winning streaks (window functions), 9 the best comeback (the saved deficits)
    with django_assert_num_queries(9):
        response = app.get(f"/api/v1/players/{players[0].pk}/stats/")
    assert response.json()["games"] == players[0].seats.count()
