"""Pushed updates (API.md, "Pushed updates"), read byte by byte from the app served the Procfile's
way (gunicorn with uvicorn's worker, ASGI): what a stream starts with, what a write sends it, and
what ends it. One served app for the module; each test makes its own account and game."""

import itertools
import json

import httpx
import pytest

from tests.api.stream_client import Stream, api
from tests.reliability.conftest import migrated, static_root  # noqa: F401 - the served app's fixtures
from tests.reliability.served import Server, app_env, request

PASSWORD = "correct-horse-42"
SSE = {"Accept": "text/event-stream"}
LIVE_BUDGET = 12  # the served app's live requests per minute and address (LIVE_REQUESTS_PER_MINUTE)
_emails = itertools.count()


@pytest.fixture(scope="module")
def server(tmp_path_factory, migrated):  # noqa: F811
    env = app_env(
        migrated.url(tmp_path_factory.mktemp("streams"), "streams"), STATIC_ROOT=str(migrated.env["STATIC_ROOT"])
    )
    env["LIVE_REQUESTS_PER_MINUTE"] = str(LIVE_BUDGET)
    served = Server(env)
    yield served
    served.stop()


class Member:
    """A new account over the app API, with its token."""

    def __init__(self, server):
        self.server, self.email = server, f"stream{next(_emails)}@example.com"
        status, _, body = api(
            server, "POST", "/_allauth/app/v1/auth/signup", {"email": self.email, "password": PASSWORD}
        )
        assert status == 200, body
        self.token = body["meta"]["session_token"]
        self.auth = {"X-Session-Token": self.token}

    def call(self, method, path, body=None, headers=None):
        return api(self.server, method, path, body, {**self.auth, **(headers or {})})

    def game(self, names=("Ann", "Ben", "Cy")):
        table = next(_emails)  # player names are unique within a scorebook
        players = [self.call("POST", "/api/v1/players/", {"name": f"{name} {table}"})[2]["id"] for name in names]
        status, _, game = self.call("POST", "/api/v1/games/", {"players": players})
        assert status == 201, game
        return game

    def round(self, game, starting_double, *pips):
        others = iter(pips)
        entries = [
            {"player": p["id"], "pips": 0, "went_out": True} if seat == 0 else {"player": p["id"], "pips": next(others)}
            for seat, p in enumerate(game["players"])
        ]
        status, _, body = self.call(
            "POST", f"/api/v1/games/{game['id']}/rounds/", {"starting_double": starting_double, "entries": entries}
        )
        assert status == 201, body
        return body


@pytest.fixture(scope="module")
def member(server):
    """One account for the tests that keep it signed in (a sign-up costs the served app seconds)."""
    return Member(server)


def stream(server, path, headers=None) -> Stream:
    opened = Stream(f"{server.url}{path}", {**SSE, **(headers or {})})
    return opened


def test_a_members_stream_starts_with_the_games_state_as_the_get_answers_it(server, member):
    game = member.game()
    status, headers, body = request(
        f"{server.url}/api/v1/games/{game['id']}/", headers={**member.auth, "Accept": "application/json"}
    )
    assert status == 200
    events = stream(server, f"/api/v1/games/{game['id']}/events/", member.auth)
    try:
        assert events.status == 200
        assert events.headers["Content-Type"].startswith("text/event-stream")
        assert events.headers["Cache-Control"] == "no-cache" and events.headers["X-Accel-Buffering"] == "no"
        assert "Content-Encoding" not in events.headers
        first = events.next()
        assert first.retry is not None and 2000 <= first.retry <= 6000
        state = events.next_event()
        assert state.event == "state" and state.id == headers["ETag"]
        assert state.data == body.decode() and "\n" not in state.data
    finally:
        events.close()


def test_a_round_saved_sends_one_new_state_with_its_new_etag(server, member):
    game = member.game()
    events = stream(server, f"/api/v1/games/{game['id']}/events/", member.auth)
    try:
        first = events.next_event()
        member.round(game, 12, 5, 7)
        state = events.next_event()
        _, headers, now = member.call("GET", f"/api/v1/games/{game['id']}/")
        assert state.event == "state" and state.id == headers["ETag"] != first.id
        assert state.json() == now and len(now["rounds"]) == 1
    finally:
        events.close()


def test_a_stream_resumed_at_the_current_etag_starts_with_a_comment(server, member):
    game = member.game()
    etag = member.call("GET", f"/api/v1/games/{game['id']}/")[1]["ETag"]
    events = stream(server, f"/api/v1/games/{game['id']}/events/", {**member.auth, "Last-Event-ID": etag})
    try:
        blocks = [events.next(), events.next()]
        assert blocks[0].retry is not None
        assert blocks[1].comment is not None and blocks[1].event is None and blocks[1].data is None
        member.round(game, 12, 5, 7)
        assert events.next_event().id != etag
    finally:
        events.close()


def test_the_live_link_streams_the_live_json_and_ends_when_the_link_is_revoked(server, member):
    game = member.game()
    link = member.call("POST", f"/api/v1/games/{game['id']}/share/")[2]
    status, headers, body = request(
        f"{server.url}/api/v1/live/{link['token']}/", headers={"Accept": "application/json"}
    )
    assert status == 200
    events = stream(server, f"/api/v1/live/{link['token']}/events/")
    try:
        state = events.next_event()
        assert state.id == headers["ETag"] and state.data == body.decode()
        member.round(game, 12, 5, 7)
        assert len(events.next_event().json()["rounds"]) == 1
        assert member.call("DELETE", f"/api/v1/games/{game['id']}/share/")[0] == 204
        gone = events.next_event()
        assert gone.event == "gone" and gone.data == ""  # no payload; the empty line a browser needs
        assert events.next() is None  # and the stream ends
    finally:
        events.close()
    assert stream(server, f"/api/v1/live/{link['token']}/events/").status == 404


def test_a_sign_out_ends_the_members_stream(server):
    member = Member(server)
    game = member.game()
    events = stream(server, f"/api/v1/games/{game['id']}/events/", member.auth)
    try:
        assert events.next_event().event == "state"
        assert member.call("DELETE", "/_allauth/app/v1/auth/session")[0] == 401  # allauth: signed out
        assert events.next_event().event == "gone"
        assert events.next() is None
    finally:
        events.close()
    assert stream(server, f"/api/v1/games/{game['id']}/events/", member.auth).status == 401


def shared_game(member, other, role: str, name: str) -> tuple[dict, int, dict]:
    """A scorebook of `member`'s that `other` joined with `role`, and a game in it: (the scorebook,
    `other`'s user id, the game)."""
    book = member.call("POST", "/api/v1/scorebooks/", {"name": name})[2]
    code = member.call("POST", f"/api/v1/scorebooks/{book['id']}/invites/", {"role": role})[2]["code"]
    joined = other.call("POST", f"/api/v1/invites/{code}/accept/")[2]
    players = [member.call("POST", "/api/v1/players/", {"name": n, "scorebook": book["id"]})[2]["id"] for n in "AB"]
    assert len(players) == 2
    game = member.call("POST", "/api/v1/games/", {"players": players, "scorebook": book["id"]})[2]
    return book, next(m["user"] for m in joined["members"] if m["email"] == other.email), game


def test_a_member_removed_from_the_scorebook_loses_its_stream(server, member):
    other = Member(server)
    book, them, game = shared_game(member, other, "viewer", "Club")
    events = stream(server, f"/api/v1/games/{game['id']}/events/", other.auth)
    try:
        assert events.next_event().event == "state"
        assert member.call("DELETE", f"/api/v1/scorebooks/{book['id']}/members/{them}/")[0] == 204
        assert events.next_event().event == "gone"
    finally:
        events.close()
    assert stream(server, f"/api/v1/games/{game['id']}/events/", other.auth).status == 404


def test_a_scorer_made_a_viewer_is_sent_the_state_again_with_the_same_etag(server, member):
    """The game did not change, what its reader may do did: a page drawn for a scorer asks again."""
    other = Member(server)
    book, them, game = shared_game(member, other, "scorer", "Roles")
    events = stream(server, f"/api/v1/games/{game['id']}/events/", other.auth)
    try:
        first = events.next_event()
        assert first.event == "state"
        changed = member.call("PATCH", f"/api/v1/scorebooks/{book['id']}/members/{them}/", {"role": "viewer"})
        assert changed[0] == 200, changed
        again = events.next_event()
        assert (again.event, again.id, again.json()) == ("state", first.id, first.json())
    finally:
        events.close()


def test_a_night_streams_a_round_at_any_of_its_tables(server, member):
    book = member.call("GET", "/api/v1/scorebooks/")[2]["results"][0]
    night = member.call("POST", f"/api/v1/scorebooks/{book['id']}/nights/", {"name": "Friday", "date": "2026-11-27"})[2]
    game = member.game()
    assert member.call("PATCH", f"/api/v1/games/{game['id']}/", {"night": night["id"]})[0] == 200
    link = member.call("POST", f"/api/v1/nights/{night['id']}/share/")[2]
    mine = stream(server, f"/api/v1/nights/{night['id']}/events/", member.auth)
    public = stream(server, f"/api/v1/live/nights/{link['token']}/events/")
    try:
        before = (mine.next_event().id, public.next_event().id)
        member.round(game, 12, 5, 7)
        after = (mine.next_event(), public.next_event())
        assert after[0].id != before[0] and after[1].id != before[1]
        assert after[0].id == member.call("GET", f"/api/v1/nights/{night['id']}/")[1]["ETag"]
    finally:
        mine.close()
        public.close()


def test_errors_come_before_any_stream_byte_as_the_get_answers_them(server, member):
    game = member.game()
    unsigned = stream(server, f"/api/v1/games/{game['id']}/events/")
    assert unsigned.status == 401 and json.loads(unsigned.body())["code"] == "not_authenticated"
    stranger = Member(server)
    assert stream(server, f"/api/v1/games/{game['id']}/events/", stranger.auth).status == 404
    assert stream(server, "/api/v1/live/" + "x" * 44 + "/events/").status == 404
    refused = stream(server, f"/api/v1/games/{game['id']}/events/", {**member.auth, "Accept": "application/json"})
    assert refused.status == 406 and json.loads(refused.body())["code"] == "not_acceptable"


def test_a_live_link_opened_past_its_budget_is_refused_with_retry_after(server, member):
    game = member.game()
    link = member.call("POST", f"/api/v1/games/{game['id']}/share/")[2]
    opened = []
    try:
        for _ in range(LIVE_BUDGET * 3):  # a minute's window may turn over once meanwhile
            opened.append(stream(server, f"/api/v1/live/{link['token']}/events/"))
            if opened[-1].status != 200:
                break
        refused = opened[-1]
        assert refused.status == 429 and int(refused.headers["Retry-After"]) >= 1
        assert json.loads(refused.body())["code"] == "throttled"
        assert len(opened) > LIVE_BUDGET // 2  # the ones before were streams
    finally:
        for each in opened:
            each.close()


def test_a_new_password_ends_the_streams_of_the_accounts_other_sessions(server):
    member = Member(server)
    game = member.game()
    events = stream(server, f"/api/v1/games/{game['id']}/events/", member.auth)
    try:
        assert events.next_event().event == "state"
        status, _, body = api(
            server, "POST", "/_allauth/app/v1/auth/login", {"email": member.email, "password": PASSWORD}
        )
        assert status == 200, body
        other = {"X-Session-Token": body["meta"]["session_token"]}  # the same account on another phone
        status, _, body = api(server, "POST", "/_allauth/app/v1/account/password/change",
                              {"current_password": PASSWORD, "new_password": "another-horse-43"}, other)  # fmt: skip
        assert status == 200, body
        gone = events.next_event()
        assert gone is not None and gone.event == "gone", gone
        assert events.next() is None  # and the stream ends
    finally:
        events.close()
    assert stream(server, f"/api/v1/games/{game['id']}/events/", member.auth).status == 401


def test_a_game_moved_to_the_trash_ends_its_stream(server, member):
    game = member.game()
    events = stream(server, f"/api/v1/games/{game['id']}/events/", member.auth)
    try:
        assert events.next_event().event == "state"
        assert member.call("DELETE", f"/api/v1/games/{game['id']}/")[0] == 204
        gone = events.next_event()
        assert gone is not None and gone.event == "gone", gone
        assert events.next() is None
    finally:
        events.close()
    assert stream(server, f"/api/v1/games/{game['id']}/events/", member.auth).status == 404


def signed_in_browser(server, email: str) -> httpx.Client:
    """A browser's session (its cookies) signed in through the login page."""
    browser = httpx.Client(base_url=server.url, headers={"Host": "localhost"}, timeout=20)
    browser.get("/accounts/login/")
    answer = browser.post("/accounts/login/", data={"login": email, "password": PASSWORD,
                          "csrfmiddlewaretoken": browser.cookies["csrftoken"]})  # fmt: skip
    assert answer.status_code == 302, answer.text[:500]
    return browser


def test_a_deleted_account_ends_its_streams(server):
    member = Member(server)
    game = member.game()
    events = stream(server, f"/api/v1/games/{game['id']}/events/", member.auth)
    browser = signed_in_browser(server, member.email)
    try:
        assert events.next_event().event == "state"
        answer = browser.post("/me/delete/", data={"confirm": member.email,
                              "csrfmiddlewaretoken": browser.cookies["csrftoken"]})  # fmt: skip
        assert answer.status_code == 302, answer.text[:500]
        gone = events.next_event()
        assert gone is not None and gone.event == "gone", gone
        assert events.next() is None
    finally:
        events.close()
        browser.close()
    assert stream(server, f"/api/v1/games/{game['id']}/events/", member.auth).status == 401


def test_a_restart_ends_every_open_stream_at_once_and_cleanly(tmp_path, migrated):  # noqa: F811
    """A deploy (TERM) ends each stream with the chunked body's end, before the graceful timeout
    (5 s) would cancel it: the browser comes back to the new processes after its retry, and the
    server logs no cancelled task."""
    log = tmp_path / "web.log"
    env = app_env(migrated.url(tmp_path, "restart"), STATIC_ROOT=str(migrated.env["STATIC_ROOT"]))
    served = Server(env, log=log)
    try:
        member = Member(served)
        game = member.game()
        events = stream(served, f"/api/v1/games/{game['id']}/events/", member.auth)
        assert events.next_event().event == "state"
        served.process.terminate()
        try:
            while events.next() is not None:  # heartbeats at most, then the end
                pass
        finally:
            events.close()
        assert events.ended  # the body's end came: not a connection cut by a cancelled task
        served.process.wait(timeout=20)
    finally:
        served.stop()
    logged = log.read_text()
    assert "timeout graceful shutdown exceeded" not in logged, logged
    assert "Traceback" not in logged, logged


def assert_a_round_reaches_every_stream_of_the_node(served, count: int = 8) -> None:
    """`count` streams of one game on `served` (falling on its workers as they happen to), then a
    round: each has the round's state."""
    member = Member(served)
    game = member.game()
    opened = []
    try:
        opened = [stream(served, f"/api/v1/games/{game['id']}/events/", member.auth) for _ in range(count)]
        firsts = [events.next_event().id for events in opened]
        member.round(game, 12, 5, 7)
        etag = member.call("GET", f"/api/v1/games/{game['id']}/")[1]["ETag"]
        assert [events.next_event().id for events in opened] == [etag] * count != firsts
    finally:
        for events in opened:
            events.close()


def test_without_redis_a_round_still_reaches_the_streams_held_by_every_worker_of_a_node(tmp_path, migrated):  # noqa: F811
    """Two worker processes share the node's port: the streams fall on either, the round on one; the
    other worker cannot hear of it without Redis, so its streams check every 2 s by themselves."""
    env = app_env(migrated.url(tmp_path, "workers"), STATIC_ROOT=str(migrated.env["STATIC_ROOT"]))
    served = Server(env, workers=2)
    try:
        assert_a_round_reaches_every_stream_of_the_node(served)
    finally:
        served.stop()
