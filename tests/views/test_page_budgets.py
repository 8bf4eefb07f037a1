"""Every page costs the same number of queries with 2 finished games or 20 (and rounds in progress).

Each budget lists its queries; a page that starts to grow with the data fails here."""

import random
from datetime import timedelta

import pytest
from django.test import Client

from scorekeeper import services
from scorekeeper.demo import deal_round, seed_games
from scorekeeper.models import Game, Role
from scorekeeper.rules.game import GameRules
from scorekeeper.services import nights
from tests.factories import PlayerFactory, UserFactory
from tests.seasons import make_season

pytestmark = pytest.mark.django_db

SESSION = "1 session, 2 user"


@pytest.fixture(params=[2, 20], ids=["2 games", "20 games"])
def table(request):
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy", "Dot", "Eve")]
    seed_games(user, players, request.param, random.Random(request.param))
    ids = [player.pk for player in players[:4]]
    game = services.create_game(by=user, players=ids, rules=GameRules(tile_set=12))
    rng = random.Random(1)
    for double in range(12, 12 - request.param // 2, -1):  # 1 or 10 rounds in progress
        game = Game.objects.get(pk=game.pk)
        services.record_round(game=game, starting_double=double, entries=deal_round(game.rules, ids, double, rng))
    # A season over every seeded game, ended yesterday, and the one holding today.
    book = game.scorebook
    today = book.today()
    make_season(book=book, name="Past", starts=today - timedelta(days=800), ends=today - timedelta(days=1))
    season = make_season(book=book, name="Now", starts=today, ends=today + timedelta(days=30))
    # A club night holding every game of the scorebook as its tables.
    night = nights.create_night(book=book, role=Role.OWNER, name="Friday", date=today)
    for each in Game.objects.filter(scorebook=book):
        nights.set_night(game=each, night=night.pk)
    client = Client()
    client.force_login(user)
    client.get("/")  # the session is warm, as at a table
    client.ids = {"season": season.pk, "book": book.pk, "night": night.pk}
    return client, game, players[0]


BUDGETS = {
    # 3 the current scorebook (membership), 4 its games' fingerprint (the ETag the page follows them
    # with), 5 games in progress, 6 their seats + players, 7 recent finished games, 8 their seats + players
    "home": ("/", 8),
    # (2 the user with the game's version and their role) 3 game with role, 4 seats + players,
    # 5 rounds, 6 entries, 7 live link, 8 the scorebook's nights (the game's, and those a scorer may move
    # it to), 9-11 history of the game, of its rounds and of its seat changes
    # (to mark corrections on the sheet, and the latest changes the page has seen; the same with seat
    # changes or without). Opened again at the same version: 2 (the page is kept,
    # tests/views/test_kept_pages.py)
    "sheet": ("/games/{game}/", 11),
    # 3 game with role (and its saved state: the open doubles, the next round's number), 4 seats +
    # players, 5 the keys of the game's latest changes (the page follows the game and tells what is new)
    "round entry": ("/games/{game}/rounds/new/", 5),
    # 3 game with role, 4 the game's history rows, 5 its rounds' history rows, 6 its seat changes'
    "game history": ("/games/{game}/history/", 6),
    # 3 current scorebook, 4 count, 5 a page of games, 6 their seats + players
    "past games": ("/history/", 6),
    # 3 current scorebook, 4 its players
    "players": ("/players/", 4),
    # 3 player with role, 4 the ratings and game counts of the scorebook's players (the rating in
    # words compares the player with them), 5 per-set records (best and worst totals included),
    # 6 per-double records, 7 head-to-head records, 8 nemesis and victim (one grouped self-join of the
    # ranked seats), 9 winning streaks (window functions), 10 the best comeback (the saved deficits),
    # 11 recent totals (chart), 12 rating steps (chart), 13 has games, 14 recent games, 15 their seats
    "player": ("/players/{player}/", 15),
    # 3 current scorebook, 4 its players with their ratings and game counts (a subquery of the same
    # query: the ratings in words), 5 their per-set records, 6 its seasons (the filter's menu, and the
    # one holding today among them), 7 its tallies (its table)
    "leaderboard": ("/leaderboard/", 7),
    # Filtered: 3 current scorebook, 4 its seasons (the menu; the season chosen among them), 5 its
    # players with their ratings, 6 their figures over the games chosen, summed from the seats of the
    # games in the window (no season table above a filtered board)
    "leaderboard filtered": ("/leaderboard/?tile_set=12&season={season}&since=2020-01-01&sort=rating", 6),
    # 3 the season with the reader's role and its scorebook, 4 its tallies (its table)
    "season": ("/seasons/{season}/", 4),
    # 3 the scorebook with the reader's role, 4 its seasons, 5 the tallies of the one ended (its champions)
    "seasons": ("/scorebooks/{book}/seasons/", 5),
    # 3 the night with the reader's role and its scorebook, 4 its games (tables) with their saved
    # states, 5 their seats + players, 6 its standings (one grouped query), 7 its live link: the same
    # whatever the number of tables
    "night": ("/nights/{night}/", 7),
    # 3 the night with the reader's role, 4 its games' versions (the ETag), 5 its games, 6 their
    # seats + players, 7 its standings. A poll that finds it unchanged stops after 4 (a 304).
    "night tables": ("/nights/{night}/tables/", 7),
    # 3 the scorebook with the reader's role, 4 its members, 5 its nights
    "scorebook": ("/scorebooks/{book}/", 5),
    # For comparison, the API's game detail: 3 game, 4 seats + players, 5 rounds, 6 entries (the sheet
    # page reads the same rows plus the live link, the nights and the history: 11 against 6).
    "api game": ("/api/v1/games/{game}/", 6),
}


@pytest.mark.parametrize("page", BUDGETS)
def test_every_page_runs_a_fixed_number_of_queries(table, page, django_assert_num_queries):
    client, game, player = table
    path, budget = BUDGETS[page]
    with django_assert_num_queries(budget):  # SESSION: queries 1 and 2 of every budget
        response = client.get(path.format(game=game.pk, player=player.pk, **client.ids))
    assert response.status_code == 200


def test_the_sheet_opened_again_at_the_same_version_costs_the_session_and_the_reader(table, django_assert_num_queries):
    client, game, _ = table
    path = f"/games/{game.pk}/"
    assert client.get(path).status_code == 200
    with django_assert_num_queries(2):  # SESSION: 1 session, 2 user with the game's version and role
        assert client.get(path).status_code == 200
