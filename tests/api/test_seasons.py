"""Seasons through the API (docs/api.md, "Seasons"): the owner makes them,
every member reads their table, bad days are a 400 naming the field and change nothing."""

from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Game, Season, SeasonTally
from scorekeeper.services import seasons
from tests.roles import make_club
from tests.seasons import at, finished_game, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    club = make_club()
    Game.objects.all().delete()  # the club's open game and its spring season play no part here
    Season.objects.all().delete()
    return club


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client, book, body, **headers):
    return client.post(f"/api/v1/scorebooks/{book.pk}/seasons/", body, content_type="application/json", headers=headers)


def season_of(club, **fields) -> Season:
    return make_season(book=club.book, name="Autumn", starts=date(2025, 9, 1), ends=date(2025, 11, 30), **fields)


def test_an_owner_creates_a_season_and_every_member_reads_its_table(club):
    ann, ben, cy, dot = club.players
    owner = club.users["owner"]
    today = timezone.localdate()
    finished_game(club.book, owner, [ann, ben, cy], (3, 4))  # Ann 10, Ben 5, Cy 0
    finished_game(club.book, owner, [ben, ann, cy, dot], (4, 4, 9))  # Ben 10, Ann and Cy 5 each, Dot 0
    created = post(signed_in(owner), club.book, {"name": "This year", "starts": str(today - timedelta(days=3)),
                                                  "ends": str(today + timedelta(days=3)), "min_games": 2})  # fmt: skip
    assert created.status_code == 201, created.content
    body = created.json()
    assert created["Location"] == f"/api/v1/seasons/{body['id']}/"
    assert body["scorebook"] == club.book.pk and body["champion"] == []  # not over yet
    read = signed_in(club.users["viewer"]).get(f"/api/v1/seasons/{body['id']}/").json()
    assert read == body
    rows = {row["name"]: row for row in read["table"]}
    assert [(row["name"], row["rank"], row["qualified"]) for row in read["table"]] == [
        ("Ben", 1, True), ("Ann", 2, True), ("Cy", 3, True), ("Dot", 4, False),
    ]  # fmt: skip
    assert rows["Ann"] == {"player": ann.pk, "name": "Ann", "games": 2, "wins": 1, "points": 15.0,
                           "counted_points": 15.0, "average_place": 1.5, "average_total": 2.0,
                           "qualified": True, "rank": 2}  # fmt: skip
    # Ben is level with Ann on points (5 + 10) and wins, with the lower average total: (3 + 0) / 2.
    assert (rows["Ben"]["points"], rows["Ben"]["wins"], rows["Ben"]["average_total"]) == (15.0, 1, 1.5)
    assert rows["Cy"]["points"] == 5.0 and rows["Cy"]["average_place"] == 2.5  # third (shared second)
    assert rows["Dot"] == rows["Dot"] | {"games": 1, "points": 0.0, "qualified": False}
    listed = signed_in(club.users["scorer"]).get(f"/api/v1/scorebooks/{club.book.pk}/seasons/").json()
    assert [item["name"] for item in listed["results"]] == ["This year"]


def test_counted_points_drop_each_players_worst_games_and_the_champions_come_once_it_has_ended(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    season = season_of(club, drop_worst=1, min_games=3)
    finished_game(club.book, owner, [ann, ben, cy], (3, 4), finished_at=at(2025, 9, 5))  # Ann 10, Ben 5, Cy 0
    finished_game(club.book, owner, [cy, ben, ann], (3, 4), finished_at=at(2025, 9, 12))  # Cy 10, Ben 5, Ann 0
    finished_game(club.book, owner, [ben, ann, cy], (3, 4), finished_at=at(2025, 10, 1))  # Ben 10, Ann 5, Cy 0
    finished_game(club.book, owner, [ann, ben], (5,), finished_at=at(2025, 12, 1))  # after the season
    finished_game(club.book, owner, [ann, ben], (5,), finished_at=at(2025, 8, 31, 23, 59))  # before it
    read = signed_in(club.users["viewer"]).get(f"/api/v1/seasons/{season.pk}/").json()
    table = [(row["name"], row["games"], row["points"], row["counted_points"], row["rank"]) for row in read["table"]]
    # Ben: 5 + 5 + 10, his worst 5 dropped; Ann: 10 + 0 + 5, her 0 dropped; Cy: 0 + 10 + 0.
    assert table == [("Ben", 3, 20.0, 15.0, 1), ("Ann", 3, 15.0, 15.0, 2), ("Cy", 3, 10.0, 10.0, 3)]
    assert read["champion"] == [ben.pk]  # the season ended on 30 November 2025


def test_a_season_not_over_yet_has_no_champion_and_one_game_is_always_counted(club):
    ann, ben, _cy, _dot = club.players
    today = timezone.localdate()
    season = make_season(book=club.book, name="Now", starts=today, ends=today, drop_worst=5)
    finished_game(club.book, club.users["owner"], [ben, ann], (5,))
    read = signed_in(club.users["owner"]).get(f"/api/v1/seasons/{season.pk}/").json()
    assert read["champion"] == []
    assert [(row["name"], row["counted_points"], row["qualified"]) for row in read["table"]] == [
        ("Ben", 10.0, True), ("Ann", 0.0, True),
    ]  # fmt: skip


def test_only_ranked_players_of_finished_games_out_of_the_trash_count(club):
    ann, ben, cy, dot = club.players
    owner = club.users["owner"]
    season = season_of(club)
    finished_game(club.book, owner, [ann, ben, cy, dot], (3, 4, 5), finished_at=at(2025, 9, 5), leaves=dot)
    trashed = finished_game(club.book, owner, [cy, ann], (3,), finished_at=at(2025, 9, 6))
    reopened = finished_game(club.book, owner, [cy, ann], (3,), finished_at=at(2025, 9, 7))
    services.delete_game(game=trashed, by=owner)
    services.undo_last_round(game=reopened, by=owner)  # the stop goes with its round: open again
    table = lambda: signed_in(owner).get(f"/api/v1/seasons/{season.pk}/").json()["table"]  # noqa: E731
    # Dot left after the round: a table of three, Ann 10, Ben 5, Cy 0; Dot earns nothing, is nowhere.
    assert [(row["name"], row["games"], row["points"]) for row in table()] == [
        ("Ann", 1, 10.0), ("Ben", 1, 5.0), ("Cy", 1, 0.0),
    ]  # fmt: skip
    services.restore_game(game=trashed, by=owner)  # back from the trash: Cy 10, Ann 0 again
    assert [(row["name"], row["games"], row["points"]) for row in table()] == [
        ("Ann", 2, 10.0), ("Cy", 2, 10.0), ("Ben", 1, 5.0),
    ]  # fmt: skip
    assert tallies(season) == rebuilt(season)


def tallies(season):
    return sorted(SeasonTally.objects.filter(season=season, games__gt=0).values_list(
        "player_id", "place_points", "games", "wins", "total_sum", "place_sum"))  # fmt: skip


def rebuilt(season):
    seasons.rebuild(season)
    return tallies(season)


def test_a_game_belongs_to_the_day_it_finished_in_the_scorebooks_time_zone(club):
    ann, ben, _cy, _dot = club.players
    owner = club.users["owner"]
    # 30 November, 23:30 in London (UTC) is already 1 December in Auckland (UTC+13).
    finished_game(club.book, owner, [ann, ben], (5,), finished_at=at(2025, 11, 30, 23, 30))
    # 31 August, 13:00 in London is 1 September, 01:00 in Auckland.
    finished_game(club.book, owner, [ben, ann], (5,), finished_at=at(2025, 8, 31, 13, 0))
    club.book.time_zone = "Europe/London"
    club.book.save(update_fields=["time_zone"])
    season = season_of(club)  # 1 September to 30 November
    client = signed_in(owner)
    london = client.get(f"/api/v1/seasons/{season.pk}/").json()["table"]
    assert [(row["name"], row["wins"]) for row in london] == [("Ann", 1), ("Ben", 0)]
    club.book.time_zone = "Pacific/Auckland"
    club.book.save(update_fields=["time_zone"])
    # Saved again, the season's days are Auckland's: its bounds and its table follow.
    patched = client.patch(f"/api/v1/seasons/{season.pk}/", {"name": "Autumn"}, content_type="application/json")
    assert patched.status_code == 200
    auckland = client.get(f"/api/v1/seasons/{season.pk}/").json()["table"]
    assert [(row["name"], row["wins"]) for row in auckland] == [("Ben", 1), ("Ann", 0)]


BAD_CHANGES = [
    ({"min_games": -1}, "min_games"),
    ({"drop_worst": -2}, "drop_worst"),
    ({"ends": "2025-12-31"}, "ends"),  # Winter starts on 1 January 2026
    ({"starts": "2025-11-30"}, "starts"),  # overlaps Autumn on its last day
    ({"starts": "2025-08-01"}, "starts"),  # holds all of Autumn
    ({"name": "  "}, "name"),
    ({"starts": "someday"}, "starts"),
]


@pytest.mark.parametrize(("change", "field"), BAD_CHANGES)
def test_a_bad_season_is_a_400_naming_the_field_and_nothing_is_made(club, change, field):
    season_of(club)
    body = {"name": "Winter", "starts": "2026-01-01", "ends": "2026-03-31"} | change
    response = post(signed_in(club.users["owner"]), club.book, body)
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert list(Season.objects.values_list("name", flat=True)) == ["Autumn"]


@pytest.mark.parametrize(("change", "field"), BAD_CHANGES)
def test_a_bad_change_is_a_400_naming_the_field_and_nothing_changes(club, change, field):
    season_of(club)
    winter = make_season(book=club.book, name="Winter", starts=date(2026, 1, 1), ends=date(2026, 3, 31))
    response = signed_in(club.users["owner"]).patch(
        f"/api/v1/seasons/{winter.pk}/", change, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert sorted(Season.objects.values_list("name", "starts", "ends", "min_games", "drop_worst")) == [
        ("Autumn", date(2025, 9, 1), date(2025, 11, 30), 0, 0),
        ("Winter", date(2026, 1, 1), date(2026, 3, 31), 0, 0),
    ]


def test_a_season_may_start_the_day_after_another_ends_and_be_moved_within_its_own_days(club):
    autumn = season_of(club)
    owner = signed_in(club.users["owner"])
    made = post(owner, club.book, {"name": "Winter", "starts": "2025-12-01", "ends": "2026-02-28"})
    assert made.status_code == 201, made.content
    moved = owner.patch(f"/api/v1/seasons/{autumn.pk}/", {"starts": "2025-09-15", "min_games": 4},
                        content_type="application/json")  # fmt: skip
    assert moved.status_code == 200 and (moved.json()["starts"], moved.json()["min_games"]) == ("2025-09-15", 4)
    assert owner.delete(f"/api/v1/seasons/{autumn.pk}/").status_code == 204
    assert list(Season.objects.values_list("name", flat=True)) == ["Winter"]


def test_seasons_of_another_scorebook_do_not_clash(club):
    season_of(club)
    owner = club.users["owner"]
    mine = owner.personal_scorebook
    made = post(signed_in(owner), mine, {"name": "Autumn", "starts": "2025-09-01", "ends": "2025-11-30"})
    assert made.status_code == 201


def test_a_retried_post_makes_one_season_and_answers_the_first_answer_again(club):
    owner = signed_in(club.users["owner"])
    body = {"name": "Spring", "starts": "2026-03-01", "ends": "2026-05-31"}
    first = post(owner, club.book, body, **{"Idempotency-Key": "spring-1"})
    again = post(owner, club.book, body, **{"Idempotency-Key": "spring-1"})
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Season.objects.count() == 1
    other = post(owner, club.book, body | {"name": "Spring 2"}, **{"Idempotency-Key": "spring-1"})
    assert other.status_code == 422 and Season.objects.count() == 1


@pytest.mark.parametrize("games", [1, 6])
def test_a_seasons_table_costs_the_same_queries_however_many_games_it_holds(club, django_assert_num_queries, games):
    ann, ben, cy, dot = club.players
    season = season_of(club, drop_worst=1)
    for number in range(games):
        finished_game(club.book, club.users["owner"], [ann, ben, cy, dot][: 2 + number % 3], (3, 4, 5)[: 1 + number % 3],
                      finished_at=at(2025, 10, 1 + number))  # fmt: skip
    viewer = signed_in(club.users["viewer"])
    viewer.get("/api/v1/me/")
    # 1 the session, 2 its user, 3 the season with the reader's role and its scorebook, 4 its tallies
    # with the players' names (a few rows per player, whatever the number of games)
    with django_assert_num_queries(4):
        response = viewer.get(f"/api/v1/seasons/{season.pk}/")
    assert response.status_code == 200 and len(response.json()["table"]) == min(4, games + 1)


@pytest.mark.parametrize(
    ("starts", "ends", "field"), [("0001-01-01", "2026-01-01", "starts"), ("2026-01-01", "9999-12-31", "ends")]
)
def test_a_day_out_of_the_calendars_reach_is_a_400(club, starts, ends, field):
    response = post(signed_in(club.users["owner"]), club.book, {"name": "Ever", "starts": starts, "ends": ends})
    assert response.status_code == 400 and field in response.json()
