"""Archived players and merged duplicates through the API (docs/api.md, "Players: the people at the
games"), and the scorebook's time zone: an archived player is off the lists and boards (their games
untouched); a merge moves every seat, record and rating and deletes the duplicate; bad input is a
400 naming the field (409 when both sat at one table), nothing changed; viewers 403, outsiders 404."""

from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scorekeeper.models import Game, OpponentRecord, Player, PlayerRecord, RatingStep, Season, SeasonTally, Seat
from scorekeeper.reads import stats
from scorekeeper.services import ratings, scorebooks
from scorekeeper.services import seasons as season_writes
from tests.roles import make_club
from tests.seasons import at, finished_game, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    club = make_club()
    Game.objects.all().delete()
    Season.objects.all().delete()
    today = timezone.localdate()
    club.now = make_season(book=club.book, name="Now", starts=today - timedelta(days=5), ends=today + timedelta(days=5))
    return club


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def patch(client, path, body):
    return client.patch(path, body, content_type="application/json")


def merge(client, player, body):
    return client.post(f"/api/v1/players/{player.pk}/merge/", body, content_type="application/json")


def names(response) -> list[str]:
    return [row["name"] for row in response.json()["results"]]


# Archiving


def test_an_archived_player_is_off_the_list_the_leaderboard_and_the_season_table_and_comes_back(club):
    ann, ben, _cy, dot = club.players
    game = finished_game(club.book, club.users["owner"], [ann, ben, dot], (3, 4))
    scorer, viewer = signed_in(club.users["scorer"]), signed_in(club.users["viewer"])
    archived = patch(scorer, f"/api/v1/players/{dot.pk}/", {"archived": True})
    assert archived.status_code == 200 and archived.json()["archived"] is True
    listed = f"/api/v1/players/?scorebook={club.book.pk}"
    assert names(viewer.get(listed)) == ["Ann", "Ben", "Cy"]
    assert names(viewer.get(listed + "&archived=true")) == ["Ann", "Ben", "Cy", "Dot"]
    assert names(viewer.get(listed + "&archived=false")) == ["Ann", "Ben", "Cy"]
    board = viewer.get(f"/api/v1/leaderboard/?scorebook={club.book.pk}").json()["results"]
    assert [row["player"]["name"] for row in board] == ["Ann", "Ben", "Cy"]
    table = viewer.get(f"/api/v1/seasons/{club.now.pk}/").json()["table"]
    assert [row["name"] for row in table] == ["Ann", "Ben"]
    # Their games are untouched: the sheet still seats Dot.
    sheet = viewer.get(f"/api/v1/games/{game.pk}/").json()
    assert [player["name"] for player in sheet["players"]] == ["Ann", "Ben", "Dot"]
    assert viewer.get(f"/api/v1/players/{dot.pk}/").json()["archived"] is True
    back = patch(scorer, f"/api/v1/players/{dot.pk}/", {"archived": False})
    assert back.status_code == 200 and back.json()["archived"] is False
    assert names(viewer.get(listed)) == ["Ann", "Ben", "Cy", "Dot"]
    assert [row["name"] for row in viewer.get(f"/api/v1/seasons/{club.now.pk}/").json()["table"]] == [
        "Ann", "Ben", "Dot",
    ]  # fmt: skip


@pytest.mark.parametrize("value", ["maybe", None, 2, "", []])
def test_a_bad_archived_is_a_400_naming_it_and_changes_nothing(club, value):
    dot = club.spare
    response = patch(signed_in(club.users["scorer"]), f"/api/v1/players/{dot.pk}/", {"archived": value})
    assert response.status_code == 400 and "archived" in response.json()
    dot.refresh_from_db()
    assert dot.archived is False


def test_a_bad_archived_filter_is_a_400_naming_it(club):
    response = signed_in(club.users["viewer"]).get("/api/v1/players/?archived=maybe")
    assert response.status_code == 400 and "archived" in response.json()


@pytest.mark.parametrize(("role", "status"), [("viewer", 403), ("stranger", 404)])
def test_a_viewer_cannot_archive_and_an_outsider_does_not_see_the_player(club, role, status):
    dot = club.spare
    response = patch(signed_in(club.users[role]), f"/api/v1/players/{dot.pk}/", {"archived": True})
    assert response.status_code == status
    dot.refresh_from_db()
    assert dot.archived is False


def test_the_players_list_costs_the_same_queries_however_many_players(club, django_assert_num_queries):
    for number in range(30):
        Player.objects.create(scorebook=club.book, name=f"Guest {number}", archived=number % 2 == 0)
    viewer = signed_in(club.users["viewer"])
    viewer.get("/api/v1/players/")  # the session read once
    # 1 the session, 2 the user, 3 the scorebook asked for (with the reader's role), 4 the page's
    # count, 5 the page of players with their linked accounts
    with django_assert_num_queries(5):
        response = viewer.get(f"/api/v1/players/?scorebook={club.book.pk}")
    assert response.json()["count"] == 4 + 15
    with django_assert_num_queries(5):
        response = viewer.get(f"/api/v1/players/?scorebook={club.book.pk}&archived=true")
    assert response.json()["count"] == 4 + 30


# Merging


@pytest.fixture
def duplicate(club):
    """Bob (a second name for Ben) played two games with Ann and Cy; Ben played two others. Both
    finished in the current season; one of Bob's is older than every game of Ben's."""
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    bob = Player.objects.create(scorebook=club.book, name="Bob")
    now = timezone.now()
    finished_game(club.book, owner, [bob, ann, cy], (3, 4), finished_at=now - timedelta(days=3))
    finished_game(club.book, owner, [ann, ben], (5,), finished_at=now - timedelta(days=2))
    finished_game(club.book, owner, [cy, bob, ann], (9, 2), finished_at=now - timedelta(days=1))
    finished_game(club.book, owner, [ben, cy], (7,), finished_at=now - timedelta(hours=1))
    club.bob = bob
    return club


def _as_rebuilt(club) -> dict:
    """What the kept figures of the scorebook are: records, head to head, ratings, season tallies."""
    return {
        "records": sorted(PlayerRecord.objects.filter(player__scorebook=club.book).values_list(
            "player_id", "tile_set", *PlayerRecord.SUMS, "best_total", "worst_total")),
        "opponents": sorted(OpponentRecord.objects.filter(player__scorebook=club.book, games__gt=0).values_list(
            "player_id", "opponent_id", "games", "ahead", "behind", "level")),
        "ratings": sorted((p, round(mu, 9), round(sigma, 9)) for p, mu, sigma in Player.objects.filter(
            scorebook=club.book, rating_mu__isnull=False).values_list("pk", "rating_mu", "rating_sigma")),
        "steps": RatingStep.objects.filter(scorebook=club.book).count(),
        "tallies": sorted(SeasonTally.objects.filter(games__gt=0).values_list(
            "season_id", "player_id", "place_points", "games", "wins", "total_sum", "place_sum")),
    }  # fmt: skip


def test_a_merge_moves_every_seat_record_and_rating_and_deletes_the_duplicate(duplicate):
    club, bob = duplicate, duplicate.bob
    _ann, ben, _cy, _dot = club.players
    bobs_games = set(Game.objects.filter(seats__player=bob).values_list("pk", flat=True))
    response = merge(signed_in(club.users["scorer"]), bob, {"into": ben.pk})
    assert response.status_code == 200, response.content
    assert response.json() == {"id": ben.pk, "name": "Ben", "scorebook": club.book.pk, "user": None,
                               "archived": False}  # fmt: skip
    assert not Player.objects.filter(pk=bob.pk).exists()
    assert Seat.objects.filter(player=ben).count() == 4
    viewer = signed_in(club.users["viewer"])
    for pk in bobs_games:
        sheet = viewer.get(f"/api/v1/games/{pk}/").json()
        assert "Ben" in [player["name"] for player in sheet["players"]]
        assert ben.pk in [row["player"] for row in sheet["standings"]]
        history = viewer.get(f"/api/v1/games/{pk}/history/").json()["results"]
        assert history[0]["action"] == "player_merged"
    stats_of_ben = viewer.get(f"/api/v1/players/{ben.pk}/stats/").json()
    assert stats_of_ben["games"] == 4
    assert {row["opponent"]["name"]: row["games"] for row in stats_of_ben["head_to_head"]} == {"Ann": 3, "Cy": 3}
    # The kept figures are what working them out again from the seats gives.
    kept = _as_rebuilt(club)
    assert [(r[0], r[2]) for r in kept["records"] if r[0] == ben.pk] == [(ben.pk, 4)]
    figures = stats.figures_from_seats(Player.objects.filter(pk=ben.pk))[0]
    record = PlayerRecord.objects.get(player=ben)
    assert (record.games, record.wins, record.total_sum, record.best_total, record.worst_total) == (
        figures.game_count, figures.wins, figures.total_sum, figures.best_total, figures.worst_total,
    )  # fmt: skip
    ratings.rebuild(club.book.pk)
    season_writes.rebuild(club.now)
    assert _as_rebuilt(club) == kept


def test_a_merge_into_a_player_with_an_earlier_game_replays_the_ratings_from_the_moved_games(duplicate):
    club = duplicate
    _ann, ben, _cy, _dot = club.players
    # Merged the other way round: Ben's games move to Bob, whose first game is older than Ben's.
    assert merge(signed_in(club.users["owner"]), ben, {"into": club.bob.pk}).status_code == 200
    kept = _as_rebuilt(club)
    ratings.rebuild(club.book.pk)
    season_writes.rebuild(club.now)
    assert _as_rebuilt(club) == kept


def test_a_merge_of_two_who_sat_at_one_table_is_a_409_and_changes_nothing(duplicate):
    club = duplicate
    ann = club.players[0]
    before = _as_rebuilt(club)
    response = merge(signed_in(club.users["scorer"]), club.bob, {"into": ann.pk})
    assert response.status_code == 409 and response.json()["code"] == "played_together"
    assert Player.objects.filter(pk=club.bob.pk).exists() and _as_rebuilt(club) == before


def test_a_merge_into_themselves_another_scorebooks_player_or_nobody_is_a_400_naming_into(duplicate):
    club = duplicate
    elsewhere = scorebooks.create(by=club.users["owner"], name="Elsewhere")
    foreign = Player.objects.create(scorebook=elsewhere, name="Ben")
    scorer = signed_in(club.users["scorer"])
    before = _as_rebuilt(club)
    for body in ({"into": club.bob.pk}, {"into": foreign.pk}, {"into": 10**9}, {"into": "x"}, {"into": None}, {}):
        response = merge(scorer, club.bob, body)
        assert response.status_code == 400 and "into" in response.json(), body
    assert Player.objects.filter(pk=club.bob.pk).exists() and _as_rebuilt(club) == before


@pytest.mark.parametrize(("role", "status"), [("viewer", 403), ("stranger", 404)])
def test_a_viewer_cannot_merge_and_an_outsider_does_not_see_the_player(duplicate, role, status):
    club = duplicate
    response = merge(signed_in(club.users[role]), club.bob, {"into": club.players[1].pk})
    assert response.status_code == status
    assert Player.objects.filter(pk=club.bob.pk).exists()


# The scorebook's time zone


def test_an_owner_sets_the_time_zone_and_the_seasons_days_follow_it(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    spring = make_season(book=club.book, name="Spring", starts=date(2025, 3, 1), ends=date(2025, 5, 31))
    # Late on the season's last day in Mexico City: the next day already in UTC.
    late = finished_game(club.book, owner, [ann, ben, cy], (3, 4), finished_at=at(2025, 6, 1, 3))
    assert signed_in(owner).get(f"/api/v1/seasons/{spring.pk}/").json()["table"] == []
    response = patch(signed_in(owner), f"/api/v1/scorebooks/{club.book.pk}/", {"time_zone": "America/Mexico_City"})
    assert response.status_code == 200 and response.json()["time_zone"] == "America/Mexico_City"
    spring.refresh_from_db()
    assert spring.starts_at == at(2025, 3, 1, 6)  # midnight in Mexico City (UTC-6)
    table = signed_in(owner).get(f"/api/v1/seasons/{spring.pk}/").json()["table"]
    assert [row["name"] for row in table] == ["Ann", "Ben", "Cy"]
    assert late.pk in Game.objects.filter(finished_at__lt=spring.ends_before).values_list("pk", flat=True)


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "", "../../etc/passwd", "x" * 65, 5])
def test_a_bad_time_zone_is_a_400_naming_it_and_changes_nothing(club, zone):
    response = patch(signed_in(club.users["owner"]), f"/api/v1/scorebooks/{club.book.pk}/", {"time_zone": zone})
    assert response.status_code == 400 and "time_zone" in response.json()
    club.book.refresh_from_db()
    assert club.book.time_zone != zone


@pytest.mark.parametrize(("role", "status"), [("scorer", 403), ("viewer", 403), ("stranger", 404)])
def test_only_an_owner_sets_the_time_zone(club, role, status):
    before = club.book.time_zone
    response = patch(signed_in(club.users[role]), f"/api/v1/scorebooks/{club.book.pk}/", {"time_zone": "Asia/Tokyo"})
    assert response.status_code == status
    club.book.refresh_from_db()
    assert club.book.time_zone == before


def test_a_merge_moves_seat_changes_and_their_history_to_the_player_who_stays(club):
    ann, ben, cy, _dot = club.players
    bob = Player.objects.create(scorebook=club.book, name="Bob")
    game = finished_game(club.book, club.users["owner"], [ann, bob, cy], (3, 4), leaves=bob)
    assert merge(signed_in(club.users["scorer"]), bob, {"into": ben.pk}).status_code == 200
    viewer = signed_in(club.users["viewer"])
    history = viewer.get(f"/api/v1/games/{game.pk}/history/").json()["results"]
    left = next(change for change in history if change["action"] == "player_left")
    assert left["after"]["player"] == "Ben"
    sheet = viewer.get(f"/api/v1/games/{game.pk}/").json()
    assert [(p["name"], p["left_after"]) for p in sheet["players"]] == [("Ann", None), ("Ben", 1), ("Cy", None)]
    assert viewer.get(f"/games/{game.pk}/history/").status_code == 200
    assert viewer.get(f"/games/{game.pk}/").status_code == 200
