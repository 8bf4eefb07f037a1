"""A night's games are its tables, numbered 1, 2, ... as they join it (issue 39): a game without a
name is called "Table 4" ("Mesa 4") on every phone, in the API and on the night's TV alike; a game
with a name keeps it everywhere. Two phones adding a game at once get two numbers."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Game, Role, Scorebook
from scorekeeper.rules.game import GameRules
from scorekeeper.services import live, nights
from tests.factories import PlayerFactory, UserFactory
from tests.races import at_once


@pytest.fixture
def club():
    """A scorebook with three players and a night of today."""
    user = UserFactory()
    book = Scorebook.personal_for(user)
    players = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben", "Cy")]
    night = nights.create_night(book=book, role=Role.OWNER, name="Friday club", date=book.today())
    return user, book, players, night


def new_game(club, *, name="", night=True, number=None) -> Game:
    user, book, players, made = club
    return services.create_game(
        by=user, scorebook=book, players=players, rules=GameRules(tile_set=6), name=name, number=number,
        night=made.pk if night else None,
    )  # fmt: skip


@pytest.mark.django_db
def test_games_made_at_a_night_are_its_tables_in_the_order_they_joined(club):
    first, second, outside, third = new_game(club), new_game(club), new_game(club, night=False), new_game(club)
    assert [first.table, second.table, outside.table, third.table] == [1, 2, None, 3]
    assert [first.title, second.title, third.title] == ["Table 1", "Table 2", "Table 3"]


@pytest.mark.django_db
def test_a_game_with_its_own_name_keeps_it_and_still_takes_a_table(club):
    named = new_game(club, name="Window table")
    plain = new_game(club, number=9)
    assert (named.table, named.title) == (1, "Window table")
    assert (plain.table, plain.title) == (2, "Table 2")  # not "Game 9 · ..."


@pytest.mark.django_db
def test_a_game_moved_in_takes_the_next_table_and_one_moved_out_leaves_its_table(club):
    _user, book, _players, night = club
    first, outside = new_game(club), new_game(club, night=False, number=7)
    assert outside.title.startswith("Game 7 · ")
    moved = nights.set_night(game=outside, night=night.pk)
    assert (Game.objects.get(pk=moved.pk).table, moved.title) == (2, "Table 2")
    nights.set_night(game=first, night=None)
    assert Game.objects.get(pk=first.pk).table is None
    assert new_game(club).table == 3  # table 1 left: its number is not given again
    nights.delete_night(night=night, role=Role.OWNER)
    assert set(Game.objects.filter(scorebook=book).values_list("table", flat=True)) == {None}


@pytest.mark.django_db
def test_a_trashed_table_keeps_its_number_and_brought_back_is_called_by_it_again(club):
    first, second = new_game(club), new_game(club)
    services.delete_game(game=first)
    assert new_game(club).table == 3
    services.restore_game(game=Game.objects.get(pk=first.pk))
    assert Game.objects.get(pk=first.pk).title == "Table 1"
    assert second.title == "Table 2"


@pytest.mark.django_db
def test_a_paper_game_entered_at_a_night_takes_the_next_table(club):
    from scorekeeper.rules.rounds import EntryInput

    user, book, players, night = club
    new_game(club)
    game = services.enter_paper_game(
        by=user, scorebook=book, players=players, rules=GameRules(tile_set=6), played_on=night.date,
        night=night.pk, rounds=[(6, [EntryInput(player=players[0], pips=0, went_out=True),
                                     EntryInput(player=players[1], pips=5), EntryInput(player=players[2], pips=9)])],
        finish=True,
    )  # fmt: skip
    assert (game.table, Game.objects.get(pk=game.pk).title) == (2, "Table 2")


@pytest.mark.django_db(transaction=True)
def test_two_phones_adding_a_game_to_a_night_at_once_get_two_tables(postgres_only, club):
    _user, _book, _players, night = club
    outcomes = at_once(4, lambda: new_game(club).pk)
    assert all(isinstance(pk, int) for pk in outcomes), outcomes
    outside = [new_game(club, night=False) for _ in range(2)]  # and two games moved in at once
    outcomes += at_once(2, lambda: nights.set_night(game=outside.pop(), night=night.pk).pk)
    assert all(isinstance(pk, int) for pk in outcomes), outcomes
    tables = sorted(Game.objects.filter(night=night).values_list("table", flat=True))
    assert tables == [1, 2, 3, 4, 5, 6]


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "table"), [("en", "Table 2"), ("es", "Mesa 2")])
def test_the_phones_the_api_and_the_tv_call_a_table_alike(club, language, table):
    user, _book, _players, night = club
    new_game(club, name="Window table")
    plain = new_game(club, number=9)
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    link = live.share(night=night, by=user)
    pages = {
        "game page": client.get(f"/games/{plain.pk}/").content.decode(),
        "home": client.get("/").content.decode(),
        "night page": client.get(f"/nights/{night.pk}/").content.decode(),
        "night's TV": Client(headers={"accept-language": language})
        .get(f"/live/nights/{link.token}/?tv=1")
        .content.decode(),
    }
    for where, page in pages.items():
        assert table in page, where
        assert ("Game 9" if language == "en" else "Partida 9") not in page, where
    assert client.get(f"/api/v1/games/{plain.pk}/").json()["name"] == table
    assert [g["name"] for g in client.get(f"/api/v1/nights/{night.pk}/").json()["games"]] == ["Window table", table]
    public = Client(headers={"accept-language": language}).get(f"/api/v1/live/nights/{link.token}/").json()
    assert [t["name"] for t in public["tables"]] == ["Window table", table]


@pytest.mark.django_db
def test_the_new_game_page_at_a_night_says_the_table_an_empty_name_becomes(club):
    user, _book, _players, night = club
    new_game(club)
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/new/?night={night.pk}").content.decode()
    assert 'placeholder="Table 2"' in page


@pytest.mark.django_db(transaction=True)
def test_the_migration_numbers_each_nights_tables_as_its_tv_did():
    """The TV counted a night's games out of the trash in the order they were made: those keep that
    number; the trashed ones come after; a game of no night has none."""
    before, after = [("scorekeeper", "0031_game_played_on")], [("scorekeeper", "0032_game_table")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Book, OldGame, OldNight = (old.get_model("scorekeeper", name) for name in ("Scorebook", "Game", "Night"))
    book = Book.objects.create(name="Club")
    friday, saturday = (OldNight.objects.create(scorebook=book, name=name, date=datetime.date(2026, 11, day))
                        for name, day in (("Friday", 27), ("Saturday", 28)))  # fmt: skip
    trashed = datetime.datetime(2026, 11, 27, 22, tzinfo=datetime.UTC)
    made = [
        OldGame.objects.create(scorebook=book, night=night, name=name, deleted_at=gone)
        for night, name, gone in [
            (friday, "a", None), (saturday, "b", None), (friday, "c", trashed), (friday, "d", None),
            (None, "e", None), (saturday, "f", None), (friday, "g", None),
        ]
    ]  # fmt: skip
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    migrated = executor.loader.project_state(after).apps.get_model("scorekeeper", "Game")
    tables = dict(migrated.objects.filter(pk__in=[g.pk for g in made]).values_list("name", "table"))
    assert tables == {"a": 1, "d": 2, "g": 3, "c": 4, "b": 1, "f": 2, "e": None}
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db
def test_a_tables_history_says_the_name_it_was_made_with(club):
    from scorekeeper.reads.history import of_game

    game = new_game(club, number=4)
    services.rename_game(game=game, name="Back room")
    made, renamed = of_game(game)[-1], of_game(game)[0]
    assert made.after == {"name": "Table 1"}
    assert (renamed.before, renamed.after) == ({"name": "Table 1"}, {"name": "Back room"})


@pytest.mark.django_db
def test_a_tables_players_say_their_score_in_the_round_played_last(club):
    from scorekeeper.rules.rounds import EntryInput

    user, _book, players, night = club
    _waiting, playing = new_game(club), new_game(club)
    services.record_round(game=Game.objects.get(pk=playing.pk), starting_double=6, by=user, entries=[
        EntryInput(player=players[0], pips=0, went_out=True), EntryInput(player=players[1], pips=5),
        EntryInput(player=players[2], pips=9)])  # fmt: skip
    link = live.share(night=night, by=user)
    tables = Client().get(f"/api/v1/live/nights/{link.token}/").json()["tables"]
    assert [p["last"] for p in tables[0]["players"]] == [None, None, None]  # no round yet
    assert {p["name"]: p["last"] for p in tables[1]["players"]} == {"Ann": 0, "Ben": 5, "Cy": 9}
    page = Client().get(f"/live/nights/{link.token}/?tv=1").content.decode()
    assert page.count('class="table-columns"') == 1 and ">Round 1</span>" in page and ">+9</span>" in page
