"""The leaderboard page's filters (issue 34, items 4 and 5), tried as the new user did: a set, a
season and a day as a plain form (no script), applied to every figure and place; the page says
the rating is over all games and shows it when ordering by it; a player without a game under the
filters is listed apart, unranked; averages are per round; players level share a place.

The club's games are hand-worked in tests.boards.reported_club."""

import re
from datetime import date

import pytest
from django.test import Client

from scorekeeper.models import Player, Scorebook
from tests.boards import played, reported_club
from tests.factories import UserFactory
from tests.seasons import make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    return reported_club()


def page(user, query=""):
    client = Client()
    client.force_login(user)
    response = client.get(f"/leaderboard/?{query}")
    assert response.status_code == 200
    return response


def board(response):
    """(name, place shown) of each card, in order, and the names listed apart."""
    html = response.content.decode()
    cards = re.findall(r'<li class="board-card".*?</li>', html, re.S)
    shown = [
        (re.search(r'class="board-name"[^>]*>([^<]*)<', card)[1],
         (re.search(r'class="board-place"[^>]*>(\d+)<', card) or [None, None])[1])
        for card in cards
    ]  # fmt: skip
    apart = re.search(r'<ul class="board-apart-list".*?</ul>', html, re.S)
    return shown, re.findall(r">([^<]+)</a>", apart[0]) if apart else []


def test_the_filters_are_a_plain_form_of_set_season_and_day(club):
    html = page(club.users["viewer"]).content.decode()
    form = re.search(r'<form method="get" class="filters".*?</form>', html, re.S)[0]
    assert '<select name="tile_set"' in form and '<select name="season"' in form and "Spring</option>" in form
    assert re.search(r'<input type="date" name="since"[^>]*id="id_since"', form)
    assert 'name="period"' not in form and "<script" not in form


def test_all_time_everyone_who_played_is_placed_by_wins_win_rate_then_per_round(club):
    response = page(club.users["viewer"])
    assert board(response) == ([("Ann", "1"), ("Cy", "2"), ("Ben", "3"), ("Dot", "4"), ("Eve", "5")], [])
    html = response.content.decode()
    assert "<dt>Per round</dt><dd>9.0</dd>" in html  # Dot: 45 pips in 5 rounds
    assert "the lower average per round: the points a player scored per round played" in html
    assert 'id="board-scope"' not in html  # nothing filtered, nothing to say


def test_best_rating_with_double_12_ranks_only_double_12_players_shows_the_rating_and_says_it_is_over_all_games(club):
    response = page(club.users["viewer"], "sort=rating&tile_set=12")
    # The report: Ann (no double-12 game) came first. She is listed apart now, with no place; the
    # others come in the order of the rating over all games, which each card shows in figures.
    assert board(response) == ([("Dot", "1"), ("Cy", "2"), ("Ben", "3"), ("Eve", "4")], ["Ann"])
    html = response.content.decode()
    scope = re.search(r'<p class="board-scope" id="board-scope">(.*?)</p>', html, re.S)[1]
    assert "Wins, games and averages count only the games chosen here: double-12." in scope
    assert "The rating counts all games" in scope and "The order is by that rating" in scope
    ratings = re.findall(r"<dt>Overall rating</dt>\s*<dd>([^<]*)</dd>", html)
    assert ratings == ["3.0", "2.4", "1.2", "-8.5"]  # Dot's first (Ben and Cy's shared win: rules.rating.untied)
    assert "Not ranked: no game under these filters" in html


def test_double_12_by_most_wins_puts_the_two_who_shared_the_win_level_first(club):
    assert board(page(club.users["viewer"], "tile_set=12")) == (
        [("Ben", "1"), ("Cy", "1"), ("Dot", "3"), ("Eve", "4")], ["Ann"],
    )  # fmt: skip


def test_a_season_and_a_day_filter_every_figure(club):
    spring = page(club.users["viewer"], f"season={club.spring.pk}")
    assert board(spring) == ([("Ann", "1"), ("Cy", "2"), ("Ben", "3"), ("Dot", "4"), ("Eve", "5")], [])
    assert "the games chosen here: the season Spring." in spring.content.decode()
    since = page(club.users["viewer"], "since=2025-05-19")  # G5 ended on 19 May in Mexico City
    assert board(since) == ([("Ann", "1"), ("Ben", "2")], ["Cy", "Dot", "Eve"])
    assert "the games chosen here: since Mon 19 May 2025." in since.content.decode()  # the one format of a day
    assert board(page(club.users["viewer"], "since=2025-05-20")) == ([], ["Ann", "Ben", "Cy", "Dot", "Eve"])


def test_a_bad_day_shows_its_error_beside_the_field_and_the_other_filters_still_apply(club):
    response = page(club.users["viewer"], "tile_set=12&since=2025-02-30")
    html = response.content.decode()
    field = re.search(r'<label for="id_since">.*?</div>', html, re.S)[0]
    assert 'id="since-error" role="alert">Enter a valid date.</p>' in field
    assert board(response)[1] == ["Ann"]  # still double-12 only


def test_a_season_of_another_scorebook_is_an_error_beside_the_menu_and_shows_nothing_of_it(club):
    theirs = make_season(book=Scorebook.personal_for(club.users["stranger"]), name="Theirs",
                         starts=date(2025, 1, 1), ends=date(2025, 1, 31))  # fmt: skip
    html = page(club.users["viewer"], f"season={theirs.pk}").content.decode()
    assert 'id="season-error"' in html and "Theirs" not in html
    # A stranger asking for the club's season: their own board, an error, and nothing of the club's.
    stranger = page(club.users["stranger"], f"season={club.spring.pk}").content.decode()
    assert "Spring" not in stranger and "Ann" not in stranger


@pytest.mark.parametrize("role", ["owner", "scorer", "viewer"])
def test_every_member_filters_the_club_board(club, role):
    user = club.users[role]
    if role == "owner":  # the owner's pages start in their personal scorebook: switch to the club
        user.memberships.filter(scorebook=club.book).update(last_used_at="2030-01-01T00:00:00Z")
    assert board(page(user, f"season={club.spring.pk}&tile_set=12"))[0][:2] == [("Ben", "1"), ("Cy", "1")]


@pytest.fixture
def lengths(db):
    """Ned goes out every round. Kim holds 10 a round in a 2-round game, Lou 2 a round in a 13-round
    one, Pat 10 a round in another 13-round one; Quinn never played."""
    user = UserFactory()
    book = Scorebook.personal_for(user)
    ned, kim, lou, pat = (Player.objects.create(scorebook=book, name=n) for n in ("Ned", "Kim", "Lou", "Pat"))
    Player.objects.create(scorebook=book, name="Quinn")
    played(book, user, [ned, kim], [(0, 10)] * 2, tile_set=12)
    played(book, user, [ned, lou], [(0, 2)] * 13, tile_set=12)
    played(book, user, [ned, pat], [(0, 10)] * 13, tile_set=12)
    return user


def test_averages_per_round_compare_a_short_game_with_a_long_one_and_level_players_share_a_place(lengths):
    # Per game Kim (20) would lead Lou (26) and Pat (130); per round Lou (2) leads, Kim and Pat are level (10).
    expected = ([("Ned", "1"), ("Lou", "2"), ("Kim", "3"), ("Pat", "3")], ["Quinn"])
    assert board(page(lengths)) == expected
    assert board(page(lengths, "tile_set=12&since=2000-01-01")) == expected  # from the seats: the same
    assert board(page(lengths, "sort=average_round_score")) == expected
    assert "Not ranked yet: no finished game that counts" in page(lengths).content.decode()


def test_every_order_shares_places_when_level_and_the_name_order_shows_none(lengths):
    # Level on the column asked for: one place, in the standings' order (Lou's 2 a round first).
    assert board(page(lengths, "sort=-games")) == ([("Ned", "1"), ("Lou", "2"), ("Kim", "2"), ("Pat", "2")], ["Quinn"])
    assert board(page(lengths, "sort=-went_out"))[0][1:] == [("Lou", "2"), ("Kim", "2"), ("Pat", "2")]
    by_name = board(page(lengths, "sort=name"))[0]
    assert by_name == [("Kim", None), ("Lou", None), ("Ned", None), ("Pat", None)]


@pytest.mark.parametrize(
    ("query", "says", "not_said"),
    [
        ("", "Most wins first, then win rate", "Ordered by"),
        ("sort=rating", "Ordered by “Best rating”; players level on it share a place", "Most wins first"),
        ("sort=average_round_score", "Ordered by “Lowest per round”", "Most wins first"),
        ("sort=name", "In the order of their names, without places.", "Most wins first"),
    ],
)
def test_the_note_under_the_board_explains_the_order_chosen(club, query, says, not_said):
    html = page(club.users["viewer"], query).content.decode()
    note = re.search(r'<p class="muted board-note" id="board-note">(.*?)</p>', html, re.S)[1]
    assert says in note and not_said not in note
