"""The installable app's parts, and the round form as the offline queue uses it: JSON answers, one
round per Idempotency-Key however often it is sent."""

import json
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from scorekeeper import offline, services
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


@pytest.fixture
def table(client):
    user = UserFactory()
    game = make_game(owner=user, names=("Ann", "Ben", "Cy"), tile_set=6)
    client.force_login(user)
    return client, game, [s.player_id for s in game.seats.order_by("position")]


def queued(client, game, players, double, pips, key, **extra):
    """The round form as the offline queue sends it: no page version, JSON wanted, a key."""
    data = {"starting_double": double, **extra}
    for player, value in zip(players, pips, strict=True):
        data[f"p{player}_pips"] = value
        if value == 0:
            data[f"p{player}_went_out"] = "on"
    return client.post(
        f"/games/{game.pk}/rounds/new/", data, headers={"Accept": "application/json", "Idempotency-Key": key}
    )


def test_a_queued_round_is_saved_once_however_often_it_is_sent(table):
    client, game, players = table
    first = queued(client, game, players, 6, [0, 9, 14], "key-1")
    assert first.status_code == 201 and first.json() == {"number": 1, "starting_double": 6}
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


def test_a_queued_round_that_breaks_a_rule_is_refused_with_the_players_name_and_the_bound(table):
    client, game, players = table
    response = queued(client, game, players, 6, [0, 400, 14], "key-1")
    assert response.status_code == 400
    assert any(message.startswith("Ben") and "400" in message for message in response.json()["errors"])
    assert not Round.objects.filter(game=game).exists()


def test_a_queued_round_whose_double_another_phone_saved_first_is_refused_as_a_clash(table):
    client, game, players = table
    other = UserFactory(first_name="Zed")
    Membership.objects.create(scorebook=game.scorebook, user=other, role="scorer")
    entries = [EntryInput(player=players[0], pips=3), EntryInput(player=players[1], pips=0, went_out=True),
               EntryInput(player=players[2], pips=8)]  # fmt: skip
    services.record_round(game=game, starting_double=6, entries=entries, by=other)
    response = queued(client, game, players, 6, [0, 9, 14], "key-1")
    assert response.status_code == 409
    assert response.json()["errors"] == ["Zed's phone saved round 1 (6-6) first: this one was not saved."]
    assert Round.objects.filter(game=game).count() == 1


def test_a_surprising_queued_round_asks_for_confirmation_and_the_answer_saves_it(table):
    client, game, players = table
    response = queued(client, game, players, 3, [0, 9, 14], "key-1")  # skips 6-6, 5-5 and 4-4
    assert response.status_code == 400 and response.json()["confirm"]
    assert "skips 6-6, 5-5, 4-4" in response.json()["errors"][0]
    assert not Round.objects.filter(game=game).exists()
    confirmed = queued(client, game, players, 3, [0, 9, 14], "key-2", confirmed=response.json()["confirm"])
    assert confirmed.status_code == 201


def test_a_queued_round_for_a_finished_game_or_from_a_viewer_is_refused(table):
    client, game, players = table
    viewer = UserFactory()
    Membership.objects.create(scorebook=game.scorebook, user=viewer, role="viewer")
    client.force_login(viewer)
    assert queued(client, game, players, 6, [0, 9, 14], "key-v").status_code == 403
    game.status, game.finished_at = "finished", timezone.now()
    game.save()
    client.force_login(game.created_by)
    response = queued(client, game, players, 6, [0, 9, 14], "key-f")
    assert response.status_code == 409 and "already over" in response.json()["errors"][0]


def test_a_page_answer_is_never_kept_under_a_key_only_a_json_answer_is(table):
    client, game, players = table
    data = {"starting_double": 6, f"p{players[0]}_pips": 0, f"p{players[0]}_went_out": "on",
            f"p{players[1]}_pips": 9, f"p{players[2]}_pips": 14}  # fmt: skip
    page = client.post(f"/games/{game.pk}/rounds/new/", data, headers={"Idempotency-Key": "key-page"})
    assert page.status_code == 302 and page["Location"] == f"/games/{game.pk}/"
    assert not IdempotencyKey.objects.filter(key="key-page").exists()
    assert Round.objects.filter(game=game).count() == 1
