"""Deleting an account: said plainly first, then nothing of the user is left behind."""

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.test import Client
from django.utils.html import escape

from scorekeeper.models import Game, Membership, Player, Round, Scorebook
from tests.api.conftest import round_body, start_game

pytestmark = pytest.mark.django_db


def references_to(user_pk: int) -> dict:
    """Every row of every table that points at the user, through any foreign key (history too)."""
    found = {}
    User = get_user_model()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if isinstance(field, models.ForeignKey) and field.related_model is User:
                count = model._base_manager.filter(**{field.attname: user_pk}).count()
                if count:
                    found[f"{model._meta.label}.{field.name}"] = count
    return found


def test_deleting_an_account_hands_shared_scorebooks_over_and_leaves_nothing_of_the_user(app, other_app):
    game = start_game(app)  # in the personal scorebook, nobody else's
    app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    club = app.post("/api/v1/scorebooks/", {"name": "Club"}).json()
    code = app.post(f"/api/v1/scorebooks/{club['id']}/invites/", {"role": "viewer"}).json()["code"]
    other_app.post(f"/api/v1/invites/{code}/accept/")
    ids = [app.post("/api/v1/players/", {"name": n, "scorebook": club["id"]}).json()["id"] for n in ("A", "B")]
    shared = app.post("/api/v1/games/", {"scorebook": club["id"], "players": ids}).json()
    app.post(f"/api/v1/games/{shared['id']}/rounds/", round_body(shared, 12, 3))
    app.patch(f"/api/v1/players/{ids[0]}/", {"user": "me"})
    app.patch(f"/api/v1/games/{shared['id']}/", {"name": "Club night"})
    user_pk = app.user.pk
    assert references_to(user_pk)  # the check can see them

    client = Client()
    client.force_login(app.user)
    page = client.get("/me/delete/").content.decode()
    personal = escape(Scorebook.objects.get(personal_of=app.user).name)  # named after its owner
    assert f"{personal}</strong>: deleted, with its games and players" in page
    assert f"Club</strong>: handed over: {other_app.user.email} becomes its owner" in page
    assert "Type your email address exactly" in client.post("/me/delete/", {"confirm": "nope"}).content.decode()
    assert client.post("/me/delete/", {"confirm": app.user.email.upper()}).status_code == 302

    assert references_to(user_pk) == {}
    assert not get_user_model().objects.filter(pk=user_pk).exists()
    assert Membership.objects.get(scorebook_id=club["id"]).role == "owner"  # the viewer now owns it
    assert Game.objects.filter(pk=shared["id"]).exists() and Round.objects.get(game_id=shared["id"]).recorded_by is None
    assert not Game.objects.filter(pk=game["id"]).exists() and not Scorebook.objects.filter(personal_of_id=user_pk)
    assert Player.objects.get(pk=ids[0]).user is None
    assert other_app.get(f"/api/v1/games/{shared['id']}/history/").json()["count"] == 3  # kept, by nobody
    assert client.get("/history/").status_code == 302  # logged out


def test_the_kept_answer_and_sheet_page_of_a_shared_game_hold_no_email_of_a_deleted_account(app, other_app):
    club = app.post("/api/v1/scorebooks/", {"name": "Club"}).json()
    code = app.post(f"/api/v1/scorebooks/{club['id']}/invites/", {"role": "scorer"}).json()["code"]
    other_app.post(f"/api/v1/invites/{code}/accept/")
    ids = [app.post("/api/v1/players/", {"name": n, "scorebook": club["id"]}).json()["id"] for n in ("A", "B")]
    shared = app.post("/api/v1/games/", {"scorebook": club["id"], "players": ids}).json()
    other_app.post(f"/api/v1/games/{shared['id']}/rounds/", round_body(shared, 12, 3))  # recorded by the other
    email = other_app.user.email
    assert email in app.get(f"/api/v1/games/{shared['id']}/").content.decode()  # kept now, with their email
    owner = Client()
    owner.force_login(app.user)
    assert owner.get(f"/games/{shared['id']}/").status_code == 200

    leaving = Client()
    leaving.force_login(other_app.user)
    assert leaving.post("/me/delete/", {"confirm": email}).status_code == 302

    assert email not in app.get(f"/api/v1/games/{shared['id']}/").content.decode()
    assert email not in owner.get(f"/games/{shared['id']}/").content.decode()


def test_a_recorder_who_left_the_scorebook_before_deleting_the_account_is_named_in_no_kept_answer(app, other_app):
    club = app.post("/api/v1/scorebooks/", {"name": "Club"}).json()
    code = app.post(f"/api/v1/scorebooks/{club['id']}/invites/", {"role": "scorer"}).json()["code"]
    other_app.post(f"/api/v1/invites/{code}/accept/")
    ids = [app.post("/api/v1/players/", {"name": n, "scorebook": club["id"]}).json()["id"] for n in ("A", "B")]
    shared = app.post("/api/v1/games/", {"scorebook": club["id"], "players": ids}).json()
    other_app.post(f"/api/v1/games/{shared['id']}/rounds/", round_body(shared, 12, 3))  # recorded by the other
    email = other_app.user.email
    assert email in app.get(f"/api/v1/games/{shared['id']}/").content.decode()  # kept now, with their email
    owner = Client()
    owner.force_login(app.user)
    assert owner.get(f"/games/{shared['id']}/").status_code == 200  # its page kept too
    assert other_app.delete(f"/api/v1/scorebooks/{club['id']}/members/{other_app.user.pk}/").status_code == 204
    assert email in app.get(f"/api/v1/games/{shared['id']}/").content.decode()  # left: still the recorder

    leaving = Client()
    leaving.force_login(other_app.user)
    assert leaving.post("/me/delete/", {"confirm": email}).status_code == 302  # no scorebook in common now

    assert email not in app.get(f"/api/v1/games/{shared['id']}/").content.decode()
    assert email not in owner.get(f"/games/{shared['id']}/").content.decode()
