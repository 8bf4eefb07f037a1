"""A player whose only finished game was friendly is not ranked, and the board says why truly."""

import pytest
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Game, Scorebook
from tests.factories import PlayerFactory, UserFactory
from tests.seasons import finished_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "words"), [
    ("en", "Not ranked yet: no finished game that counts (a friendly game counts nowhere)"),
    ("es", "Aún sin puesto: ninguna partida terminada que cuente (una amistosa no cuenta en ningún lado)"),
])  # fmt: skip
def test_a_player_whose_only_game_was_friendly_is_told_apart_truthfully(language, words):
    user = UserFactory()
    book = Scorebook.personal_for(user)
    ann, ben = PlayerFactory(owner=user, name="Ann"), PlayerFactory(owner=user, name="Ben")
    game = finished_game(book, user, [ann, ben], (7,))
    services.set_casual(game=Game.objects.get(pk=game.pk), casual=True, by=user)
    client = Client()
    client.force_login(user)
    page = client.get("/leaderboard/", headers={"accept-language": language}).content.decode()
    apart = page[page.index('id="board-apart-title"') :]
    assert words in apart
    assert ">Ann<" in apart and ">Ben<" in apart
