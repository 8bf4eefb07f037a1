"""The house options of a game through the API: a first double, a number of rounds, a tie-break."""

import pytest

from scorekeeper.models import Game, Round
from tests.api.conftest import make_players, round_body, start_game

pytestmark = pytest.mark.django_db


def rounds_url(game):
    return f"/api/v1/games/{game['id']}/rounds/"


def game_now(api, game):
    return api.get(f"/api/v1/games/{game['id']}/").json()


@pytest.mark.parametrize(
    ("tile_set", "options", "planned"),
    [
        (12, {"first_double": 9}, 10),
        (12, {"rounds": 5}, 5),
        (6, {"rounds": 20}, 7),  # the sequence ends first
        (6, {"rounds": 7, "target_score": 100}, 7),
        (6, {"first_double": 0}, 1),
        (12, {"rounds": 1000}, 13),
        (12, {"tie_break": "most_went_out"}, 13),
    ],
)
def test_it_creates_a_game_with_a_house_option_and_echoes_it(client_kind, tile_set, options, planned):
    game = start_game(client_kind, tile_set=tile_set, rules=options)
    defaults = {"double_blank_penalty": 50, "end_on_double_penalty": 50, "extended": False, "target_score": None,
                "first_double": tile_set, "rounds": None, "tie_break": "shared", "join_total": "highest"}  # fmt: skip
    assert game["rules"] == defaults | options
    assert game["rounds_planned"] == planned
    assert game["next_starting_double"] == game["rules"]["first_double"]
    assert game_now(client_kind, game)["rules"] == game["rules"]


def test_a_null_first_double_is_the_sets_top_double(app):
    game = start_game(app, tile_set=9, rules={"first_double": None})
    assert game["rules"]["first_double"] == 9 and game["next_starting_double"] == 9
    assert game["rounds_planned"] == 10


@pytest.mark.parametrize(
    ("tile_set", "options", "field"),
    [
        (12, {"first_double": 13}, "first_double"),
        (6, {"first_double": 7}, "first_double"),
        (6, {"first_double": -1}, "first_double"),
        (6, {"first_double": "top"}, "first_double"),
        (6, {"rounds": 0}, "rounds"),
        (6, {"rounds": 1001}, "rounds"),
        (6, {"tie_break": "coin"}, "tie_break"),
        (6, {"first_double": 0, "target_score": 100}, "first_double"),
    ],
)
def test_a_house_option_out_of_range_is_a_400_naming_it_under_rules_and_creates_nothing(
    client_kind, tile_set, options, field
):
    ids = make_players(client_kind, "Ann", "Ben")
    response = client_kind.post("/api/v1/games/", {"tile_set": tile_set, "players": ids, "rules": options})
    assert response.status_code == 400, response.content
    body = response.json()
    assert list(body) == ["rules"] and list(body["rules"]) == [field], body
    assert body["rules"][field][0]
    assert Game.objects.count() == 0


def test_a_short_game_counts_down_from_its_first_double_and_ends_at_the_blank(app):
    game = start_game(app, tile_set=6, rules={"first_double": 3})
    assert game["next_starting_double"] == 3 and game["rounds_planned"] == 4
    response = app.post(rounds_url(game), round_body(game, 4, 3, 4))  # above the game's first double
    assert response.status_code in (400, 409) and "3-3" in str(response.json()), response.content
    assert Round.objects.count() == 0
    for double in (3, 2, 1, 0):
        assert game_now(app, game)["next_starting_double"] == double
        assert app.post(rounds_url(game), round_body(game, double, 3, 4)).status_code == 201
    body = game_now(app, game)
    assert body["status"] == "finished" and body["next_starting_double"] is None and body["finished_at"]
    assert [s["total"] for s in body["standings"]] == [0, 12, 16] and body["winners"] == [game["players"][0]["id"]]
    assert app.post(rounds_url(game), round_body(game, 0, 3, 4)).status_code == 409
    assert Round.objects.count() == 4


def test_a_double_above_the_first_double_is_a_400_naming_the_starting_double(app):
    """docs/api.md: a 400 is a body no game state could fix (7-7 on a double-6 set is one), a 409 a body
    that conflicts with the game's state. No round ever makes 4-4 playable in a game from 3-3."""
    game = start_game(app, tile_set=6, rules={"first_double": 3})
    response = app.post(rounds_url(game), round_body(game, 4, 3, 4))
    assert response.status_code == 400, response.content
    assert [error["field"] for error in response.json()["errors"]] == ["starting_double"]
    assert response.json()["errors"][0]["code"] == "starting_double_above_first"
    assert Round.objects.count() == 0


def test_a_game_of_two_rounds_finishes_after_two_with_doubles_left(app):
    game = start_game(app, tile_set=6, rules={"rounds": 2})
    assert game["rounds_planned"] == 2
    assert app.post(rounds_url(game), round_body(game, 6, 3, 4)).status_code == 201
    assert game_now(app, game)["status"] == "in_progress"
    assert app.post(rounds_url(game), round_body(game, 5, 5, 2, went_out=1)).status_code == 201
    body = game_now(app, game)
    assert body["status"] == "finished" and body["next_starting_double"] is None
    assert [(s["name"], s["total"], s["rank"]) for s in body["standings"]] == [
        ("Ben", 3, 1),
        ("Ann", 5, 2),
        ("Cy", 6, 3),
    ]
    assert app.post(rounds_url(game), round_body(game, 4, 3, 4)).status_code == 409


def test_rounds_with_a_target_end_at_whichever_comes_first(app):
    by_target = start_game(app, names=("Ann", "Ben"), tile_set=6, rules={"rounds": 3, "target_score": 20})
    assert app.post(rounds_url(by_target), round_body(by_target, 6, 25)).status_code == 201
    assert game_now(app, by_target)["status"] == "finished"
    by_rounds = start_game(app, names=("Dot", "Eve"), tile_set=6, rules={"rounds": 2, "target_score": 500})
    for double in (6, 5):
        assert app.post(rounds_url(by_rounds), round_body(by_rounds, double, 10)).status_code == 201
    assert game_now(app, by_rounds)["status"] == "finished"


def play_a_tie(api, tie_break, *, broken=True):
    """Ann and Ben finish level on 10. When `broken`, Ann went out in two rounds and Ben in one;
    otherwise each went out once."""
    if broken:
        game = start_game(api, names=("Ann", "Ben"), tile_set=6, rules={"first_double": 2, "tie_break": tie_break})
        rounds = [(2, 5, 0), (1, 5, 0), (0, 10, 1)]
    else:
        game = start_game(api, names=("Ann", "Ben"), tile_set=6, rules={"first_double": 1, "tie_break": tie_break})
        rounds = [(1, 10, 0), (0, 10, 1)]
    for double, pips, went_out in rounds:
        response = api.post(rounds_url(game), round_body(game, double, pips, went_out=went_out))
        assert response.status_code == 201, response.content
    body = game_now(api, game)
    assert body["status"] == "finished"
    return game, body


def test_a_shared_tie_break_leaves_equal_totals_sharing_the_win(app):
    game, body = play_a_tie(app, "shared")
    assert [(s["name"], s["total"], s["rank"]) for s in body["standings"]] == [("Ann", 10, 1), ("Ben", 10, 1)]
    assert sorted(body["winners"]) == sorted(p["id"] for p in game["players"])


def test_most_went_out_ranks_equal_totals_by_rounds_gone_out(app):
    game, body = play_a_tie(app, "most_went_out")
    assert [(s["name"], s["total"], s["rank"]) for s in body["standings"]] == [("Ann", 10, 1), ("Ben", 10, 2)]
    assert body["winners"] == [game["players"][0]["id"]]


def test_most_went_out_still_shares_when_the_rounds_gone_out_are_equal_too(app):
    game, body = play_a_tie(app, "most_went_out", broken=False)
    assert [(s["name"], s["total"], s["rank"]) for s in body["standings"]] == [("Ann", 10, 1), ("Ben", 10, 1)]
    assert sorted(body["winners"]) == sorted(p["id"] for p in game["players"])


def test_most_went_out_ranks_ties_while_the_game_goes_on_but_names_no_winner(app):
    game = start_game(app, names=("Ann", "Ben"), tile_set=6, rules={"tie_break": "most_went_out"})
    for double, pips, went_out in [(6, 5, 0), (5, 5, 0), (4, 10, 1)]:
        assert app.post(rounds_url(game), round_body(game, double, pips, went_out=went_out)).status_code == 201
    body = game_now(app, game)
    assert body["status"] == "in_progress" and body["winners"] == []
    assert [(s["name"], s["total"], s["rank"]) for s in body["standings"]] == [("Ann", 10, 1), ("Ben", 10, 2)]
