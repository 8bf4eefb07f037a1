import pytest

from scorekeeper.models import Game, IdempotencyKey, Player, Round
from tests.api.conftest import make_players, round_body, start_game

pytestmark = pytest.mark.django_db


def test_a_retry_with_the_same_key_and_body_returns_the_first_response_and_changes_nothing(app):
    game = start_game(app)
    url, body = f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4)
    first = app.post(url, body, headers={"Idempotency-Key": "round-1"})
    again = app.post(url, body, headers={"Idempotency-Key": "round-1"})
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json() and again["Location"] == first["Location"]
    assert again["Idempotent-Replayed"] == "true"
    assert Round.objects.count() == 1


def test_the_same_key_with_another_body_is_a_422(app):
    game = start_game(app)
    url = f"/api/v1/games/{game['id']}/rounds/"
    app.post(url, round_body(game, 6, 3, 4), headers={"Idempotency-Key": "k"})
    response = app.post(url, round_body(game, 5, 3, 4), headers={"Idempotency-Key": "k"})
    assert response.status_code == 422
    assert Round.objects.count() == 1


def test_the_same_key_on_another_endpoint_is_a_422(app):
    app.post("/api/v1/players/", {"name": "Ann"}, headers={"Idempotency-Key": "k"})
    response = app.post("/api/v1/games/", {"name": "Ann"}, headers={"Idempotency-Key": "k"})
    assert response.status_code == 422


def test_keys_of_one_user_are_invisible_to_another(app, other_app):
    assert app.post("/api/v1/players/", {"name": "Ann"}, headers={"Idempotency-Key": "k"}).status_code == 201
    response = other_app.post("/api/v1/players/", {"name": "Ann"}, headers={"Idempotency-Key": "k"})
    assert response.status_code == 201 and "Idempotent-Replayed" not in response
    assert Player.objects.count() == 2


def test_an_error_response_is_replayed_too(app):
    game = start_game(app)
    url, body = f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 30, 4)
    body["entries"][1]["tiles_left"] = 1
    first = app.post(url, body, headers={"Idempotency-Key": "bad"})
    assert first.status_code == 400
    again = app.post(url, body, headers={"Idempotency-Key": "bad"})
    assert (again.status_code, again.json()) == (400, first.json())


def test_a_retry_while_the_first_request_runs_is_a_409(app):
    ids = make_players(app, "Ann", "Ben")
    body = {"players": ids, "tile_set": 6}
    # The first request has claimed the key but not stored its answer yet.
    IdempotencyKey.objects.create(owner=app.user, key="slow", request_hash=_hash_of(app, "/api/v1/games/", body))
    response = app.post("/api/v1/games/", body, headers={"Idempotency-Key": "slow"})
    assert response.status_code == 409 and response.json()["code"] == "request_in_progress"
    assert Game.objects.count() == 0


def test_a_key_older_than_a_day_is_forgotten(app):
    from datetime import timedelta

    from django.utils import timezone

    app.post("/api/v1/players/", {"name": "Ann"}, headers={"Idempotency-Key": "old"})
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(hours=25))
    response = app.post("/api/v1/players/", {"name": "Ben"}, headers={"Idempotency-Key": "old"})
    assert response.status_code == 201 and response.json()["name"] == "Ben"


def test_an_overlong_key_is_a_400(app):
    response = app.post("/api/v1/players/", {"name": "Ann"}, headers={"Idempotency-Key": "k" * 256})
    assert response.status_code == 400 and "Idempotency-Key" in response.json()
    assert Player.objects.count() == 0


def _hash_of(api, path, body):
    import hashlib
    import json

    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"POST {path}\n{text}".encode()).hexdigest()


def test_the_purge_command_deletes_only_expired_keys(app):
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    app.post("/api/v1/players/", {"name": "Ann"}, headers={"Idempotency-Key": "old"})
    app.post("/api/v1/players/", {"name": "Ben"}, headers={"Idempotency-Key": "new"})
    IdempotencyKey.objects.filter(key="old").update(created_at=timezone.now() - timedelta(hours=25))
    call_command("purge_idempotency_keys")
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["new"]
