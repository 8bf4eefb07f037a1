import json

import pytest
from django.test import Client

from tests.factories import PlayerFactory, UserFactory


class Api:
    """A mobile app (X-Session-Token) or a browser (session cookie + CSRF) talking JSON."""

    def __init__(self, client: Client, headers: dict | None = None):
        self.client = client
        self.headers = headers or {}

    def _call(self, method, path, body=None, headers=None):
        kwargs = {"headers": {**self.headers, **(headers or {})}}
        if body is not None:
            kwargs["data"] = body if isinstance(body, str | bytes) else json.dumps(body)
            kwargs["content_type"] = "application/json"
        return getattr(self.client, method)(path, **kwargs)

    def get(self, path, **kw):
        return self._call("get", path, **kw)

    def post(self, path, body=None, **kw):
        return self._call("post", path, body, **kw)

    def put(self, path, body=None, **kw):
        return self._call("put", path, body, **kw)

    def patch(self, path, body=None, **kw):
        return self._call("patch", path, body, **kw)

    def delete(self, path, body=None, **kw):
        return self._call("delete", path, body, **kw)


def app_for(email: str) -> Api:
    """Sign up through allauth's headless app API, as a phone would, and keep the token."""
    client = Client()
    response = client.post(
        "/_allauth/app/v1/auth/signup",
        {"email": email, "password": "domino-night-77"},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    api = Api(Client(), {"X-Session-Token": response.json()["meta"]["session_token"]})
    from accounts.models import User

    api.user = User.objects.get(email=email)
    return api


def browser_for(user) -> Api:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/")  # its log-out form sets the CSRF cookie
    api = Api(client, {"X-CSRFToken": client.cookies["csrftoken"].value})
    api.user = user
    return api


@pytest.fixture
def app(db):
    return app_for("ann@example.com")


@pytest.fixture
def other_app(db):
    return app_for("zed@example.com")


@pytest.fixture
def browser(db):
    return browser_for(UserFactory())


@pytest.fixture(params=["app", "browser"])
def client_kind(request, db):
    """Each endpoint test runs once with the app token and once with a browser session."""
    return app_for("kind@example.com") if request.param == "app" else browser_for(UserFactory())


@pytest.fixture
def anonymous(db):
    return Api(Client())


def make_players(api, *names):
    return [PlayerFactory(owner=api.user, name=name).pk for name in names]


def start_game(api, names=("Ann", "Ben", "Cy"), **body):
    ids = make_players(api, *names)
    response = api.post("/api/v1/games/", {"name": "Friday", "tile_set": 6, "players": ids, **body})
    assert response.status_code == 201, response.content
    return response.json()


def round_body(game, starting_double, *pips, went_out=0, **extra):
    """One entry per seat: seat `went_out` went out, the others hold `pips` in seat order."""
    others = iter(pips)
    entries = []
    for seat, player in enumerate(game["players"]):
        if seat == went_out:
            entries.append({"player": player["id"], "pips": 0, "went_out": True})
        else:
            entries.append({"player": player["id"], "pips": next(others)})
    return {"starting_double": starting_double, "entries": entries, **extra}
