"""An invite code is used once, by one account, ever: an owner's removal and role changes stick,
whatever old code the member still holds, and the member who goes leaves no trace on the players."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from scorekeeper.models import Invite, Membership, Player
from tests.api.conftest import app_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(app):
    return app.post("/api/v1/scorebooks/", {"name": "Club"}).json()


@pytest.fixture
def eve(db):
    return app_for("eve@example.com")


def invite(app, club, role="scorer") -> str:
    response = app.post(f"/api/v1/scorebooks/{club['id']}/invites/", {"role": role})
    assert response.status_code == 201
    return response.json()["code"]


def accept(api, code):
    return api.post(f"/api/v1/invites/{code}/accept/")


def role_of(api, club) -> str | None:
    membership = Membership.objects.filter(user=api.user, scorebook_id=club["id"]).first()
    return membership.role if membership else None


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_removed_member_cannot_accept_their_old_code_again(app, eve, club):
    code = invite(app, club)
    assert accept(eve, code).status_code == 200
    assert app.delete(f"/api/v1/scorebooks/{club['id']}/members/{eve.user.pk}/").status_code == 204
    again = accept(eve, code)
    assert again.status_code == 404
    assert role_of(eve, club) is None
    assert eve.get(f"/api/v1/scorebooks/{club['id']}/").status_code == 404


def test_a_removed_member_cannot_rejoin_through_the_invite_page_either(app, eve, club):
    code = invite(app, club)
    page = page_client(eve.user)
    assert page.post(f"/invites/{code}/").status_code == 302  # joined through the page
    assert role_of(eve, club) == "scorer"
    app.delete(f"/api/v1/scorebooks/{club['id']}/members/{eve.user.pk}/")
    assert page.get(f"/invites/{code}/").status_code == 404
    assert page.post(f"/invites/{code}/").status_code == 404
    assert role_of(eve, club) is None


def test_a_used_code_that_has_expired_is_404_even_to_the_member_who_used_it(app, eve, club):
    code = invite(app, club)
    accept(eve, code)
    Invite.objects.filter(code=code).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert accept(eve, code).status_code == 404  # still a member: nothing changes
    assert role_of(eve, club) == "scorer"
    app.delete(f"/api/v1/scorebooks/{club['id']}/members/{eve.user.pk}/")
    assert accept(eve, code).status_code == 404
    assert page_client(eve.user).post(f"/invites/{code}/").status_code == 404
    assert role_of(eve, club) is None


def test_a_demoted_member_who_leaves_cannot_get_their_old_role_back_with_the_old_code(app, eve, club):
    code = invite(app, club, "scorer")
    accept(eve, code)
    members = f"/api/v1/scorebooks/{club['id']}/members/"
    assert app.patch(f"{members}{eve.user.pk}/", {"role": "viewer"}).status_code == 200
    assert accept(eve, code).status_code == 404  # while still a member, the demotion sticks
    assert role_of(eve, club) == "viewer"
    assert eve.delete(f"{members}{eve.user.pk}/").status_code == 204  # leaves
    assert accept(eve, code).status_code == 404
    assert page_client(eve.user).post(f"/invites/{code}/").status_code == 404
    assert role_of(eve, club) is None


def test_accepting_ones_own_code_again_while_still_a_member_changes_nothing(app, eve, club):
    code = invite(app, club, "viewer")
    accept(eve, code)
    again = accept(eve, code)
    assert again.status_code == 200 and again.json()["role"] == "viewer"
    assert Membership.objects.filter(scorebook_id=club["id"]).count() == 2


def test_deleting_the_account_that_used_a_code_never_revives_it(app, eve, club):
    code = invite(app, club)
    owner_page = f"/scorebooks/{club['id']}/?invite={code}"
    assert f"/invites/{code}/" in page_client(app.user).get(owner_page).content.decode()  # shown while unused
    accept(eve, code)
    page = page_client(eve.user)
    assert page.post("/me/delete/", {"confirm": eve.user.email}).status_code == 302
    used = Invite.objects.get(code=code)
    assert used.accepted_by is None and used.accepted_at is not None  # the mark of use outlives the account
    newcomer = app_for("newcomer@example.com")
    assert accept(newcomer, code).status_code == 404
    assert page_client(newcomer.user).post(f"/invites/{code}/").status_code == 404
    assert role_of(newcomer, club) is None
    assert f"/invites/{code}/" not in page_client(app.user).get(owner_page).content.decode()  # nor as a fresh one


def test_an_accepted_invite_always_keeps_when_it_was_accepted(app, eve, club):
    code = invite(app, club)
    with pytest.raises(IntegrityError), transaction.atomic():
        Invite.objects.filter(code=code).update(accepted_by=eve.user)


def test_a_member_who_is_removed_or_leaves_is_unlinked_from_their_player(app, eve, club):
    ids = [app.post("/api/v1/players/", {"name": n, "scorebook": club["id"]}).json()["id"] for n in ("Eve", "Amy")]
    personal = eve.post("/api/v1/players/", {"name": "Eve"}).json()["id"]  # her own scorebook: untouched
    assert eve.patch(f"/api/v1/players/{personal}/", {"user": "me"}).status_code == 200
    for leave in (app, eve):  # the owner removes her, then she leaves by herself
        accept(eve, invite(app, club, "viewer"))
        assert eve.patch(f"/api/v1/players/{ids[0]}/", {"user": "me"}).json()["user"]["email"] == eve.user.email
        assert "linked to Eve" in page_client(app.user).get(f"/players/{ids[0]}/").content.decode()
        assert leave.delete(f"/api/v1/scorebooks/{club['id']}/members/{eve.user.pk}/").status_code == 204
        assert app.get(f"/api/v1/players/{ids[0]}/").json()["user"] is None
        assert eve.user.email not in app.get(f"/api/v1/players/?scorebook={club['id']}").content.decode()
        assert "linked to Eve" not in page_client(app.user).get(f"/players/{ids[0]}/").content.decode()
    assert Player.objects.get(pk=personal).user == eve.user
    assert eve.get("/api/v1/me/stats/").json()["players"][0]["player"]["id"] == personal


def test_a_viewer_refused_a_rename_is_not_linked_either(app, eve, club):
    accept(eve, invite(app, club, "viewer"))
    player = app.post("/api/v1/players/", {"name": "Zed", "scorebook": club["id"]}).json()["id"]
    for body in ({"user": "me", "name": "Eve"}, {"user": "me", "name": "Zed"}):
        refused = eve.patch(f"/api/v1/players/{player}/", body)
        assert refused.status_code == 403
        assert Player.objects.values_list("name", "user").get(pk=player) == ("Zed", None)
    assert eve.patch(f"/api/v1/players/{player}/", {"user": "me"}).status_code == 200  # linking alone is allowed
