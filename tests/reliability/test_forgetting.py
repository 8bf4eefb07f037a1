"""What a write takes away stays away when the process that made it dies mid-outage, when Redis
comes back from a snapshot taken before the write, and while Redis holds writes back: a real
redis-server of the test's own and the app served by gunicorn on PostgreSQL (caches.kept's notes
and checks)."""

import json
import os
import signal
import time

import pytest

from scorekeeper.caches.backends import PAUSE
from tests.reliability.served import Server, app_env, request
from tests.reliability.test_redis_outage import RedisServer, _signed_in_poll, post

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-42"
JSON = {"Content-Type": "application/json", "Accept": "application/json"}


@pytest.fixture
def served(postgres_only, tmp_path, static_root, migrated):
    """Redis (saving to tmp_path) and the app with two workers, as the Procfile serves it."""
    redis = RedisServer(folder=tmp_path)
    env = app_env(migrated.url(tmp_path, "forgetting"), STATIC_ROOT=str(static_root), REDIS_URL=redis.url)
    try:
        server = Server(env, workers=2)
    except BaseException:
        redis.kill()
        raise
    yield redis, server
    server.stop()
    redis.kill()


def workers_of(server) -> list[int]:
    """The gunicorn workers (the master's children)."""
    with open(f"/proc/{server.process.pid}/task/{server.process.pid}/children") as children:
        return [int(pid) for pid in children.read().split()]


def watch(server, asks: dict, until: float) -> dict:
    """Each of `asks` (name: (url, headers)) asked in turn until `until` (time.monotonic()):
    the statuses each got, in order."""
    answers = {name: [] for name in asks}
    while time.monotonic() < until:
        for name, (url, headers) in asks.items():
            answers[name].append(request(url, headers=headers)[0])
        time.sleep(0.05)
    return answers


def test_a_sign_out_whose_workers_died_before_redis_came_back_stays_signed_out(served):
    """The sign-out could not reach the frozen Redis, and every worker that knew it is killed before
    Redis answers again: the note it left in the database is applied by the new workers."""
    redis, server = served
    auth, url, etag = _signed_in_poll(server)
    me = f"{server.url}/api/v1/me/"
    assert request(me, headers=auth)[0] == 200
    redis.process.send_signal(signal.SIGSTOP)
    try:
        assert request(f"{server.url}/_allauth/app/v1/auth/session", "DELETE", None, auth)[0] == 401
        old = workers_of(server)
        for pid in old:
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while not (set(workers_of(server)) - set(old)) or len(workers_of(server)) < 2:
            assert time.monotonic() < deadline, "gunicorn made no new workers"
            time.sleep(0.1)
    finally:
        redis.process.send_signal(signal.SIGCONT)
    server.wait_until_up()  # a new worker has booted (on a busy machine that takes a while)
    # The new workers never saw Redis fail: they ask it at once (no pause of theirs to wait out).
    answers = watch(server, {"poll": (url, {**auth, "If-None-Match": etag}), "me": (me, auth)}, time.monotonic() + 2)
    assert set(answers["poll"]) == {401} and set(answers["me"]) == {401}, answers
    body = json.dumps({"name": "Late"}).encode()
    assert request(f"{server.url}/api/v1/players/", "POST", body, auth)[0] == 401
    assert int(redis.cli("get", _noted_key(redis)) or 0) >= 1  # the note was applied in Redis


def _noted_key(redis) -> str:
    keys = redis.cli("--scan", "--pattern", "*:noted").split()
    assert len(keys) == 1, keys
    return keys[0]


def test_after_a_restart_from_a_snapshot_taken_before_the_writes_nothing_they_took_away_is_answered(served):
    """A sign-out, a member's removal and a round, each told to Redis; then Redis restarts from a
    dump saved before them, holding the stamps and entries they took away."""
    redis, server = served
    owner, _url, _etag = _signed_in_poll(server)
    _, _, body = post(server, "/_allauth/app/v1/auth/signup", {"email": "member@example.com", "password": PASSWORD})
    member = {"X-Session-Token": body["meta"]["session_token"], **JSON}
    _, _, body = post(server, "/_allauth/app/v1/auth/signup", {"email": "leaver@example.com", "password": PASSWORD})
    leaver = {"X-Session-Token": body["meta"]["session_token"], **JSON}

    def call(method, path, payload=None, who=owner):
        status, _, body = request(f"{server.url}{path}", method, payload and json.dumps(payload).encode(), who)
        return status, json.loads(body or b"{}")

    book = call("POST", "/api/v1/scorebooks/", {"name": "Club"})[1]
    for who in (member, leaver):
        code = call("POST", f"/api/v1/scorebooks/{book['id']}/invites/", {"role": "scorer"})[1]["code"]
        assert call("POST", f"/api/v1/invites/{code}/accept/", who=who)[0] == 200
    ids = [call("POST", "/api/v1/players/", {"name": n, "scorebook": book["id"]})[1]["id"] for n in ("C", "D")]
    game = call("POST", "/api/v1/games/", {"scorebook": book["id"], "players": ids})[1]
    shared = f"{server.url}/api/v1/games/{game['id']}/"
    polls = {}
    for name, who in (("member", member), ("signed out", leaver), ("old version", owner)):
        shared_etag = request(shared, headers=who)[1]["ETag"]
        polls[name] = (shared, {**who, "If-None-Match": shared_etag})
        assert request(shared, headers=polls[name][1])[0] == 304
    assert redis.cli("save").strip() == "OK"

    member_pk = call("GET", "/api/v1/me/", who=member)[1]["id"]
    assert call("DELETE", f"/api/v1/scorebooks/{book['id']}/members/{member_pk}/")[0] == 204
    assert request(f"{server.url}/_allauth/app/v1/auth/session", "DELETE", None, leaver)[0] == 401
    entries = [{"player": ids[0], "pips": 0, "went_out": True}, {"player": ids[1], "pips": 20}]
    assert call("POST", f"/api/v1/games/{game['id']}/rounds/", {"starting_double": 12, "entries": entries})[0] == 201
    redis.kill()
    restored = RedisServer(redis.port, folder=redis.folder)  # from the dump: what the writes took away is back
    try:
        answers = watch(server, polls, time.monotonic() + PAUSE + 2)
        noted = restored.cli("--scan", "--pattern", "*:noted").split()
    finally:
        restored.kill()
    assert set(answers["member"]) == {404}, answers
    assert set(answers["signed out"]) == {401}, answers
    assert set(answers["old version"]) == {200}, answers
    assert len(noted) == 1  # the app asked this Redis again, and moved its epoch on


def test_while_redis_holds_writes_back_a_sign_out_is_never_answered_from_what_it_held(served):
    """CLIENT PAUSE WRITE: Redis answers reads, and the sign-out's invalidation waits. Once the
    sign-out has answered, neither worker trusts what Redis held."""
    redis, server = served
    auth, url, etag = _signed_in_poll(server)
    poll = (url, {**auth, "If-None-Match": etag})
    assert [request(url, headers=poll[1])[0] for _ in range(4)] == [304] * 4  # both workers answer from Redis
    assert redis.cli("client", "pause", "2500", "write").strip() == "OK"
    assert request(f"{server.url}/_allauth/app/v1/auth/session", "DELETE", None, auth)[0] == 401
    answers = watch(server, {"poll": poll}, time.monotonic() + 3)  # through the pause and after it
    assert set(answers["poll"]) == {401}, answers
