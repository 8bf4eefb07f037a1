"""Who may keep an answer: a signed-in user's pages, private API answers and exports are
`private, no-store`; the public live link, the worker, the manifest, static files and public
pages for an anonymous visitor keep their own caching."""

import pytest
from django.templatetags.static import static
from django.test import Client

from scorekeeper.services import live as links
from tests.api.conftest import app_for
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db

PRIVATE = "private, no-store"


@pytest.fixture
def table():
    """A member with a game shared on a live link, signed in on a browser and on the app."""
    user = UserFactory()
    game = make_game(owner=user, tile_set=6)
    token = links.share(game=game, by=user).token
    member = Client()
    member.force_login(user)
    app = app_for("app@example.com")
    app_game = make_game(owner=app.user, tile_set=6)
    return {"member": member, "game": game, "token": token, "app": app, "app_game": app_game}


def paths(table) -> dict[str, dict[str, str | None]]:
    """Each client's paths and the Cache-Control each must answer with (None: none at all)."""
    game, token = table["game"].pk, table["token"]
    public = {
        f"/live/{token}/sheet/": "no-cache",  # the same body for every viewer in one language
        f"/api/v1/live/{token}/": "no-cache",
        "/sw.js": "no-cache",
        "/manifest.webmanifest": None,
    }
    return {
        "anonymous": {
            **public,
            f"/live/{token}/": "private, no-cache",  # the page carries the viewer's CSRF token
            "/": None,
            "/rules/": None,
            "/sheets/blank/": None,
            "/offline/": None,
            "/accounts/login/": PRIVATE,  # allauth's own never_cache says more
            "/api/v1/games/": PRIVATE,  # a 401 is nobody else's either
            f"/api/v1/games/{game}/": PRIVATE,
        },
        "member": {
            **public,
            f"/live/{token}/": "private, no-cache",
            "/": PRIVATE,
            "/rules/": PRIVATE,  # the page shows the account
            f"/games/{game}/": PRIVATE,
            f"/games/{game}/rounds/new/": PRIVATE,
            "/players/": PRIVATE,
            "/history/": PRIVATE,
            "/scorebooks/": PRIVATE,
            "/no-such-page/": PRIVATE,  # a 404 page shows the account too
            "/export/?format=csv": PRIVATE,
            "/export/": PRIVATE,
            f"/export/?game={game}&format=csv": PRIVATE,
            f"/api/v1/games/{game}/": PRIVATE,  # by session
        },
        "app": {
            **public,
            "/api/v1/me/": PRIVATE,
            "/api/v1/games/": PRIVATE,
            f"/api/v1/games/{table['app_game'].pk}/": PRIVATE,
            f"/api/v1/games/{table['app_game'].pk}/rounds/": PRIVATE,
            "/api/v1/players/": PRIVATE,
            "/api/v1/export/?format=csv": PRIVATE,
            f"/api/v1/games/{table['app_game'].pk}/export/?format=json": PRIVATE,
            "/api/v1/leaderboard/": PRIVATE,
        },
    }


@pytest.mark.parametrize("who", ["anonymous", "member", "app"])
def test_each_answer_says_who_may_keep_it(table, who):
    get = {"anonymous": Client().get, "member": table["member"].get, "app": table["app"].get}[who]
    for path, expected in paths(table)[who].items():
        response = get(path)
        assert response.status_code in (200, 401, 404), (path, response.status_code)
        said = response.get("Cache-Control")
        assert directives(said) >= directives(expected), (who, path, said)
        if expected != PRIVATE:  # its own, and nothing added
            assert said == expected, (who, path, said)


def directives(value: str | None) -> set[str]:
    return {part.strip() for part in value.split(",")} if value else set()


def test_static_files_keep_their_own_caching_for_a_signed_in_user(table):
    response = table["member"].get(static("scorekeeper/app.js"))
    assert response.status_code == 200
    assert "public" in response["Cache-Control"] and "no-store" not in response["Cache-Control"]


def test_a_conditional_get_still_answers_304_with_no_store(table):
    for get, game in ((table["member"].get, table["game"]), (table["app"].get, table["app_game"])):
        url = f"/api/v1/games/{game.pk}/"
        first = get(url)
        assert first["Cache-Control"] == PRIVATE and first["ETag"]
        again = get(url, headers={"If-None-Match": first["ETag"]})
        assert again.status_code == 304 and again["Cache-Control"] == PRIVATE and again["ETag"] == first["ETag"]
