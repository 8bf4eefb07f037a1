"""The house options out and back in: an export keeps them, a version-1 file without them gets the
defaults, and a file with one out of range is refused whole."""

import copy

import pytest

from scorekeeper.models import Game, Player, Scorebook
from scorekeeper.rules.game import GameRules
from tests.api.conftest import app_for, round_body, start_game
from tests.api.test_transfer import snapshot

pytestmark = pytest.mark.django_db


def play(api, game, rounds):
    for double, pips, went_out in rounds:
        response = api.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, double, pips, went_out=went_out))
        assert response.status_code == 201, response.content


@pytest.fixture
def house_games(app):
    """A tie settled by rounds gone out, a game ended by its rounds agreed, one in progress on a short sequence."""
    tied = start_game(app, names=("Ann", "Ben"), name="Tied", tile_set=6,
                      rules={"first_double": 2, "tie_break": "most_went_out"})  # fmt: skip
    play(app, tied, [(2, 5, 0), (1, 5, 0), (0, 10, 1)])
    counted = start_game(
        app, names=("Ann", "Ben"), name="Counted", tile_set=9, rules={"rounds": 2, "target_score": 200}
    )
    play(app, counted, [(9, 12, 0), (8, 7, 1)])
    short = start_game(app, names=("Ann", "Ben"), name="Short", tile_set=12, rules={"first_double": 9})
    play(app, short, [(9, 20, 1)])
    return tied, counted, short


def test_an_export_keeps_the_house_options_and_the_standings_they_decide(app, house_games):
    exported = app.get("/api/v1/export/?format=json").json()
    assert exported["version"] == 2
    rules = {game["name"]: game["rules"] for game in exported["games"]}
    assert {name: (r["first_double"], r["rounds"], r["tie_break"]) for name, r in rules.items()} == {
        "Tied": (2, None, "most_went_out"), "Counted": (9, 2, "shared"), "Short": (9, None, "shared"),
    }  # fmt: skip
    other = app_for("fresh@example.com")
    response = other.post("/api/v1/import/", exported)
    assert response.status_code == 201 and response.json() == {"games": 3, "rounds": 6, "players_created": 2}
    assert snapshot(Scorebook.personal_for(other.user)) == snapshot(Scorebook.personal_for(app.user))
    imported = {game.name: game for game in Game.objects.filter(scorebook__personal_of=other.user)}
    assert imported["Tied"].rules == GameRules(tile_set=6, first_double=2, tie_break="most_went_out")
    assert [(s.player.name, s.total, s.rank, s.is_winner) for s in imported["Tied"].seats.order_by("rank")] == [
        ("Ann", 10, 1, True), ("Ben", 10, 2, False),
    ]  # fmt: skip
    assert (imported["Counted"].status, imported["Counted"].ended_because) == ("finished", "rounds")
    assert (imported["Short"].status, imported["Short"].next_double) == ("in_progress", 8)
    listed = {game["name"]: game for game in other.get("/api/v1/games/").json()["results"]}
    assert {name: game["rounds_planned"] for name, game in listed.items()} == {"Tied": 3, "Counted": 2, "Short": 10}


def test_a_version_1_file_written_without_the_house_options_imports_with_the_defaults(app, house_games):
    exported = app.get("/api/v1/export/").json()
    old = copy.deepcopy(exported)
    for game in old["games"]:
        if game["name"] == "Short":
            for option in ("first_double", "rounds", "tie_break"):
                del game["rules"][option]
    old["games"] = [game for game in old["games"] if game["name"] == "Short"]
    old["games"][0]["rounds"] = []  # 9-9 opens no round of a double-12 game that starts at 12-12
    other = app_for("old@example.com")
    response = other.post("/api/v1/import/", old)
    assert response.status_code == 201, response.content
    game = Game.objects.get(scorebook__personal_of=other.user)
    assert game.rules == GameRules(tile_set=12)
    assert (game.rules.first_double, game.rules.rounds, game.rules.tie_break) == (12, None, "shared")
    assert game.next_double == 12


def test_an_old_file_with_its_rounds_reads_as_a_full_game_sharing_ties(app):
    old = {"format": "chicken-foot-scorekeeper", "version": 1, "games": [{
        "uid": "5b1e0a36-1d8e-4d0c-9f55-2f6b1c4a7d10", "name": "Old night", "tile_set": 6,
        "rules": {"double_blank_penalty": 50, "end_on_double_penalty": 50, "extended": False, "target_score": None},
        "players": ["Ann", "Ben"],
        "rounds": [{"starting_double": 6, "entries": [{"player": "Ann", "pips": 0, "went_out": True},
                                                      {"player": "Ben", "pips": 9}]},
                   {"starting_double": 5, "entries": [{"player": "Ann", "pips": 9},
                                                      {"player": "Ben", "pips": 0, "went_out": True}]}]}]}  # fmt: skip
    response = app.post("/api/v1/import/", old)
    assert response.status_code == 201, response.content
    (game,) = app.get("/api/v1/games/").json()["results"]
    assert game["rules"]["first_double"] == 6 and game["rules"]["rounds"] is None
    assert game["rules"]["tie_break"] == "shared" and game["rounds_planned"] == 7
    assert [(s["name"], s["total"], s["rank"]) for s in game["standings"]] == [("Ann", 9, 1), ("Ben", 9, 1)]


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("tie_break", "coin", '"most_went_out" (got coin)'),
        ("tie_break", ["shared"], "most_went_out"),
        ("first_double", 20, "between 0-0 and 6-6 on a double-6 set (got 20)"),
        ("first_double", "9", '"first_double" must be a whole number'),
        ("rounds", 0, "1 to 1000 rounds"),
        ("rounds", 1001, "1 to 1000 rounds"),
        ("rounds", True, '"rounds" must be a whole number'),
    ],
)
def test_a_house_option_out_of_range_in_a_file_is_a_400_naming_the_game_and_saves_nothing(app, option, value, says):
    tied = start_game(app, names=("Ann", "Ben"), name="Tied", tile_set=6,
                      rules={"first_double": 2, "tie_break": "most_went_out"})  # fmt: skip
    play(app, tied, [(2, 5, 0)])
    start_game(app, names=("Cy", "Dot"), name="Fine", tile_set=6)
    exported = app.get("/api/v1/export/").json()
    bad = copy.deepcopy(exported)
    (game,) = [game for game in bad["games"] if game["name"] == "Tied"]
    game["rules"][option] = value
    other = app_for("careful@example.com")
    response = other.post("/api/v1/import/", bad)
    assert response.status_code == 400, response.content
    (message,) = response.json()["file"]
    number = bad["games"].index(game) + 1
    assert message.startswith(f"Game {number} (Tied)") and says in message, message
    assert not Game.objects.filter(scorebook__personal_of=other.user).exists()
    assert not Player.objects.filter(scorebook__personal_of=other.user).exists()
