"""A NUL anywhere in a request is a 400 naming where it was, and changes nothing.

PostgreSQL refuses NUL in text and JSON columns, so before the guard in scorekeeper/errors.py a
NUL that reached a lookup or an idempotency record was a 500 there (SQLite took it silently).
Half of a surrogate pair (which only JSON can spell) cannot be encoded by any database driver.
"""

from urllib.parse import urlencode

import pytest
from django.test import Client

from accounts.models import User
from scorekeeper.models import Game, IdempotencyKey, Invite, Membership, Player, Round
from tests.api.conftest import app_for, round_body, start_game

pytestmark = pytest.mark.django_db


def snapshot() -> tuple:
    """Everything a refused request could have written."""
    return (
        Game.objects.count(),
        Round.objects.count(),
        list(Player.objects.order_by("pk").values_list("name", flat=True)),
        list(Game.objects.order_by("pk").values_list("name", "version")),
        Invite.objects.count(),
        list(Membership.objects.order_by("pk").values_list("role", "last_used_at")),
        IdempotencyKey.objects.count(),
        User.objects.count(),
    )


@pytest.fixture
def app():
    app = app_for("nul@example.com")
    app.client.raise_request_exception = False  # a 500 is an answer to look at, not an exception
    app.game = start_game(app)
    app.book = app.get("/api/v1/scorebooks/").json()["results"][0]["id"]
    return app


@pytest.fixture
def page(app):
    client = Client(raise_request_exception=False)
    client.force_login(app.user)
    return client


def test_a_nul_invite_code_in_the_api_path_is_a_400_naming_the_code(app):
    before = snapshot()
    response = app.post("/api/v1/invites/%00/accept/")
    assert response.status_code == 400
    assert "NUL" in response.json()["code"][0]
    assert snapshot() == before


def test_a_nul_invite_in_the_scorebook_pages_query_is_a_400_page(app, page):
    response = page.get(f"/scorebooks/{app.book}/", {"invite": "\x00"})
    assert response.status_code == 400
    assert b"invite" in response.content and response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        ("/api/v1/scorebooks/{book}/invites/", {"role": "\x00"}, "role"),
        ("/api/v1/games/", {"players": [], "tile_set": "\x00"}, "tile_set"),
        ("/api/v1/players/", {"name": "Ann\x00"}, "name"),
    ],
    ids=["role", "tile_set", "name"],
)
def test_a_nul_echoed_into_an_idempotency_record_is_a_400_and_keeps_no_record(app, url, body, field):
    before = snapshot()
    response = app.post(url.format(book=app.book), body, headers={"Idempotency-Key": "nul-1"})
    assert response.status_code == 400, response.content
    assert list(response.json()) == [field]
    assert snapshot() == before
    retried = app.post(url.format(book=app.book), body, headers={"Idempotency-Key": "nul-1"})
    assert retried.status_code == 400 and "Idempotent-Replayed" not in retried


@pytest.mark.parametrize(
    "header", ["Idempotency-Key", "If-Match", "If-None-Match", "X-Session-Token", "Accept-Language"]
)
def test_a_nul_in_any_header_is_a_400_naming_the_header(app, header):
    before = snapshot()
    game = app.game["id"]
    response = app.post(f"/api/v1/games/{game}/rounds/", round_body(app.game, 6, 3, 4), headers={header: "a\x00b"})
    assert response.status_code == 400
    assert list(response.json()) == [header]
    assert snapshot() == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"starting_double": 6, "entries": [{"player": 1, "tiles": ["1-2", "1-\\u0000"]}]}', "entries[0].tiles[1]"),
        ('{"starting_double": 6, "entries": [{"play\\u0000er": 1}]}', "entries[0].play\\u0000er"),
        ('{"starting_double": 6, "note": "\\ud800", "entries": []}', "note"),
        ('{"starting_double": 6, "note": "\\uDFFF", "entries": []}', "note"),
    ],
    ids=["nested-string", "key", "lone-high-surrogate", "lone-low-surrogate"],
)
def test_a_nul_or_half_a_surrogate_pair_anywhere_in_json_is_a_400_naming_where(app, body, field):
    before = snapshot()
    response = app.post(f"/api/v1/games/{app.game['id']}/rounds/", body)
    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert snapshot() == before


def test_an_escaped_backslash_before_u0000_and_a_whole_surrogate_pair_are_ordinary_text(app):
    response = app.post("/api/v1/players/", '{"name": "Ann \\\\u0000 \\ud83d\\ude00"}')
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Ann \\u0000 \U0001f600"


@pytest.mark.parametrize("encoding", ["multipart", "urlencoded"])
def test_a_nul_in_a_page_form_is_a_400_page_and_changes_nothing(app, page, encoding):
    before = snapshot()
    data = {"player-name": "Zed\x00", "next": "/players/"}
    if encoding == "multipart":
        response = page.post("/players/add/", data)
    else:
        response = page.post("/players/add/", urlencode(data), content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert b"player-name" in response.content
    assert snapshot() == before


def test_allauth_answers_a_nul_session_token_in_its_own_error_shape(db):
    client = Client(raise_request_exception=False)
    response = client.get("/_allauth/app/v1/auth/session", headers={"X-Session-Token": "a\x00b"})
    assert response.status_code == 400  # allauth looked the session up: a 500 on PostgreSQL
    assert response.json()["errors"][0]["param"] == "X-Session-Token"


def test_a_nul_in_a_path_the_site_does_not_know_is_a_400_naming_the_path(page):
    response = page.get("/no/such/%00/page/")
    assert response.status_code == 400 and b"path" in response.content


@pytest.mark.parametrize("target", ["-1", "١٢", "players", "history", "//evil.example/", "https://evil.example/"])
@pytest.mark.parametrize("form", ["switch", "add_player"])
def test_a_next_that_is_not_a_path_on_this_site_goes_to_the_forms_own_page(app, page, form, target):
    url, fallback = {"switch": (f"/scorebooks/{app.book}/switch/", "/"), "add_player": ("/players/add/", "/players/")}[
        form
    ]
    response = page.post(url, {"next": target, "player-name": "Zed"})
    assert response.status_code == 302
    assert response["Location"] == fallback


@pytest.mark.parametrize("form", ["switch", "add_player"])
def test_a_next_that_is_a_path_on_this_site_is_followed(app, page, form):
    url = {"switch": f"/scorebooks/{app.book}/switch/", "add_player": "/players/add/"}[form]
    response = page.post(url, {"next": "/history/?page=2", "player-name": "Zed"})
    assert response.status_code == 302 and response["Location"] == "/history/?page=2"
