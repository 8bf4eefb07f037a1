"""The round form hands its scripts the rules as data: how a tile list is read, the tiles of the set
with their pips, what ticking a box settles, and which doubles are open after rounds that wait on
the phone (the scripts hold no rule of their own)."""

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from scorekeeper.rules.game import doubles_ahead
from scorekeeper.rules.rounds import SETTLED_BY
from scorekeeper.rules.tiles import grammar, picker
from tests.factories import make_game
from tests.views.test_pages import play_round

pytestmark = pytest.mark.django_db


def data_block(html: str, name: str):
    """A json_script block of the page, read as a script reads it (None when the page has none)."""
    found = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found[1]) if found else None


def test_the_round_form_carries_the_tile_grammar_of_the_games_set(client, user):
    game = make_game(owner=user, tile_set=9)
    client.force_login(user)
    html = client.get(reverse("record_round", args=[game.pk])).content.decode()
    assert data_block(html, "tile-grammar") == grammar(9)
    assert "<script>" not in html  # data only: the strict CSP runs no inline script


def test_the_round_form_carries_the_doubles_open_after_each_round_from_where_the_game_is(client, user):
    game = make_game(owner=user, tile_set=6)
    play_round(game, 6)
    play_round(game, 4)  # 5-5 skipped: the last round sits at position 2
    client.force_login(user)
    ahead = data_block(client.get(reverse("record_round", args=[game.pk])).content.decode(), "doubles-ahead")
    assert ahead == doubles_ahead(game.rules, 2)
    assert ahead["start"] == "2" and [double for double, _ in ahead["open"]["2"]] == [3, 2, 1, 0]


def test_a_correction_has_the_tile_grammar_and_no_doubles_ahead(client, user):
    game = make_game(owner=user, tile_set=6)
    play_round(game, 6)
    client.force_login(user)
    html = client.get(reverse("edit_round", args=[game.pk, 1])).content.decode()
    assert data_block(html, "tile-grammar") == grammar(6) and data_block(html, "doubles-ahead") is None


def test_the_round_form_carries_the_tiles_of_the_games_set_and_what_each_box_settles(client, user):
    game = make_game(owner=user, tile_set=9)
    client.force_login(user)
    html = client.get(reverse("record_round", args=[game.pk])).content.decode()
    assert data_block(html, "tile-picker") == picker(9)
    settles = dict(re.findall(r'class="(went_out|double_blank|ended_on_double)" data-settles="([^"]*)"', html))
    assert {toggle: json.loads(unescape(value)) for toggle, value in settles.items()} == SETTLED_BY
    assert SETTLED_BY == {"went_out": {"pips": 0}, "ended_on_double": {"went_out": True, "pips": 0}}
    assert 'class="double_blank" id=' in html  # holding the 0-0 settles nothing else
