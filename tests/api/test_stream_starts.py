"""A stream's start answered from the cache (http.polls.stream_poll): the requests http.streams makes
with the ETag a phone last had (a reconnect; after a restart, every phone at once) are answered
without the database when nothing changed, alike to the full path's answer, and never when the full
path would say something else."""

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from scorekeeper.api.views.events import INTERNAL, READER_HEADER, TOPICS_HEADER
from scorekeeper.caches import push
from scorekeeper.caches.kept.keys import member_key
from tests.api.conftest import round_body, start_game

pytestmark = pytest.mark.django_db
STREAM = {"Accept": "text/event-stream"}


def start(api, path, etag, kind="connect"):
    """What http.streams asks (its internal key set) for a stream with `etag` as its last state."""
    headers = {**api.headers, **STREAM, "Last-Event-ID": etag, "If-None-Match": etag}
    return api.client.get(path, headers=headers, **{INTERNAL: kind})


@pytest.fixture
def streamed(client_kind):
    """A game whose stream was started once in full (which remembers what a start needs)."""
    game = start_game(client_kind)
    path = f"/api/v1/games/{game['id']}/events/"
    first = client_kind.client.get(path, headers={**client_kind.headers, **STREAM}, **{INTERNAL: "connect"})
    assert first.status_code == 200 and b"event: state" in first.content
    return client_kind, game, path, first["X-Stream-ETag"]


def comparable(response) -> dict:
    # Not compared: the date, the length (the retry is each connection's own, at random), and what
    # DRF says of the view (Allow).
    return {name: value for name, value in response.items() if name not in {"Date", "Content-Length", "Allow"}}


def test_a_reconnect_with_the_current_state_is_answered_from_the_cache_without_a_query(
    streamed, django_assert_num_queries
):
    api, game, path, etag = streamed
    with django_assert_num_queries(0):
        fast = start(api, path, etag)
    assert fast.status_code == 200 and fast.content.startswith(b"retry: ") and fast.content.endswith(b": unchanged\n\n")
    topics = fast[TOPICS_HEADER].split()
    assert topics[0] == push.game_topic(game["id"]) and push.account_topic(api.user.pk) in topics
    assert fast[READER_HEADER] == "owner"


def test_the_cache_s_start_is_the_full_path_s_headers_topics_and_reader(streamed):
    api, _game, path, etag = streamed
    fast = start(api, path, etag)
    cache.clear()
    full = start(api, path, etag)
    assert full.content.endswith(b": unchanged\n\n")
    assert comparable(fast) == comparable(full)


def test_a_reread_with_the_current_state_sends_nothing_from_the_cache(streamed, django_assert_num_queries):
    api, _game, path, etag = streamed
    with django_assert_num_queries(0):
        reread = start(api, path, etag, kind="reread")
    assert reread.status_code == 200 and reread.content == b": unchanged\n\n"


def test_after_a_round_the_full_path_sends_the_new_state(streamed):
    api, game, path, etag = streamed
    assert api.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4)).status_code == 201
    again = start(api, path, etag)
    assert b"event: state" in again.content and again["X-Stream-ETag"] != etag


def test_a_member_removed_from_the_scorebook_gets_the_full_path_s_404_not_the_cache_s_start(streamed, other_app):
    api, game, path, _etag = streamed
    book = game["scorebook"]
    invite = api.post(f"/api/v1/scorebooks/{book}/invites/", {"role": "viewer"})
    assert other_app.post(f"/api/v1/invites/{invite.json()['code']}/accept/").status_code in (200, 201)
    first = other_app.client.get(path, headers={**other_app.headers, **STREAM}, **{INTERNAL: "connect"})
    etag = first["X-Stream-ETag"]
    assert start(other_app, path, etag).content.endswith(b": unchanged\n\n")
    assert api.delete(f"/api/v1/scorebooks/{book}/members/{other_app.user.pk}/").status_code == 204
    assert start(other_app, path, etag).status_code == 404


def test_a_client_s_own_conditional_get_of_a_stream_is_never_answered_by_the_cache(streamed):
    """Under WSGI (`make run`) a stream is one answer: the cache's shortcut is for http.streams only."""
    api, _game, path, etag = streamed
    own = api.client.get(path, headers={**api.headers, **STREAM, "If-None-Match": etag, "Last-Event-ID": etag})
    assert own.status_code == 200 and TOPICS_HEADER not in own


def test_a_live_link_s_stream_start_is_answered_from_the_cache_within_its_budget(app, django_assert_num_queries):
    game = start_game(app)
    link = app.post(f"/api/v1/games/{game['id']}/share/").json()
    viewer = type(app)(Client())
    path = f"/api/v1/live/{link['token']}/events/"
    first = viewer.client.get(path, headers=STREAM, **{INTERNAL: "connect"})
    full_again = start(viewer, path, first["X-Stream-ETag"])  # the link's entry is kept from its second read
    with django_assert_num_queries(0):
        fast = start(viewer, path, first["X-Stream-ETag"])
    assert fast.content.endswith(b": unchanged\n\n")
    assert fast[TOPICS_HEADER] == full_again[TOPICS_HEADER] == push.game_topic(game["id"])
    assert fast[READER_HEADER] == ""


def session_key(api) -> str:
    return api.headers.get("X-Session-Token") or api.client.cookies[settings.SESSION_COOKIE_NAME].value


def test_a_full_start_reads_the_game_its_scorebook_and_the_role_with_the_reader_in_one_query_more_than_the_session(
    streamed, django_assert_num_queries
):
    """A restart's reconnects mostly find their entries gone (they live at most kept.TTL): each then
    takes the full path, which reads the reader, the game's version, its scorebook and the role in
    the GET's one query, and keeps the stream's entry in the GET's one write, so the next is cached.
    (Three queries before: the scorebook and the role were a query of their own.)"""
    api, game, path, etag = streamed
    session = session_key(api)
    cache.delete_many([member_key(session, game["id"], kind) for kind in ("member", "stream")])
    with django_assert_num_queries(2):  # the session (the database's here; Redis's in a deploy), then the one
        full = start(api, path, etag)
    assert full.status_code == 200 and full.content.endswith(b": unchanged\n\n")
    assert full[READER_HEADER] == "owner" and push.game_topic(game["id"]) in full[TOPICS_HEADER].split()
    with django_assert_num_queries(0):
        again = start(api, path, etag)
    assert comparable(again) == comparable(full)
