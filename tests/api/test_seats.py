"""Seats that change during a game, through the API (docs/api.md, "Seats that change during a game")."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Game, SeatChange
from scorekeeper.rules.deal import suggested_deal
from tests.api.conftest import make_players, start_game
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def url(game, tail=""):
    return f"/api/v1/games/{game['id']}/{tail}"


def ids(game) -> dict:
    return {player["name"]: player["id"] for player in game["players"]}


def play(api, game, double, **pips):
    """Record a round: each named player's pips; the one with 0 went out."""
    players = ids(game)
    entries = [{"player": players[name], "pips": value, "went_out": value == 0} for name, value in pips.items()]
    response = api.post(url(game, "rounds/"), {"starting_double": double, "entries": entries})
    assert response.status_code == 201, response.content
    return api.get(url(game)).json()


def seat(api, game, body, status=201):
    response = api.post(url(game, "seats/"), body)
    assert response.status_code == status, response.content
    return response.json()


def player_of(game, name) -> dict:
    return next(player for player in game["players"] if player["name"] == name)


def test_a_late_joiner_starts_with_the_highest_total_and_must_be_entered_from_then_on(client_kind):
    game = start_game(client_kind)
    game = play(client_kind, game, 6, Ann=0, Ben=9, Cy=14)
    [dee] = make_players(client_kind, "Dee")
    game = seat(client_kind, game, {"player": dee})
    assert game == client_kind.get(url(game)).json()  # the answer is the game as a read gives it
    joined = player_of(game, "Dee")
    assert joined == {"id": dee, "name": "Dee", "joined_after": 1, "left_after": None, "opening_total": 14,
                      "replaced": None, "seated": True, "rounds_played": 0}  # fmt: skip
    assert [p["name"] for p in game["players"]] == ["Ann", "Ben", "Cy", "Dee"]
    assert game["suggested_deal"]["tiles"] == suggested_deal(6, 4).tiles != suggested_deal(6, 3).tiles
    # A round without the joiner names her.
    players = ids(game)
    missing = client_kind.post(url(game, "rounds/"), {"starting_double": 5, "entries": [
        {"player": players["Ann"], "pips": 3}, {"player": players["Ben"], "pips": 0, "went_out": True},
        {"player": players["Cy"], "pips": 4}]})  # fmt: skip
    assert missing.status_code == 400
    assert "Dee" in str(missing.json())
    game = play(client_kind, game, 5, Ann=3, Ben=0, Cy=4, Dee=2)
    assert player_of(game, "Dee")["rounds_played"] == 1
    totals = {row["name"]: row["total"] for row in game["standings"]}
    assert totals == {"Ann": 3, "Ben": 9, "Cy": 18, "Dee": 16}


def test_a_take_over_continues_the_seat_and_the_replaced_player_follows_the_standings_unranked(client_kind):
    game = start_game(client_kind)
    game = play(client_kind, game, 6, Ann=0, Ben=9, Cy=14)
    [eve] = make_players(client_kind, "Eve")
    game = seat(client_kind, game, {"player": eve, "replaces": ids(game)["Ben"]})
    assert [p["name"] for p in game["players"]] == ["Ann", "Ben", "Eve", "Cy"]
    assert player_of(game, "Eve") | {"id": 0} == {"id": 0, "name": "Eve", "joined_after": 1, "left_after": None,
                                                "opening_total": 9, "replaced": ids(game)["Ben"], "seated": True,
                                                "rounds_played": 0}  # fmt: skip
    assert player_of(game, "Ben")["left_after"] == 1 and not player_of(game, "Ben")["seated"]
    # Ben's entry is refused from now on, by name.
    players = ids(game)
    extra = client_kind.post(url(game, "rounds/"), {"starting_double": 5, "entries": [
        {"player": players[name], "pips": pips, "went_out": pips == 0}
        for name, pips in (("Ann", 3), ("Ben", 5), ("Eve", 0), ("Cy", 4))]})  # fmt: skip
    assert extra.status_code == 400 and "Ben: not seated in this round" in str(extra.json())
    game = play(client_kind, game, 5, Ann=3, Eve=0, Cy=4)
    assert game["standings"][-1] == {"player": players["Ben"], "name": "Ben", "total": 9, "rank": None, "left_after": 1}
    assert [row["name"] for row in game["standings"]] == ["Ann", "Eve", "Cy", "Ben"]


def test_a_player_leaves_and_the_last_but_one_cannot(client_kind):
    game = start_game(client_kind)
    game = play(client_kind, game, 6, Ann=0, Ben=9, Cy=14)
    left = client_kind.delete(url(game, f"seats/{ids(game)['Cy']}/"))
    assert left.status_code == 200, left.content
    assert player_of(left.json(), "Cy")["left_after"] == 1
    refused = client_kind.delete(url(game, f"seats/{ids(game)['Ben']}/"))
    assert refused.status_code == 409 and refused.json()["code"] == "too_few_players"
    assert SeatChange.objects.filter(game_id=game["id"]).count() == 1


@pytest.mark.parametrize(
    ("case", "field"),
    [("seated", "player"), ("left", "player"), ("other_book", "player"), ("eleventh", "player"),
     ("eleventh_after_a_round", "player"), ("replaces_nobody", "replaces"), ("finished", "game")],
)  # fmt: skip
def test_a_seat_change_a_rule_forbids_is_a_400_naming_the_field_and_changes_nothing(app, case, field):
    names = [f"P{n}" for n in range(10)] if case.startswith("eleventh") else ("Ann", "Ben", "Cy")
    game = start_game(app, names=names, **({"rules": {"rounds": 1}} if case == "finished" else {}))
    first = {name: (0 if index == 0 else 3 + index) for index, name in enumerate(names)}
    game = play(app, game, 6, **first) if case != "eleventh" else game
    [newcomer] = make_players(app, "New")
    body = {"player": newcomer}
    if case == "seated":
        body = {"player": ids(game)["Ben"]}
    elif case == "left":
        app.delete(url(game, f"seats/{ids(game)['Cy']}/"))
        body = {"player": ids(game)["Cy"]}
    elif case == "other_book":
        body = {"player": PlayerFactory(owner=UserFactory(), name="Zed").pk}
    elif case == "replaces_nobody":
        body = {"player": newcomer, "replaces": newcomer + 999}
    version = Game.objects.get(pk=game["id"]).version
    response = app.post(url(game, "seats/"), body)
    assert response.status_code == 400, response.content
    assert field in response.json()
    if case.startswith("eleventh"):
        assert "at most 10 players" in str(response.json())
    assert Game.objects.get(pk=game["id"]).version == version


def test_undo_goes_backwards_through_rounds_and_seat_changes(client_kind):
    game = start_game(client_kind)
    game = play(client_kind, game, 6, Ann=0, Ben=9, Cy=14)
    [dee] = make_players(client_kind, "Dee")
    seat(client_kind, game, {"player": dee})
    blocked = client_kind.delete(url(game, "rounds/1/"))
    assert blocked.status_code == 409 and blocked.json()["code"] == "seat_change_after"
    undone = client_kind.delete(url(game, "seats/changes/last/"))
    assert undone.status_code == 200
    assert [p["name"] for p in undone.json()["players"]] == ["Ann", "Ben", "Cy"]
    assert client_kind.delete(url(game, "rounds/1/")).status_code == 204
    nothing = client_kind.delete(url(game, "seats/changes/last/"))
    assert nothing.status_code == 409 and nothing.json()["code"] == "no_seat_change"


def test_a_seat_change_with_a_round_after_it_cannot_be_undone_first(app):
    game = start_game(app)
    game = play(app, game, 6, Ann=0, Ben=9, Cy=14)
    app.delete(url(game, f"seats/{ids(game)['Cy']}/"))
    play(app, game, 5, Ann=0, Ben=9)
    refused = app.delete(url(game, "seats/changes/last/"))
    assert refused.status_code == 409 and refused.json()["code"] == "round_after"


def test_before_the_first_round_a_join_is_an_ordinary_seat_and_a_leave_takes_the_seat_away(app):
    game = start_game(app)
    [dee] = make_players(app, "Dee")
    game = seat(app, game, {"player": dee, "after": ids(game)["Ann"]})
    assert [p["name"] for p in game["players"]] == ["Ann", "Dee", "Ben", "Cy"]
    assert player_of(game, "Dee")["joined_after"] is None
    game = app.delete(url(game, f"seats/{ids(game)['Ben']}/")).json()
    assert [p["name"] for p in game["players"]] == ["Ann", "Dee", "Cy"]
    assert not SeatChange.objects.filter(game_id=game["id"]).exists()
    play(app, game, 6, Ann=0, Dee=4, Cy=14)


def test_the_average_join_total_is_a_game_option(app):
    game = start_game(app, rules={"join_total": "average"})
    assert game["rules"]["join_total"] == "average"
    game = play(app, game, 6, Ann=0, Ben=9, Cy=14)
    [dee] = make_players(app, "Dee")
    assert player_of(seat(app, game, {"player": dee}), "Dee")["opening_total"] == 8  # (0 + 9 + 14) / 3, rounded up


def test_who_shuffles_next_moves_round_by_round_to_the_next_seated_player(app):
    game = start_game(app)
    assert game["shuffles_next"] == ids(game)["Ann"]
    game = play(app, game, 6, Ann=0, Ben=9, Cy=14)
    assert game["shuffles_next"] == ids(game)["Ben"]
    game = app.delete(url(game, f"seats/{ids(game)['Ben']}/")).json()
    assert game["shuffles_next"] == ids(game)["Cy"]  # Ben would have: he left, so the next seated player


def test_the_history_names_each_seat_change_and_its_undoing(app):
    game = start_game(app)
    game = play(app, game, 6, Ann=0, Ben=9, Cy=14)
    [dee, eve] = make_players(app, "Dee", "Eve")
    seat(app, game, {"player": dee})
    seat(app, game, {"player": eve, "replaces": ids(game)["Ben"]})
    app.delete(url(game, "seats/changes/last/"))
    app.delete(url(game, f"seats/{ids(game)['Cy']}/"))
    changes = app.get(url(game, "history/")).json()["results"]
    seat_changes = [(c["action"], c["before"], c["after"]) for c in changes if c["round"] is None][:4]
    assert seat_changes == [
        ("player_left", None, {"player": "Cy", "replaces": None, "after_round": 1}),
        ("seat_taken_over_undone", {"player": "Eve", "replaces": "Ben", "after_round": 1}, None),
        ("seat_taken_over", None, {"player": "Eve", "replaces": "Ben", "after_round": 1}),
        ("player_joined", None, {"player": "Dee", "replaces": None, "after_round": 1}),
    ]


def test_reading_a_game_with_seat_changes_costs_the_queries_of_one_without(app):
    plain, changed = start_game(app), start_game(app, names=("Di", "Ed", "Flo"))
    play(app, plain, 6, Ann=0, Ben=9, Cy=14)
    play(app, changed, 6, Di=0, Ed=9, Flo=14)
    [gus] = make_players(app, "Gus")
    seat(app, changed, {"player": gus, "replaces": ids(changed)["Flo"]})
    counts = []
    for game in (plain, changed):
        app.patch(url(game), {"name": "Renamed"})  # so neither is answered from what a read kept
        for path in ("", "history/"):
            with CaptureQueriesContext(connection) as captured:
                assert app.get(url(game, path)).status_code == 200
            counts.append(len(captured))
    assert counts[0:2] == counts[2:4]


def test_a_seat_changes_answer_names_who_recorded_each_round_as_the_game_does(app, other_app):
    book = app.post("/api/v1/scorebooks/", {"name": "Club"}).json()["id"]
    code = app.post(f"/api/v1/scorebooks/{book}/invites/", {"role": "scorer"}).json()["code"]
    assert other_app.post(f"/api/v1/invites/{code}/accept/").status_code == 200
    ids = [
        app.post("/api/v1/players/", {"name": name, "scorebook": book}).json()["id"]
        for name in ("Ann", "Ben", "Cy", "Gus")
    ]
    game = app.post("/api/v1/games/", {"tile_set": 6, "players": ids[:3], "scorebook": book}).json()
    play(other_app, game, 6, Ann=0, Ben=9, Cy=14)  # recorded by the other phone
    play(app, game, 5, Ann=3, Ben=0, Cy=4)
    answer = seat(app, game, {"player": ids[3]})
    assert [r["recorded_by"]["email"] for r in answer["rounds"]] == [other_app.user.email, app.user.email]
    assert answer["rounds"] == app.get(url(game)).json()["rounds"]
