"""The table's own clock: every moment a page shows is the scorebook's (its time zone), written in
one format per language ("Sat 28 Nov, 08:16", "sáb 28 nov, 08:16"), whatever the server's is."""

import csv
import io
from datetime import UTC, datetime
from unittest import mock

import pytest
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Game, Round, Scorebook
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import live as links
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db

# 07:16 UTC is 08:16 in Madrid (UTC+1 in November); 23:30 UTC on Friday is already Saturday there.
ROUND_AT = datetime(2026, 11, 28, 7, 16, tzinfo=UTC)
FIXED_AT = datetime(2026, 11, 28, 7, 44, tzinfo=UTC)
STARTED_AT = datetime(2026, 11, 27, 23, 30, tzinfo=UTC)


def at(moment):
    return mock.patch("django.utils.timezone.now", return_value=moment)


@pytest.fixture
def madrid():
    """A Madrid scorebook's game started late on Friday (UTC), its round 1 saved at 07:16 UTC and
    corrected at 07:44 UTC, on a server whose clock is UTC."""
    user = UserFactory()
    with at(STARTED_AT):
        game = make_game(owner=user, names=("Ann", "Ben", "Cy"), tile_set=6)
    Scorebook.objects.filter(pk=game.scorebook_id).update(time_zone="Europe/Madrid")
    Game.objects.filter(pk=game.pk).update(name="", number=1)  # called by its number and day
    ids = list(game.seats.order_by("position").values_list("player_id", flat=True))
    with at(ROUND_AT):
        services.record_round(game=game, starting_double=6, entries=[
            EntryInput(player=ids[0], pips=0, went_out=True), EntryInput(player=ids[1], pips=5),
            EntryInput(player=ids[2], pips=9)])  # fmt: skip
    with at(FIXED_AT):
        services.correct_round(round=Round.objects.get(game=game, number=1), by=user, entries=[
            EntryInput(player=ids[0], pips=0, went_out=True), EntryInput(player=ids[1], pips=6),
            EntryInput(player=ids[2], pips=9)])  # fmt: skip
    client = Client()
    client.force_login(user)
    return client, Game.objects.get(pk=game.pk), user


def page(client, url, language="en") -> str:
    response = client.get(url, headers={"accept-language": language})
    assert response.status_code == 200
    return response.content.decode()


def test_every_change_is_written_on_the_scorebooks_clock_in_each_language(madrid):
    client, game, _user = madrid
    english = page(client, f"/games/{game.pk}/history/")
    assert "Sat 28 Nov, 08:16" in english  # round 1 saved
    assert "Sat 28 Nov, 08:44" in english  # and corrected
    assert "07:16" not in english
    assert "sáb 28 nov, 08:16" in page(client, f"/games/{game.pk}/history/", "es")


def test_the_sheet_notes_a_correction_at_the_tables_time(madrid):
    client, game, _user = madrid
    sheet = page(client, f"/games/{game.pk}/")
    assert "Round 1 corrected by" in sheet
    assert "at Sat 28 Nov, 08:44" in sheet
    assert "sáb 28 nov, 08:44" in page(client, f"/games/{game.pk}/", "es")


def test_the_page_names_its_clock_for_the_page_scripts(madrid):
    client, game, _user = madrid
    assert 'id="app-status" role="status" aria-live="polite" data-zone="Europe/Madrid"' in page(
        client, f"/games/{game.pk}/"
    )


def test_a_game_card_and_the_games_name_carry_the_day_it_was_at_the_table(madrid):
    client, _game, _user = madrid
    home = page(client, "/")
    assert "Game 1 · Sat 28 Nov" in home  # Friday 23:30 UTC: Saturday in Madrid
    assert "double-6 · Sat 28 Nov" in home
    assert "Fri 27 Nov" not in home
    assert "sáb 28 nov" in page(client, "/", "es")


def test_the_live_page_names_the_game_by_the_tables_day(madrid):
    _client, game, user = madrid
    link = links.share(game=game, by=user)
    live = page(Client(), f"/live/{link.token}/")
    assert "Game 1 · Sat 28 Nov" in live
    assert "Fri 27 Nov" not in live


def test_the_trash_says_when_a_game_was_deleted_on_the_tables_clock(madrid):
    client, game, user = madrid
    with at(datetime(2026, 11, 28, 22, 5, tzinfo=UTC)):
        services.delete_game(game=game, by=user)
    trash = page(client, f"/scorebooks/{game.scorebook_id}/trash/")
    assert "deleted Sat 28 Nov, 23:05" in trash


def test_a_csv_export_dates_each_game_by_the_tables_day(madrid):
    client, game, _user = madrid
    response = client.get(f"/export/?game={game.pk}&format=csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode().lstrip("\ufeff"))))
    assert {row["date"] for row in rows} == {"2026-11-28"}
    assert {row["game"] for row in rows} == {"Game 1 · Sat 28 Nov"}
    exported = client.get(f"/export/?game={game.pk}&format=json").json()
    assert exported["games"][0]["title"] == "Game 1 · Sat 28 Nov"
    assert exported["games"][0]["name"] == ""  # no name of its own: an import numbers it anew
    assert exported["games"][0]["created_at"] == "2026-11-27T23:30:00+00:00"  # the moment itself, unchanged
