"""When the database goes away: a clear 503 that says when to retry, in the shape the client reads."""

import pytest
from django.db import OperationalError, connection
from django.db.backends.utils import CursorWrapper
from django.urls import reverse

from tests.factories import make_game

pytestmark = pytest.mark.django_db


class LostDatabase:
    """Every query fails as it does when the server is gone (Django's own execute hook)."""

    def __init__(self):
        self.queries = 0

    def __call__(self, execute, sql, params, many, context):
        self.queries += 1
        raise OperationalError("server closed the connection unexpectedly")


@pytest.fixture
def client(client):
    client.raise_request_exception = False  # answer as the server would, with handler500
    return client


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def during_outage(call):
    lost = LostDatabase()
    with connection.execute_wrapper(lost):
        response = call()
    assert lost.queries > 0  # the request really reached the database
    return response


@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/players/", "/api/v1/me/"])
def test_the_api_answers_503_json_with_retry_after(signed_in, path):
    response = during_outage(lambda: signed_in.get(path))
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert response.json()["code"] == "service_unavailable"


def test_an_api_write_answers_503_and_saves_nothing(signed_in, user):
    game = make_game(owner=user, tile_set=6)
    response = during_outage(
        lambda: signed_in.post(
            f"/api/v1/games/{game.pk}/rounds/", {"starting_double": 6}, content_type="application/json"
        )
    )
    assert response.status_code == 503
    assert game.rounds.count() == 0


def test_allauths_api_answers_503_in_its_own_shape(client):
    response = during_outage(
        lambda: client.post(
            "/_allauth/app/v1/auth/login",
            {"email": "a@example.com", "password": "x" * 12},
            content_type="application/json",
        )
    )
    assert response.status_code == 503 and response["Retry-After"]
    assert response.json()["errors"][0]["code"] == "service_unavailable"


def test_a_page_answers_a_short_503_page_that_needs_no_database(signed_in):
    response = during_outage(lambda: signed_in.get(reverse("home")))
    assert response.status_code == 503 and response["Retry-After"]
    assert response["Content-Type"].startswith("text/html") and b"Back in a moment" in response.content


def test_the_app_recovers_by_itself_when_the_database_is_back(signed_in):
    assert during_outage(lambda: signed_in.get(reverse("home"))).status_code == 503
    assert signed_in.get(reverse("home")).status_code == 200


def test_healthz_says_ok_and_then_503_when_the_database_is_lost(client, monkeypatch):
    response = client.get("/healthz/", headers={"Accept": "application/json"})
    assert response.status_code == 200 and set(response.json().values()) == {"OK"}

    def lost(self, *args, **kwargs):
        raise OperationalError("could not connect to server")

    # The checks run in worker threads, each with its own connection: fail every cursor.
    monkeypatch.setattr(CursorWrapper, "execute", lost)
    response = client.get("/healthz/", headers={"Accept": "application/json"})
    assert response.status_code == 503 and response["Retry-After"]
    assert "Database" in " ".join(key for key, value in response.json().items() if value != "OK")


def test_every_error_under_the_api_is_json(signed_in):
    for path in ("/api/nothing-here", "/api/v1/nothing/", "/_allauth/nothing", "/_allauth/app/v1/nothing"):
        response = signed_in.get(path)
        assert response.status_code == 404 and response["Content-Type"].startswith("application/json"), path
