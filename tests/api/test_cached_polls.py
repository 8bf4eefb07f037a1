"""A game's poll answered from the shared cache (scorekeeper.http.polls): no query for an unchanged
game, and never a 304 that the full path would not give."""

import random

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from scorekeeper.caches import kept as polls
from scorekeeper.models import LIVE_SELECTOR_LENGTH
from tests.api.conftest import Api, app_for, round_body, start_game

pytestmark = pytest.mark.django_db


def poll(api, game, etag):
    return api.get(f"/api/v1/games/{game['id']}/", headers={"If-None-Match": etag})


@pytest.fixture
def followed(client_kind):
    """A game read once in full (which remembers the session, its access and the version)."""
    game = start_game(client_kind)
    etag = client_kind.get(f"/api/v1/games/{game['id']}/")["ETag"]
    return client_kind, game, etag


def test_a_members_poll_of_an_unchanged_game_is_a_304_without_a_query(followed, django_assert_num_queries):
    api, game, etag = followed
    with django_assert_num_queries(0):
        response = poll(api, game, etag)
    assert response.status_code == 304 and response["ETag"] == etag and response.content == b""


def test_the_cached_304_carries_the_headers_of_the_full_one(followed):
    api, game, etag = followed
    fast = poll(api, game, etag)
    cache.clear()
    full = poll(api, game, etag)
    assert full.status_code == fast.status_code == 304
    # Not repeated: what DRF says of the view (Allow), the body's language and length (a 304 has none).
    left_out = {"Date", "Allow", "Content-Language", "Content-Length"}
    assert {name: value for name, value in fast.items() if name not in left_out} == {
        name: value for name, value in full.items() if name not in left_out
    }


def test_entries_written_at_once_expire_at_spread_times_none_later_than_the_bound(followed, monkeypatch):
    """Phones that open their games together must not all take the full way together a minute later."""
    api, game, etag = followed
    monkeypatch.setattr(polls.keys, "random", random.Random(25))
    lifetimes, real = [], cache.set_many
    monkeypatch.setattr(cache, "set_many", lambda data, timeout, **kw: lifetimes.append(timeout) or real(data, timeout))
    for _ in range(20):
        cache.clear()
        assert poll(api, game, etag).status_code == 304  # the full way, which remembers the session and access
    assert len(lifetimes) == 20 and all(polls.TTL // 2 <= seconds <= polls.TTL for seconds in lifetimes)
    assert len(set(lifetimes)) >= 10


def test_a_change_is_seen_by_the_next_poll_at_once(followed):
    api, game, etag = followed
    assert poll(api, game, etag).status_code == 304
    api.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    changed = poll(api, game, etag)
    assert changed.status_code == 200 and changed["ETag"] != etag and len(changed.json()["rounds"]) == 1
    assert poll(api, game, changed["ETag"]).status_code == 304


def test_a_renamed_player_moves_the_polled_version_on(followed):
    api, game, etag = followed
    player = game["players"][0]["id"]
    assert api.patch(f"/api/v1/players/{player}/", {"name": "Annie"}).status_code == 200
    assert poll(api, game, etag).status_code == 200


def test_a_signed_out_app_gets_401_not_a_cached_304(db):
    api = app_for("out@example.com")
    game = start_game(api)
    etag = api.get(f"/api/v1/games/{game['id']}/")["ETag"]
    assert poll(api, game, etag).status_code == 304
    assert api.delete("/_allauth/app/v1/auth/session").status_code == 401  # allauth: signed out
    assert poll(api, game, etag).status_code == 401


def test_a_signed_out_browser_is_not_let_through_by_the_cache(browser):
    game = start_game(browser)
    etag = browser.get(f"/api/v1/games/{game['id']}/")["ETag"]
    old_cookie = browser.client.cookies[settings.SESSION_COOKIE_NAME].value
    assert browser.post("/accounts/logout/").status_code in (200, 302)
    stale = Api(Client(HTTP_COOKIE=f"{settings.SESSION_COOKIE_NAME}={old_cookie}"))
    assert poll(stale, game, etag).status_code in (401, 403)


def test_a_removed_member_gets_404_not_a_cached_304(app, other_app):
    book = app.post("/api/v1/scorebooks/", {"name": "Club"}).json()
    code = app.post(f"/api/v1/scorebooks/{book['id']}/invites/", {"role": "scorer"}).json()["code"]
    assert other_app.post(f"/api/v1/invites/{code}/accept/").status_code == 200
    ids = [app.post("/api/v1/players/", {"name": n, "scorebook": book["id"]}).json()["id"] for n in ("A", "B")]
    game = app.post("/api/v1/games/", {"scorebook": book["id"], "players": ids}).json()
    etag = other_app.get(f"/api/v1/games/{game['id']}/")["ETag"]
    assert poll(other_app, game, etag).status_code == 304
    removed = app.delete(f"/api/v1/scorebooks/{book['id']}/members/{other_app.user.pk}/")
    assert removed.status_code == 204
    assert poll(app, game, etag).status_code in (200, 304)  # a member's poll puts the game back in the cache
    assert poll(other_app, game, etag).status_code == 404


def test_a_game_in_the_trash_is_a_404_not_a_cached_304(followed):
    api, game, etag = followed
    assert poll(api, game, etag).status_code == 304
    assert api.delete(f"/api/v1/games/{game['id']}/").status_code == 204
    assert poll(api, game, etag).status_code == 404


def test_someone_elses_session_or_a_bad_token_never_gets_the_cached_304(followed, other_app):
    api, game, etag = followed
    assert poll(api, game, etag).status_code == 304
    assert poll(other_app, game, etag).status_code == 404
    assert poll(Api(Client(), {"X-Session-Token": "not-a-token"}), game, etag).status_code == 401
    assert poll(Api(Client()), game, etag).status_code == 401


def test_with_the_cache_failing_the_full_path_answers(followed, monkeypatch):
    api, game, etag = followed

    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "get_many", broken)
    monkeypatch.setattr(cache, "get", broken)
    assert poll(api, game, etag).status_code == 304
    assert poll(api, game, '"game-0-v0"').status_code == 200


@pytest.fixture
def link(app):
    game = start_game(app)
    made = app.post(f"/api/v1/games/{game['id']}/share/").json()
    return game, made


def test_a_live_poll_of_an_unchanged_game_is_a_304_without_a_query(app, link, django_assert_num_queries):
    game, made = link
    viewer = Client()
    etag = viewer.get(made["api_url"])["ETag"]
    with django_assert_num_queries(0):
        response = viewer.get(made["api_url"], headers={"If-None-Match": etag})
    assert response.status_code == 304 and response["ETag"] == etag
    app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    assert viewer.get(made["api_url"], headers={"If-None-Match": etag}).status_code == 200


def test_a_replaced_or_revoked_link_is_a_404_not_a_cached_304(app, link):
    game, made = link
    viewer = Client()
    etag = viewer.get(made["api_url"])["ETag"]
    assert viewer.get(made["api_url"], headers={"If-None-Match": etag}).status_code == 304
    new = app.post(f"/api/v1/games/{game['id']}/share/").json()
    new_etag = viewer.get(new["api_url"])["ETag"]
    assert viewer.get(new["api_url"], headers={"If-None-Match": new_etag}).status_code == 304
    assert viewer.get(made["api_url"], headers={"If-None-Match": etag}).status_code == 404
    assert app.delete(f"/api/v1/games/{game['id']}/share/").status_code == 204
    assert viewer.get(new["api_url"], headers={"If-None-Match": new_etag}).status_code == 404


def test_a_wrong_verifier_with_a_known_selector_is_a_404(link):
    _, made = link
    viewer = Client()
    etag = viewer.get(made["api_url"])["ETag"]
    token = made["token"]
    forged = token[:-4] + ("AAAA" if token[-4:] != "AAAA" else "BBBB")
    assert viewer.get(f"/api/v1/live/{forged}/", headers={"If-None-Match": etag}).status_code == 404


def test_cached_live_polls_still_count_against_the_address_budget(link, settings):
    _, made = link
    settings.LIVE_REQUESTS_PER_MINUTE = 5
    viewer = Client()
    etag = viewer.get(made["api_url"])["ETag"]
    answers = [viewer.get(made["api_url"], headers={"If-None-Match": etag}).status_code for _ in range(6)]
    assert answers[:4] == [304] * 4 and answers[4:] == [429, 429]


def test_a_live_poll_the_cache_cannot_answer_is_counted_once_against_the_budget(link, settings):
    _, made = link
    settings.LIVE_REQUESTS_PER_MINUTE = 5
    viewer = Client()
    etag = viewer.get(made["api_url"])["ETag"]
    answers = []
    for _ in range(6):  # the link forgotten each time: the shortcut counts, then the full path answers
        cache.delete(polls.link_key(made["token"][:LIVE_SELECTOR_LENGTH]))
        answers.append(viewer.get(made["api_url"], headers={"If-None-Match": etag}).status_code)
    assert answers == [304] * 4 + [429, 429]


def test_the_cached_live_304_carries_the_headers_of_the_full_one(link):
    _, made = link
    viewer = Client()
    etag = viewer.get(made["api_url"])["ETag"]
    fast = viewer.get(made["api_url"], headers={"If-None-Match": etag})
    cache.clear()
    full = viewer.get(made["api_url"], headers={"If-None-Match": etag})
    assert full.status_code == fast.status_code == 304
    left_out = {"Date", "Allow", "Content-Language", "Content-Length"}
    assert {name: value for name, value in fast.items() if name not in left_out} == {
        name: value for name, value in full.items() if name not in left_out
    }


# The pages' polls: a member's followed sheet (/games/<id>/sheet/) and the live page's body.


@pytest.fixture
def page(db):
    """Ann's phone with her game's followed sheet read once in full (English)."""
    from tests.factories import make_game

    game = make_game(tile_set=6)
    phone = Client()
    phone.force_login(game.created_by)
    etag = phone.get(f"/games/{game.pk}/sheet/")["ETag"]
    return game, phone, etag


def sheet_poll(phone, game, etag, **headers):
    return phone.get(f"/games/{game.pk}/sheet/", headers={"If-None-Match": etag, **headers})


def test_a_followed_sheet_of_an_unchanged_game_is_a_304_without_a_query(page, django_assert_num_queries):
    game, phone, etag = page
    with django_assert_num_queries(0):
        response = sheet_poll(phone, game, etag)
    assert response.status_code == 304 and response["ETag"] == etag


def test_the_cached_sheet_304_carries_the_headers_of_the_full_one(page):
    game, phone, etag = page
    fast = sheet_poll(phone, game, etag)
    cache.clear()
    full = sheet_poll(phone, game, etag)
    assert full.status_code == fast.status_code == 304
    left_out = {"Date", "Content-Language", "Content-Length"}
    assert {name: value for name, value in fast.items() if name not in left_out} == {
        name: value for name, value in full.items() if name not in left_out
    }


def test_a_round_recorded_elsewhere_reaches_the_followed_sheet_at_once(page):
    from scorekeeper import services
    from scorekeeper.rules.rounds import EntryInput

    game, phone, etag = page
    seats = list(game.seats.order_by("position"))
    entries = [EntryInput(player=seats[0].player_id, pips=0, went_out=True)]
    entries += [EntryInput(player=seat.player_id, pips=5) for seat in seats[1:]]
    services.record_round(game=game, starting_double=6, entries=entries, by=game.created_by)
    assert sheet_poll(phone, game, etag).status_code == 200


def test_a_new_password_ends_the_cached_sheet_poll_too(page):
    game, phone, etag = page
    assert sheet_poll(phone, game, etag).status_code == 304
    user = game.created_by
    user.set_password("a-new-one-42")
    user.save()
    ended = sheet_poll(phone, game, etag)
    assert ended.status_code == 302 and ended["Location"].startswith("/accounts/login/")


def test_a_new_secret_key_sends_the_sheet_poll_the_full_way(page, settings):
    game, phone, etag = page
    assert sheet_poll(phone, game, etag).status_code == 304
    settings.SECRET_KEY = "a-secret-nobody-signed-with"
    ended = sheet_poll(phone, game, etag)
    assert ended.status_code == 302


def test_another_members_etag_is_never_answered_from_my_cached_entries(page):
    game, phone, etag = page
    someone_else = etag.replace(f"-u{game.created_by.pk}-", f"-u{game.created_by.pk + 1000}-")
    assert sheet_poll(phone, game, someone_else).status_code == 200


def test_a_live_body_poll_is_a_304_without_a_query_in_the_viewers_language(link, django_assert_num_queries):
    _, made = link
    body = f"/live/{made['token']}/sheet/"
    viewer = Client()
    english = viewer.get(body)["ETag"]
    spanish = viewer.get(body, headers={"Accept-Language": "es"})["ETag"]
    assert english != spanish
    with django_assert_num_queries(0):
        response = viewer.get(body, headers={"If-None-Match": english})
    assert response.status_code == 304 and response["ETag"] == english
    assert viewer.get(body, headers={"If-None-Match": english, "Accept-Language": "es"}).status_code == 200
    fast = viewer.get(body, headers={"If-None-Match": spanish, "Accept-Language": "es"})
    cache.clear()
    full = viewer.get(body, headers={"If-None-Match": spanish, "Accept-Language": "es"})
    assert full.status_code == fast.status_code == 304
    assert {k: v for k, v in fast.items() if k not in {"Date", "Content-Length"}} == {
        k: v for k, v in full.items() if k not in {"Date", "Content-Length"}
    }


# Through gunicorn's entry point (scorekeeper.wsgi.application, polls.PollsFirst): the same polls
# answered before Django's handler, with the full path's headers, and anything else passed on.


def through_wsgi(client, path, headers):
    """(status, headers, body) of `path` from the WSGI application a deploy serves, sent with the
    test client's cookies and `headers`."""
    from django.core.signals import request_started
    from django.db import close_old_connections
    from django.test import RequestFactory

    from scorekeeper.wsgi import application

    cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    request = RequestFactory().get(path, headers={**headers, **({"Cookie": cookie} if cookie else {})})
    answer = {}
    # As Django's test client does, the request's start does not close the test's connection.
    request_started.disconnect(close_old_connections)
    try:
        sent = application(request.environ, lambda status, sent, exc=None: answer.update(status=status, sent=sent))
        body = b"".join(sent)
    finally:
        request_started.connect(close_old_connections)
    return int(answer["status"].split()[0]), dict(answer["sent"]), body


def same_headers(wsgi_headers, full):
    left_out = {"Date", "Allow", "Content-Language", "Content-Length"}
    return {name: value for name, value in wsgi_headers.items() if name not in left_out} == {
        name: value for name, value in full.items() if name not in left_out
    }


def test_the_deploys_entry_point_answers_a_members_poll_with_the_full_paths_headers_and_no_query(
    followed, django_assert_num_queries
):
    api, game, etag = followed
    path, headers = f"/api/v1/games/{game['id']}/", {**api.headers, "If-None-Match": etag}
    with django_assert_num_queries(0):
        status, sent, body = through_wsgi(api.client, path, headers)
    assert status == 304 and sent["ETag"] == etag and body == b""
    cache.clear()
    full = poll(api, game, etag)
    assert full.status_code == 304 and same_headers(sent, full)


def test_the_deploys_entry_point_passes_on_what_the_cache_cannot_answer(followed, other_app):
    api, game, etag = followed
    path = f"/api/v1/games/{game['id']}/"
    stranger = {**other_app.headers, "If-None-Match": etag}
    assert through_wsgi(other_app.client, path, stranger)[0] == 404
    assert through_wsgi(Client(), path, {"X-Session-Token": "not-a-session", "If-None-Match": etag})[0] == 401
    api.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    status, sent, body = through_wsgi(api.client, path, {**api.headers, "If-None-Match": etag})
    assert status == 200 and sent["ETag"] != etag and b'"rounds"' in body
    # Not a poll: Django's handler answers, whatever the headers.
    assert through_wsgi(api.client, "/api/v1/me/", {**api.headers, "If-None-Match": etag})[0] == 200


def test_the_deploys_entry_point_answers_live_polls_within_the_budget_and_with_the_full_headers(link, settings):
    _, made = link
    settings.LIVE_REQUESTS_PER_MINUTE = 5
    viewer = Client()
    etag = viewer.get(made["api_url"])["ETag"]  # 1
    answers = [through_wsgi(viewer, made["api_url"], {"If-None-Match": etag}) for _ in range(5)]
    assert [status for status, _, _ in answers] == [304] * 4 + [429]
    cache.clear()
    full = viewer.get(made["api_url"], headers={"If-None-Match": etag})
    assert full.status_code == 304 and same_headers(answers[0][1], full)


def test_the_deploys_entry_point_answers_a_followed_sheets_poll_with_the_full_paths_headers(page):
    game, phone, etag = page
    status, sent, _ = through_wsgi(phone, f"/games/{game.pk}/sheet/", {"If-None-Match": etag})
    assert status == 304 and sent["ETag"] == etag
    cache.clear()
    full = sheet_poll(phone, game, etag)
    assert full.status_code == 304 and same_headers(sent, full)


def test_the_deploys_entry_point_leaves_what_it_loaded_out_of_the_garbage_collectors_scans():
    import gc

    import scorekeeper.wsgi  # noqa: F401 (loading it freezes what is loaded)

    assert gc.get_freeze_count() > 50_000


@pytest.mark.parametrize("kind", ["member", "sheet", "night-member"])
def test_a_polls_keys_are_the_ones_its_entry_and_stamps_are_written_under(kind):
    keys, pointer, prefix = polls.poll_keys("a-session", 25, kind)
    stamp = polls.game_key(25) if kind != "night-member" else polls.stamp_key("night", 25)
    entry = polls.member_key("a-session", 25, kind)
    assert keys == [
        polls.epoch_key(), polls.session_key("a-session"), polls.session_user_key("a-session"), stamp, entry
    ]  # fmt: skip
    assert (keys[pointer], prefix) == (polls.session_user_key("a-session"), polls.account_key())


# A round wakes every phone of its table at once: the game's answer is made by one of them.


def version_after_a_round(api, game, starting_double) -> int:
    """The game's version once a round is recorded (read from the round's answer, not the game's)."""
    assert api.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, starting_double, 3, 4)).status_code == 201
    return int(
        api.get(f"/api/v1/games/{game['id']}/", headers={"If-None-Match": "*"})["ETag"].strip('"').rsplit("-v")[1]
    )


def test_a_reader_finding_the_answer_being_made_waits_for_it_and_sends_what_was_kept(followed, monkeypatch):
    api, game, _etag = followed
    version = version_after_a_round(api, game, 6)
    key = polls.answer_key(game["id"], "en")
    cache.delete(key)
    assert polls.claim_making(key, version)  # another reader is making it
    naps = []

    def nap(seconds):  # the other reader keeps it while this one waits
        naps.append(seconds)
        cache.set(key, polls.KeptAnswer(version, b'{"made": "by the other reader"}'))

    monkeypatch.setattr(polls.entries.time, "sleep", nap)
    response = api.get(f"/api/v1/games/{game['id']}/")
    assert response.status_code == 200 and response.content == b'{"made": "by the other reader"}'
    assert naps == [polls.entries.MAKING_STEP]


def test_a_reader_whose_claimant_never_keeps_the_answer_makes_it_itself_after_the_wait(followed, monkeypatch):
    api, game, _etag = followed
    version = version_after_a_round(api, game, 6)
    key = polls.answer_key(game["id"], "en")
    cache.delete(key)
    assert polls.claim_making(key, version)  # a claimant that dies before it keeps anything
    monkeypatch.setattr(polls.entries, "MAKING_WAIT", 0.05)
    response = api.get(f"/api/v1/games/{game['id']}/")
    assert response.status_code == 200 and response["ETag"] == f'"game-{game["id"]}-v{version}"'
    assert len(response.json()["rounds"]) == 1


def test_the_first_reader_after_a_round_claims_the_making_and_keeps_the_answer_for_the_others(followed):
    api, game, _etag = followed
    version = version_after_a_round(api, game, 6)
    key = polls.answer_key(game["id"], "en")
    cache.delete(key)
    first = api.get(f"/api/v1/games/{game['id']}/")
    assert first["ETag"] == f'"game-{game["id"]}-v{version}"'
    assert not polls.claim_making(key, version)  # claimed by the first reader
    assert cache.get(key) == polls.KeptAnswer(version, first.content)
