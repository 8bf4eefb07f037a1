"""Phones posting the same round at the same instant: one 201, the rest 409, never a 500."""

import pytest
from django.test import Client

from scorekeeper.models import Round
from tests.api.conftest import app_for, round_body, start_game
from tests.races import at_once


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_simultaneous_posts_of_one_round_give_one_201_and_409s(postgres_only, attempt):
    app = app_for(f"race{attempt}@example.com")
    game = start_game(app)
    url, body = f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4)
    headers = {"X-Session-Token": app.headers["X-Session-Token"]}

    def post():
        return Client().post(url, body, content_type="application/json", headers=headers).status_code

    assert sorted(at_once(5, post)) == [201, 409, 409, 409, 409]
    assert Round.objects.filter(game_id=game["id"]).count() == 1
