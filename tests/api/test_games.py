import pytest

from scorekeeper.models import Game
from tests.api.conftest import make_players, round_body, start_game

pytestmark = pytest.mark.django_db


def test_it_creates_a_game_with_seat_order_and_default_rules(client_kind):
    api = client_kind
    ids = make_players(api, "Cy", "Ann", "Ben")
    response = api.post("/api/v1/games/", {"name": "Friday", "players": [ids[2], ids[0], ids[1]]})
    assert response.status_code == 201
    game = response.json()
    assert response["Location"].endswith(f"/api/v1/games/{game['id']}/")
    assert [p["name"] for p in game["players"]] == ["Ben", "Cy", "Ann"]
    assert game["tile_set"] == 12
    assert game["rules"] == {
        "double_blank_penalty": 50, "end_on_double_penalty": 50, "extended": False, "target_score": None,
        "first_double": 12, "rounds": None, "tie_break": "shared", "join_total": "highest",
    }  # fmt: skip
    assert game["status"] == "in_progress" and game["next_starting_double"] == 12
    assert game["rounds"] == [] and game["winners"] == [] and game["finished_at"] is None
    assert [s["total"] for s in game["standings"]] == [0, 0, 0] and {s["rank"] for s in game["standings"]} == {1}
    assert game["rounds_planned"] == 13 and game["suggested_deal"] == {"tiles": 15, "alternative": 16}


def test_it_keeps_the_rules_it_was_given(app):
    rules = {"double_blank_penalty": 25, "end_on_double_penalty": 0, "extended": True, "target_score": 300,
             "first_double": 7, "rounds": None, "tie_break": "most_went_out", "join_total": "highest"}  # fmt: skip
    game = start_game(app, tile_set=9, rules=rules)
    assert game["rules"] == rules and game["tile_set"] == 9
    assert game["rounds_planned"] is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"tile_set": 10}, "tile_set"),
        ({"players": []}, "players"),
        ({"players": "1,2"}, "players"),
        ({"rules": {"double_blank_penalty": -5}}, "rules"),
        ({"rules": {"target_score": 0}}, "rules"),
        ({"rules": "strict"}, "rules"),
        ({"name": "x" * 81}, "name"),
    ],
)
def test_a_bad_game_is_a_400_naming_the_field(app, change, field):
    ids = make_players(app, "Ann", "Ben")
    response = app.post("/api/v1/games/", {"players": ids} | change)
    assert response.status_code == 400 and field in response.json(), response.json()
    assert Game.objects.count() == 0


def test_players_must_be_the_users_own_and_distinct(app, other_app):
    mine = make_players(app, "Ann")
    theirs = make_players(other_app, "Zed")
    response = app.post("/api/v1/games/", {"players": [mine[0], theirs[0]]})
    assert response.status_code == 400 and str(theirs[0]) in response.json()["players"][0]
    assert app.post("/api/v1/games/", {"players": [mine[0], mine[0]]}).status_code == 400


def test_the_list_is_paginated_and_carries_status_and_standings(app):
    ids = make_players(app, "Ann", "Ben")
    for _ in range(3):
        app.post("/api/v1/games/", {"players": ids, "tile_set": 6})
    body = app.get("/api/v1/games/?page_size=2").json()
    assert body["count"] == 3 and len(body["results"]) == 2 and body["next"]
    assert {"status", "standings", "next_starting_double"} <= set(body["results"][0])
    assert "rounds" not in body["results"][0]


def test_the_list_filters_by_status(app):
    game = start_game(app)
    for double in range(6, -1, -1):
        app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, double, 1, 2))
    app.post("/api/v1/games/", {"players": [p["id"] for p in game["players"]], "tile_set": 6})
    assert app.get("/api/v1/games/?status=finished").json()["count"] == 1
    assert app.get("/api/v1/games/?status=in_progress").json()["count"] == 1


def test_patch_renames_and_refuses_any_other_change(app):
    game = start_game(app)
    url = f"/api/v1/games/{game['id']}/"
    assert app.patch(url, {"name": "Saturday"}).json()["name"] == "Saturday"
    response = app.patch(url, {"name": "Sunday", "tile_set": 9})
    assert response.status_code == 400 and "tile_set" in response.json()
    assert app.get(url).json()["name"] == "Saturday"


def test_delete_removes_the_game(app):
    game = start_game(app)
    assert app.delete(f"/api/v1/games/{game['id']}/").status_code == 204
    assert app.get(f"/api/v1/games/{game['id']}/").status_code == 404


def test_a_finished_game_shows_winners_and_no_next_double(app):
    game = start_game(app)
    for double in range(6, -1, -1):
        assert (
            app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, double, 3, 3, went_out=0)).status_code
            == 201
        )
    body = app.get(f"/api/v1/games/{game['id']}/").json()
    assert body["status"] == "finished" and body["next_starting_double"] is None and body["finished_at"]
    assert body["winners"] == [game["players"][0]["id"]]
    assert [(s["name"], s["total"], s["rank"]) for s in body["standings"]] == [
        ("Ann", 0, 1),
        ("Ben", 21, 2),
        ("Cy", 21, 2),
    ]
    response = app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 0, 3, 3))
    assert response.status_code == 409


@pytest.mark.parametrize("body", ["{not json", "[]", '"text"', "null"])
def test_malformed_json_is_a_400(app, body):
    response = app.post("/api/v1/games/", body)
    assert response.status_code == 400
