"""A real Redis killed under a served app: sign-up, log-in and the limits keep answering."""

import json
import subprocess
import time

import pytest

from scorekeeper.cache import PAUSE
from tests.reliability.served import Server, app_env, free_port, fresh_database_url, manage, request

pytestmark = pytest.mark.django_db

EMAIL, PASSWORD = "table@example.com", "correct-horse-42"
JSON = {"Content-Type": "application/json", "Accept": "application/json"}


class RedisServer:
    """A redis-server of the test's own on a free port (the machine's Redis stays up)."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
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


@pytest.fixture
def redis_and_app(tmp_path, static_root):
    redis = RedisServer()
    env = app_env(fresh_database_url(tmp_path, "scorekeeper_redis_down"), STATIC_ROOT=str(static_root))
    env["REDIS_URL"] = redis.url
    manage(env, "migrate", "--noinput")
    manage(env, "createcachetable")
    server = Server(env)
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
