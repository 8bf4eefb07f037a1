"""The Ratings section of the contract: leaderboard rows and player stats carry a rating; ?sort=rating."""

import pytest

from scorekeeper.rules.rating import START
from tests.api.conftest import round_body, start_game

pytestmark = pytest.mark.django_db


def finish(app, game, *pips, went_out=0):
    """Play a double-6 game to its end: 7 rounds, 6-6 down to 0-0, with the same hands."""
    for double in range(6, -1, -1):
        response = app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, double, *pips, went_out=went_out))
        assert response.status_code == 201, response.content


def test_leaderboard_rows_and_stats_carry_the_rating_and_sort_by_it(app):
    game = start_game(app)  # Ann, Ben, Cy on double-6; Ann goes out every round
    finish(app, game, 5, 9)
    rows = app.get("/api/v1/leaderboard/").json()["results"]
    rating = {row["player"]["name"]: row["rating"] for row in rows}
    assert set(rating["Ann"]) == {"mu", "sigma", "ordinal"}
    assert rating["Ann"]["ordinal"] == pytest.approx(rating["Ann"]["mu"] - 3 * rating["Ann"]["sigma"])
    assert rating["Ann"]["mu"] > START.mu > rating["Cy"]["mu"]  # lowest total first, highest last
    by_rating = app.get("/api/v1/leaderboard/?sort=rating").json()["results"]
    assert [row["player"]["name"] for row in by_rating] == ["Ann", "Ben", "Cy"]
    ann = rows[[row["player"]["name"] for row in rows].index("Ann")]["player"]["id"]
    assert app.get(f"/api/v1/players/{ann}/stats/").json()["rating"] == rating["Ann"]


def test_a_player_without_finished_games_has_the_starting_rating(app):
    start_game(app)
    row = app.get("/api/v1/leaderboard/").json()["results"][0]
    assert row["rating"] == {"mu": START.mu, "sigma": START.sigma, "ordinal": pytest.approx(0.0)}


def test_an_unknown_sort_is_a_400_naming_the_field(app):
    response = app.get("/api/v1/leaderboard/?sort=luck")
    assert response.status_code == 400 and "sort" in response.json()
