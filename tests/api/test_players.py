from datetime import timedelta

import pytest
from django.utils import timezone

from scorekeeper.models import TRASH_DAYS, Player
from scorekeeper.services import purge_trash
from tests.api.conftest import round_body, start_game

pytestmark = pytest.mark.django_db


def test_it_creates_lists_renames_and_deletes_a_player(client_kind):
    api = client_kind
    created = api.post("/api/v1/players/", {"name": "  Ann  "})
    assert created.status_code == 201 and created.json()["name"] == "Ann"
    pk = created.json()["id"]
    book = created.json()["scorebook"]  # the personal scorebook, when none is named
    listing = api.get("/api/v1/players/").json()
    ann = {"id": pk, "name": "Ann", "scorebook": book, "user": None, "archived": False}
    assert listing["count"] == 1 and listing["results"] == [ann]
    renamed = api.patch(f"/api/v1/players/{pk}/", {"name": "Annie"}).json()
    assert renamed == ann | {"name": "Annie"}
    assert api.get(f"/api/v1/players/{pk}/").json()["name"] == "Annie"
    assert api.delete(f"/api/v1/players/{pk}/").status_code == 204
    assert not Player.objects.filter(pk=pk).exists()


def test_names_are_unique_per_user_ignoring_case(app, other_app):
    app.post("/api/v1/players/", {"name": "Ann"})
    response = app.post("/api/v1/players/", {"name": "ANN"})
    assert response.status_code == 400 and "name" in response.json()
    assert other_app.post("/api/v1/players/", {"name": "ann"}).status_code == 201


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "x" * 41}, {"name": ["Ann"]}])
def test_a_bad_name_is_a_400_naming_the_field(app, body):
    response = app.post("/api/v1/players/", body)
    assert response.status_code == 400 and "name" in response.json()
    assert Player.objects.count() == 0


def test_put_is_not_offered(app):
    pk = app.post("/api/v1/players/", {"name": "Ann"}).json()["id"]
    assert app.put(f"/api/v1/players/{pk}/", {"name": "B"}).status_code == 405


def test_a_player_with_games_cannot_be_deleted(app):
    game = start_game(app)
    pk = game["players"][0]["id"]
    response = app.delete(f"/api/v1/players/{pk}/")
    assert response.status_code == 409 and "games" in response.json()["detail"]
    assert Player.objects.filter(pk=pk).exists()
    app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    assert app.delete(f"/api/v1/games/{game['id']}/").status_code == 204
    refused = app.delete(f"/api/v1/players/{pk}/")  # the game waits in the trash, and could come back
    assert refused.status_code == 409 and "trash" in refused.json()["detail"]
    assert purge_trash(now=timezone.now() + timedelta(days=TRASH_DAYS + 1)) == 1
    assert app.delete(f"/api/v1/players/{pk}/").status_code == 204


@pytest.mark.parametrize(("path", "body"), [("/api/v1/players/", {"name": 12}), ("/api/v1/scorebooks/", {"name": 12})])
def test_a_name_that_is_a_number_is_a_400_as_the_schema_says_it_is_text(app, path, body):
    response = app.post(path, body)
    assert response.status_code == 400 and response.json()["name"] == ["Not a valid string."]


def test_a_players_name_is_required_on_create_and_its_scorebook_cannot_change(app):
    assert app.post("/api/v1/players/", {}).json() == {"name": ["This field is required."]}
    player = app.post("/api/v1/players/", {"name": "Ann"}).json()
    other = app.post("/api/v1/scorebooks/", {"name": "Club"}).json()["id"]
    response = app.patch(f"/api/v1/players/{player['id']}/", {"scorebook": other})
    assert response.status_code == 400 and "scorebook" in response.json()
    assert app.patch(f"/api/v1/players/{player['id']}/", {"user": "me"}).json()["user"]["id"] == app.user.pk


def test_a_page_size_out_of_bounds_is_a_400_naming_it(app):
    assert app.get("/api/v1/players/?page_size=2").status_code == 200
    for bad in ("0", "201", "null", "-1", "٣"):
        response = app.get(f"/api/v1/players/?page_size={bad}")
        assert response.status_code == 400 and "page_size" in response.json(), bad
