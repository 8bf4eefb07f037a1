"""The live view through the URL: a read-only link, conditional reads, nothing private, limits."""

import json
import re

import pytest
from django.core.cache import cache
from django.test import Client

from scorekeeper.http import links
from scorekeeper.models import Game, LiveLink
from scorekeeper.reads import live
from scorekeeper.services import restore_game
from tests.api.conftest import Api, round_body, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared(app):
    game = start_game(app)
    made = app.post(f"/api/v1/games/{game['id']}/share/")
    assert made.status_code == 201
    return game, made.json()


def test_a_share_gives_a_link_an_api_url_and_a_qr_code_that_need_no_account(app, shared):
    game, link = shared
    assert set(link) == {"token", "url", "api_url", "qr_svg_url", "created_at"}
    assert len(link["token"]) == 44 and link["url"].endswith(f"/live/{link['token']}/")
    assert app.get(f"/api/v1/games/{game['id']}/share/").json()["token"] == link["token"]
    stranger = Client()
    assert stranger.get(link["api_url"]).status_code == 200
    page = stranger.get(link["url"])
    assert page.status_code == 200 and b'name="robots" content="noindex' in page.content
    qr = stranger.get(link["qr_svg_url"])
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"


def test_the_live_body_holds_names_and_scores_only(app, shared):
    game, link = shared
    app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    body = Client().get(link["api_url"]).json()
    assert [p["name"] for p in body["players"]] == ["Ann", "Ben", "Cy"]
    assert [e["score"] for e in body["rounds"][0]["entries"]] == [0, 3, 4]
    text = json.dumps(body)
    assert '"id"' not in text and '"player"' not in text and app.user.email not in text and "@" not in text
    assert body["standings"][0] == {"name": "Ann", "total": 0, "rank": 1}


def test_an_unchanged_game_is_a_304_and_a_new_round_a_200(app, shared, django_assert_num_queries):
    game, link = shared
    viewer = Client()
    first = viewer.get(link["api_url"])
    etag = first["ETag"]
    cache.clear()  # the full path (the cached one: tests/api/test_cached_polls.py)
    # 1 the link with its game's version (nothing else: no session, no user)
    with django_assert_num_queries(1):
        again = viewer.get(link["api_url"], headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    changed = viewer.get(link["api_url"], headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag and len(changed.json()["rounds"]) == 1
    sheet = f"/live/{link['token']}/sheet/"
    page = viewer.get(sheet, headers={"If-None-Match": viewer.get(sheet)["ETag"]})
    assert page.status_code == 304


def test_a_game_and_a_round_answer_304_to_their_current_etag(client_kind, django_assert_num_queries):
    game = start_game(client_kind)
    client_kind.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    for path in (f"/api/v1/games/{game['id']}/", f"/api/v1/games/{game['id']}/rounds/1/"):
        etag = client_kind.get(path)["ETag"]
        cache.clear()  # the full path (the cached one: tests/api/test_cached_polls.py)
        # 1 the session (the app's token or the browser's cookie), 2 its user with the game's version
        with django_assert_num_queries(2):
            response = client_kind.get(path, headers={"If-None-Match": etag})
        assert response.status_code == 304 and response["ETag"] == etag, path
        assert client_kind.get(path, headers={"If-None-Match": '"game-0-v0"'}).status_code == 200
    client_kind.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 5, 2, 3))
    assert client_kind.get(f"/api/v1/games/{game['id']}/rounds/1/", headers={"If-None-Match": etag}).status_code == 200


def test_a_replaced_revoked_or_unknown_link_is_a_404(app, shared):
    game, link = shared
    new = app.post(f"/api/v1/games/{game['id']}/share/").json()
    assert new["token"] != link["token"]
    visitor = Client()
    assert visitor.get(link["api_url"]).status_code == 404
    assert visitor.get(new["api_url"]).status_code == 200
    assert app.delete(f"/api/v1/games/{game['id']}/share/").status_code == 204
    for url in (new["api_url"], new["url"], new["qr_svg_url"]):
        assert visitor.get(url).status_code == 404, url
    assert b"no longer works" in visitor.get(new["url"]).content
    assert app.get(f"/api/v1/games/{game['id']}/share/").status_code == 404
    assert app.delete(f"/api/v1/games/{game['id']}/share/").status_code == 404
    wrong = new["token"][:12] + "x" * 32  # the right selector with a wrong secret
    assert visitor.get(f"/api/v1/live/{wrong}/").status_code == 404
    assert visitor.get("/api/v1/live/short/").status_code == 404


def test_a_token_carries_at_least_128_bits_and_is_checked_in_constant_time(app, shared, monkeypatch):
    _, link = shared
    assert len(set(re.findall(r"[A-Za-z0-9_-]", link["token"]))) > 10  # not a counter
    compared = []
    real = live.secrets.compare_digest
    monkeypatch.setattr(live.secrets, "compare_digest", lambda a, b: compared.append((a, b)) or real(a, b))
    Client().get(link["api_url"])
    assert compared == [(LiveLink.objects.get().verifier, link["token"][12:])]
    assert len(LiveLink.objects.get().verifier) * 6 >= 128 + 64  # 32 URL-safe characters: 192 bits


def test_a_leaked_link_hammered_from_one_address_gets_429_with_retry_after(shared, settings, monkeypatch):
    _, link = shared
    settings.LIVE_REQUESTS_PER_MINUTE = 5
    monkeypatch.setattr(links.time, "time", lambda: 1_800_000_030.0)  # mid-window: no minute rolls over
    client = Client()
    answers = [client.get(link["api_url"]).status_code for _ in range(7)]
    assert answers[:5] == [200] * 5 and answers[5:] == [429, 429]
    refused = client.get(link["api_url"])
    assert refused["Retry-After"] == "30"
    assert client.get(link["url"]).status_code == 429
    assert Client(REMOTE_ADDR="10.0.0.9").get(link["api_url"]).status_code == 200  # another address


def test_deleting_the_game_ends_its_link(app, shared):
    game, link = shared
    app.delete(f"/api/v1/games/{game['id']}/")
    assert Game.objects.trashed().count() == 1 and Client().get(link["api_url"]).status_code == 404
    trashed = Game.objects.get()
    restore_game(game=trashed, by=trashed.deleted_by)
    assert Client().get(link["api_url"]).status_code == 404  # a restored game does not reopen the link


def test_the_live_body_comes_in_each_viewers_language_and_a_spanish_etag_is_no_304_for_english(app, shared):
    _, link = shared
    sheet = f"/live/{link['token']}/sheet/"
    spanish = Client().get(sheet, headers={"Accept-Language": "es"})
    english = Client().get(sheet, headers={"Accept-Language": "en"})  # after the Spanish one was kept
    assert "Hoja de puntuación" in spanish.text and spanish["Content-Language"] == "es"
    assert "Score sheet" in english.text and "Hoja de puntuación" not in english.text
    assert english["Content-Language"] == "en" and english["ETag"] != spanish["ETag"]
    for response in (spanish, english):
        assert {"Accept-Language", "Cookie"} <= {v.strip() for v in response["Vary"].split(",")}
        assert response["Cache-Control"] == "no-cache"
    again = Client().get(sheet, headers={"Accept-Language": "en", "If-None-Match": spanish["ETag"]})
    assert again.status_code == 200 and "Score sheet" in again.text
    same = Client().get(sheet, headers={"Accept-Language": "es", "If-None-Match": spanish["ETag"]})
    assert same.status_code == 304 and same["ETag"] == spanish["ETag"]


def test_the_language_cookie_chooses_the_live_pages_language_and_its_etag(app, shared):
    _, link = shared
    viewer = Client(headers={"Accept-Language": "en"})
    viewer.cookies["language"] = "es"
    page = viewer.get(link["url"])
    body = viewer.get(f"/live/{link['token']}/sheet/")
    assert "Hoja de puntuación" in page.text and "Hoja de puntuación" in body.text
    assert page["ETag"] == body["ETag"] and f'data-etag="{page["ETag"]}"' in page.text.replace("&quot;", '"')
    assert page["Cache-Control"] == "private, no-cache"  # the page carries this viewer's CSRF token


def test_renaming_a_player_changes_the_live_links_etags_and_bodies(app, shared):
    game, link = shared
    viewer = Client()
    json_before = viewer.get(link["api_url"])
    sheet = f"/live/{link['token']}/sheet/"
    html_before = viewer.get(sheet)
    assert "Ben" in html_before.text
    renamed = app.patch(f"/api/v1/players/{game['players'][1]['id']}/", {"name": "B."})
    assert renamed.status_code == 200
    json_after = viewer.get(link["api_url"], headers={"If-None-Match": json_before["ETag"]})
    assert json_after.status_code == 200 and [p["name"] for p in json_after.json()["players"]] == ["Ann", "B.", "Cy"]
    html_after = viewer.get(sheet, headers={"If-None-Match": html_before["ETag"]})
    assert html_after.status_code == 200 and "B." in html_after.text and "Ben" not in html_after.text


def test_a_conditional_get_answers_only_a_member_and_only_a_live_game(client_kind, other_app):
    game = start_game(client_kind)
    client_kind.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    paths = (f"/api/v1/games/{game['id']}/", f"/api/v1/games/{game['id']}/rounds/1/")
    etags = [client_kind.get(path)["ETag"] for path in paths]
    for path, etag in zip(paths, etags, strict=True):
        # Someone else's game, a bad token, no credentials: the ETag they name opens nothing.
        assert other_app.get(path, headers={"If-None-Match": etag}).status_code == 404, path
        stranger = Api(Client(), {"X-Session-Token": "not-a-token"})
        assert stranger.get(path, headers={"If-None-Match": etag}).status_code == 401, path
        assert Api(Client()).get(path, headers={"If-None-Match": etag}).status_code == 401, path
    assert (
        client_kind.get(f"/api/v1/games/{game['id']}/rounds/2/", headers={"If-None-Match": etags[1]}).status_code == 404
    )
    client_kind.delete(paths[0], headers={"If-Match": etags[0]})
    for path, etag in zip(paths, etags, strict=True):
        assert client_kind.get(path, headers={"If-None-Match": etag}).status_code == 404, path
