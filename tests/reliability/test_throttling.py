"""Login limits hold across processes: the cache they live in is shared (the database's, or Redis)."""

import json

import pytest

from tests.reliability.served import Server, app_env, request

pytestmark = pytest.mark.django_db

EMAIL, PASSWORD = "target@example.com", "correct-horse-42"


@pytest.fixture
def two_servers(tmp_path, static_root, migrated):
    """Two gunicorn processes (a worker each) over one database, as two workers of one site."""
    user = ("shell", "-c", f"from accounts.models import User; User.objects.create_user('{EMAIL}', '{PASSWORD}')")
    env = app_env(migrated.url(tmp_path, "throttle", user), STATIC_ROOT=str(static_root))  # migrated, with the user
    servers = []
    try:
        servers += [Server(env), Server(env)]
        yield servers
    finally:
        for server in servers:  # the first one too when the second does not start
            server.stop()


def app_login(server, password):
    body = json.dumps({"email": EMAIL, "password": password}).encode()
    return request(f"{server.url}/_allauth/app/v1/auth/login", "POST", body, {"Content-Type": "application/json"})


def test_the_sixth_wrong_password_is_refused_on_every_worker_and_so_is_the_right_one(two_servers):
    first, second = two_servers
    for attempt in range(5):  # alternating between the two processes
        status, _, _ = app_login(two_servers[attempt % 2], "wrong-password")
        assert status == 400
    for server in (second, first):
        for password in ("wrong-password", PASSWORD):
            status, headers, body = app_login(server, password)
            assert status == 429, (server.url, password, body)
            assert 1 <= int(headers["Retry-After"]) <= 300
            assert json.loads(body)["errors"][0]["code"] == "too_many_login_attempts"


def test_the_login_page_says_when_to_try_again(two_servers):
    second = two_servers[1]
    for attempt in range(5):
        app_login(two_servers[attempt % 2], "wrong-password")
    # The page on another process: fetch the form (CSRF cookie), then post the right password.
    status, headers, page = request(f"{second.url}/accounts/login/")
    cookie = headers["Set-Cookie"].split(";")[0]
    token = page.decode().split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    form = f"login={EMAIL}&password={PASSWORD}&csrfmiddlewaretoken={token}".replace("@", "%40").encode()
    status, _, page = request(
        f"{second.url}/accounts/login/",
        "POST",
        form,
        {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie, "Referer": second.url},
    )
    assert status == 200 and "Try again in 5 minutes" in page.decode()
