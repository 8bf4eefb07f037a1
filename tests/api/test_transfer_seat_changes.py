"""Exports carry the seat changes (JSON version 2), imports check and save them as the table would,
and CSV rows are written only for the rounds a player sat in (docs/api.md, "History, export and import")."""

import copy
import csv
import io
import itertools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Game, HistoryAction, PlayerRecord, RatingStep, Scorebook, SeatChange
from tests.api.conftest import app_for, make_players, start_game
from tests.seat_changes import changing_table

pytestmark = pytest.mark.django_db
ACCOUNTS = itertools.count()


@pytest.fixture
def changed(app):
    game, _ids = changing_table(app.user)
    return game


def everything(scorebook) -> list:
    """What must survive the trip, players by name (ids differ between scorebooks)."""
    games = []
    for game in Game.objects.filter(scorebook=scorebook).order_by("created_at", "id"):
        names = {seat.player_id: seat.player.name for seat in game.seats.select_related("player")}
        named = names.get
        seats = [(seat.player.name, seat.total, seat.rank, seat.place, seat.is_winner, seat.rounds, seat.opening_total,
                  seat.joined_after, seat.left_after, named(seat.replaced_id))
                 for seat in game.seats.order_by("position").select_related("player")]  # fmt: skip
        changes = [(c.number, c.after, c.kind, named(c.player_id), named(c.replaces_id))
                   for c in game.seat_changes.order_by("number")]  # fmt: skip
        rounds = [(r.number, r.starting_double, [(e.player.name, e.pips, e.score) for e in r.entries.order_by("position")])
                  for r in game.rounds.order_by("number")]  # fmt: skip
        state = copy.deepcopy(game.state)
        for seat in state["seats"]:
            seat["player"], seat["replaced"] = named(seat["player"]), named(seat["replaced"])
        for change in state["changes"]:
            change["player"], change["replaces"] = named(change["player"]), named(change["replaces"])
        for line in state["rounds"]:
            for flag in ("went_out", "double_blank", "ended_on_double"):
                line[flag] = sorted(map(named, line[flag]))
        state["shuffles_next"] = named(state["shuffles_next"])
        games.append((game.name, str(game.uid), game.status, game.finished_at, seats, changes, rounds, state))
    return games


def records(scorebook) -> dict:
    return {
        record.player.name: tuple(
            getattr(record, column) for column in (*PlayerRecord.SUMS, "best_total", "worst_total")
        )
        for record in PlayerRecord.objects.filter(player__scorebook=scorebook).select_related("player")
    }


def test_an_export_carries_the_seat_changes_by_name_and_everyone_who_sat_in_seat_order(app, changed):
    exported = app.get(f"/api/v1/games/{changed.pk}/export/?format=json").json()
    assert exported["version"] == 2
    (game,) = exported["games"]
    assert game["players"] == ["Ann", "Ben", "Fay", "Cy", "Dee", "Eve"]
    assert game["seat_changes"] == [
        {"after": 1, "kind": "join", "player": "Eve", "replaces": None},
        {"after": 2, "kind": "take_over", "player": "Fay", "replaces": "Ben"},
        {"after": 3, "kind": "leave", "player": "Cy", "replaces": None},
    ]
    assert [[entry["player"] for entry in r["entries"]] for r in game["rounds"]] == [
        ["Ann", "Ben", "Cy", "Dee"], ["Ann", "Ben", "Cy", "Dee", "Eve"], ["Ann", "Fay", "Cy", "Dee", "Eve"],
        ["Ann", "Fay", "Dee", "Eve"],
    ]  # fmt: skip


def test_a_game_whose_table_changed_imports_into_another_scorebook_with_the_same_standings_and_state(app, changed):
    exported = app.get("/api/v1/export/?format=json").json()
    other = app_for("fresh@example.com")
    response = other.post("/api/v1/import/", exported)
    assert response.status_code == 201, response.content
    assert response.json() == {"games": 1, "rounds": 4, "players_created": 6}
    mine, theirs = Scorebook.personal_for(app.user), Scorebook.personal_for(other.user)
    assert everything(theirs) == everything(mine)
    assert records(theirs) == records(mine)
    imported = Game.objects.get(scorebook=theirs)
    assert sorted(RatingStep.objects.filter(game=imported).values_list("player__name", "mu", "sigma")) == sorted(
        RatingStep.objects.filter(game=changed).values_list("player__name", "mu", "sigma")
    )
    standings = other.get(f"/api/v1/games/{imported.pk}/").json()["standings"]
    assert [(row["name"], row["rank"]) for row in standings] == [
        ("Ann", 1), ("Dee", 2), ("Fay", 3), ("Eve", 4), ("Cy", None), ("Ben", None)
    ]  # fmt: skip
    assert other.post("/api/v1/import/", exported).status_code == 200  # the second time: nothing new


def test_imported_seat_changes_have_their_history_as_at_the_table(app, changed):
    exported = app.get("/api/v1/export/?format=json").json()
    other = app_for("fresh@example.com")
    assert other.post("/api/v1/import/", exported).status_code == 201
    imported = Game.objects.get(scorebook=Scorebook.personal_for(other.user))
    reasons = [h.history_change_reason for h in SeatChange.history.filter(game_id=imported.pk).order_by("number")]
    assert reasons == [HistoryAction.PLAYER_JOINED, HistoryAction.SEAT_TAKEN_OVER, HistoryAction.PLAYER_LEFT]
    actions = [row["action"] for row in other.get(f"/api/v1/games/{imported.pk}/history/").json()["results"]]
    assert {"player_joined", "seat_taken_over", "player_left"} <= set(actions)


def test_csv_rows_are_written_only_for_the_rounds_a_player_sat_in(app, changed):
    response = app.get(f"/api/v1/games/{changed.pk}/export/?format=csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    by_player = {}
    for row in rows:
        by_player.setdefault(row["player"], []).append(int(row["round"]))
    assert by_player == {"Ann": [1, 2, 3, 4], "Ben": [1, 2], "Cy": [1, 2, 3], "Dee": [1, 2, 3, 4], "Eve": [2, 3, 4],
                         "Fay": [3, 4]}  # fmt: skip


def test_an_export_with_seat_changes_reads_no_more_queries(app, changed):
    start_game(app, names=("Gus", "Hal"))
    with CaptureQueriesContext(connection) as two:
        assert len(app.get("/api/v1/export/?format=json").json()["games"]) == 2
    other = app_for("plain@example.com")
    start_game(other, names=("Ann", "Ben"))
    start_game(other, names=("Ann", "Ben"))
    with CaptureQueriesContext(connection) as plain:
        assert len(other.get("/api/v1/export/?format=json").json()["games"]) == 2
    assert len(two.captured_queries) == len(plain.captured_queries)


def refused(app, exported) -> list[str]:
    other = app_for(f"careful{next(ACCOUNTS)}@example.com")
    response = other.post("/api/v1/import/", exported)
    assert response.status_code == 400, response.content
    assert not Game.objects.filter(scorebook__personal_of=other.user).exists()
    assert not SeatChange.objects.filter(game__scorebook__personal_of=other.user).exists()
    return response.json()["file"]


def test_a_change_the_table_would_refuse_saves_nothing_and_names_the_game_the_change_and_the_rule(app, changed):
    exported = app.get("/api/v1/export/?format=json").json()
    bad = copy.deepcopy(exported)
    bad["games"][0]["seat_changes"].insert(1, {"after": 2, "kind": "join", "player": "Eve", "replaces": None})
    assert refused(app, bad) == [
        "Game 1 (Changing), seat change 2 (Eve joins after round 2): Eve is already seated at this table."
    ]
    bad = copy.deepcopy(exported)
    bad["games"][0]["seat_changes"][2]["player"] = "Ben"  # Ben left already (taken over)
    assert refused(app, bad) == [
        "Game 1 (Changing), seat change 3 (Ben leaves after round 3): Ben is not seated at this table."
    ]
    bad = copy.deepcopy(exported)
    bad["games"][0]["seat_changes"].append({"after": 4, "kind": "leave", "player": "Eve", "replaces": None})
    (message,) = refused(app, bad)
    assert message.startswith("Game 1 (Changing), seat change 4 (Eve leaves after round 4): The game is over")


def test_a_round_must_hold_exactly_the_players_seated_in_it(app, changed):
    exported = app.get("/api/v1/export/?format=json").json()
    bad = copy.deepcopy(exported)
    del bad["games"][0]["seat_changes"][2]  # Cy never left: round 4 lacks his entry
    (message,) = refused(app, bad)
    assert message.startswith("Game 1 (Changing), round 4: ") and "Cy" in message
    bad = copy.deepcopy(exported)
    bad["games"][0]["rounds"][0]["entries"].append(
        {"player": "Eve", "pips": 3, "tiles_left": None, "tiles": [], "double_blank": False, "went_out": False}
    )  # Eve joined after round 1
    (message,) = refused(app, bad)
    assert message.startswith("Game 1 (Changing), round 1: ") and "Eve" in message


@pytest.mark.parametrize(
    ("change", "says"),
    [({"after": 0}, '"after" must be from 1 to 4'), ({"after": "x"}, '"after" must be a whole number'),
     ({"kind": "swap"}, '"kind" must be one of join, leave, take_over'), ({"player": "Zed"}, '"player" names nobody'),
     ({"replaces": "Ann"}, '"replaces" names whose seat a take-over continues')],
)  # fmt: skip
def test_a_seat_change_of_the_wrong_shape_is_a_400_naming_the_game_and_the_field(app, changed, change, says):
    exported = app.get("/api/v1/export/?format=json").json()
    exported["games"][0]["seat_changes"][0] |= change
    (message,) = refused(app, exported)
    assert message.startswith("Game 1 (Changing), seat change 1") and says in message, message


def test_seat_changes_out_of_the_order_played_are_refused(app, changed):
    exported = app.get("/api/v1/export/?format=json").json()
    changes = exported["games"][0]["seat_changes"]
    changes[0], changes[1] = changes[1], changes[0]
    (message,) = refused(app, exported)
    assert message.startswith("Game 1 (Changing), seat change 2") and '"after" must be from 2 to 4' in message


def stopped_early(app, join_total="highest") -> Game:
    """A double-6 game of Ann, Ben and Cy (join option `join_total`) that Dee joined after round 1,
    stopped by the table after round 2."""
    game = start_game(app, rules={"join_total": join_total})
    ids = {player["name"]: player["id"] for player in game["players"]}
    url = f"/api/v1/games/{game['id']}/"

    def play(double, *pips):
        entries = [{"player": ids[name], "pips": value, "went_out": value == 0} for name, value in pips]
        assert app.post(f"{url}rounds/", {"starting_double": double, "entries": entries}).status_code == 201

    play(6, ("Ann", 0), ("Ben", 5), ("Cy", 12))
    [ids["Dee"]] = make_players(app, "Dee")
    assert app.post(f"{url}seats/", {"player": ids["Dee"]}).status_code == 201
    play(5, ("Ann", 4), ("Ben", 0), ("Cy", 2), ("Dee", 7))
    assert app.post(f"{url}finish/").status_code == 200
    return Game.objects.get(pk=game["id"])


@pytest.mark.parametrize("join_total", ["highest", "average", "zero"])
def test_a_game_the_table_stopped_comes_back_stopped_with_its_join_option_and_totals(app, join_total):
    game = stopped_early(app, join_total)
    exported = app.get(f"/api/v1/games/{game.pk}/export/?format=json").json()
    (written,) = exported["games"]
    assert written["stopped_after"] == 2 and written["rules"]["join_total"] == join_total
    other = app_for(f"stopped{next(ACCOUNTS)}@example.com")
    assert other.post("/api/v1/import/", exported).status_code == 201
    mine, theirs = Scorebook.personal_for(app.user), Scorebook.personal_for(other.user)
    assert everything(theirs) == everything(mine)
    imported = Game.objects.get(scorebook=theirs)
    answer = other.get(f"/api/v1/games/{imported.pk}/").json()
    assert (answer["status"], answer["ended_because"], answer["rules"]["join_total"]) == (
        "finished",
        "agreed",
        join_total,
    )
    assert imported.stopped_after == 2 and records(theirs) == records(mine)


@pytest.mark.parametrize(("stopped_after", "says"), [(1, "The table stops after the last round played, round 2."),
                                                     ("two", '"stopped_after" must be a whole number')])  # fmt: skip
def test_a_stop_anywhere_but_after_the_last_round_is_refused_naming_the_field(app, stopped_after, says):
    game = stopped_early(app)
    exported = app.get(f"/api/v1/games/{game.pk}/export/?format=json").json()
    exported["games"][0]["stopped_after"] = stopped_after
    (message,) = refused(app, exported)
    assert message.startswith("Game 1") and '"stopped_after"' in message and says in message, message
