"""The season pages: the scorebook's seasons (past ones with their champions), a season's table,
the current season on the leaderboard, and the owner's forms with errors beside their fields."""

import re
from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scorekeeper.models import Game, Season
from tests.roles import make_club
from tests.seasons import at, finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    club = make_club()
    Game.objects.all().delete()
    return club


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_past_seasons_show_their_champions_and_their_tables(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    finished_game(club.book, owner, [ben, ann, cy], (3, 4), finished_at=at(2025, 4, 2))
    finished_game(club.book, owner, [ben, cy], (3,), finished_at=at(2025, 4, 9))
    page = signed_in(club.users["viewer"]).get(f"/scorebooks/{club.book.pk}/seasons/").content.decode()
    assert "Spring" in page and "Champion: Ben" in page
    assert 'id="season-form"' not in page  # a viewer reads, an owner adds
    table = signed_in(club.users["viewer"]).get(f"/seasons/{club.season.pk}/").content.decode()
    assert table.index(">Ben<") < table.index(">Ann<") < table.index(">Cy<")
    assert "Champion" in table and "Change the season" not in table


def test_an_owner_adds_a_season_and_sees_its_table_then_the_leaderboard_shows_it(club):
    ann, ben, cy, _dot = club.players
    owner = signed_in(club.users["owner"])
    finished_game(club.book, club.users["owner"], [cy, ann, ben], (3, 4))
    today = timezone.localdate()
    response = owner.post(
        f"/scorebooks/{club.book.pk}/seasons/",
        {"name": "Now", "starts": today - timedelta(days=1), "ends": today + timedelta(days=30), "min_games": 1,
         "drop_worst": 0},
    )  # fmt: skip
    season = Season.objects.get(name="Now")
    assert response.status_code == 302 and response["Location"] == f"/seasons/{season.pk}/"
    page = owner.get(response["Location"]).content.decode()
    assert page.index(">Cy<") < page.index(">Ann<") < page.index(">Ben<") and "10.0" in page
    owner.post(reverse_switch(club), {})
    board = owner.get("/leaderboard/").content.decode()
    assert "This season: Now" in board and f'id="season-table-{season.pk}"' in board


def reverse_switch(club):
    return f"/scorebooks/{club.book.pk}/switch/"


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"starts": "2025-05-31", "ends": "2025-06-30"}, "starts", "overlap Spring (1 Mar 2025 to 31 May 2025)"),
        ({"starts": "2025-07-01", "ends": "2025-06-30"}, "ends", "cannot end before it starts"),
        ({"min_games": "-1"}, "min_games", "greater than or equal to 0"),
    ],
)
def test_a_bad_season_shows_its_error_beside_the_field_and_saves_nothing(club, change, field, words):
    body = {"name": "Summer", "starts": "2025-06-01", "ends": "2025-08-31", "min_games": "0", "drop_worst": "0"}
    response = signed_in(club.users["owner"]).post(f"/scorebooks/{club.book.pk}/seasons/", body | change)
    assert response.status_code == 200
    page = response.content.decode()
    assert words in page
    # The message sits in the field's own block, after its input.
    block = page[page.index(f'id="id_{field}"') :]
    assert block.index(words) < block.index('class="field')
    assert list(Season.objects.values_list("name", flat=True)) == ["Spring"]


def test_an_owner_changes_and_deletes_a_season_a_viewer_cannot(club):
    owner, viewer = signed_in(club.users["owner"]), signed_in(club.users["viewer"])
    body = {"name": "Spring 2025", "starts": "2025-03-01", "ends": "2025-05-31", "min_games": "2", "drop_worst": "1"}
    assert viewer.post(f"/seasons/{club.season.pk}/", body).status_code == 403
    assert owner.post(f"/seasons/{club.season.pk}/", body).status_code == 302
    club.season.refresh_from_db()
    assert (club.season.name, club.season.min_games, club.season.drop_worst) == ("Spring 2025", 2, 1)
    assert viewer.post(f"/seasons/{club.season.pk}/delete/").status_code == 403
    assert owner.post(f"/seasons/{club.season.pk}/delete/").status_code == 302
    assert not Season.objects.exists()
    assert club.season.ends == date(2025, 5, 31)


def test_on_the_leaderboard_a_phone_meets_the_boards_filters_first_with_a_line_naming_the_season_leader(club):
    from tests.seasons import make_season

    ann, ben, cy, _dot = club.players
    finished_game(club.book, club.users["owner"], [cy, ann, ben], (3, 4))
    today = timezone.localdate()
    make_season(book=club.book, name="Now", starts=today - timedelta(days=1), ends=today + timedelta(days=30),
                min_games=1)  # fmt: skip
    board = signed_in(club.users["viewer"]).get("/leaderboard/").content.decode()
    lead = re.sub(
        r"\s+", " ", board[board.index('id="season-lead"') : board.index("</p>", board.index('id="season-lead"'))]
    )
    assert "This season: Now · Leading: <strong>Cy</strong>" in lead and 'href="#season-now"' in lead
    assert board.index('id="season-lead"') < board.index('class="filters"') < board.index('id="leaderboard"')
    assert board.index('id="leaderboard"') < board.index('id="season-now"') < board.index('class="board season-table')


def test_the_season_points_and_their_of_all_figure_stay_on_one_line_on_a_phone(club):
    from tests.seasons import make_season

    ann, ben, cy, _dot = club.players
    today = timezone.localdate()
    season = make_season(book=club.book, name="Now", starts=today - timedelta(days=1),
                         ends=today + timedelta(days=30), min_games=1, drop_worst=1)  # fmt: skip
    finished_game(club.book, club.users["owner"], [ann, ben, cy], (3, 5))  # Ann 10
    finished_game(club.book, club.users["owner"], [ben, ann, cy], (3, 5))  # Ann 5: dropped
    table = signed_in(club.users["viewer"]).get(f"/seasons/{season.pk}/").content.decode()
    figure = '<div class="season-points"><dt>Points</dt><dd>10.0 <small class="muted">of 15.0</small></dd>'
    assert figure in table
    css = Client().get("/static/scorekeeper/site.css")
    css = b"".join(css.streaming_content) if css.streaming else css.content
    assert b".season-table .season-points dd { white-space: nowrap; }" in css


def test_a_failed_change_of_a_season_opens_its_form_first_on_the_page(club):
    body = {"name": "Spring", "starts": "2025-03-01", "ends": "2025-02-01", "min_games": "0", "drop_worst": "0"}
    response = signed_in(club.users["owner"]).post(f"/seasons/{club.season.pk}/", body)
    page = response.content.decode()
    assert response.status_code == 200 and "cannot end before it starts" in page
    # Open, above the season's dates and table, with a word that nothing was saved: seen without scrolling.
    assert page.count('id="edit-season"') == 1 and '<details class="fold" id="edit-season" open>' in page
    assert page.index('id="edit-season"') < page.index('class="muted season-when"')
    assert page.index('id="edit-season-failed"') < page.index("cannot end before it starts")
    assert "Nothing was saved: fix the marked fields below." in page
    spanish = signed_in(club.users["owner"]).post(f"/seasons/{club.season.pk}/", body, HTTP_ACCEPT_LANGUAGE="es")
    assert "No se guardó nada: corrige los campos marcados abajo." in spanish.content.decode()
    club.season.refresh_from_db()
    assert club.season.ends != date(2025, 2, 1)


def test_the_form_to_change_a_season_stays_folded_at_the_bottom_until_a_change_fails(club):
    page = signed_in(club.users["owner"]).get(f"/seasons/{club.season.pk}/").content.decode()
    assert '<details class="fold" id="edit-season">' in page and 'id="edit-season-failed"' not in page
    assert page.index('class="muted season-when"') < page.index('id="edit-season"')


def test_a_failed_new_season_puts_its_form_above_the_list_of_seasons(club):
    body = {"name": "Summer", "starts": "2025-07-01", "ends": "2025-06-30", "min_games": "0", "drop_worst": "0"}
    page = signed_in(club.users["owner"]).post(f"/scorebooks/{club.book.pk}/seasons/", body).content.decode()
    assert page.count('id="season-form"') == 1 and page.index('id="season-form"') < page.index('id="seasons"')
    assert 'id="season-form-failed"' in page
    listed = signed_in(club.users["owner"]).get(f"/scorebooks/{club.book.pk}/seasons/").content.decode()
    assert listed.index('id="seasons"') < listed.index('id="season-form"')
