"""Every /api/v1/ route x {owner, another user, anonymous}, built from the URL resolver.

A route added without an entry in ROUTES fails the first test, so none goes unchecked.
"""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.api.conftest import browser_for, round_body, start_game

pytestmark = pytest.mark.django_db

# Route name -> (path kwargs from the owner's objects, is it one object of the owner?)
ROUTES = {
    "player-list": (lambda o: {}, False),
    "player-detail": (lambda o: {"pk": o["player"]}, True),
    "player-stats": (lambda o: {"pk": o["player"]}, True),
    "game-list": (lambda o: {}, False),
    "game-detail": (lambda o: {"pk": o["game"]}, True),
    "round-list": (lambda o: {"game_pk": o["game"]}, True),
    "round-detail": (lambda o: {"game_pk": o["game"], "number": 1}, True),
    "leaderboard": (lambda o: {}, False),
    "me": (lambda o: {}, False),
}


def api_routes():
    (api,) = [p for p in get_resolver().url_patterns if isinstance(p, URLResolver) and p.namespace == "api"]
    return {p.name: p for p in api.url_patterns if isinstance(p, URLPattern)}


def test_every_api_route_is_in_the_matrix():
    assert set(api_routes()) == set(ROUTES)


@pytest.fixture
def owned(app):
    game = start_game(app)
    app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    return {"game": game["id"], "player": game["players"][0]["id"]}


def url_of(name, owned):
    from django.urls import reverse

    kwargs, _ = ROUTES[name]
    return reverse(f"api:{name}", kwargs=kwargs(owned))


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_the_owner_reads_every_route(app, owned, name):
    assert app.get(url_of(name, owned)).status_code == 200


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_the_owner_reads_every_route_with_a_browser_session_too(app, owned, name):
    assert browser_for(app.user).get(url_of(name, owned)).status_code == 200


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_another_user_gets_404_for_the_owners_objects_and_sees_none_of_them(other_app, owned, name):
    response = other_app.get(url_of(name, owned))
    if ROUTES[name][1]:
        assert response.status_code == 404
    elif name == "me":
        assert response.json()["email"] == other_app.user.email
    else:
        assert response.status_code == 200
        assert response.json()["count"] == 0


@pytest.mark.parametrize("name", sorted(ROUTES))
@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete"])
def test_anonymous_gets_401_on_every_route_and_method(anonymous, owned, name, method):
    response = getattr(anonymous, method)(url_of(name, owned))
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "X-Session-Token"


@pytest.mark.parametrize("name", sorted(ROUTES))
@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_another_user_cannot_change_the_owners_objects(other_app, owned, name, method):
    if not ROUTES[name][1]:
        pytest.skip("collection routes hold nothing of the owner's")
    response = getattr(other_app, method)(url_of(name, owned), {"name": "Mine now"})
    assert response.status_code in {404, 405}


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
