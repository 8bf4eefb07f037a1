"""The installable app's parts, and the rounds of the offline queue: sent to the API as offline.js
sends them (JSON, the page's session and its CSRF token, an Idempotency-Key), one round per key
however often it is sent."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.http import offline
from scorekeeper.models import IdempotencyKey, Membership, Round
from scorekeeper.rules.rounds import EntryInput
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_its_icons_start_url_and_standalone_display(client):
    page = client.get("/rules/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Chicken Foot Scorekeeper" and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert {icon["purpose"] for icon in manifest["icons"]} == {"any", "maskable"}
    for icon in manifest["icons"]:
        assert icon["src"].startswith("/static/") and icon["type"] == "image/svg+xml"
        assert client.get(icon["src"]).status_code == 200  # served by the app itself


def test_the_service_worker_is_served_from_the_root_and_keeps_only_the_apps_own_files(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    assert not re.search(r"https?://", script)  # no third-party URL, nor any absolute one
    config = json.loads(re.search(r"const CONFIG = (\{.*?\});", script)[1])
    assert config["offline"] in config["precache"]
    assert config["static"] == "/static/"
    # The manifest storage's names, as collectstatic made them on the release step.
    assert any(re.fullmatch(r"/static/scorekeeper/app\.[0-9a-f]{12}\.js", url) for url in config["precache"])
    for url in config["precache"]:
        assert url.startswith("/") and not url.startswith("//")
        assert client.get(url).status_code == 200, url


def test_a_new_deploy_makes_a_new_worker_version(monkeypatch, tmp_path):
    before = offline._config()["version"]
    changed = tmp_path / "app.js"
    changed.write_text("// a new release")
    real_find = offline.finders.find
    monkeypatch.setattr(
        offline.finders, "find", lambda name: str(changed) if name.endswith("app.js") else real_find(name)
    )
    offline._config.cache_clear()
    try:
        assert offline._config()["version"] != before
    finally:
        offline._config.cache_clear()


def test_the_offline_page_holds_nothing_of_the_user(client):
    user = UserFactory(email="private.person@example.com")
    client.force_login(user)
    page = client.get("/offline/").content.decode()
    assert "No connection" in page and "private.person" not in page


def test_logging_out_clears_the_sites_caches_and_storage(client):
    client.force_login(UserFactory())
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache", "storage"'


def test_every_page_names_its_account_by_a_marker_that_is_neither_its_id_nor_its_email(client):
    ann = UserFactory(email="ann.private@example.com")
    game = make_game(owner=ann, names=("Ann", "Ben"), tile_set=6)
    client.force_login(ann)
    markers = set()
    for url in ("/", f"/games/{game.pk}/", f"/games/{game.pk}/rounds/new/", "/rules/", "/games/999999/"):
        response = client.get(url)
        markers.add(response["X-Account"])
        # The page says it too, inside <main> (hx-boost swaps the body's content, not its tag).
        if response.status_code == 200:
            assert f'<main id="main" data-account="{response["X-Account"]}">' in response.content.decode()
    assert len(markers) == 1
    marker = markers.pop()
    assert re.fullmatch(r"[0-9a-f]{32}", marker)
    assert marker != str(ann.pk) and "ann" not in marker
    assert marker == offline.account_marker(ann)
    # The same account on another phone (another session) has the same marker; another account not.
    other_phone = Client()
    other_phone.force_login(ann)
    assert other_phone.get("/")["X-Account"] == marker
    ben = UserFactory()
    client.force_login(ben)
    assert client.get("/")["X-Account"] not in (marker, offline.SIGNED_OUT)


def test_a_page_made_for_nobody_says_so_and_answers_made_for_everyone_carry_no_account(client):
    response = client.get("/rules/")
    assert response["X-Account"] == offline.SIGNED_OUT == "none"
    assert client.get(reverse("account_login"))["X-Account"] == "none"
    client.force_login(UserFactory())
    # Nothing of the session in these, so no marker (a shared cache may keep them).
    for url in ("/sw.js", "/offline/", "/manifest.webmanifest", offline._config()["precache"][0]):
        response = client.get(url)
        assert response.status_code == 200 and "X-Account" not in response, url


def test_logging_out_leaves_the_answer_marked_as_nobodys(client):
    client.force_login(UserFactory())
    assert client.get("/")["X-Account"] != "none"
    response = client.post(reverse("account_logout"))
    assert response["X-Account"] == "none"


def test_the_headless_sign_out_answer_is_marked_as_nobodys_so_the_worker_drops_its_pages(client):
    client.force_login(UserFactory())
    response = client.delete("/_allauth/browser/v1/auth/session")
    assert response.status_code == 401  # allauth: signed out
    assert response["X-Account"] == "none"


def test_the_worker_reads_the_account_header_and_watches_allauths_api(client):
    config = json.loads(re.search(r"const CONFIG = (\{.*?\});", client.get("/sw.js").content.decode())[1])
    assert config["header"] == "X-Account" and config["signedOut"] == "none"
    assert config["auth"] == "/_allauth/"


@pytest.fixture
def table():
    """A phone signed in on a double-6 game for three: its session and CSRF cookie, as its pages have them."""
    user = UserFactory()
    game = make_game(owner=user, names=("Ann", "Ben", "Cy"), tile_set=6)
    client = Client(enforce_csrf_checks=True)  # the API checks the CSRF token of a session's POST
    client.force_login(user)
    client.get("/")  # a page sets the CSRF cookie
    return client, game, [s.player_id for s in game.seats.order_by("position")]


def queued(client, game, players, double, pips, key, headers=None, confirm=False):
    """A round as offline.js sends it: JSON to the API with the session, its CSRF token and a key;
    0 pips means the player went out; it asks to be told about anything surprising (`confirm`)."""
    entries = [
        {"player": p, "pips": v, "went_out": v == 0, "ended_on_double": False}
        for p, v in zip(players, pips, strict=True)
    ]
    token = client.cookies["csrftoken"].value if "csrftoken" in client.cookies else ""
    return client.post(
        f"/api/v1/games/{game.pk}/rounds/",
        json.dumps({"starting_double": double, "entries": entries, "confirm": confirm}),
        content_type="application/json",
        headers={"X-CSRFToken": token, "Idempotency-Key": key, **(headers or {})},
    )


def test_the_round_form_tells_the_queue_where_to_send_its_rounds(table):
    client, game, _players = table
    page = client.get(f"/games/{game.pk}/rounds/new/").content.decode()
    assert f'data-api="/api/v1/games/{game.pk}/rounds/"' in page


def test_a_queued_round_is_saved_once_however_often_it_is_sent(table):
    client, game, players = table
    first = queued(client, game, players, 6, [0, 9, 14], "key-1")
    assert first.status_code == 201 and (first.json()["number"], first.json()["starting_double"]) == (1, 6)
    again = queued(client, game, players, 6, [0, 9, 14], "key-1")
    assert again.status_code == 201 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Round.objects.filter(game=game).count() == 1
    # The next round queued on the same phone, drawn before the first was saved: no version needed.
    second = queued(client, game, players, 5, [11, 0, 4], "key-2")
    assert second.status_code == 201 and second.json()["number"] == 2
    # The same key with other values is a mistake of the client, never a second round.
    reused = queued(client, game, players, 4, [0, 3, 3], "key-2")
    assert reused.status_code == 422
    assert list(Round.objects.filter(game=game).values_list("starting_double", flat=True)) == [6, 5]


def test_a_queued_round_leaves_on_the_next_page_the_message_the_form_leaves(table):
    client, game, players = table
    assert queued(client, game, players, 6, [0, 9, 14], "key-1").status_code == 201
    assert "Recorded round 1." in client.get(f"/games/{game.pk}/").content.decode()


def test_a_queued_round_without_the_pages_csrf_token_is_refused_and_saves_nothing(table):
    client, game, players = table
    response = client.post(
        f"/api/v1/games/{game.pk}/rounds/",
        json.dumps({"starting_double": 6, "entries": [{"player": p, "pips": 3} for p in players]}),
        content_type="application/json",
    )
    assert response.status_code == 403 and "CSRF" in response.json()["detail"]
    assert not Round.objects.filter(game=game).exists()


def test_a_queued_round_that_breaks_a_rule_is_refused_with_the_players_name_and_the_bound(table):
    client, game, players = table
    response = queued(client, game, players, 6, [0, 400, 14], "key-1")
    assert response.status_code == 400
    assert any(e["message"].startswith("Ben") and "400" in e["message"] for e in response.json()["errors"])
    assert not Round.objects.filter(game=game).exists()


def test_a_queued_round_whose_double_another_phone_saved_first_is_refused_as_a_clash(table):
    client, game, players = table
    other = UserFactory(first_name="Zed")
    Membership.objects.create(scorebook=game.scorebook, user=other, role="scorer")
    entries = [EntryInput(player=players[0], pips=3), EntryInput(player=players[1], pips=0, went_out=True),
               EntryInput(player=players[2], pips=8)]  # fmt: skip
    services.record_round(game=game, starting_double=6, entries=entries, by=other)
    response = queued(client, game, players, 6, [0, 9, 14], "key-1")
    assert response.status_code == 409 and response.json()["code"] == "starting_double_unavailable"
    assert response.json()["detail"] == "Zed's phone saved round 1 (6-6) first: this one was not saved."
    assert [e["pips"] for e in response.json()["round"]["entries"]] == [3, 0, 8]  # theirs, to compare
    assert Round.objects.filter(game=game).count() == 1


def test_a_surprising_queued_round_asks_for_confirmation_and_the_answer_saves_it(table):
    client, game, players = table
    response = queued(client, game, players, 3, [0, 9, 14], "key-1")  # skips 6-6, 5-5 and 4-4
    assert response.status_code == 400 and response.json()["code"] == "confirmation_needed"
    assert "skips 6-6, 5-5, 4-4" in response.json()["surprises"][0]
    assert not Round.objects.filter(game=game).exists()
    confirmed = queued(client, game, players, 3, [0, 9, 14], "key-2", confirm=response.json()["confirm"])
    assert confirmed.status_code == 201


def test_a_queued_round_for_a_finished_game_or_from_a_viewer_is_refused(table):
    client, game, players = table
    viewer = UserFactory()
    Membership.objects.create(scorebook=game.scorebook, user=viewer, role="viewer")
    client.force_login(viewer)
    client.get("/")
    assert queued(client, game, players, 6, [0, 9, 14], "key-v").status_code == 403
    for double in range(6, -1, -1):
        services.record_round(game=game, starting_double=double, entries=[
            EntryInput(player=players[0], pips=0, went_out=True), EntryInput(player=players[1], pips=3),
            EntryInput(player=players[2], pips=4)])  # fmt: skip
    client.force_login(game.created_by)
    client.get("/")
    response = queued(client, game, players, 0, [0, 9, 14], "key-f")
    assert response.status_code == 409 and response.json()["code"] == "game_finished"
    assert "finished" in response.json()["detail"]


def test_a_page_keeps_no_answer_under_a_key(table):
    client, game, players = table
    data = {"starting_double": 6, f"p{players[0]}_pips": 0, f"p{players[0]}_went_out": "on",
            f"p{players[1]}_pips": 9, f"p{players[2]}_pips": 14,
            "csrfmiddlewaretoken": client.cookies["csrftoken"].value}  # fmt: skip
    page = client.post(f"/games/{game.pk}/rounds/new/", data, headers={"Idempotency-Key": "key-page"})
    assert page.status_code == 302 and page["Location"] == f"/games/{game.pk}/"
    assert not IdempotencyKey.objects.filter(key="key-page").exists()
    assert Round.objects.filter(game=game).count() == 1


def test_a_round_queued_by_another_account_on_the_phone_waits_and_is_recorded_for_nobody(table):
    client, game, players = table
    ben = UserFactory()
    Membership.objects.create(scorebook=game.scorebook, user=ben, role="scorer")
    queued_by_ann = offline.account_marker(game.created_by)
    client.force_login(ben)  # Ann's session ended without logging out; Ben signed in on her phone
    client.get("/")
    response = queued(client, game, players, 6, [0, 9, 14], "key-1", headers={"X-Account": queued_by_ann})
    assert response.status_code == 409 and response.json()["code"] == "other_account"
    assert "another account" in response.json()["detail"]
    assert not Round.objects.filter(game=game).exists()
    assert not IdempotencyKey.objects.exists()
    # Ben's own round, marked as his, goes through.
    mine = queued(client, game, players, 6, [0, 9, 14], "key-2", headers={"X-Account": offline.account_marker(ben)})
    assert mine.status_code == 201
    assert Round.objects.get(game=game).recorded_by == ben


def test_a_round_queued_by_an_account_whose_session_ended_asks_to_log_in_again(table):
    client, game, players = table
    marker = offline.account_marker(game.created_by)
    client.logout()
    response = queued(client, game, players, 6, [0, 9, 14], "key-1", headers={"X-Account": marker})
    assert response.status_code == 401  # offline.js: it waits, saying "Log in again to send it."
    assert not Round.objects.filter(game=game).exists()
