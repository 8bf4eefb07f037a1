"""POST /api/v1/games/{id}/finish/: the table stops early by agreement ("We stop here")."""

import pytest

from scorekeeper.models import Game
from tests.api.conftest import round_body, start_game

pytestmark = pytest.mark.django_db


def finish_url(game):
    return f"/api/v1/games/{game['id']}/finish/"


def rounds_url(game, number=None):
    base = f"/api/v1/games/{game['id']}/rounds/"
    return base if number is None else f"{base}{number}/"


def test_a_scorer_ends_the_game_after_the_last_round_and_gets_it_ranked_as_it_stands(client_kind):
    api = client_kind
    game = start_game(api)
    assert game["ended_because"] is None
    api.post(rounds_url(game), round_body(game, 6, 12, 7))
    api.post(rounds_url(game), round_body(game, 5, 3, 20))
    response = api.post(finish_url(game))
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["status"], body["ended_because"], body["next_starting_double"]) == ("finished", "agreed", None)
    assert [(s["name"], s["total"], s["rank"]) for s in body["standings"]] == [
        ("Ann", 0, 1),
        ("Ben", 15, 2),
        ("Cy", 27, 3),
    ]
    assert body["winners"] == [game["players"][0]["id"]] and body["finished_at"]
    assert response["ETag"] == api.get(f"/api/v1/games/{game['id']}/")["ETag"]
    change = api.get(f"/api/v1/games/{game['id']}/history/").json()["results"][0]
    assert (change["action"], change["round"]) == ("game_finished", 2)


def test_a_game_without_rounds_is_a_409_with_a_code_and_stays_open(app):
    game = start_game(app)
    response = app.post(finish_url(game))
    assert response.status_code == 409 and response.json()["code"] == "no_rounds"
    assert app.get(f"/api/v1/games/{game['id']}/").json()["status"] == "in_progress"


def test_a_finished_game_is_a_409_with_a_code(app):
    game = start_game(app)
    app.post(rounds_url(game), round_body(game, 6, 12, 7))
    assert app.post(finish_url(game)).status_code == 200
    response = app.post(finish_url(game))
    assert response.status_code == 409 and response.json()["code"] == "game_finished"
    app.post(rounds_url(game), round_body(game, 0, 12, 7))  # refused: the game is over
    assert Game.objects.get(pk=game["id"]).rounds.count() == 1


def test_a_retry_with_the_same_idempotency_key_replays_the_first_answer(app):
    game = start_game(app)
    app.post(rounds_url(game), round_body(game, 6, 12, 7))
    first = app.post(finish_url(game), headers={"Idempotency-Key": "stop-1"})
    again = app.post(finish_url(game), headers={"Idempotency-Key": "stop-1"})
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()


def test_if_match_with_an_old_etag_is_a_412_and_ends_nothing(app):
    game = start_game(app)
    old = app.get(f"/api/v1/games/{game['id']}/")["ETag"]
    app.post(rounds_url(game), round_body(game, 6, 12, 7))
    assert app.post(finish_url(game), headers={"If-Match": old}).status_code == 412
    assert Game.objects.get(pk=game["id"]).status == "in_progress"


def test_undoing_the_last_round_of_a_stopped_game_reopens_it(app):
    game = start_game(app)
    app.post(rounds_url(game), round_body(game, 6, 12, 7))
    app.post(rounds_url(game), round_body(game, 5, 3, 20))
    app.post(finish_url(game))
    assert app.delete(rounds_url(game, 2)).status_code == 204
    body = app.get(f"/api/v1/games/{game['id']}/").json()
    assert (body["status"], body["ended_because"], body["next_starting_double"]) == ("in_progress", None, 5)
    assert app.post(f"{rounds_url(game)}restore/").status_code == 201  # back, and the game goes on
    body = app.get(f"/api/v1/games/{game['id']}/").json()
    assert (body["status"], body["next_starting_double"]) == ("in_progress", 4)


def test_someone_outside_the_scorebook_gets_a_404_and_ends_nothing(app, other_app):
    game = start_game(app)
    app.post(rounds_url(game), round_body(game, 6, 12, 7))
    assert other_app.post(finish_url(game)).status_code == 404  # not a member: not theirs to see
    assert Game.objects.get(pk=game["id"]).status == "in_progress"
