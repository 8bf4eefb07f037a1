"""The leaderboard's filters through the API (issue 34, items 4 and 5): a set, a season and a day
apply to every figure and every place, the rating says it is over all games, a player with no game
under the filters has no place, averages are per round, and players level share a place.

The club's games are hand-worked in tests.boards.reported_club.
"""

from datetime import date

import pytest

from scorekeeper.models import Player, Scorebook
from tests.api.conftest import make_players
from tests.api.test_seasons import signed_in
from tests.boards import played, reported_club
from tests.seasons import make_season

pytestmark = pytest.mark.django_db

BOARD = "/api/v1/leaderboard/"


@pytest.fixture
def club(db):
    return reported_club()


def board(club, query="", role="viewer"):
    response = signed_in(club.users[role]).get(f"{BOARD}?scorebook={club.book.pk}&{query}")
    assert response.status_code == 200, response.content
    return response.json()["results"]


def places(rows):
    return [(row["player"]["name"], row["rank"]) for row in rows]


def test_all_time_every_player_with_a_game_has_a_place_by_wins_then_win_rate_then_per_round(club):
    rows = board(club)
    # Ann 4 wins of 4; Cy 1 of 1; Ben 1 of 2; Dot and Eve none: Dot 45 pips in 5 rounds (9 a round), Eve 70 (14).
    assert places(rows) == [("Ann", 1), ("Cy", 2), ("Ben", 3), ("Dot", 4), ("Eve", 5)]
    assert [row["average_round_score"] for row in rows] == [0.0, 2.5, 5.0, 9.0, 14.0]
    assert {row["rating_over"] for row in rows} == {"all_games"}


def test_the_set_filter_applies_to_every_figure_and_place_and_leaves_out_who_never_played_it(club):
    rows = board(club, "tile_set=12")
    # The one double-12 game: Ben and Cy share the win (5 each in 2 rounds), Dot 30, Eve 40.
    assert places(rows) == [("Ben", 1), ("Cy", 1), ("Dot", 3), ("Eve", 4), ("Ann", None)]
    assert [(row["games"], row["wins"], row["average_round_score"]) for row in rows] == [
        (1, 1, 2.5), (1, 1, 2.5), (1, 0, 15.0), (1, 0, 20.0), (0, 0, None),
    ]  # fmt: skip


def test_best_rating_under_a_set_ranks_only_that_sets_players_and_says_the_rating_is_over_all_games(club):
    rows = board(club, "tile_set=12&sort=rating")
    ranked = [row for row in rows if row["rank"] is not None]
    # Ann has the best rating of all (four wins) but no double-12 game: she has no place.
    everyone = board(club, "sort=rating")
    assert everyone[0]["player"]["name"] == "Ann" and everyone[0]["rank"] == 1
    assert rows[-1]["player"]["name"] == "Ann" and rows[-1]["rank"] is None
    # The others in the order of their rating over all games, as each row says: Dot never won but
    # finished ahead of Eve in all four of her games (three against Ann, who won them all), which
    # the rating values more than Cy's one shared win and Ben's shared win and loss.
    assert places(ranked) == [("Dot", 1), ("Cy", 2), ("Ben", 3), ("Eve", 4)]
    ordinals = [row["rating"]["ordinal"] for row in ranked]
    assert ordinals == sorted(ordinals, reverse=True)
    assert all(row["rating_over"] == "all_games" for row in rows)
    by_name = {row["player"]["name"]: row["rating"] for row in everyone}
    assert all(row["rating"] == by_name[row["player"]["name"]] for row in rows)  # the same rating, unfiltered


def test_a_season_counts_its_own_games_only(club):
    rows = board(club, f"season={club.spring.pk}")
    # G4 and G5: Ann 1 of 1 (0 a round), Cy 1 of 1 (2.5), Ben 1 of 2 (15 in 3 rounds: 5), Dot, Eve.
    assert places(rows) == [("Ann", 1), ("Cy", 2), ("Ben", 3), ("Dot", 4), ("Eve", 5)]
    assert [row["games"] for row in rows] == [1, 1, 2, 1, 1]
    both = board(club, f"season={club.spring.pk}&tile_set=12")
    assert places(both) == [("Ben", 1), ("Cy", 1), ("Dot", 3), ("Eve", 4), ("Ann", None)]


def test_a_season_alone_chooses_its_scorebook(club):
    response = signed_in(club.users["viewer"]).get(f"{BOARD}?season={club.spring.pk}")
    assert places(response.json()["results"])[0] == ("Ann", 1)


def test_since_a_day_counts_from_its_start_in_the_scorebooks_time_zone(club):
    # G5 ended on 20 May at 04:00 UTC: 19 May in Mexico City, so "since 20 May" leaves it out.
    assert [row["rank"] for row in board(club, "since=2025-05-20")] == [None] * 5
    rows = board(club, "since=2025-05-19")
    assert places(rows) == [("Ann", 1), ("Ben", 2), ("Cy", None), ("Dot", None), ("Eve", None)]
    assert places(board(club, "since=2025-04-10&tile_set=12"))[:2] == [("Ben", 1), ("Cy", 1)]


def test_since_and_a_season_together_count_the_days_in_both(club):
    rows = board(club, f"season={club.spring.pk}&since=2025-04-11")
    assert places(rows)[:2] == [("Ann", 1), ("Ben", 2)] and rows[2]["rank"] is None


@pytest.mark.parametrize("role", ["owner", "scorer", "viewer"])
def test_every_member_filters_the_board_by_the_clubs_season(club, role):
    assert places(board(club, f"season={club.spring.pk}", role=role))[0] == ("Ann", 1)


@pytest.mark.parametrize(
    "query",
    ["season=abc", "season=0", "season=999999", "season={stranger}", "season={spring}&scorebook={personal}"],
)
def test_a_season_the_caller_cannot_see_or_of_another_scorebook_is_a_400_naming_season(club, query):
    personal = Scorebook.personal_for(club.users["viewer"])
    theirs = make_season(book=Scorebook.personal_for(club.users["stranger"]), name="Theirs",
                         starts=date(2025, 1, 1), ends=date(2025, 1, 31))  # fmt: skip
    path = BOARD + "?" + query.format(stranger=theirs.pk, spring=club.spring.pk, personal=personal.pk)
    response = signed_in(club.users["viewer"]).get(path)
    assert response.status_code == 400 and list(response.json()) == ["season"], response.content


@pytest.mark.parametrize("since", ["2025-13-01", "yesterday", "20250101", "2025-02-30"])
def test_a_bad_day_is_a_400_naming_since(club, since):
    response = signed_in(club.users["viewer"]).get(f"{BOARD}?scorebook={club.book.pk}&since={since}")
    assert response.status_code == 400 and list(response.json()) == ["since"]


def test_a_stranger_cannot_read_the_clubs_season_board(club):
    response = signed_in(club.users["stranger"]).get(f"{BOARD}?season={club.spring.pk}")
    assert response.status_code == 400 and "season" in response.json()


def test_averages_are_per_round_so_a_short_game_and_a_long_one_compare_like_with_like(app):
    """Ned goes out every round. Kim holds 10 a round in a 2-round game (20 in all), Lou 2 a round
    in a 13-round one (26), Pat 10 a round in another 13-round one (130). Per game Kim (20) would
    lead Lou (26) and Pat (130); per round Lou (2) leads and Kim and Pat are level (10): they share
    third place. Quinn never played: no place."""
    ned, kim, lou, pat, _quinn = (
        Player.objects.get(pk=pk) for pk in make_players(app, "Ned", "Kim", "Lou", "Pat", "Quinn")
    )
    book = ned.scorebook
    played(book, app.user, [ned, kim], [(0, 10)] * 2, tile_set=12)
    played(book, app.user, [ned, lou], [(0, 2)] * 13, tile_set=12)
    played(book, app.user, [ned, pat], [(0, 10)] * 13, tile_set=12)
    expected = [("Ned", 1), ("Lou", 2), ("Kim", 3), ("Pat", 3), ("Quinn", None)]
    for query in ("", "?tile_set=12", "?since=2000-01-01", "?period=year"):  # the records and the seats agree
        rows = app.get(BOARD + query).json()["results"]
        assert places(rows) == expected, query
        assert [row["average_round_score"] for row in rows] == [0.0, 2.0, 10.0, 10.0, None]
        assert [row["average_total"] for row in rows] == [0.0, 26.0, 20.0, 130.0, None]
