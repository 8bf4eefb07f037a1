import pytest

from tests.api.conftest import make_players, round_body, start_game

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


def test_renaming_a_player_changes_the_etag_of_every_game_they_sit_in_and_of_no_other(app):
    ann, ben, cy, dee = make_players(app, "Ann", "Ben", "Cy", "Dee")
    games = [
        app.post("/api/v1/games/", {"players": seats}).json()["id"] for seats in ([ann, ben, cy], [ben, dee], [ann, cy])
    ]
    urls = [f"/api/v1/games/{pk}/" for pk in games]
    before = [app.get(url)["ETag"] for url in urls]
    assert app.patch(f"/api/v1/players/{ben}/", {"name": "B."}).status_code == 200
    with_ben, with_ben_too, without = (
        app.get(url, headers={"If-None-Match": tag}) for url, tag in zip(urls, before, strict=True)
    )
    assert with_ben.status_code == with_ben_too.status_code == 200 and without.status_code == 304
    assert [p["name"] for p in with_ben.json()["players"]] == ["Ann", "B.", "Cy"]
    assert with_ben["ETag"] != before[0] and with_ben_too["ETag"] != before[1]
    assert app.patch(urls[0], {"name": "x"}, headers={"If-Match": before[0]}).status_code == 412  # read before


def test_a_player_renamed_on_their_page_changes_the_etag_of_their_games(browser):
    game = start_game(browser)
    url = f"/api/v1/games/{game['id']}/"
    before = browser.get(url)["ETag"]
    player = game["players"][0]["id"]
    page = browser.client.post(f"/players/{player}/", {"name": "A."}, headers=browser.headers)
    assert page.status_code == 302
    after = browser.get(url, headers={"If-None-Match": before})
    assert after.status_code == 200 and after.json()["players"][0]["name"] == "A."


def test_a_refused_rename_leaves_every_etag_as_it_was(app):
    game = start_game(app)
    url = f"/api/v1/games/{game['id']}/"
    before = app.get(url)["ETag"]
    taken = app.patch(f"/api/v1/players/{game['players'][0]['id']}/", {"name": "ben"})  # names ignore case
    assert taken.status_code == 400
    assert app.get(url, headers={"If-None-Match": before}).status_code == 304


def test_an_if_match_with_digits_of_another_script_is_a_412(app):
    game = start_game(app)
    url = f"/api/v1/games/{game['id']}/"
    etag = app.get(url)["ETag"]
    arabic = etag.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    assert arabic != etag
    assert app.patch(url, {"name": "x"}, headers={"If-Match": arabic}).status_code == 412
    assert app.get(url).json()["name"] != "x"
