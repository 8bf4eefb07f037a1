"""What a sheet says about each player: short column names, penalties as marks beside one number,
places and moves in the last round, the leader."""

import re

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.reads import charts
from scorekeeper.rules.rounds import EntryInput
from tests.factories import make_game

pytestmark = pytest.mark.django_db


def sheet_of(client, user, game) -> str:
    client.force_login(user)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    return html[html.index('<table class="sheet') : html.index("</table>")]


def test_a_penalty_is_a_mark_beside_a_score_that_is_one_number(client, user):
    game = make_game(owner=user, names=["Ann", "Ben", "Cy"], tile_set=12)
    ann, ben, cy = (seat.player for seat in game.seats.order_by("position"))
    services.record_round(game=game, starting_double=12, entries=[
        EntryInput(player=ann.pk, pips=0, went_out=True, ended_on_double=True),
        EntryInput(player=ben.pk, pips=13, double_blank=True),
        EntryInput(player=cy.pk, pips=4),
    ])  # fmt: skip
    sheet = sheet_of(client, user, game)
    scores = re.findall(r'<small class="score">(.*?)</small>', sheet)
    visible = re.sub(r'<span class="visually-hidden">.*?</span>|title="[^"]*"', "", sheet)
    assert "+50" not in visible and "badge" not in sheet  # no "63 +50" that reads like a sum
    assert scores[0].count('class="mark double"') == 1 and "went out on a double: +50" in scores[0]
    assert re.search(r"</span>50<span class=\"mark double\"", scores[0])  # the score: 50, once
    assert scores[1].startswith('63<span class="mark blank"') and "caught with the 0-0: +50" in scores[1]
    assert ">0-0<" in scores[1]
    assert scores[2] == "4"


def test_the_head_shows_short_names_places_and_moves_and_the_full_names_stay(client, user):
    names = ["Maria Guadalupe Fernandez", "Maria Fernandez", "José"]
    game = make_game(owner=user, names=names, tile_set=12)
    maria_g, maria_f, jose = (seat.player for seat in game.seats.order_by("position"))
    services.record_round(game=game, starting_double=12, entries=[
        EntryInput(player=maria_g.pk, pips=0, went_out=True),
        EntryInput(player=maria_f.pk, pips=10),
        EntryInput(player=jose.pk, pips=20),
    ])  # fmt: skip
    services.record_round(game=game, starting_double=11, entries=[
        EntryInput(player=maria_g.pk, pips=40),
        EntryInput(player=maria_f.pk, pips=25),
        EntryInput(player=jose.pk, pips=0, went_out=True),
    ])  # fmt: skip
    sheet = sheet_of(client, user, game)
    heads = re.findall(r'<th scope="col" class="player[^"]*"(.*?)</th>', sheet)
    assert [re.search(r"<bdi>(.*?)</bdi>", head)[1] for head in heads] == ["Maria G.", "Maria F.", "José"]
    assert [re.search(r'title="(.*?)"', head)[1] for head in heads] == names
    # Round 2 turns the places round: José 20 (1st, up 2), Maria F. 35 (2nd), Maria G. 40 (3rd, down 2).
    assert "★" in heads[2] and "1st" in heads[2] and "up 2 places" in heads[2]
    assert "3rd" in heads[0] and "down 2 places" in heads[0]
    assert "2nd" in heads[1] and "up" not in heads[1] and "down" not in heads[1]
    assert 'class="grand lead">20<' in sheet


def test_the_chart_labels_rounds_by_their_whole_double_every_third_of_thirteen(client, user):
    game = make_game(owner=user, names=["Ann", "Ben"], tile_set=12)
    ann, ben = (seat.player for seat in game.seats.order_by("position"))
    for double in range(12, -1, -1):
        services.record_round(game=game, starting_double=double, entries=[
            EntryInput(player=ann.pk, pips=0, went_out=True), EntryInput(player=ben.pk, pips=double + 3)
        ])  # fmt: skip
    client.force_login(user)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    svg = html[html.index("<svg") : html.index("</svg>")]
    labels = re.findall(r"<text[^>]*>(\d+-\d+)</text>", svg)  # the x axis's, as drawn
    assert labels == ["12-12", "9-9", "6-6", "3-3", "0-0"]  # whole, evenly spaced, first and last among them


def test_every_line_of_the_chart_has_its_own_dash_and_its_key_shows_it():
    css = charts.stylesheet()
    dashes = [re.search(rf"\.serie-{i} \.line\{{stroke-dasharray:([^;]+);", css)[1] for i in range(10)]
    assert len(set(dashes)) == 10
    assert all(f"#activate-serie-{i} rect{{stroke-dasharray:{dash};" in css for i, dash in enumerate(dashes))


def test_thinned_labels_keep_the_first_and_the_last():
    assert charts.thinned(list("abcdefghij"), 4) == ["a", "d", "g", "j"]
    assert charts.thinned(list("abc"), 6) == ["a", "b", "c"]
