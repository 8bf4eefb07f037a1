"""Scorebooks through the API, as docs/api.md states them: personal books, members and
roles, invites, leaving, players linked to accounts, figures across scorebooks."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import timezone

from scorekeeper.models import Game, Invite, Membership, Player, Round, Scorebook
from tests.api.conftest import app_for, round_body

pytestmark = pytest.mark.django_db


def test_a_new_account_has_its_personal_scorebook_and_things_go_there_by_default(app):
    (book,) = app.get("/api/v1/scorebooks/").json()["results"]
    assert book["personal"] is True and book["role"] == "owner"
    assert book["members"] == [{"user": app.user.pk, "email": app.user.email, "role": "owner"}]
    player = app.post("/api/v1/players/", {"name": "Ann"}).json()
    assert player["scorebook"] == book["id"] and player["user"] is None


def test_the_personal_scorebook_cannot_be_deleted_and_one_with_games_neither(app):
    personal = app.get("/api/v1/scorebooks/").json()["results"][0]["id"]
    assert app.delete(f"/api/v1/scorebooks/{personal}/").json()["code"] == "personal_scorebook"
    club = app.post("/api/v1/scorebooks/", {"name": "Club"}).json()
    ids = [app.post("/api/v1/players/", {"name": n, "scorebook": club["id"]}).json()["id"] for n in ("Ann", "Ben")]
    game = app.post("/api/v1/games/", {"scorebook": club["id"], "players": ids}).json()
    assert game["scorebook"] == club["id"]
    response = app.delete(f"/api/v1/scorebooks/{club['id']}/")
    assert response.status_code == 409 and response.json()["code"] == "scorebook_has_games"
    app.delete(f"/api/v1/games/{game['id']}/")
    assert app.delete(f"/api/v1/scorebooks/{club['id']}/").status_code == 204
    assert not Scorebook.objects.filter(pk=club["id"]).exists() and not Player.objects.filter(pk__in=ids).exists()


@pytest.fixture
def club(app):
    return app.post("/api/v1/scorebooks/", {"name": "Club"}).json()


def invite(app, club, role="scorer"):
    response = app.post(f"/api/v1/scorebooks/{club['id']}/invites/", {"role": role})
    assert response.status_code == 201
    return response.json()


def test_an_invite_is_a_link_and_a_qr_code_that_makes_a_member_with_its_role(app, other_app, club):
    made = invite(app, club, "viewer")
    assert made["url"].endswith(f"/invites/{made['code']}/") and made["role"] == "viewer"
    assert timedelta(days=6, hours=23) < Invite.objects.get().expires_at - timezone.now() <= timedelta(days=7)
    assert len(made["code"]) >= 22  # at least 128 bits
    joined = other_app.post(f"/api/v1/invites/{made['code']}/accept/")
    assert joined.status_code == 200 and joined.json()["role"] == "viewer"
    assert {m["email"]: m["role"] for m in joined.json()["members"]} == {
        app.user.email: "owner",
        other_app.user.email: "viewer",
    }
    again = other_app.post(f"/api/v1/invites/{made['code']}/accept/")  # the same user again: nothing changes
    assert again.status_code == 200 and Membership.objects.filter(scorebook_id=club["id"]).count() == 2
    client = Client()
    client.force_login(app.user)
    qr = client.get(f"/invites/{made['code']}/qr.svg")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content


def test_unknown_expired_or_used_invites_are_404(app, other_app, club):
    assert other_app.post("/api/v1/invites/no-such-code/accept/").status_code == 404
    expired = invite(app, club)
    Invite.objects.filter(code=expired["code"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert other_app.post(f"/api/v1/invites/{expired['code']}/accept/").status_code == 404
    used = invite(app, club)
    assert app_for("third@example.com").post(f"/api/v1/invites/{used['code']}/accept/").status_code == 200
    assert other_app.post(f"/api/v1/invites/{used['code']}/accept/").status_code == 404
    assert not Membership.objects.filter(user=other_app.user, scorebook_id=club["id"]).exists()


def test_an_invite_role_must_be_scorer_or_viewer(app, club):
    response = app.post(f"/api/v1/scorebooks/{club['id']}/invites/", {"role": "owner"})
    assert response.status_code == 400 and "role" in response.json()


def test_members_leave_owners_remove_and_the_last_owner_stays(app, other_app, club):
    other_app.post(f"/api/v1/invites/{invite(app, club)['code']}/accept/")
    last = app.delete(f"/api/v1/scorebooks/{club['id']}/members/{app.user.pk}/")
    assert last.status_code == 409 and last.json()["code"] == "last_owner"
    assert other_app.delete(f"/api/v1/scorebooks/{club['id']}/members/{app.user.pk}/").status_code == 403
    assert other_app.delete(f"/api/v1/scorebooks/{club['id']}/members/{other_app.user.pk}/").status_code == 204
    assert other_app.get(f"/api/v1/scorebooks/{club['id']}/").status_code == 404  # gone with the membership
    other_app.post(f"/api/v1/invites/{invite(app, club)['code']}/accept/")
    assert app.delete(f"/api/v1/scorebooks/{club['id']}/members/{other_app.user.pk}/").status_code == 204
    # An owner hands the scorebook on: make the other an owner, then leave.
    other_app.post(f"/api/v1/invites/{invite(app, club)['code']}/accept/")
    members = f"/api/v1/scorebooks/{club['id']}/members/"
    assert app.patch(f"{members}{app.user.pk}/", {"role": "scorer"}).json()["code"] == "last_owner"
    assert app.patch(f"{members}{other_app.user.pk}/", {"role": "owner"}).status_code == 200
    assert app.delete(f"{members}{app.user.pk}/").status_code == 204
    assert [m["role"] for m in other_app.get(f"/api/v1/scorebooks/{club['id']}/").json()["members"]] == ["owner"]


def test_a_scorer_writes_a_viewer_reads_and_lists_can_be_narrowed_to_one_scorebook(app, other_app, club):
    other_app.post(f"/api/v1/invites/{invite(app, club, 'scorer')['code']}/accept/")
    ids = [other_app.post("/api/v1/players/", {"name": n, "scorebook": club["id"]}).json()["id"] for n in ("A", "B")]
    app.post("/api/v1/players/", {"name": "Solo"})  # the owner's personal scorebook
    assert other_app.get("/api/v1/players/").json()["count"] == 2  # the scorer is not in the owner's personal one
    assert app.get("/api/v1/players/").json()["count"] == 3
    assert app.get(f"/api/v1/players/?scorebook={club['id']}").json()["count"] == 2
    game = other_app.post("/api/v1/games/", {"scorebook": club["id"], "players": ids, "tile_set": 6}).json()
    body = {
        "starting_double": 6,
        "entries": [{"player": ids[0], "pips": 0, "went_out": True}, {"player": ids[1], "pips": 5}],
    }
    recorded = other_app.post(f"/api/v1/games/{game['id']}/rounds/", body).json()
    assert recorded["recorded_by"] == {"id": other_app.user.pk, "email": other_app.user.email}
    corrected = app.put(
        f"/api/v1/games/{game['id']}/rounds/1/", body | {"entries": [body["entries"][0], {"player": ids[1], "pips": 3}]}
    )
    assert corrected.json()["corrected_by"]["email"] == app.user.email
    board = app.get(f"/api/v1/leaderboard/?scorebook={club['id']}").json()
    assert {row["player"]["name"] for row in board["results"]} == {"A", "B"}
    assert app.get("/api/v1/leaderboard/?scorebook=999999").status_code == 404


def test_names_are_unique_per_scorebook_with_unicode_case_folding(app, club):
    personal = app.get("/api/v1/scorebooks/").json()["results"][0]["id"]
    assert app.post("/api/v1/players/", {"name": "Straße", "scorebook": club["id"]}).status_code == 201
    clash = app.post("/api/v1/players/", {"name": "STRASSE", "scorebook": club["id"]})
    assert clash.status_code == 400 and "already has a player" in clash.json()["name"][0]
    assert app.post("/api/v1/players/", {"name": "ÐÇ", "scorebook": club["id"]}).status_code == 201
    assert app.post("/api/v1/players/", {"name": "ðç", "scorebook": club["id"]}).status_code == 400
    assert app.post("/api/v1/players/", {"name": "STRASSE", "scorebook": personal}).status_code == 201


def test_a_player_linked_to_me_counts_in_my_stats_across_scorebooks(app, other_app, club):
    other_app.post(f"/api/v1/invites/{invite(app, club, 'viewer')['code']}/accept/")
    ids = [app.post("/api/v1/players/", {"name": n, "scorebook": club["id"]}).json()["id"] for n in ("Zed", "Amy")]
    game = app.post("/api/v1/games/", {"scorebook": club["id"], "players": ids, "tile_set": 6}).json()
    for double in range(6, -1, -1):  # Zed goes out every round and wins
        entries = [{"player": ids[0], "pips": 0, "went_out": True}, {"player": ids[1], "pips": 5}]
        assert (
            app.post(f"/api/v1/games/{game['id']}/rounds/", {"starting_double": double, "entries": entries}).status_code
            == 201
        )
    linked = other_app.patch(f"/api/v1/players/{ids[0]}/", {"user": "me"})  # a viewer links themselves
    assert linked.status_code == 200 and linked.json()["user"]["email"] == other_app.user.email
    assert app.patch(f"/api/v1/players/{ids[0]}/", {"user": "me"}).status_code == 409  # it is someone else's
    assert other_app.patch(f"/api/v1/players/{ids[1]}/", {"user": "me"}).status_code == 409  # one per scorebook
    mine = other_app.get("/api/v1/me/stats/").json()
    assert [(p["player"]["name"], p["scorebook"]["name"], p["games"], p["wins"]) for p in mine["players"]] == [
        ("Zed", "Club", 1, 1)
    ]
    assert mine["total"]["games"] == 1 and mine["total"]["win_rate"] == 1.0
    assert other_app.patch(f"/api/v1/players/{ids[0]}/", {"user": None}).json()["user"] is None
    assert other_app.get("/api/v1/me/stats/").json()["players"] == []


@pytest.mark.django_db(transaction=True)
def test_two_members_recording_the_same_round_at_once_give_one_201_and_one_409(postgres_only):
    owner, scorer = app_for("ann-race@example.com"), app_for("bob-race@example.com")
    club = owner.post("/api/v1/scorebooks/", {"name": "Race"}).json()
    scorer.post(f"/api/v1/invites/{invite(owner, club)['code']}/accept/")
    ids = [owner.post("/api/v1/players/", {"name": n, "scorebook": club["id"]}).json()["id"] for n in "ABC"]
    game = owner.post("/api/v1/games/", {"scorebook": club["id"], "players": ids, "tile_set": 6}).json()
    url, body = f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4)
    barrier, statuses = threading.Barrier(2), []

    def post(api):
        try:
            client = Client()
            barrier.wait()
            statuses.append(client.post(url, body, content_type="application/json", headers=api.headers).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(api,)) for api in (owner, scorer)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 409]
    assert Round.objects.filter(game_id=game["id"]).count() == 1
    assert Round.objects.get(game_id=game["id"]).entries.count() == 3  # nothing half-saved


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_every_player_and_game_into_its_owners_personal_scorebook():
    executor = MigrationExecutor(connection)
    executor.migrate([("scorekeeper", "0004_undone_round")])
    old = executor.loader.project_state([("scorekeeper", "0004_undone_round")]).apps
    User, OldPlayer, OldGame = (old.get_model(*name.split(".")) for name in
                                ("accounts.User", "scorekeeper.Player", "scorekeeper.Game"))  # fmt: skip
    OldRound = old.get_model("scorekeeper", "Round")
    ann, bob = User.objects.create(email="ann@old.example"), User.objects.create(email="bob@old.example")
    for owner, names in ((ann, ("Cy", "Dot")), (bob, ("Cy", "Eve"))):  # the same name in two accounts
        players = [OldPlayer.objects.create(owner_id=owner.pk, name=n, name_key=n.lower()) for n in names]
        game = OldGame.objects.create(owner_id=owner.pk, name=f"{owner.email} night")
        OldRound.objects.create(game=game, number=1, position=0, starting_double=12)
        assert len(players) == 2
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    for email in ("ann@old.example", "bob@old.example"):
        book = Scorebook.objects.get(personal_of__email=email)
        assert book.memberships.get().role == "owner" and book.memberships.get().user.email == email
        assert sorted(book.players.values_list("name", flat=True)) == (
            ["Cy", "Dot"] if email[0] == "a" else ["Cy", "Eve"]
        )
        game = Game.objects.get(scorebook=book)
        assert game.created_by.email == email and game.rounds.get().recorded_by.email == email
