"""The API's pips stay integers: a sum as the page takes it ("12+9+4") is the page's alone."""

import pytest

from scorekeeper.models import Round
from tests.api.conftest import round_body, start_game

pytestmark = pytest.mark.django_db


def test_the_api_keeps_integers_and_refuses_a_sum(app):
    game = start_game(app)
    body = round_body(game, 6, 12, 7)
    body["entries"][1]["pips"] = "6+6"
    response = app.post(f"/api/v1/games/{game['id']}/rounds/", body)
    assert response.status_code == 400 and Round.objects.count() == 0
