"""Credentials on every /api/v1/ route: a session token, a browser session, none, a bad one."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scorekeeper.models import Scorebook
from tests.api.conftest import browser_for, round_body, start_game

pytestmark = pytest.mark.django_db

# Which role may do what on every route: tests/api/test_roles.py. Here: the credentials themselves.


@pytest.fixture
def owned(app):
    game = start_game(app)
    app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    return {"game": game["id"], "player": game["players"][0]["id"], "players": [p["id"] for p in game["players"]]}


def readable_routes():
    (api,) = [p for p in get_resolver().url_patterns if isinstance(p, URLResolver) and p.namespace == "api"]
    return sorted(
        p.name for p in api.url_patterns if isinstance(p, URLPattern) and hasattr(p.callback.view_class, "get")
    )


KWARGS = {
    "player-detail": lambda o: {"pk": o["player"]},
    "player-stats": lambda o: {"pk": o["player"]},
    "game-detail": lambda o: {"pk": o["game"]},
    "round-list": lambda o: {"pk": o["game"]},
    "round-detail": lambda o: {"pk": o["game"], "number": 1},
    "scorebook-detail": lambda o: {"pk": o["scorebook"]},
    "game-share": lambda o: {"pk": o["game"]},
    "game-export": lambda o: {"pk": o["game"]},
    "game-history": lambda o: {"pk": o["game"]},
    "live": lambda o: {"token": o["live"]},
    "scorebook-seasons": lambda o: {"pk": o["scorebook"]},
    "season-detail": lambda o: {"pk": o["season"]},
    "scorebook-nights": lambda o: {"pk": o["scorebook"]},
    "night-detail": lambda o: {"pk": o["night"]},
    "night-share": lambda o: {"pk": o["night"]},
    "night-live": lambda o: {"token": o["night_live"]},
    "game-events": lambda o: {"pk": o["game"]},
    "night-events": lambda o: {"pk": o["night"]},
    "live-events": lambda o: {"token": o["live"]},
    "night-live-events": lambda o: {"token": o["night_live"]},
}
# The live view and its stream need no credentials (the token is the credential).
PUBLIC = {"live", "night-live", "live-events", "night-live-events"}
# The routes whose questions are in the query string.
QUERIES = {"odds": lambda o: f"?players={','.join(map(str, o['players']))}&scorebook={o['scorebook']}"}


def url_of(name, owned):
    query = QUERIES[name](owned) if name in QUERIES and "scorebook" in owned else ""
    return reverse(f"api:{name}", kwargs=KWARGS.get(name, lambda o: {})(owned)) + query


@pytest.fixture
def with_book(app, owned):
    token = app.post(f"/api/v1/games/{owned['game']}/share/").json()["token"]
    book = Scorebook.personal_for(app.user).pk
    season = {"name": "Spring", "starts": "2025-03-01", "ends": "2025-05-31"}
    season = app.post(f"/api/v1/scorebooks/{book}/seasons/", season).json()["id"]
    night = app.post(f"/api/v1/scorebooks/{book}/nights/", {"name": "Friday", "date": "2025-11-21"}).json()["id"]
    night_live = app.post(f"/api/v1/nights/{night}/share/").json()["token"]
    return owned | {"scorebook": book, "live": token, "season": season, "night": night, "night_live": night_live}


@pytest.mark.parametrize("name", readable_routes())
def test_a_phone_reads_every_route_with_its_session_token(app, with_book, name):
    assert app.get(url_of(name, with_book)).status_code == 200


@pytest.mark.parametrize("name", readable_routes())
def test_a_browser_reads_every_route_with_its_session_cookie(app, with_book, name):
    assert browser_for(app.user).get(url_of(name, with_book)).status_code == 200


@pytest.mark.parametrize("name", sorted(set(readable_routes()) - PUBLIC))
@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete"])
def test_anonymous_gets_401_on_every_route_and_method(anonymous, with_book, name, method):
    response = getattr(anonymous, method)(url_of(name, with_book))
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "X-Session-Token"


def test_a_bad_token_is_a_401(anonymous, owned):
    anonymous.headers["X-Session-Token"] = "not-a-token"
    assert anonymous.get("/api/v1/games/").status_code == 401


def test_a_logged_out_token_is_a_401(app):
    token = app.headers["X-Session-Token"]
    assert app.get("/api/v1/games/").status_code == 200
    logout = app.client.delete("/_allauth/app/v1/auth/session", headers={"X-Session-Token": token})
    assert logout.status_code == 401  # allauth answers 401 once the session is gone
    assert app.get("/api/v1/games/").status_code == 401


def test_a_browser_session_needs_csrf_on_unsafe_methods(browser):
    browser.headers.pop("X-CSRFToken")
    assert browser.get("/api/v1/players/").status_code == 200
    assert browser.post("/api/v1/players/", {"name": "Ann"}).status_code == 403


def test_player_ids_in_a_round_must_be_seated(app, other_app):
    game = start_game(app)
    stranger = start_game(other_app)["players"][0]["id"]
    body = round_body(game, 6, 3, 4)
    body["entries"][2]["player"] = stranger
    response = app.post(f"/api/v1/games/{game['id']}/rounds/", body)
    assert response.status_code == 400


def test_an_apps_token_is_looked_up_with_one_read_of_its_session(app, monkeypatch, settings):
    from django.utils.module_loading import import_string

    from tests.api.conftest import Api

    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")
    monkeypatch.setattr(store, "exists", lambda self, key: pytest.fail("exists() is a second read of the session"))
    assert app.get("/api/v1/me/").status_code == 200
    assert Api(app.client, {"X-Session-Token": "no-such-session"}).get("/api/v1/me/").status_code == 401
    assert Api(app.client, {"X-Session-Token": "../$%"}).get("/api/v1/me/").status_code == 401
