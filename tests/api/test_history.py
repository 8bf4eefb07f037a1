"""Every change to a game is kept: who, when, what the round (or name) was and became."""

import pytest
from django.test import Client

from tests.api.conftest import round_body, start_game

pytestmark = pytest.mark.django_db


def actions(api, game):
    return [(c["action"], c["round"]) for c in api.get(f"/api/v1/games/{game['id']}/history/").json()["results"]]


def test_every_action_through_the_api_is_kept_with_who_and_before_and_after(app):
    game = start_game(app)  # Ann, Ben, Cy on double-6
    url = f"/api/v1/games/{game['id']}/"
    app.post(f"{url}rounds/", round_body(game, 6, 3, 4))
    app.put(f"{url}rounds/1/", round_body(game, 6, 5, 4))
    app.post(f"{url}rounds/", round_body(game, 5, 2, 2))
    app.delete(f"{url}rounds/2/")
    app.post(f"{url}rounds/restore/")
    app.patch(url, {"name": "Friday"})
    changes = app.get(f"{url}history/").json()["results"]
    assert [(c["action"], c["round"]) for c in changes] == [
        ("game_renamed", None), ("round_restored", 2), ("round_undone", 2), ("round_recorded", 2),
        ("round_corrected", 1), ("round_recorded", 1), ("game_created", None),
    ]  # fmt: skip
    assert {c["by"]["email"] for c in changes} == {app.user.email}
    renamed, restored, undone, _, corrected, recorded, created = changes
    assert renamed["before"] == {"name": game["name"]} and renamed["after"] == {"name": "Friday"}
    scores = lambda side: {e["player"]: e["score"] for e in side["entries"]}  # noqa: E731
    assert scores(corrected["before"]) == {"Ann": 0, "Ben": 3, "Cy": 4}
    assert scores(corrected["after"]) == {"Ann": 0, "Ben": 5, "Cy": 4}
    assert recorded["before"] is None and scores(recorded["after"]) == {"Ann": 0, "Ben": 3, "Cy": 4}
    assert undone["after"] is None and scores(undone["before"]) == {"Ann": 0, "Ben": 2, "Cy": 2}
    assert restored["before"] is None and restored["after"] == undone["before"]
    assert created["after"] == {"name": game["name"]}


def test_an_undone_round_cannot_come_back_once_a_newer_round_is_recorded(app):
    game = start_game(app)
    url = f"/api/v1/games/{game['id']}/rounds/"
    app.post(url, round_body(game, 6, 3, 4))
    app.delete(f"{url}1/")
    assert app.post(url, round_body(game, 6, 1, 2)).status_code == 201
    response = app.post(f"{url}restore/")
    assert response.status_code == 409 and response.json()["code"] == "nothing_to_restore"
    assert actions(app, game)[0] == ("round_recorded", 1)


def test_the_sheet_says_who_corrected_a_round_and_what_changed(client, browser):
    game = start_game(browser)
    browser.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 30, 4))
    browser.put(f"/api/v1/games/{game['id']}/rounds/1/", round_body(game, 6, 3, 4))
    client.force_login(browser.user)
    html = client.get(f"/games/{game['id']}/").content.decode()
    name = browser.user.short_name  # "Keeper3", from the email
    assert f"Round 1 corrected by {name} at " in html and "Ben 30 → 3" in html
    page = client.get(f"/games/{game['id']}/history/").content.decode()
    assert "corrected round 1: Ben 30 → 3" in page and "recorded round 1 (6-6)" in page


def test_a_rename_and_an_undo_on_the_pages_are_kept_too(client, browser):
    game = start_game(browser)
    browser.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    client.force_login(browser.user)
    client.post(f"/games/{game['id']}/rename/", {"name": "Night"})
    client.post(f"/games/{game['id']}/rounds/undo/", {"number": 1})
    client.post(f"/games/{game['id']}/rounds/restore/")
    assert actions(browser, game)[:3] == [("round_restored", 1), ("round_undone", 1), ("game_renamed", None)]


def test_the_history_costs_a_fixed_number_of_queries(browser, django_assert_num_queries):
    game = start_game(browser)
    for double, pips in ((6, 3), (5, 2), (4, 1)):
        browser.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, double, pips, pips + 1))
        browser.put(f"/api/v1/games/{game['id']}/rounds/1/", round_body(game, 6, 5, 4))
    # 1 session, 2 user, 3 the game among the user's, 4 the game's versions, 5 its rounds' versions,
    # 6 its seat changes' versions (the same with or without any: tests/api/test_seats.py)
    with django_assert_num_queries(6):
        response = browser.get(f"/api/v1/games/{game['id']}/history/")
    assert response.json()["count"] == 1 + 3 + 3


def test_a_stranger_sees_no_history(app, other_app):
    game = start_game(app)
    assert other_app.get(f"/api/v1/games/{game['id']}/history/").status_code == 404
    client = Client()
    client.force_login(other_app.user)
    assert client.get(f"/games/{game['id']}/history/").status_code == 404
