"""Game detail and game list cost the same number of queries however big the games are."""

import pytest

from tests.api.conftest import app_for, make_players, round_body

pytestmark = pytest.mark.django_db


def build(app, players, rounds, games=1):
    # Another scorebook of the user's with a game, and a stranger's: scoping must not cost queries.
    for api in (app, app_for(f"stranger{players}{rounds}{games}@example.com")):
        club = api.post("/api/v1/scorebooks/", {"name": "Club"}).json()["id"]
        ids = [api.post("/api/v1/players/", {"name": n, "scorebook": club}).json()["id"] for n in ("X", "Y")]
        api.post("/api/v1/games/", {"players": ids, "scorebook": club})
    ids = make_players(app, *(f"P{i}" for i in range(players)))
    made = []
    for _ in range(games):
        game = app.post("/api/v1/games/", {"players": ids, "tile_set": 12}).json()
        for double in range(12, 12 - rounds, -1):
            body = round_body(game, double, *range(3, 2 + players))  # distinct hands a deal can give
            assert app.post(f"/api/v1/games/{game['id']}/rounds/", body).status_code == 201
        made.append(game)
    return made


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (8, 10)])
def test_game_detail_runs_a_fixed_number_of_queries(app, django_assert_num_queries, players, rounds):
    (game,) = build(app, players, rounds)
    # 1-2 allauth's token lookup (exists, then load), 3 user, 4 game with last position,
    # 5 seats + players, 6 rounds, 7 entries
    with django_assert_num_queries(7):
        response = app.get(f"/api/v1/games/{game['id']}/")
    assert len(response.json()["rounds"]) == rounds


@pytest.mark.parametrize(("players", "games"), [(2, 1), (6, 5)])
def test_game_list_runs_a_fixed_number_of_queries(app, django_assert_num_queries, players, games):
    build(app, players, 3, games)
    # 1-2 token lookup, 3 user, 4 count, 5 page of games with last position, 6 seats + players
    with django_assert_num_queries(6):
        response = app.get("/api/v1/games/")
    assert response.json()["count"] == games + 1  # and the club's game
    personal = app.get("/api/v1/scorebooks/").json()["results"][0]["id"]
    # 1-2 token lookup, 3 user, 4 the scorebook (membership checked), 5 count, 6 page, 7 seats + players
    with django_assert_num_queries(7):
        response = app.get(f"/api/v1/games/?scorebook={personal}")
    assert response.json()["count"] == games
