"""The join rule at the door: `POST .../seats/` takes "join_total" to choose a joiner's opening total
for that join only (docs/api.md, "Seats that change during a game")."""

import json

import pytest

from scorekeeper.models import Game, SeatChange
from tests.api.conftest import make_players, start_game
from tests.api.test_seats import play, player_of, seat, url

pytestmark = pytest.mark.django_db


def test_a_joiner_starts_with_the_total_the_table_chose_at_the_door_and_the_next_one_with_the_game_option(app):
    game = start_game(app)  # join_total: highest (the default)
    game = play(app, game, 6, Ann=0, Ben=9, Cy=14)
    dee, eve = make_players(app, "Dee", "Eve")
    game = seat(app, game, {"player": dee, "join_total": "average"})
    assert player_of(game, "Dee")["opening_total"] == 8  # (0 + 9 + 14) / 3 = 7.67, rounded up
    assert game["rules"]["join_total"] == "highest"  # the game's option is unchanged
    game = seat(app, game, {"player": eve})
    assert player_of(game, "Eve")["opening_total"] == 14  # the game's option again: the highest
    assert list(SeatChange.objects.order_by("number").values_list("join_total", flat=True)) == ["average", ""]
    # A round later the chosen opening total still stands (the state is replayed from the changes).
    game = play(app, game, 5, Ann=3, Ben=0, Cy=4, Dee=2, Eve=1)
    assert {row["name"]: row["total"] for row in game["standings"]}["Dee"] == 10


def test_a_join_total_that_is_not_one_of_the_three_is_a_400_naming_join_total_and_nothing_changes(app):
    game = play(app, start_game(app), 6, Ann=0, Ben=9, Cy=14)
    [dee] = make_players(app, "Dee")
    version = Game.objects.get(pk=game["id"]).version
    for wrong in ("lowest", 7, ""):
        answer = app.post(url(game, "seats/"), {"player": dee, "join_total": wrong})
        assert answer.status_code == 400, answer.content
        assert list(answer.json()) == ["join_total"]
        assert "highest, average, zero" in answer.json()["join_total"][0]
    # Only a joiner starts from a chosen total: a take-over continues the seat's.
    answer = app.post(url(game, "seats/"), {"player": dee, "replaces": game["players"][1]["id"], "join_total": "zero"})
    assert answer.status_code == 400 and list(answer.json()) == ["join_total"], answer.content
    assert Game.objects.get(pk=game["id"]).version == version
    assert not SeatChange.objects.exists()


def test_an_export_carries_the_total_chosen_at_the_door_and_an_import_replays_it(app):
    game = play(app, start_game(app), 6, Ann=0, Ben=9, Cy=14)
    [dee] = make_players(app, "Dee")
    seat(app, game, {"player": dee, "join_total": "zero"})
    exported = app.get("/api/v1/export/?format=json").json()
    [change] = exported["games"][0]["seat_changes"]
    assert change == {"after": 1, "kind": "join", "player": "Dee", "replaces": None, "join_total": "zero"}
    book = app.post("/api/v1/scorebooks/", {"name": "Copy"}).json()
    assert app.post(f"/api/v1/import/?scorebook={book['id']}", json.dumps(exported)).status_code == 201
    copy = Game.objects.filter(scorebook_id=book["id"]).get()
    assert player_of(app.get(f"/api/v1/games/{copy.pk}/").json(), "Dee")["opening_total"] == 0
    change["join_total"] = "lowest"
    wrong = app.post(f"/api/v1/import/?scorebook={book['id']}", json.dumps(exported | {"games": exported["games"]}))
    assert wrong.status_code == 400 and "join_total" in str(wrong.json()), wrong.content


def test_a_paper_game_keeps_the_total_its_table_chose_for_a_joiner(app):
    ann, ben, cy, dee = make_players(app, "Ann", "Ben", "Cy", "Dee")
    body = {"tile_set": 6, "players": [ann, ben, cy, dee], "played_on": "2026-10-31",
            "rounds": [
                {"starting_double": 6, "entries": [{"player": ann, "pips": 0, "went_out": True},
                                                   {"player": ben, "pips": 9}, {"player": cy, "pips": 14}]},
                {"starting_double": 5, "entries": [{"player": ann, "pips": 3}, {"player": ben, "pips": 0, "went_out": True},
                                                   {"player": cy, "pips": 4}, {"player": dee, "pips": 2}]}],
            "seat_changes": [{"kind": "join", "player": dee, "after": 1, "join_total": "zero"}]}  # fmt: skip
    game = app.post("/api/v1/games/", body)
    assert game.status_code == 201, game.content
    assert player_of(game.json(), "Dee")["opening_total"] == 0  # the game's option (highest) would be 14
    body["seat_changes"][0]["join_total"] = "lowest"
    wrong = app.post("/api/v1/games/", body)
    assert wrong.status_code == 400 and "join_total" in str(wrong.json()), wrong.content
