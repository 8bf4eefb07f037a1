import pytest

from tests.api.conftest import round_body, start_game

pytestmark = pytest.mark.django_db


def test_a_games_etag_changes_with_every_change_in_it(app):
    game = start_game(app)
    url = f"/api/v1/games/{game['id']}/"
    tags = [app.get(url)["ETag"]]
    app.post(f"{url}rounds/", round_body(game, 6, 3, 4))
    tags.append(app.get(url)["ETag"])
    app.put(f"{url}rounds/1/", round_body(game, 6, 5, 4))
    tags.append(app.get(url)["ETag"])
    app.patch(url, {"name": "Renamed"})
    tags.append(app.get(url)["ETag"])
    app.delete(f"{url}rounds/1/")
    tags.append(app.get(url)["ETag"])
    assert len(set(tags)) == 5


def test_a_matching_if_match_lets_the_change_through(app):
    game = start_game(app)
    url = f"/api/v1/games/{game['id']}/"
    etag = app.get(url)["ETag"]
    response = app.patch(url, {"name": "Saturday"}, headers={"If-Match": etag})
    assert response.status_code == 200 and response["ETag"] != etag


def test_a_stale_if_match_is_a_412_and_changes_nothing(app):
    game = start_game(app)
    url = f"/api/v1/games/{game['id']}/"
    stale = app.get(url)["ETag"]
    app.patch(url, {"name": "Saturday"})
    assert app.patch(url, {"name": "Sunday"}, headers={"If-Match": stale}).status_code == 412
    assert app.delete(url, headers={"If-Match": stale}).status_code == 412
    assert app.get(url).json()["name"] == "Saturday"


def test_an_if_match_for_another_object_is_a_412(app):
    game = start_game(app)
    other = app.post("/api/v1/games/", {"players": [p["id"] for p in game["players"]]}).json()
    etag = app.get(f"/api/v1/games/{other['id']}/")["ETag"]
    assert app.patch(f"/api/v1/games/{game['id']}/", {"name": "x"}, headers={"If-Match": etag}).status_code == 412
    assert app.patch(f"/api/v1/games/{game['id']}/", {"name": "x"}, headers={"If-Match": "garbage"}).status_code == 412


def test_if_match_star_matches_anything(app):
    game = start_game(app)
    assert app.patch(f"/api/v1/games/{game['id']}/", {"name": "x"}, headers={"If-Match": "*"}).status_code == 200


def test_a_round_put_or_delete_with_a_stale_etag_is_a_412(app):
    game = start_game(app)
    rounds = f"/api/v1/games/{game['id']}/rounds/"
    app.post(rounds, round_body(game, 6, 3, 4))
    etag = app.get(f"{rounds}1/")["ETag"]
    assert app.put(f"{rounds}1/", round_body(game, 6, 5, 6), headers={"If-Match": etag}).status_code == 200
    assert app.put(f"{rounds}1/", round_body(game, 6, 7, 8), headers={"If-Match": etag}).status_code == 412
    assert app.delete(f"{rounds}1/", headers={"If-Match": etag}).status_code == 412
    assert [e["pips"] for e in app.get(f"{rounds}1/").json()["entries"]] == [0, 5, 6]
    fresh = app.get(f"{rounds}1/")["ETag"]
    assert app.delete(f"{rounds}1/", headers={"If-Match": fresh}).status_code == 204
