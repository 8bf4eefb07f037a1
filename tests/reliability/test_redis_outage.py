"""A real Redis killed under a served app: sign-up, log-in and the limits keep answering."""

import json
import signal
import subprocess
import time

import pytest

from scorekeeper.caches.backends import PAUSE
from tests.reliability.served import Server, app_env, free_port, request

pytestmark = pytest.mark.django_db

EMAIL, PASSWORD = "table@example.com", "correct-horse-42"
JSON = {"Content-Type": "application/json", "Accept": "application/json"}


class RedisServer:
    """A redis-server of the test's own on a free port (the machine's Redis stays up)."""

    def __init__(self, port: int | None = None, folder=None):
        """`folder`: where SAVE writes its dump, and whence a server started on it loads it."""
        self.port, self.folder = port or free_port(), folder
        dump = ["--dir", str(folder), "--dbfilename", "dump.rdb"] if folder else []
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                *dump,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True).stdout != b"PONG\n":
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def kill(self):
        self.process.kill()
        self.process.wait(timeout=10)

    def cli(self, *args: str) -> str:
        return subprocess.run(["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True).stdout


@pytest.fixture
def redis_and_app(tmp_path, static_root, migrated):
    redis = RedisServer()
    env = app_env(migrated.url(tmp_path, "redis_down"), STATIC_ROOT=str(static_root))  # migrated, cache table made
    env["REDIS_URL"] = redis.url
    try:
        server = Server(env)
    except BaseException:
        redis.kill()  # not left running when the app does not start
        raise
    yield redis, server
    server.stop()
    redis.kill()


def post(server, path, payload):
    status, headers, body = request(f"{server.url}{path}", "POST", json.dumps(payload).encode(), JSON)
    return status, headers, json.loads(body or b"{}")


def health(server):
    status, _, body = request(f"{server.url}/healthz/", headers={"Accept": "application/json"})
    return status, json.loads(body)


def test_sign_up_and_log_in_keep_answering_when_redis_is_killed(redis_and_app):
    redis, server = redis_and_app
    assert post(server, "/_allauth/app/v1/auth/signup", {"email": EMAIL, "password": PASSWORD})[0] == 200
    status, report = health(server)
    assert status == 200 and set(report.values()) == {"OK"} and any("Redis" in key for key in report)

    redis.kill()

    status, _, body = post(server, "/_allauth/app/v1/auth/login", {"email": EMAIL, "password": PASSWORD})
    assert status == 200, body
    token = body["meta"]["session_token"]
    status, _, _ = request(f"{server.url}/api/v1/me/", headers={"X-Session-Token": token, **JSON})
    assert status == 200
    assert post(server, "/_allauth/app/v1/auth/signup", {"email": "second@example.com", "password": PASSWORD})[0] == 200
    for path in ("/accounts/login/", "/accounts/signup/", "/rules/"):
        assert request(f"{server.url}{path}")[0] == 200, path
    # /healthz/ names the dead Redis, yet the node stays in service: everything above answered.
    status, report = health(server)
    assert status == 200
    assert [key for key, value in report.items() if value != "OK"] == [k for k in report if "Redis" in k]


def test_the_login_limit_still_counts_while_redis_is_down(redis_and_app):
    redis, server = redis_and_app
    assert post(server, "/_allauth/app/v1/auth/signup", {"email": EMAIL, "password": PASSWORD})[0] == 200
    redis.kill()
    for _ in range(5):
        assert post(server, "/_allauth/app/v1/auth/login", {"email": EMAIL, "password": "wrong-one"})[0] == 400
    status, headers, body = post(server, "/_allauth/app/v1/auth/login", {"email": EMAIL, "password": PASSWORD})
    assert status == 429 and int(headers["Retry-After"]) >= 1, body


def test_redis_is_used_again_once_it_is_back(redis_and_app):
    redis, server = redis_and_app
    redis.kill()
    assert health(server)[0] == 200
    revived = RedisServer(redis.port)
    try:
        deadline = time.monotonic() + 15  # the cache leaves a dead Redis alone for a few seconds
        while set(health(server)[1].values()) != {"OK"}:
            assert time.monotonic() < deadline, "Redis never reported back"
            time.sleep(0.5)
        # The app's cache tries Redis again once its pause (cache.PAUSE) is over: sign-ups made
        # meanwhile count in the table, and the first one after it counts in Redis.
        for attempt in range(30):
            email = f"back{attempt}@example.com"
            assert post(server, "/_allauth/app/v1/auth/signup", {"email": email, "password": PASSWORD})[0] == 200
            keys = subprocess.run(["redis-cli", "-p", str(redis.port), "dbsize"], capture_output=True, text=True)
            if int(keys.stdout) > 0:  # the sign-up's limit (and its session) were kept in Redis
                break
            assert time.monotonic() < deadline + 2 * PAUSE, "Redis was never used again"
            time.sleep(0.5)
        else:
            pytest.fail("Redis was never used again")
    finally:
        revived.kill()


def _signed_in_poll(server):
    """A new account's app token, its game, and the game's ETag, read once in full and once from the cache."""
    status, _, body = post(server, "/_allauth/app/v1/auth/signup", {"email": EMAIL, "password": PASSWORD})
    assert status == 200, body
    auth = {"X-Session-Token": body["meta"]["session_token"], **JSON}
    ids = []
    for name in ("Ann", "Ben"):
        status, _, made = request(f"{server.url}/api/v1/players/", "POST", json.dumps({"name": name}).encode(), auth)
        ids.append(json.loads(made)["id"])
    status, _, made = request(f"{server.url}/api/v1/games/", "POST", json.dumps({"players": ids}).encode(), auth)
    game = json.loads(made)["id"]
    url = f"{server.url}/api/v1/games/{game}/"
    etag = request(url, headers=auth)[1]["ETag"]
    assert request(url, headers={**auth, "If-None-Match": etag})[0] == 304
    return auth, url, etag


def test_a_sign_out_while_redis_is_frozen_stays_signed_out_once_it_resumes(redis_and_app):
    """The cache could not be told of the sign-out: it trusts nothing it held before, once back."""
    redis, server = redis_and_app
    auth, url, etag = _signed_in_poll(server)
    redis.process.send_signal(signal.SIGSTOP)
    try:
        status, _, _ = request(f"{server.url}/_allauth/app/v1/auth/session", "DELETE", None, auth)
        assert status == 401  # allauth: signed out, in the database
    finally:
        redis.process.send_signal(signal.SIGCONT)
    time.sleep(2)  # the stale window the issue allows
    answers = [request(url, headers={**auth, "If-None-Match": etag})[0] for _ in range(5)]
    assert answers == [401] * 5


def test_a_round_saved_while_redis_is_frozen_is_not_answered_304_once_it_resumes(redis_and_app):
    redis, server = redis_and_app
    auth, url, etag = _signed_in_poll(server)
    game = json.loads(request(url, headers=auth)[2])
    body = {
        "starting_double": 12,
        "entries": [
            {"player": game["players"][0]["id"], "pips": 0, "went_out": True},
            {"player": game["players"][1]["id"], "pips": 20},
        ],
    }
    redis.process.send_signal(signal.SIGSTOP)
    try:
        saved = request(f"{url}rounds/", "POST", json.dumps(body).encode(), auth)
        assert saved[0] == 201, saved[2]
    finally:
        redis.process.send_signal(signal.SIGCONT)
    time.sleep(2)
    assert [request(url, headers={**auth, "If-None-Match": etag})[0] for _ in range(3)] == [200] * 3


def test_a_member_removed_while_redis_is_frozen_is_refused_once_it_resumes(redis_and_app):
    redis, server = redis_and_app
    owner, _url, _etag = _signed_in_poll(server)
    _, _, body = post(server, "/_allauth/app/v1/auth/signup", {"email": "member@example.com", "password": PASSWORD})
    member = {"X-Session-Token": body["meta"]["session_token"], **JSON}

    def call(method, path, payload=None, who=owner):
        status, _, body = request(f"{server.url}{path}", method, payload and json.dumps(payload).encode(), who)
        return status, json.loads(body or b"{}")

    book = call("POST", "/api/v1/scorebooks/", {"name": "Club"})[1]
    code = call("POST", f"/api/v1/scorebooks/{book['id']}/invites/", {"role": "scorer"})[1]["code"]
    assert call("POST", f"/api/v1/invites/{code}/accept/", who=member)[0] == 200
    ids = [call("POST", "/api/v1/players/", {"name": n, "scorebook": book["id"]})[1]["id"] for n in ("C", "D")]
    game = call("POST", "/api/v1/games/", {"scorebook": book["id"], "players": ids})[1]
    url = f"{server.url}/api/v1/games/{game['id']}/"
    etag = request(url, headers=member)[1]["ETag"]
    assert request(url, headers={**member, "If-None-Match": etag})[0] == 304
    redis.process.send_signal(signal.SIGSTOP)
    try:
        member_pk = call("GET", "/api/v1/me/", who=member)[1]["id"]
        assert call("DELETE", f"/api/v1/scorebooks/{book['id']}/members/{member_pk}/")[0] == 204
    finally:
        redis.process.send_signal(signal.SIGCONT)
    time.sleep(2)
    assert [request(url, headers={**member, "If-None-Match": etag})[0] for _ in range(5)] == [404] * 5


def test_after_an_empty_restart_a_round_saved_while_redis_was_down_is_never_answered_304(redis_and_app):
    redis, server = redis_and_app
    auth, url, etag = _signed_in_poll(server)
    game = json.loads(request(url, headers=auth)[2])
    body = {
        "starting_double": 12,
        "entries": [
            {"player": game["players"][0]["id"], "pips": 0, "went_out": True},
            {"player": game["players"][1]["id"], "pips": 20},
        ],
    }
    redis.kill()
    assert request(f"{url}rounds/", "POST", json.dumps(body).encode(), auth)[0] == 201
    assert request(url, headers={**auth, "If-None-Match": etag})[0] == 200  # the database answers meanwhile
    revived = RedisServer(redis.port)
    try:
        time.sleep(2)
        deadline = time.monotonic() + 2 * PAUSE  # the app tries Redis again once its pause is over
        while time.monotonic() < deadline:
            assert request(url, headers={**auth, "If-None-Match": etag})[0] == 200
            time.sleep(0.2)
    finally:
        revived.kill()
