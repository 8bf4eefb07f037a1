"""Friendly (casual) games through the API (docs/api.md, "A game"): a casual
game counts in no leaderboard, rating, record, head to head or season table, yet stays in history
and exports; switching a finished game back and forth takes back and gives again what it counted."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Game, RatingStep, Season
from tests.roles import make_club
from tests.seasons import finished_game, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    club = make_club()
    Game.objects.all().delete()  # the club's open game and its spring season play no part here
    Season.objects.all().delete()
    today = timezone.localdate()
    club.now = make_season(book=club.book, name="Now", starts=today - timedelta(days=5), ends=today + timedelta(days=5))
    return club


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def patch(client, path, body):
    return client.patch(path, body, content_type="application/json")


def counted(club) -> dict:
    """Everything a finished game counts in, as the API shows it to a member."""
    viewer = signed_in(club.users["viewer"])
    board = viewer.get(f"/api/v1/leaderboard/?scorebook={club.book.pk}").json()["results"]
    month = viewer.get(f"/api/v1/leaderboard/?scorebook={club.book.pk}&period=month").json()["results"]
    stats = {player.name: viewer.get(f"/api/v1/players/{player.pk}/stats/").json() for player in club.players[:3]}
    season = viewer.get(f"/api/v1/seasons/{club.now.pk}/").json()["table"]
    return {
        "board": {row["player"]["name"]: (row["games"], row["wins"], row["rating"]) for row in board},
        "month": {row["player"]["name"]: (row["games"], row["wins"]) for row in month},
        "head_to_head": {
            name: [(r["opponent"]["name"], r["games"], r["ahead"]) for r in s["head_to_head"]]
            for name, s in stats.items()
        },
        "records": {name: (s["games"], s["best_total"], s["worst_total"], s["rounds"]) for name, s in stats.items()},
        "season": [(row["name"], row["games"], row["points"]) for row in season],
    }


def test_a_game_is_created_casual_and_counts_nowhere_but_history_and_exports(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    finished_game(club.book, owner, [ann, ben, cy], (3, 4))  # Ann wins
    before = counted(club)
    created = signed_in(club.users["scorer"]).post(
        "/api/v1/games/",
        {"scorebook": club.book.pk, "players": [ben.pk, ann.pk], "tile_set": 6, "casual": True},
        content_type="application/json",
    )
    assert created.status_code == 201 and created.json()["casual"] is True
    friendly = Game.objects.get(pk=created.json()["id"])
    services.record_round(game=friendly, starting_double=6, entries=_ben_out(ben, ann), by=owner)
    services.finish_game(game=friendly, by=owner)
    assert counted(club) == before  # Ben's win counts in no board, rating, record or season
    assert not RatingStep.objects.filter(game=friendly).exists()
    viewer = signed_in(club.users["viewer"])
    assert viewer.get(f"/api/v1/games/{friendly.pk}/").json()["rating_changes"] == []  # not rated
    listed = viewer.get(f"/api/v1/games/?scorebook={club.book.pk}").json()["results"]
    assert {game["id"]: game["casual"] for game in listed} == {friendly.pk: True, listed[1]["id"]: False}
    history = viewer.get(f"/api/v1/games/{friendly.pk}/history/").json()["results"]
    assert [change["action"] for change in history][-1] == "game_created"
    exported = viewer.get(f"/api/v1/export/?scorebook={club.book.pk}&format=json").json()["games"]
    assert sorted(game["casual"] for game in exported) == [False, True]


def _ben_out(ben, ann):
    from scorekeeper.rules.rounds import EntryInput

    return [EntryInput(player=ben.pk, pips=0, went_out=True), EntryInput(player=ann.pk, pips=9)]


def test_switching_a_finished_game_to_casual_and_back_takes_back_and_gives_again_what_it_counted(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    finished_game(club.book, owner, [ann, ben, cy], (3, 4))  # Ann wins
    alone = counted(club)
    second = finished_game(club.book, owner, [cy, ben, ann], (2, 8))  # Cy wins, Ann last
    both = counted(club)
    assert both != alone
    scorer = signed_in(club.users["scorer"])
    made = patch(scorer, f"/api/v1/games/{second.pk}/", {"casual": True})
    assert made.status_code == 200 and made.json()["casual"] is True
    assert counted(club) == alone
    back = patch(scorer, f"/api/v1/games/{second.pk}/", {"casual": False})
    assert back.status_code == 200 and back.json()["casual"] is False
    assert counted(club) == both
    actions = [c["action"] for c in scorer.get(f"/api/v1/games/{second.pk}/history/").json()["results"]]
    assert actions[:2] == ["game_counted", "game_made_casual"]


def test_a_casual_game_in_the_trash_and_back_still_counts_nowhere(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    finished_game(club.book, owner, [ann, ben, cy], (3, 4))
    alone = counted(club)
    second = finished_game(club.book, owner, [cy, ben, ann], (2, 8))
    scorer = signed_in(club.users["scorer"])
    patch(scorer, f"/api/v1/games/{second.pk}/", {"casual": True})
    assert scorer.delete(f"/api/v1/games/{second.pk}/").status_code == 204
    assert counted(club) == alone
    services.restore_game(game=second, by=owner)
    assert counted(club) == alone


def test_an_import_reads_casual_and_counts_the_game_nowhere(club, app):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    game = finished_game(club.book, owner, [ann, ben, cy], (3, 4))
    patch(signed_in(owner), f"/api/v1/games/{game.pk}/", {"casual": True})
    exported = signed_in(owner).get(f"/api/v1/export/?scorebook={club.book.pk}&format=json").json()
    assert exported["games"][0]["casual"] is True
    assert app.post("/api/v1/import/", exported).status_code in (200, 201)
    (imported,) = app.get("/api/v1/games/").json()["results"]
    assert imported["casual"] is True and imported["status"] == "finished"
    board = app.get("/api/v1/leaderboard/").json()["results"]
    assert {row["player"]["name"]: row["games"] for row in board} == {"Ann": 0, "Ben": 0, "Cy": 0}
    assert not RatingStep.objects.filter(game_id=imported["id"]).exists()
    exported["games"][0]["casual"] = "yes"
    exported["games"][0]["uid"] = "00000000-0000-4000-8000-000000000001"
    refused = app.post("/api/v1/import/", exported)
    assert refused.status_code == 400 and "casual" in str(refused.json())


@pytest.mark.parametrize(
    ("body", "field"),
    [({"casual": "maybe"}, "casual"), ({"casual": None}, "casual"), ({"tile_set": 9}, "tile_set"), ({}, "name")],
)
def test_a_bad_change_is_a_400_naming_the_field_and_changes_nothing(club, body, field):
    ann, ben, cy, _dot = club.players
    game = finished_game(club.book, club.users["owner"], [ann, ben, cy], (3, 4))
    before = counted(club)
    response = patch(signed_in(club.users["scorer"]), f"/api/v1/games/{game.pk}/", body)
    assert response.status_code == 400 and field in response.json()
    game.refresh_from_db()
    assert game.casual is False and counted(club) == before


def test_a_bad_casual_at_creation_is_a_400_naming_it(club):
    ann, ben, _cy, _dot = club.players
    response = signed_in(club.users["scorer"]).post(
        "/api/v1/games/",
        {"scorebook": club.book.pk, "players": [ann.pk, ben.pk], "casual": "sometimes"},
        content_type="application/json",
    )
    assert response.status_code == 400 and "casual" in response.json()
    assert not Game.objects.exists()


@pytest.mark.parametrize(("role", "status"), [("viewer", 403), ("stranger", 404)])
def test_a_viewer_cannot_make_a_game_casual_and_an_outsider_does_not_see_it(club, role, status):
    ann, ben, cy, _dot = club.players
    game = finished_game(club.book, club.users["owner"], [ann, ben, cy], (3, 4))
    response = patch(signed_in(club.users[role]), f"/api/v1/games/{game.pk}/", {"casual": True})
    assert response.status_code == status
    game.refresh_from_db()
    assert game.casual is False


def test_a_casual_table_of_a_night_counts_in_no_standings_of_the_night_and_counts_again_when_switched_back(club):
    from tests.nights import hand_worked_night

    worked = hand_worked_night(club.book, club.users["owner"])
    viewer, scorer = signed_in(club.users["viewer"]), signed_in(club.users["scorer"])

    def standings():
        body = viewer.get(f"/api/v1/nights/{worked.night.pk}/").json()
        return {row["name"]: (row["games"], row["points"]) for row in body["standings"]}

    before = standings()
    assert patch(scorer, f"/api/v1/games/{worked.tables[0].pk}/", {"casual": True}).status_code == 200
    without = standings()
    assert "Ann" not in without and without["Ben"] == (1, 7.5) and without["Eve"] == before["Eve"]
    assert patch(scorer, f"/api/v1/games/{worked.tables[0].pk}/", {"casual": False}).status_code == 200
    assert standings() == before
