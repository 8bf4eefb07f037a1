import pytest

from scorekeeper.models import Entry, Round
from tests.api.conftest import round_body, start_game

pytestmark = pytest.mark.django_db


def rounds_url(game, number=None):
    base = f"/api/v1/games/{game['id']}/rounds/"
    return base if number is None else f"{base}{number}/"


def test_it_records_a_round_as_in_the_contract(client_kind):
    api = client_kind
    game = start_game(api, tile_set=12)
    ann, ben, cy = (p["id"] for p in game["players"])
    body = {
        "starting_double": 12,
        "entries": [
            {"player": cy, "tiles": ["12-3", "5-5", "0-4"]},
            {"player": ann, "pips": 0, "went_out": True, "ended_on_double": True},
            {"player": ben, "pips": 37, "tiles_left": 4, "double_blank": True},
        ],
    }
    response = api.post(rounds_url(game), body)
    assert response.status_code == 201, response.json()
    assert response["Location"].endswith(rounds_url(game, 1)) and response["ETag"]
    round_ = response.json()
    assert (round_["number"], round_["starting_double"], round_["blocked"]) == (1, 12, False)
    assert [(e["player"], e["pips"], e["penalty"], e["score"]) for e in round_["entries"]] == [
        (ann, 0, 50, 50),
        (ben, 37, 50, 87),
        (cy, 29, 0, 29),
    ]
    assert round_["entries"][2]["tiles"] == ["12-3", "5-5", "4-0"] and round_["entries"][2]["tiles_left"] == 3
    game_now = api.get(f"/api/v1/games/{game['id']}/").json()
    assert game_now["next_starting_double"] == 11
    assert [(s["name"], s["total"], s["rank"]) for s in game_now["standings"]] == [
        ("Cy", 29, 1),
        ("Ann", 50, 2),
        ("Ben", 87, 3),
    ]


def test_the_worked_example_is_a_400_naming_player_entry_and_rule(app):
    game = start_game(app, tile_set=12)
    body = round_body(game, 12, 24, 5)
    body["entries"][1]["tiles_left"] = 1
    response = app.post(rounds_url(game), body)
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["entry"] == 1 and error["player"] == game["players"][1]["id"] and error["rule"] == 8
    assert error["field"] == "entries[1].pips"
    assert error["message"].startswith("Ben: 1 tile cannot hold 24 pips in a double-12 set while 12-12 is on the table")
    assert response.json()["entries"][1]["pips"] == [error["message"]]
    assert Round.objects.count() == 0 and Entry.objects.count() == 0


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"starting_double": "twelve"}, "starting_double"),
        ({"starting_double": None}, "starting_double"),
        ({"starting_double": 7}, "starting_double"),  # not in a double-6 set
        ({"entries": []}, "entries"),
        ({"entries": "all"}, "entries"),
        ({"entries": [{"player": "x"}]}, "entries"),
        ({"entries": [{"player": 1, "pips": 10**20}]}, "entries"),
        ({"entries": [{"player": 1, "tiles": "3-4"}]}, "entries"),
    ],
)
def test_malformed_rounds_are_a_400_naming_the_field_in_the_shape_of_a_broken_rule(app, change, field):
    game = start_game(app)
    response = app.post(rounds_url(game), round_body(game, 6, 3, 4) | change)
    body = response.json()
    assert response.status_code == 400 and body["detail"], body
    assert [error["field"] for error in body["errors"] if error["field"].startswith(field)], body
    assert all(error["message"] in body["detail"] for error in body["errors"])
    assert Round.objects.count() == 0


def test_an_empty_list_of_entries_answers_detail_and_errors_not_a_nested_object(app):
    game = start_game(app)
    body = app.post(rounds_url(game), {"starting_double": 6, "entries": []}).json()
    assert body["errors"] == [
        {"field": "entries", "entry": None, "player": None, "rule": None, "code": "empty", "message": body["detail"]}
    ]
    assert body["non_field_errors"] == [body["detail"]] and "entries" not in body


def test_a_malformed_entry_is_named_by_its_place_and_player(app):
    game = start_game(app)
    sent = round_body(game, 6, 3, 4)
    sent["entries"][1]["pips"] = "many"
    body = app.post(rounds_url(game), sent).json()
    assert [(e["field"], e["entry"], e["player"]) for e in body["errors"]] == [
        ("entries[1].pips", 1, sent["entries"][1]["player"])
    ]
    assert body["entries"] == [{}, {"pips": [body["detail"]]}, {}]


def test_pips_are_required_without_tiles(app):
    game = start_game(app)
    body = round_body(game, 6, 3, 4)
    del body["entries"][1]["pips"]
    response = app.post(rounds_url(game), body)
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "pips_required"


def test_a_missing_player_is_named(app):
    game = start_game(app)
    body = round_body(game, 6, 3, 4)
    body["entries"].pop()
    response = app.post(rounds_url(game), body)
    assert response.status_code == 400
    assert response.json()["errors"][0]["player"] == game["players"][2]["id"]
    assert "Cy" in response.json()["non_field_errors"][0]


def test_a_double_already_played_is_a_409_and_a_skip_is_allowed(app):
    game = start_game(app)
    assert app.post(rounds_url(game), round_body(game, 6, 3, 4)).status_code == 201
    response = app.post(rounds_url(game), round_body(game, 6, 3, 4))
    assert response.status_code == 409 and response.json()["code"] == "starting_double_unavailable"
    assert app.post(rounds_url(game), round_body(game, 3, 3, 4)).status_code == 201
    assert app.post(rounds_url(game), round_body(game, 4, 3, 4)).status_code == 409  # skipped


def test_it_lists_and_shows_rounds(app):
    game = start_game(app)
    app.post(rounds_url(game), round_body(game, 6, 3, 4))
    app.post(rounds_url(game), round_body(game, 5, 5, 6, went_out=1))
    listing = app.get(rounds_url(game)).json()
    assert listing["count"] == 2 and [r["number"] for r in listing["results"]] == [1, 2]
    one = app.get(rounds_url(game, 2))
    assert one.status_code == 200 and one["ETag"] and one.json()["starting_double"] == 5
    assert app.get(rounds_url(game, 3)).status_code == 404


def test_put_replaces_a_rounds_entries_and_totals_follow(app):
    game = start_game(app)
    app.post(rounds_url(game), round_body(game, 6, 3, 4))
    response = app.put(rounds_url(game, 1), round_body(game, 6, 10, 20))
    assert response.status_code == 200 and [e["score"] for e in response.json()["entries"]] == [0, 10, 20]
    totals = [s["total"] for s in app.get(f"/api/v1/games/{game['id']}/").json()["standings"]]
    assert totals == [0, 10, 20]


def test_put_cannot_change_the_starting_double(app):
    game = start_game(app)
    app.post(rounds_url(game), round_body(game, 6, 3, 4))
    assert app.put(rounds_url(game, 1), round_body(game, 5, 3, 4)).status_code == 409


def test_put_runs_every_check(app):
    game = start_game(app)
    app.post(rounds_url(game), round_body(game, 6, 3, 4))
    body = round_body(game, 6, 3, 4)
    body["entries"][1]["went_out"] = True
    assert app.put(rounds_url(game, 1), body).status_code == 400
    assert [e["pips"] for e in app.get(rounds_url(game, 1)).json()["entries"]] == [0, 3, 4]


def test_only_the_last_round_can_be_deleted(app):
    game = start_game(app)
    app.post(rounds_url(game), round_body(game, 6, 3, 4))
    app.post(rounds_url(game), round_body(game, 5, 3, 4))
    response = app.delete(rounds_url(game, 1))
    assert response.status_code == 409 and response.json()["code"] == "not_last_round"
    assert app.delete(rounds_url(game, 2)).status_code == 204
    assert app.get(f"/api/v1/games/{game['id']}/").json()["next_starting_double"] == 5


def test_undo_reopens_a_finished_game(app):
    game = start_game(app)
    for double in range(6, -1, -1):
        app.post(rounds_url(game), round_body(game, double, 3, 4))
    assert app.get(f"/api/v1/games/{game['id']}/").json()["status"] == "finished"
    assert app.delete(rounds_url(game, 7)).status_code == 204
    body = app.get(f"/api/v1/games/{game['id']}/").json()
    assert body["status"] == "in_progress" and body["next_starting_double"] == 0 and body["winners"] == []


def test_an_empty_tile_list_for_a_player_who_did_not_go_out_is_a_400_naming_them(app):
    game = start_game(app, tile_set=12)
    ann, ben, cy = (p["id"] for p in game["players"])
    body = {"starting_double": 12, "entries": [
        {"player": ann, "pips": 0, "went_out": True}, {"player": ben, "tiles": []}, {"player": cy, "pips": 5}]}  # fmt: skip
    response = app.post(rounds_url(game), body)
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "entries[1].tiles" and error["message"].startswith("Ben: an empty tile list")
    assert Round.objects.count() == 0


def test_tiles_typed_with_a_phones_dashes_are_read(app):
    game = start_game(app, tile_set=12)
    ann, ben, cy = (p["id"] for p in game["players"])
    body = {"starting_double": 12, "entries": [
        {"player": ann, "pips": 0, "went_out": True}, {"player": ben, "tiles": ["3\u20134", "5 \u2014 6"]},
        {"player": cy, "pips": 5}]}  # fmt: skip
    response = app.post(rounds_url(game), body)
    assert response.status_code == 201, response.json()
    assert response.json()["entries"][1]["tiles"] == ["6-5", "4-3"] and response.json()["entries"][1]["pips"] == 18


def test_a_tile_too_long_to_be_one_is_a_400_naming_the_player(app):
    game = start_game(app, tile_set=12)
    ann, ben, cy = (p["id"] for p in game["players"])
    body = {"starting_double": 12, "entries": [
        {"player": ann, "pips": 0, "went_out": True}, {"player": ben, "tiles": ["1" * 500]}, {"player": cy, "pips": 5}]}  # fmt: skip
    response = app.post(rounds_url(game), body)
    assert response.status_code == 400 and response.json()["errors"][0]["message"].startswith("Ben: ")


def test_an_undone_round_comes_back_as_it_was_until_another_round_is_recorded(app):
    game = start_game(app, tile_set=12)
    ann, ben, cy = (p["id"] for p in game["players"])
    body = {"starting_double": 12, "entries": [
        {"player": ann, "pips": 0, "went_out": True, "ended_on_double": True},
        {"player": ben, "tiles": ["5-4", "0-0"]}, {"player": cy, "pips": 7, "tiles_left": 2}]}  # fmt: skip
    recorded = app.post(rounds_url(game), body).json()
    assert app.post(f"{rounds_url(game)}restore/").status_code == 409  # nothing undone yet
    assert app.delete(rounds_url(game, 1)).status_code == 204
    restored = app.post(f"{rounds_url(game)}restore/")
    assert restored.status_code == 201 and restored["Location"].endswith(rounds_url(game, 1))
    assert restored.json()["entries"] == recorded["entries"]
    assert app.post(f"{rounds_url(game)}restore/").status_code == 409  # once only
    # Undo, then record another round: the undone one can no longer come back.
    app.delete(rounds_url(game, 1))
    app.post(rounds_url(game), round_body(game, 12, 3, 4))
    response = app.post(f"{rounds_url(game)}restore/")
    assert response.status_code == 409 and response.json()["code"] == "nothing_to_restore"
    assert [r["number"] for r in app.get(rounds_url(game)).json()["results"]] == [1]
