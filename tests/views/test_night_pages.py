"""The night pages: the scorebook's nights (newest first) with the scorers' "New night" form, a
night's tables and standings, a game started at the night (it is created in it), a game moved to a
night from its page, and the night's live page without an account; errors beside their fields."""

import re
from datetime import date

import pytest
from django.test import Client
from django.utils import translation
from django.utils.formats import date_format

from scorekeeper import clock
from scorekeeper.models import Game, Night, Role
from scorekeeper.services import nights
from tests.nights import hand_worked_night
from tests.roles import make_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    return make_club()


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_scorebook_lists_its_nights_newest_first_and_scorers_add_one_dated_today(club):
    nights.create_night(book=club.book, role=Role.OWNER, name="Later", date=date(2026, 1, 9))
    page = signed_in(club.users["scorer"]).get(f"/scorebooks/{club.book.pk}/").content.decode()
    assert page.index(">Later<") < page.index(">Club night<")
    assert 'id="night-form"' in page and f'value="{club.book.today().isoformat()}"' in page
    viewer = signed_in(club.users["viewer"]).get(f"/scorebooks/{club.book.pk}/").content.decode()
    assert ">Later<" in viewer and 'id="night-form"' not in viewer


def test_a_scorer_adds_a_night_and_lands_on_its_page(club):
    client = signed_in(club.users["scorer"])
    response = client.post(f"/scorebooks/{club.book.pk}/nights/", {"name": "Friday club", "date": "2026-11-27"})
    night = Night.objects.get(name="Friday club")
    assert response.status_code == 302 and response["Location"] == f"/nights/{night.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert "Friday club" in page and 'id="start-game"' in page and f"/games/new/?night={night.pk}" in page


def test_a_night_without_a_name_or_a_day_is_refused_beside_its_field_and_nothing_is_made(club):
    count = Night.objects.count()
    response = signed_in(club.users["owner"]).post(
        f"/scorebooks/{club.book.pk}/nights/", {"name": " ", "date": "27/11"}
    )
    page = response.content.decode()
    assert response.status_code == 200 and Night.objects.count() == count
    form = page[page.index('id="night-form"') :]
    assert form.count('class="errorlist') == 2 and '<details class="fold" id="new-night" open>' in page


def test_the_night_page_shows_every_table_and_the_standings(club):
    Game.objects.all().delete()
    worked = hand_worked_night(club.book, club.users["owner"])
    page = signed_in(club.users["viewer"]).get(f"/nights/{worked.night.pk}/").content.decode()
    standings = page[page.index('id="night-standings"') :]
    assert standings.index(">Eve<") < standings.index(">Ben<") < standings.index(">Cy<") < standings.index(">Hal<")
    assert "15.0" in standings and "14.2" in standings
    assert len(re.findall(r'class="night-table(?: finished)?"', page)) == 3 and "Won by" in page
    assert 'id="start-game"' not in page and "Change the night" not in page  # a viewer reads


def test_a_game_started_at_the_night_is_made_in_it(club):
    client = signed_in(club.users["scorer"])
    form = client.get(f"/games/new/?night={club.night.pk}").content.decode()
    assert 'id="new-game-night"' in form and f'name="night" value="{club.night.pk}"' in form
    assert f'href="?same=1&amp;night={club.night.pk}"' in form  # the same table, at the same night
    ann, ben, _cy, _dot = club.players
    response = client.post("/games/new/", {"night": club.night.pk, "players": [ann.pk, ben.pk],
                                           "seat_order": f"{ann.pk},{ben.pk}", "tile_set": 12, "preset": "standard",
                                           "double_blank_penalty": 50, "end_on_double_penalty": 25})  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.latest("pk")
    assert game.night_id == club.night.pk and response["Location"] == f"/games/{game.pk}/"
    night = client.get(f"/nights/{club.night.pk}/").content.decode()
    assert f'href="/games/{game.pk}/"' in night


def test_viewers_cannot_start_a_game_at_a_night_and_strangers_do_not_see_it(club):
    assert signed_in(club.users["viewer"]).get(f"/games/new/?night={club.night.pk}").status_code == 403
    assert signed_in(club.users["stranger"]).get(f"/games/new/?night={club.night.pk}").status_code == 404
    assert signed_in(club.users["scorer"]).get("/games/new/?night=abc").status_code == 404


def test_a_game_moves_to_a_night_from_its_page_and_back(club):
    client = signed_in(club.users["owner"])
    page = client.get(f"/games/{club.game.pk}/").content.decode()
    assert 'id="game-night-form"' in page
    assert client.post(f"/games/{club.game.pk}/night/", {"night": club.night.pk}).status_code == 302
    assert Game.objects.get(pk=club.game.pk).night_id == club.night.pk
    page = client.get(f"/games/{club.game.pk}/").content.decode()
    assert 'id="game-night"' in page and "Club night" in page
    other = nights.create_night(
        book=__import__("scorekeeper.services.scorebooks", fromlist=["create"]).create(by=club.users["owner"], name="B"),
        role=Role.OWNER, name="Elsewhere", date=date(2026, 1, 1),
    )  # fmt: skip
    client.post(f"/games/{club.game.pk}/night/", {"night": other.pk})  # not one of the game's scorebook
    assert Game.objects.get(pk=club.game.pk).night_id == club.night.pk
    client.post(f"/games/{club.game.pk}/night/", {"night": ""})
    assert Game.objects.get(pk=club.game.pk).night_id is None


def test_the_night_live_page_needs_no_account_and_follows_with_an_etag(club):
    nights.set_night(game=club.game, night=club.night.pk)
    token = club.night_live.token
    page = Client().get(f"/live/nights/{token}/")
    html = page.content.decode()
    assert page.status_code == 200 and 'id="tv-mode"' in html and club.game.title in html
    assert f'data-poll="/live/nights/{token}/tables/"' in html
    body = Client().get(f"/live/nights/{token}/tables/")
    assert body.status_code == 200 and "night-standings" in body.content.decode()
    assert Client().get(f"/live/nights/{token}/tables/", headers={"If-None-Match": body["ETag"]}).status_code == 304


def test_the_members_night_page_follows_its_tables(club):
    client = signed_in(club.users["viewer"])
    page = client.get(f"/nights/{club.night.pk}/").content.decode()
    assert f'data-url="/nights/{club.night.pk}/tables/"' in page
    first = client.get(f"/nights/{club.night.pk}/tables/")
    assert client.get(f"/nights/{club.night.pk}/tables/", headers={"If-None-Match": first["ETag"]}).status_code == 304
    nights.set_night(game=club.game, night=club.night.pk)
    again = client.get(f"/nights/{club.night.pk}/tables/", headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200 and club.game.title in again.content.decode()


def test_a_failed_change_of_a_night_opens_its_form_first_on_the_page(club):
    client = signed_in(club.users["owner"])
    page = client.get(f"/nights/{club.night.pk}/").content.decode()
    assert '<details class="fold manage" id="edit-night">' in page  # folded, at the bottom
    assert page.index('id="live-share"') < page.index('id="edit-night"')
    response = client.post(f"/nights/{club.night.pk}/", {"name": " ", "date": "2025-11-21"})
    page = response.content.decode()
    assert response.status_code == 200 and page.count('id="edit-night"') == 1
    # Open, above the tables and the sharing, with a word that nothing was saved: seen without scrolling.
    assert '<details class="fold manage" id="edit-night" open>' in page and 'id="edit-night-failed"' in page
    assert page.index('id="edit-night"') < page.index('id="follow"') < page.index('id="live-share"')
    club.night.refresh_from_db()
    assert club.night.name == "Club night"


def test_a_failed_new_night_opens_its_form_at_the_top_of_the_scorebook(club):
    client = signed_in(club.users["owner"])
    page = client.post(f"/scorebooks/{club.book.pk}/nights/", {"name": " ", "date": "2026-11-27"}).content.decode()
    assert page.count('id="night-form"') == 1 and 'id="night-form-failed"' in page
    assert page.index('id="new-night"') < page.index('id="members"')
    plain = client.get(f"/scorebooks/{club.book.pk}/").content.decode()
    assert plain.index('id="members"') < plain.index('id="new-night"')


@pytest.mark.parametrize("language, last_year", [("en", "Thu 9 Jan 2025"), ("es", "jue 9 ene 2025")])
def test_a_nights_day_is_written_as_every_page_writes_a_day_in_its_language(club, language, last_year):
    """This year's day without its year ("Sat 28 Nov", "sáb 28 nov"), another year's with it."""
    today = club.book.today()
    club.night.date = today
    club.night.save(update_fields=["date"])
    with translation.override(language):
        this_year = date_format(today, str(clock.DAY))  # "Sat 28 Nov", "sáb 28 nov"
    old = nights.create_night(book=club.book, role=Role.OWNER, name="Old", date=date(2025, 1, 9))
    headers = {"Accept-Language": language}
    client = signed_in(club.users["owner"])
    assert f">{this_year}<" in client.get(f"/nights/{club.night.pk}/", headers=headers).content.decode()
    assert f">{last_year}<" in client.get(f"/nights/{old.pk}/", headers=headers).content.decode()
    listed = client.get(f"/scorebooks/{club.book.pk}/", headers=headers).content.decode()
    assert f">{this_year}<" in listed and f">{last_year}<" in listed
    live = Client().get(f"/live/nights/{club.night_live.token}/", headers=headers).content.decode()
    assert f">{this_year} ·" in live
