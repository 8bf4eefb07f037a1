"""The sheet's "We stop here": between rounds, with a question first; the game ends ranked as it stands."""

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Game
from tests.factories import make_game
from tests.views.test_pages import play_round

pytestmark = pytest.mark.django_db


def test_the_sheet_offers_to_stop_between_rounds_only_once_a_round_is_played(client, user):
    game = make_game(owner=user, tile_set=6)
    client.force_login(user)
    assert 'id="stop-here"' not in client.get(reverse("game", args=[game.pk])).content.decode()
    play_round(game)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'id="stop-here"' in page and "We stop here" in page
    assert (
        "End the game after round 1? The players at the table are ranked as the totals stand now." in page
    )  # the question first


def test_stopping_ends_the_game_and_the_sheet_says_it_was_agreed(client, user):
    game = make_game(owner=user, tile_set=6)
    play_round(game, 6, (12, 7))
    game.refresh_from_db()
    client.force_login(user)
    response = client.post(reverse("finish_game", args=[game.pk]), {"version": game.version}, follow=True)
    page = response.content.decode()
    assert Game.objects.get(pk=game.pk).status == "finished"
    assert "Game over, as agreed" in page and "Stopped after round 1: the table agreed to end the game here." in page
    assert 'id="stop-here"' not in page and 'id="undo"' in page  # undoing round 1 opens the game again
    history = client.get(reverse("game_history", args=[game.pk])).content.decode()
    assert "ended the game after round 1, as agreed" in history
    spanish = client.get(reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Terminó tras la ronda 1: la mesa acordó acabar la partida aquí." in spanish


def test_a_finished_game_does_not_offer_to_bring_back_an_undone_round(client, user):
    game = make_game(owner=user, tile_set=6)
    play_round(game, 6, (12, 7))
    play_round(game, 5, (3, 4))
    services.undo_last_round(game=game)
    game.refresh_from_db()
    client.force_login(user)
    assert 'id="restore"' in client.get(reverse("game", args=[game.pk])).content.decode()
    page = client.post(reverse("finish_game", args=[game.pk]), {"version": game.version}, follow=True)
    assert Game.objects.get(pk=game.pk).status == "finished"
    assert 'id="restore"' not in page.content.decode() and "Bring back round 2" not in page.content.decode()


def test_a_stale_page_ends_nothing_and_says_why(client, user):
    game = make_game(owner=user, tile_set=6)
    play_round(game, 6, (12, 7))
    game.refresh_from_db()
    shown = game.version
    play_round(game, 5, (3, 4))  # another phone saved round 2 meanwhile
    client.force_login(user)
    response = client.post(reverse("finish_game", args=[game.pk]), {"version": shown}, follow=True)
    assert Game.objects.get(pk=game.pk).status == "in_progress"
    assert "Someone else changed this game meanwhile, so it was not ended" in response.content.decode()


@pytest.mark.parametrize("version", ["", "x", "99999999999999999999"])
def test_a_missing_or_malformed_version_ends_nothing(client, user, version):
    game = make_game(owner=user, tile_set=6)
    play_round(game)
    client.force_login(user)
    response = client.post(reverse("finish_game", args=[game.pk]), {"version": version}, follow=True)
    assert response.status_code == 200 and "The game was not ended" in response.content.decode()
    assert Game.objects.get(pk=game.pk).status == "in_progress"


def test_a_game_without_rounds_cannot_be_stopped_from_the_page(client, user):
    game = make_game(owner=user, tile_set=6)
    client.force_login(user)
    response = client.post(reverse("finish_game", args=[game.pk]), {"version": game.version}, follow=True)
    assert "No round has been played yet" in response.content.decode()
    assert Game.objects.get(pk=game.pk).status == "in_progress"


def test_a_rematch_leaves_out_the_player_who_went_to_bed(client, user):
    game = make_game(owner=user, tile_set=6, names=("Ann", "Ben", "Cy"))
    play_round(game)
    ann, _ben, cy = (s.player_id for s in game.seats.order_by("position"))
    client.force_login(user)
    client.post(reverse("finish_game", args=[game.pk]), {"version": Game.objects.get(pk=game.pk).version})
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Who plays again?" in page and page.count('name="players"') == 3
    response = client.post(reverse("rematch", args=[game.pk]), {"chosen": "1", "players": [str(ann), str(cy)]})
    new = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == reverse("game", args=[new.pk])
    assert [s.player_id for s in new.seats.order_by("position")] == [ann, cy] and new.rules == game.rules


def test_a_rematch_of_one_player_starts_nothing_and_says_why(client, user):
    game = make_game(owner=user, tile_set=6)
    ann = game.seats.order_by("position").first().player_id
    client.force_login(user)
    response = client.post(reverse("rematch", args=[game.pk]), {"chosen": "1", "players": [str(ann)]}, follow=True)
    assert Game.objects.count() == 1
    assert "No rematch was started: A game has 2 to 10 players." in response.content.decode()
