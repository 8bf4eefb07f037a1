"""Imports answer: too big is a 413 naming the limits, a bad value is a 400 naming the game and
the field, and either way nothing is saved."""

import copy
import io
import json
import random

import pytest
from django.conf import settings
from django.core.management import call_command

from scorekeeper import services, transfer
from scorekeeper.demo import play_game
from scorekeeper.models import Game, Player, Scorebook
from scorekeeper.rules.game import GameRules
from tests.api.conftest import app_for
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def an_export(user) -> dict:
    """One finished double-6 game of two players, as the export writes it."""
    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Bén")]
    rules = GameRules(tile_set=6)
    game = services.import_game(by=user, players=ids, rules=rules, rounds=play_game(rules, ids, random.Random(4)))
    return transfer.as_json(transfer.games_with_everything(Game.objects.filter(pk=game.pk)))


def nothing_imported(user):
    book = Scorebook.personal_for(user)
    return not Game.objects.filter(scorebook=book).exists() and not Player.objects.filter(scorebook=book).exists()


def upload(client, user, body: bytes):
    """The scorebook page's import form, with `body` as the chosen file."""
    client.force_login(user)
    file = io.BytesIO(body)
    file.name = "games.json"
    return client.post(f"/scorebooks/{Scorebook.personal_for(user).pk}/import/", {"file": file}, follow=True)


# Too big: 413, before the file is read.


def test_an_api_import_over_five_megabytes_is_a_413_naming_the_limits_before_anything_is_read(
    app, django_assert_num_queries
):
    body = b'{"format": "chicken-foot-scorekeeper", "version": 1, "games": [], "pad": "' + b"x" * (5 * 1024 * 1024)
    body += b'"}'
    # No query: the size is read from Content-Length, before the session, the token or the body.
    with django_assert_num_queries(0):
        response = app.post("/api/v1/import/", body)
    assert response.status_code == 413
    answer = response.json()
    assert answer["code"] == "import_too_large"
    assert "1,000 games" in answer["detail"] and "5 MB" in answer["detail"]
    assert "manage.py import_games" in answer["detail"]


def test_an_api_import_of_1001_games_is_a_413_and_saves_nothing(app):
    games = [{"players": ["Ann", "Bén"], "tile_set": 6, "rounds": []} for _ in range(1001)]
    response = app.post("/api/v1/import/", {"format": "chicken-foot-scorekeeper", "version": 1, "games": games})
    assert response.status_code == 413
    assert "1,000 games" in response.json()["detail"] and "manage.py import_games" in response.json()["detail"]
    assert nothing_imported(app.user)


def test_an_api_import_of_exactly_1000_games_is_not_refused_for_its_size(app):
    games = [{"players": ["Ann", "Bén"], "tile_set": 6, "rounds": []} for _ in range(1000)]
    response = app.post("/api/v1/import/", {"format": "chicken-foot-scorekeeper", "version": 1, "games": games})
    assert response.status_code == 201 and response.json()["games"] == 1000


def test_a_page_upload_over_five_megabytes_is_a_413_page_pointing_to_the_command(client):
    user = UserFactory()
    client.force_login(user)
    file = io.BytesIO(b" " * (5 * 1024 * 1024 + 1))
    file.name = "games.json"
    response = client.post(f"/scorebooks/{Scorebook.personal_for(user).pk}/import/", {"file": file})
    assert response.status_code == 413
    page = response.content.decode()
    assert "5 MB" in page and "1,000 games" in page and "manage.py import_games" in page
    assert nothing_imported(user)


def test_a_page_upload_of_1001_games_is_refused_with_the_limits_and_saves_nothing(client):
    user = UserFactory()
    games = [{"players": ["Ann", "Bén"], "tile_set": 6, "rounds": []} for _ in range(1001)]
    body = json.dumps({"format": "chicken-foot-scorekeeper", "version": 1, "games": games}).encode()
    page = upload(client, user, body).content.decode()
    assert "1,000 games" in page and "manage.py import_games" in page
    assert nothing_imported(user)


def test_the_command_imports_more_than_the_request_limit(tmp_path):
    user = UserFactory()
    games = [{"players": ["Ann", "Bén"], "tile_set": 6, "rounds": []} for _ in range(settings.IMPORT_MAX_GAMES + 1)]
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"format": "chicken-foot-scorekeeper", "version": 1, "games": games}))
    out = io.StringIO()
    call_command("import_games", str(path), "--email", user.email, stdout=out, verbosity=0)
    assert f"{settings.IMPORT_MAX_GAMES + 1} games" in out.getvalue()


# Bad values: 400 naming the game and the field, nothing saved.


def _game(data):
    return data["games"][0]


def _entry(data):
    return next(e for e in _game(data)["rounds"][0]["entries"] if not e["went_out"])


BAD_VALUES = [
    # (what is changed, the field the answer must name)
    (lambda d: _game(d).update(created_at="9999-12-31T23:59:59-14:00"), "created_at"),
    (lambda d: _game(d).update(finished_at="9999-12-31T23:59:59-14:00"), "finished_at"),
    (lambda d: _game(d).update(created_at="0001-01-01T00:00:00+14:00"), "created_at"),
    (lambda d: _game(d).update(created_at="2024-05-02T20:00:00+00:00", finished_at="2024-05-01T20:00:00+00:00"),
     "finished_at"),
    (lambda d: _game(d)["rules"].update(extended=[1]), "extended"),
    (lambda d: _game(d)["rules"].update(double_blank_penalty=True), "double_blank_penalty"),
    (lambda d: _game(d)["rules"].update(target_score="100"), "target_score"),
    (lambda d: _game(d).update(rules=[1]), "rules"),
    (lambda d: _game(d).update(tile_set=True), "tile_set"),
    (lambda d: _game(d).update(name=5), "name"),
    (lambda d: _entry(d).update(pips=True), "pips"),
    (lambda d: _entry(d).update(pips=2.5), "pips"),
    (lambda d: _entry(d).update(tiles_left="3"), "tiles_left"),
    (lambda d: _entry(d).update(went_out="yes"), "went_out"),
    (lambda d: _entry(d).update(double_blank=1), "double_blank"),
    (lambda d: _entry(d).update(tiles=["6-5", 7]), "tiles"),
    (lambda d: _game(d)["rounds"][0].update(starting_double=True), "starting_double"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "field"), BAD_VALUES)
def test_a_bad_value_in_an_import_is_a_400_naming_the_game_and_the_field(change, field):
    owner, newcomer = app_for("owner@example.com"), app_for("newcomer@example.com")
    data = an_export(owner.user)
    data["games"].insert(0, copy.deepcopy(data["games"][0]) | {"uid": None, "name": "Fine"})
    data["games"][1]["name"] = "Broken"
    data["games"] = data["games"][::-1]  # the broken game first, a good one after it
    change(data)
    response = newcomer.post("/api/v1/import/", data)
    assert response.status_code == 400, response.content
    (message,) = response.json()["file"]
    assert message.startswith("Game 1") and f'"{field}"' in message
    assert nothing_imported(newcomer.user)


@pytest.mark.parametrize("where", ["player name", "game name", "scorebook", "tiles"])
def test_a_nul_character_in_an_uploaded_file_is_refused_naming_the_game_and_saves_nothing(client, where):
    owner = UserFactory()
    data = an_export(owner)
    game = data["games"][0]
    if where == "player name":
        game["players"][0] = "An\x00n"
        for round_ in game["rounds"]:
            for entry in round_["entries"]:
                entry["player"] = entry["player"].replace("Ann", "An\x00n")
    elif where == "game name":
        game["name"] = "Fri\x00day"
    elif where == "scorebook":
        game["scorebook"] = "\x00"
    else:
        _entry(data)["tiles"] = ["6-\x005"]
    newcomer = UserFactory()
    page = upload(client, newcomer, json.dumps(data).encode()).content.decode()
    assert "Game 1" in page and "NUL" in page
    assert nothing_imported(newcomer)


def test_a_nul_character_in_an_api_import_is_a_400_and_saves_nothing():
    owner, newcomer = app_for("owner@example.com"), app_for("newcomer@example.com")
    data = an_export(owner.user)
    data["games"][0]["players"][1] = "B\x00"
    response = newcomer.post("/api/v1/import/", data)
    # The JSON body's NUL is refused before the view (scorekeeper.http.errors), naming where it is.
    assert response.status_code == 400
    assert any(name in json.dumps(response.json()) for name in ("games[0].players[1]", "Game 1"))
    assert nothing_imported(newcomer.user)


def test_a_naive_date_is_read_as_utc_and_an_export_without_finished_at_still_imports(app):
    data = an_export(app.user)
    game = data["games"][0] | {"uid": None, "created_at": "2024-05-01T20:00:00", "finished_at": None}
    newcomer = app_for("newcomer@example.com")
    response = newcomer.post("/api/v1/import/", {**data, "games": [game]})
    assert response.status_code == 201, response.content
    imported = Game.objects.get(scorebook__personal_of=newcomer.user)
    assert imported.created_at.isoformat() == "2024-05-01T20:00:00+00:00"
    assert imported.finished_at.isoformat() == "2024-05-01T20:00:00+00:00"
