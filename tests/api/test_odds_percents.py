"""The odds as the new game page shows them: whole percents that add up to 100%."""

import pytest
from django.test import Client

from scorekeeper.models import Scorebook
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_six_players_never_rated_are_shown_as_percents_adding_up_to_100():
    user = UserFactory()
    book = Scorebook.personal_for(user)
    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben", "Cy", "Dot", "Eve", "Fay")]
    client = Client()
    client.force_login(user)
    response = client.get("/api/v1/odds/", {"scorebook": book.pk, "players": ",".join(map(str, ids))})
    assert response.status_code == 200, response.content
    rows = response.json()["players"]
    assert [row["win_chance"] for row in rows] == [pytest.approx(1 / 6)] * 6
    assert [row["win_percent"] for row in rows] == [17, 17, 17, 17, 16, 16]  # 100%, not 6 x 17% = 102%
