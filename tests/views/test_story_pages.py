"""Ratings that tell a story on the pages: the game-over card's rating moves, the player's rivals,
streaks and comeback, and the new game page's hooks for the chances to win (in English and Spanish)."""

import re

import pytest
from django.test import Client

from scorekeeper.models import Game, RatingStep, Scorebook
from scorekeeper.rules.story import rating_move
from tests.roles import make_club
from tests.seasons import at, finished_game
from tests.story import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    club = make_club()
    Game.objects.all().delete()
    return club


def signed_in(user, language="en") -> Client:
    client = Client(headers={"Accept-Language": language})
    client.force_login(user)
    return client


def moves_on(page: str) -> list[str]:
    return [re.sub(r"\s+", " ", move) for move in re.findall(r'<span class="rating-move">([^<]*)</span>', page)]


def test_the_game_over_card_says_each_players_rating_before_and_after_the_game_and_the_move(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    finished_game(club.book, owner, [ann, ben, cy], (3, 4), finished_at=at(2025, 1, 1))
    game = finished_game(club.book, owner, [cy, ben, ann], (3, 4), finished_at=at(2025, 1, 2))
    steps = {step.player_id: step for step in RatingStep.objects.filter(game=game)}

    def words(player, rating, then, point="."):
        step = steps[player.pk]
        move = rating_move(step.ordinal_before, step.ordinal)
        sign = "-" if move < 0 else "+"
        figures = [f"{round(step.ordinal_before, 1):.1f}", f"{round(step.ordinal, 1):.1f}", f"{sign}{abs(move):.1f}"]
        before, after, moved = (figure.replace(".", point) for figure in figures)
        return f"{rating} {before} → {after}{then}{moved}"

    page = signed_in(club.users["viewer"]).get(f"/games/{game.pk}/").content.decode()
    # In the card's order: Cy won, Ben, then Ann. "Rating 24.1 → 26.7, +2.6": what the number is.
    assert moves_on(page) == [words(cy, "Rating", ", "), words(ben, "Rating", ", "), words(ann, "Rating", ", ")]
    assert moves_on(page)[0].split(", ")[1].startswith("+") and moves_on(page)[2].split(", ")[1].startswith("-")
    spanish = signed_in(club.users["viewer"], "es").get(f"/games/{game.pk}/").content.decode()
    assert moves_on(spanish) == [
        words(cy, "Valoración", "; ", ","),
        words(ben, "Valoración", "; ", ","),
        words(ann, "Valoración", "; ", ","),
    ]


def test_a_card_whose_ratings_are_being_updated_says_so_and_an_open_game_has_no_moves(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    game = finished_game(club.book, owner, [ann, ben, cy], (3, 4))
    Scorebook.objects.filter(pk=club.book.pk).update(ratings_pending_at=at(2025, 1, 1), ratings_pending_game=game.pk)
    Game.objects.filter(pk=game.pk).update(version=game.version + 5)  # a page not kept yet
    page = signed_in(club.users["scorer"]).get(f"/games/{game.pk}/").content.decode()
    assert moves_on(page) == [] and "The rating moves show once the ratings are updated." in page
    going_on = play(club.book, owner, [ann, ben], [{ann: 0, ben: 5}], finish=False)
    page = signed_in(club.users["scorer"]).get(f"/games/{going_on.pk}/").content.decode()
    assert "rating-move" not in page and "rating moves show" not in page


def test_the_player_page_tells_their_nemesis_victim_streak_and_best_comeback(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    for day in (1, 2, 3):  # Ben ahead of Ann, Ann ahead of Cy, three times
        finished_game(club.book, owner, [ben, ann, cy], (3, 5), finished_at=at(2025, 2, day))
    # Ann wins from 12 behind after round 1, then once more: two wins in a row.
    comeback = play(club.book, owner, [ann, ben, cy], [{ben: 0, ann: 12, cy: 3}, {ann: 0, ben: 10, cy: 2},
                                                       {ann: 0, ben: 8, cy: 9}], finished_at=at(2025, 2, 4))  # fmt: skip
    finished_game(club.book, owner, [ann, ben, cy], (3, 5), finished_at=at(2025, 2, 5))
    page = signed_in(club.users["viewer"]).get(f"/players/{ann.pk}/").content.decode()
    story = re.sub(r"\s+", " ", page[page.index('id="story"') : page.index('id="rating-more"')])
    assert f'href="/players/{ben.pk}/"><bdi>Ben</bdi></a> <small>ahead in 3 of 5 games' in story
    assert f'href="/players/{cy.pk}/"><bdi>Cy</bdi></a> <small>behind in 5 of 5 games' in story
    assert "<dd>Current streak: 2 wins · <small>Longest: 2</small>" in story
    assert f'href="/games/{comeback.pk}/">12 behind</a> <small>after round 1, and won' in story
    spanish = signed_in(club.users["viewer"], "es").get(f"/players/{ann.pk}/").content.decode()
    assert "Racha actual: 2 victorias · <small>La más larga: 2</small>" in re.sub(r"\s+", " ", spanish)
    assert "Némesis" in spanish and "por delante en 3 de 5 partidas" in spanish and "Mejor remontada" in spanish


def test_a_player_without_a_story_yet_shows_dashes(club):
    page = signed_in(club.users["viewer"]).get(f"/players/{club.players[3].pk}/").content.decode()
    story = re.sub(r"\s+", " ", page[page.index('id="story"') : page.index('id="rating-more"')])
    assert story.count("<dd>\u2013</dd>") == 3 and "<dd>Current streak: 0 wins · <small>Longest: 0</small>" in story


def test_the_new_game_page_tells_its_script_where_to_ask_for_the_chances(club):
    page = signed_in(club.users["scorer"]).get("/games/new/").content.decode()
    assert f'data-odds-url="/api/v1/odds/" data-scorebook="{club.book.pk}"' in page
    assert 'id="odds-note" hidden' in page
