"""A game without a name stays without one through an export and an import (tryout 39): an unnamed
game of a night is "Table 4" on the night's pages, in the language of whoever reads them, and its
export said "Table 4" as its name, which the import stored, in English for good and outside any
night. The export's "name" is the game's own ("" without one), "title" what the game was called
where it was exported; the import numbers an unnamed game as the pages number a new one."""

import io
from datetime import date

import pytest
from django.utils import translation

from scorekeeper import services
from scorekeeper.models import Game, Role, Scorebook
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import nights
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def night_of_two_tables(user):
    book = Scorebook.personal_for(user)
    night = nights.create_night(book=book, role=Role.OWNER, name="Friday", date=date.today())
    for number, (names, name) in enumerate(((("Ann", "Ben"), ""), (("Cy", "Dot"), "Window table")), start=1):
        players = [PlayerFactory(owner=user, name=n).pk for n in names]
        game = services.create_game(by=user, scorebook=book, players=players, rules=GameRules(tile_set=6),
                                    number=number, name=name, night=night.pk)  # fmt: skip
        services.record_round(game=game, starting_double=6, by=None, entries=[
            EntryInput(player=players[0], pips=0, went_out=True), EntryInput(player=players[1], pips=9)])  # fmt: skip
    return book


def test_an_unnamed_night_game_is_exported_without_a_name_and_imported_without_one(client):
    user = UserFactory()
    night_of_two_tables(user)
    client.force_login(user)
    data = client.get("/export/?format=json", headers={"accept-language": "en"})
    exported = data.json()["games"]
    assert sorted((game["name"], game["title"]) for game in exported) == [
        ("", "Table 1"), ("Window table", "Window table")]  # fmt: skip

    newcomer = UserFactory()
    client.force_login(newcomer)
    book = Scorebook.personal_for(newcomer)
    upload = io.BytesIO(data.content)
    upload.name = "games.json"
    assert client.post(f"/scorebooks/{book.pk}/import/", {"file": upload}).status_code in (200, 302)
    unnamed = Game.objects.get(scorebook=book, night=None, name="", seats__player__name="Ann")
    assert Game.objects.filter(scorebook=book, name="Table 1").count() == 0  # never a stored "Table 1"
    assert unnamed.number == 1 and Game.objects.get(scorebook=book, name="Window table").number is None
    day = unnamed.title_day
    with translation.override("es"):
        assert unnamed.title.startswith("Partida 1 · ") and unnamed.title_day == day
    with translation.override("en"):
        assert unnamed.title.startswith("Game 1 · ")
