"""Two nodes made the Procfile's way (release, then web twice; DEBUG off, manifest static storage,
PostgreSQL and Redis shared), tried as a phone and a mobile app would at 390 px."""

import json
import re
import uuid
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM, LAUNCH_ARGS, PHONE, screenshot
from tests.browser.test_game_night import enter_round, start_double_6_game
from tests.reliability.served import request

PASSWORD = "domino-night-77"
JSON = {"Content-Type": "application/json", "Accept": "application/json"}
# How long a step may wait for the nodes, the page's actions and the assertions (expect) alike:
# expect has its own default of 5 s whatever the page's is. A sign-up or a sign-in hashes its
# password at production cost (PBKDF2, 1.5 million iterations; the test suite's settings use MD5),
# which on a CI machine whose 2 cores are shared took up to 11 s a request.
TIMEOUT = 30_000


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import sync_playwright

    expect.set_options(timeout=TIMEOUT)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()
    expect.set_options(timeout=None)  # Playwright's own default again


def phone(chromium, **options):
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **options)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    return page


def unique_email(what: str) -> str:
    return f"{what}-{uuid.uuid4().hex[:8]}@example.com"


def call(node, method, path, body=None, headers=None):
    """The API as one site: every node is reached under the site's host name (as behind its router)."""
    data = None if body is None else json.dumps(body).encode()
    status, answer_headers, answer = request(f"{node}{path}", method, data, {**JSON, **(headers or {})})
    return status, answer_headers, json.loads(answer) if answer else None


def app_sign_up(node, email):
    status, _, body = call(node, "POST", "/_allauth/app/v1/auth/signup", {"email": email, "password": PASSWORD})
    assert status == 200, body
    return {"X-Session-Token": body["meta"]["session_token"]}


def test_both_nodes_are_healthy_with_database_cache_and_redis(nodes):
    for node in nodes:
        status, _, report = call(node, "GET", "/healthz/")
        assert status == 200 and set(report.values()) == {"OK"}, (node, report)
        assert any("Redis" in check for check in report)


def test_a_phone_signs_up_and_logs_in_on_one_node_and_plays_on_the_other_then_offline(chromium, nodes):
    first, second = nodes
    email = unique_email("night")
    page = phone(chromium)
    page.goto(f"{first}/accounts/signup/")
    page.locator("#id_email").fill(email)
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("sign up", re.I)).click()
    expect(page.get_by_role("link", name="+ New game")).to_be_visible()
    # Logged out as a person does (not by clearing cookies: the service worker may still be keeping
    # the home page, and a request of it without cookies sets a new CSRF cookie under the login form).
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="+ New game")).to_have_count(0)
    page.goto(f"{first}/accounts/login/")
    page.locator("#id_login").fill(email)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("sign in|log in", re.I)).click()
    expect(page.get_by_role("link", name="+ New game")).to_be_visible()

    # The session made on node 1 is read by node 2 (one database): the game starts there.
    page.goto(f"{second}/")
    expect(page.get_by_role("link", name="+ New game")).to_be_visible()
    start_double_6_game(page)
    game_path = urlparse(page.url).path
    assert re.fullmatch(r"/games/\d+/", game_path)

    # Back on node 1: a round, then the sheet kept by the service worker opens without signal.
    page.goto(f"{first}{game_path}")
    enter_round(page, {"Ann": {"pips": 0, "went_out": True}, "Ben": {"pips": 12}, "Cy": {"pips": 9}})
    expect(page.locator("#sheet tfoot")).to_contain_text("12")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.goto(f"{first}{game_path}")  # visited under the worker's control: kept
    page.wait_for_timeout(1000)
    screenshot(page, "deploy-01-sheet")
    page.context.set_offline(True)
    page.goto(f"{first}{game_path}")
    expect(page.locator("#sheet")).to_be_visible()
    expect(page.locator("#sheet tfoot")).to_contain_text("12")
    expect(page.get_by_text(re.compile("Offline", re.I)).first).to_be_visible()
    screenshot(page, "deploy-02-sheet-offline")
    page.context.close()


def test_a_spanish_phone_gets_spanish_from_both_nodes(chromium, nodes):
    page = phone(chromium, locale="es-ES", extra_http_headers={"Accept-Language": "es-ES,es;q=0.9"})
    for node in nodes:
        page.goto(f"{node}/accounts/login/")
        assert page.locator("html").get_attribute("lang") == "es"
        expect(page.get_by_role("button", name=re.compile("Entrar|Iniciar", re.I))).to_be_visible()
        page.goto(f"{node}/rules/")
        expect(page.locator("main")).to_contain_text("ronda")
    screenshot(page, "deploy-03-rules-es")
    page.context.close()


def test_an_idempotency_key_sent_again_to_the_other_node_replays(nodes):
    first, second = nodes
    token = app_sign_up(first, unique_email("app"))
    key = {"Idempotency-Key": str(uuid.uuid4())}
    status, headers, made = call(first, "POST", "/api/v1/players/", {"name": "Ana"}, {**token, **key})
    assert status == 201 and "Idempotent-Replayed" not in headers, made
    status, headers, again = call(second, "POST", "/api/v1/players/", {"name": "Ana"}, {**token, **key})
    assert status == 201 and headers["Idempotent-Replayed"] == "true" and again == made
    status, _, players = call(second, "GET", "/api/v1/players/", headers=token)
    assert [player["name"] for player in players["results"]] == ["Ana"]


def test_the_sixth_wrong_password_is_refused_on_both_nodes(nodes):
    email = unique_email("locked")
    app_sign_up(nodes[0], email)
    for attempt in range(5):
        status, _, _ = call(
            nodes[attempt % 2], "POST", "/_allauth/app/v1/auth/login", {"email": email, "password": "no"}
        )
        assert status == 400
    for node in nodes:
        status, headers, _ = call(node, "POST", "/_allauth/app/v1/auth/login", {"email": email, "password": PASSWORD})
        assert status == 429 and int(headers["Retry-After"]) >= 1, node


def test_static_files_and_the_worker_come_from_the_manifest_on_both_nodes(nodes):
    for node in nodes:
        status, headers, script = request(f"{node}/sw.js")
        assert status == 200 and headers["Service-Worker-Allowed"] == "/"
        config = json.loads(re.search(rb"const CONFIG = (\{.*?\});", script)[1])
        hashed = [url for url in config["precache"] if re.search(r"\.[0-9a-f]{12}\.(js|css|svg)$", url)]
        assert hashed, config["precache"]
        for url in hashed:
            status, headers, _ = request(f"{node}{url}")
            assert status == 200 and "immutable" in headers.get("Cache-Control", ""), url


def test_a_round_saved_on_one_node_reaches_a_stream_held_by_the_other(nodes):
    from tests.api.stream_client import Stream

    first, second = nodes
    token = app_sign_up(first, unique_email("stream"))
    players = [call(first, "POST", "/api/v1/players/", {"name": name}, token)[2]["id"] for name in ("Ana", "Bo")]
    game = call(first, "POST", "/api/v1/games/", {"players": players}, token)[2]
    events = Stream(f"{second}/api/v1/games/{game['id']}/events/", {"Accept": "text/event-stream", **token}, wait=30)
    try:
        assert events.status == 200 and events.next_event().event == "state"
        entries = [{"player": players[0], "pips": 0, "went_out": True}, {"player": players[1], "pips": 9}]
        status, _, _ = call(
            first, "POST", f"/api/v1/games/{game['id']}/rounds/", {"starting_double": 12, "entries": entries}, token
        )
        assert status == 201
        state = events.next_event()  # through Redis: the node that saved it holds no stream of it
        assert state.event == "state" and len(state.json()["rounds"]) == 1
    finally:
        events.close()


def test_a_round_saved_by_a_phone_on_one_node_shows_on_a_tv_held_by_the_other(chromium, nodes):
    """A real browser on each node: the table's phone on the first, the TV (the live link in TV
    mode, 1280x720) on the second; the round reaches the TV through Redis, pushed, not polled."""
    first, second = nodes
    email = unique_email("tv")
    app_sign_up(first, email)
    page = phone(chromium)
    page.goto(f"{first}/accounts/login/")
    page.locator("#id_login").fill(email)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("sign in|log in", re.I)).click()
    expect(page.get_by_role("link", name="+ New game")).to_be_visible()
    start_double_6_game(page)
    game_path = urlparse(page.url).path
    game_id = int(re.fullmatch(r"/games/(\d+)/", game_path)[1])
    session = {"Cookie": "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())}
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    status, _, link = call(first, "POST", f"/api/v1/games/{game_id}/share/", {}, {**session, "X-CSRFToken": csrf})
    assert status == 201, link
    tv = chromium.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.set_default_timeout(TIMEOUT)
    streams = []
    tv.on("request", lambda request: streams.append(request.url) if "/events/" in request.url else None)
    try:
        tv.goto(f"{second}/live/{link['token']}/?tv=1")
        expect(tv.locator("body.tv")).to_have_count(1)
        tv.wait_for_function("() => document.documentElement.dataset.js === 'ready'")
        expect(tv.locator("#sheet tbody tr.played")).to_have_count(0)
        enter_round(page, {"Ann": {"pips": 0, "went_out": True}, "Ben": {"pips": 12}, "Cy": {"pips": 9}})
        expect(page.locator("#sheet tfoot")).to_contain_text("12")
        expect(tv.locator("#sheet tbody tr.played")).to_have_count(1)
        screenshot(tv, "deploy-04-tv-other-node")
        assert streams and all(url.startswith(f"{second}/api/v1/live/{link['token']}/events/") for url in streams)
    finally:
        tv.context.close()
        page.context.close()
