"""A night's tables as the club says them: "Table 2" for a game without a name, and "Next: round 2"
for a table that has played round 1, in English and Spanish."""

import pytest
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Game, Role, Scorebook
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import nights
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    """Two tables at a night: the first named "Back room", the second without a name, round 1 played."""
    user = UserFactory()
    book = Scorebook.personal_for(user)
    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben", "Cy")]
    made = nights.create_night(book=book, role=Role.OWNER, name="Friday club", date=book.today())
    named = services.create_game(by=user, players=ids, rules=GameRules(tile_set=6), name="Back room")
    plain = services.create_game(by=user, players=ids, rules=GameRules(tile_set=6))
    for game in (named, plain):
        nights.set_night(game=game, night=made.pk)
    services.record_round(game=Game.objects.get(pk=plain.pk), starting_double=6, entries=[
        EntryInput(player=ids[0], pips=0, went_out=True), EntryInput(player=ids[1], pips=5),
        EntryInput(player=ids[2], pips=9)])  # fmt: skip
    client = Client()
    client.force_login(user)
    return client, made


@pytest.mark.parametrize(("language", "table", "named_next", "plain_next", "untitled"), [
    ("en", "Table 2", "Next: round 1", "Next: round 2", "Game "),
    ("es", "Mesa 2", "Siguiente: ronda 1", "Siguiente: ronda 2", "Partida "),
])  # fmt: skip
def test_a_table_without_a_name_is_called_by_its_table_and_its_next_round_is_said_as_next(
    night, language, table, named_next, plain_next, untitled
):
    client, made = night
    page = client.get(f"/nights/{made.pk}/", headers={"accept-language": language}).content.decode()
    tables = page[page.index('id="night-tables"') : page.index("</section>", page.index('id="night-tables"'))]
    assert ">Back room</a>" in tables and f">{table}</a>" in tables
    assert untitled not in tables  # not "Game 2 · Sat 28 Nov"
    assert named_next in tables and plain_next in tables
