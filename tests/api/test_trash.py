"""A deleted game waits in its scorebook's trash for 30 days: gone from everything, back on request."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Game, Membership, Player, Round, Scorebook
from scorekeeper.reads import stats
from tests.api.conftest import round_body, start_game

pytestmark = pytest.mark.django_db


def finish(app, game):
    for double in range(6, -1, -1):
        assert app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, double, 2, 3)).status_code == 201


def test_a_deleted_game_leaves_every_list_report_and_link_and_comes_back_whole(app):
    game = start_game(app)
    finish(app, game)
    link = app.post(f"/api/v1/games/{game['id']}/share/").json()
    book = Scorebook.personal_for(app.user)
    wins = {p.name: p.wins for p in stats.leaderboard(Player.objects.filter(scorebook=book))}
    before = app.get(f"/api/v1/games/{game['id']}/").json()
    assert app.delete(f"/api/v1/games/{game['id']}/").status_code == 204
    assert app.get(f"/api/v1/games/{game['id']}/").status_code == 404
    assert app.get("/api/v1/games/").json()["count"] == 0
    assert app.get("/api/v1/export/").json()["games"] == []
    assert {p.name: p.wins for p in stats.leaderboard(Player.objects.filter(scorebook=book))} == dict.fromkeys(wins, 0)
    assert app.get("/api/v1/leaderboard/?period=year").json()["results"][0]["games"] == 0
    assert Client().get(link["api_url"]).status_code == 404
    assert Round.objects.filter(game_id=game["id"]).count() == 7  # kept, in the trash

    client = Client()
    client.force_login(app.user)
    trash = client.get(f"/scorebooks/{book.pk}/trash/").content.decode()
    assert "Friday" in trash
    assert client.post(f"/games/{game['id']}/restore/").status_code == 302
    after = app.get(f"/api/v1/games/{game['id']}/").json()
    assert {k: v for k, v in after.items() if k != "updated_at"} == {
        k: v for k, v in before.items() if k != "updated_at"
    }
    assert {p.name: p.wins for p in stats.leaderboard(Player.objects.filter(scorebook=book))} == wins
    actions = [c["action"] for c in app.get(f"/api/v1/games/{game['id']}/history/").json()["results"]][:2]
    assert actions == ["game_restored", "game_deleted"]


def test_only_an_owner_opens_the_trash_and_brings_games_back(app, other_app):
    club = app.post("/api/v1/scorebooks/", {"name": "Club"}).json()
    code = app.post(f"/api/v1/scorebooks/{club['id']}/invites/", {"role": "scorer"}).json()["code"]
    other_app.post(f"/api/v1/invites/{code}/accept/")
    ids = [app.post("/api/v1/players/", {"name": n, "scorebook": club["id"]}).json()["id"] for n in ("A", "B")]
    game = app.post("/api/v1/games/", {"scorebook": club["id"], "players": ids}).json()
    assert other_app.delete(f"/api/v1/games/{game['id']}/").status_code == 204  # a scorer may delete
    scorer = Client()
    scorer.force_login(other_app.user)
    assert scorer.get(f"/scorebooks/{club['id']}/trash/").status_code == 403
    assert scorer.post(f"/games/{game['id']}/restore/").status_code == 403
    stranger = Client()
    stranger.force_login(Membership.objects.get(role="owner", scorebook_id=club["id"]).user)
    assert stranger.post(f"/games/{game['id']}/restore/").status_code == 302
    assert Game.objects.get(pk=game["id"]).deleted_at is None


def test_the_daily_purge_removes_games_deleted_more_than_30_days_ago(app):
    old, recent = start_game(app), start_game(app, names=("Dot", "Eve"))
    for game in (old, recent):
        app.delete(f"/api/v1/games/{game['id']}/")
    Game.objects.filter(pk=old["id"]).update(deleted_at=timezone.now() - timedelta(days=31))
    call_command("purge_trash", stdout=None)
    assert list(Game.objects.values_list("pk", flat=True)) == [recent["id"]]
    assert services.purge_trash(now=timezone.now() + timedelta(days=31)) == 1
    assert not Game.objects.exists()
