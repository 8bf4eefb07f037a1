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


def test_an_empty_key_is_a_400_that_changes_nothing(app):
    response = app.post("/api/v1/players/", {"name": "Ann"}, headers={"Idempotency-Key": ""})
    assert response.status_code == 400 and "Idempotency-Key" in response.json()
    assert Player.objects.count() == 0


def test_a_created_game_answers_with_its_etag_and_a_retry_replays_it(app):
    ids = make_players(app, "Ann", "Ben")
    body = {"players": ids, "tile_set": 6}
    first = app.post("/api/v1/games/", body, headers={"Idempotency-Key": "game-1"})
    assert first.status_code == 201
    assert first["ETag"] == app.get(f"/api/v1/games/{first.json()['id']}/")["ETag"]
    again = app.post("/api/v1/games/", body, headers={"Idempotency-Key": "game-1"})
    assert (again.status_code, again.json(), again["ETag"]) == (201, first.json(), first["ETag"])
    assert again["Idempotent-Replayed"] == "true" and Game.objects.count() == 1


def test_the_etag_of_a_created_game_lets_the_next_patch_go_through_without_a_read(app):
    ids = make_players(app, "Ann", "Ben")
    created = app.post("/api/v1/games/", {"players": ids, "tile_set": 6})
    response = app.patch(
        f"/api/v1/games/{created.json()['id']}/", {"name": "Late"}, headers={"If-Match": created["ETag"]}
    )
    assert response.status_code == 200 and response.json()["name"] == "Late"


def test_a_retried_share_answers_the_same_token_and_that_token_still_opens_the_game(app, anonymous):
    game = start_game(app)
    url = f"/api/v1/games/{game['id']}/share/"
    first = app.post(url, headers={"Idempotency-Key": "share-1"})
    again = app.post(url, headers={"Idempotency-Key": "share-1"})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert anonymous.get(f"/api/v1/live/{first.json()['token']}/").status_code == 200
    assert app.get(url).json()["token"] == first.json()["token"]


def test_a_share_with_a_new_key_still_replaces_the_token(app, anonymous):
    game = start_game(app)
    url = f"/api/v1/games/{game['id']}/share/"
    first = app.post(url, headers={"Idempotency-Key": "share-1"}).json()["token"]
    second = app.post(url, headers={"Idempotency-Key": "share-2"}).json()["token"]
    assert first != second
    assert anonymous.get(f"/api/v1/live/{first}/").status_code == 404


def test_a_retried_restore_replays_its_answer_instead_of_a_409(app):
    game = start_game(app)
    app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    assert app.delete(f"/api/v1/games/{game['id']}/rounds/1/").status_code == 204
    url = f"/api/v1/games/{game['id']}/rounds/restore/"
    first = app.post(url, headers={"Idempotency-Key": "restore-1"})
    again = app.post(url, headers={"Idempotency-Key": "restore-1"})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert (again["Location"], again["ETag"]) == (first["Location"], first["ETag"])
    assert Round.objects.count() == 1
    assert app.post(url, headers={"Idempotency-Key": "restore-2"}).status_code == 409


def test_a_retried_import_replays_its_201(app):
    game = start_game(app)
    app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    exported = app.get("/api/v1/export/?format=json").json()
    book = app.post("/api/v1/scorebooks/", {"name": "Club"}).json()["id"]
    url = f"/api/v1/import/?scorebook={book}"
    first = app.post(url, exported, headers={"Idempotency-Key": "import-1"})
    again = app.post(url, exported, headers={"Idempotency-Key": "import-1"})
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Game.objects.filter(scorebook_id=book).count() == 1


def test_the_same_key_with_another_query_is_another_request(app):
    game = start_game(app)
    exported = app.get("/api/v1/export/?format=json").json()
    book = app.post("/api/v1/scorebooks/", {"name": "Club"}).json()["id"]
    app.post(f"/api/v1/import/?scorebook={book}", exported, headers={"Idempotency-Key": "import-1"})
    response = app.post("/api/v1/import/", exported, headers={"Idempotency-Key": "import-1"})
    assert response.status_code == 422
    assert Game.objects.exclude(pk=game["id"]).count() == 1


def test_a_retried_accept_replays_the_scorebook(app, other_app):
    book = app.post("/api/v1/scorebooks/", {"name": "Club"}).json()["id"]
    code = app.post(f"/api/v1/scorebooks/{book}/invites/", {"role": "viewer"}).json()["code"]
    url = f"/api/v1/invites/{code}/accept/"
    first = other_app.post(url, headers={"Idempotency-Key": "join"})
    again = other_app.post(url, headers={"Idempotency-Key": "join"})
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"


def test_a_busy_answer_leaves_the_key_free_for_the_retry_it_asks_for(app, settings):
    from django.core.cache import cache

    exported = app.get("/api/v1/export/?format=json").json()
    cache.add(f"transfer-busy:{app.user.pk}", 1, timeout=60)  # another import of this account is under way
    busy = app.post("/api/v1/import/", exported, headers={"Idempotency-Key": "import-1"})
    assert busy.status_code == 429 and "Retry-After" in busy
    assert not IdempotencyKey.objects.filter(key="import-1").exists()
    cache.delete(f"transfer-busy:{app.user.pk}")
    retry = app.post("/api/v1/import/", exported, headers={"Idempotency-Key": "import-1"})
    assert retry.status_code == 200 and "Idempotent-Replayed" not in retry


def test_a_retry_after_the_worker_of_the_first_request_died_is_saved_at_once(app, postgres_only):
    """The claim names a database session that no longer exists: its request cannot be running."""
    ids = make_players(app, "Ann", "Ben")
    body = {"players": ids, "tile_set": 6}
    IdempotencyKey.objects.create(
        owner=app.user, key="dead", request_hash=_hash_of(app, "/api/v1/games/", body), claimed_by="2147483646"
    )
    response = app.post("/api/v1/games/", body, headers={"Idempotency-Key": "dead"})
    assert response.status_code == 201 and Game.objects.count() == 1
    assert IdempotencyKey.objects.get(key="dead").claimed_by not in ("", "2147483646")  # the retry's own session
    assert app.post("/api/v1/games/", body, headers={"Idempotency-Key": "dead"})["Idempotent-Replayed"] == "true"


def test_a_retry_while_the_first_requests_session_is_alive_is_still_a_409(app, postgres_only):
    import psycopg
    from django.db import connection

    ids = make_players(app, "Ann", "Ben")
    body = {"players": ids, "tile_set": 6}
    params = connection.get_connection_params()
    with psycopg.connect(**{k: v for k, v in params.items() if k != "cursor_factory"}) as other:
        pid = other.execute("SELECT pg_backend_pid()").fetchone()[0]
        IdempotencyKey.objects.create(
            owner=app.user, key="busy", request_hash=_hash_of(app, "/api/v1/games/", body), claimed_by=str(pid)
        )
        response = app.post("/api/v1/games/", body, headers={"Idempotency-Key": "busy"})
    assert response.status_code == 409 and response.json()["code"] == "request_in_progress"
    assert Game.objects.count() == 0
