"""The sheet's chart keys every player, inside its own frame, at 2, 4 and 8 players with long names."""

import re
from html import unescape

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.rules.rounds import EntryInput
from tests.factories import make_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_the_chart_names_every_player_within_its_frame(client, user, players):
    names = [f"Player {i} with a rather long name here"[:40] for i in range(players)]
    game = make_game(owner=user, names=names, tile_set=12)
    seats = [s.player_id for s in game.seats.order_by("position")]
    entries = [EntryInput(player=seats[0], pips=0, went_out=True)]
    entries += [EntryInput(player=p, pips=10 + i) for i, p in enumerate(seats[1:])]
    services.record_round(game=game, starting_double=12, entries=entries)
    client.force_login(user)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    svg = html[html.index("<svg") : html.index("</svg>")]
    height = float(re.search(r'viewBox="0 0 [\d.]+ ([\d.]+)"', svg)[1])
    legends = re.findall(r'<g id="activate-serie-\d+" class="legend[^"]*">(.*?)</g>', svg)
    assert len(legends) == players
    top = float(re.search(r'translate\([\d.]+, ([\d.]+)\)" class="legends"', svg)[1])
    for name, legend in zip(names, legends, strict=True):
        assert name in unescape(legend)  # shown, or in full in the key's title when shortened
        baseline = float(re.search(r'<text x="[\d.]+" y="([\d.]+)"', legend)[1])
        assert top + baseline + 4 <= height, name  # the key is drawn inside the chart


def test_the_chart_follows_a_new_round_and_a_renamed_player_though_charts_are_rendered_once(client, user):
    game = make_game(owner=user, names=["Ann", "Ben"], tile_set=12)
    ann, ben = (s.player for s in game.seats.order_by("position"))
    client.force_login(user)

    def chart():
        html = client.get(reverse("game", args=[game.pk])).content.decode()
        return html[html.index("<svg") : html.index("</svg>")]

    services.record_round(game=game, starting_double=12, entries=[
        EntryInput(player=ann.pk, pips=0, went_out=True), EntryInput(player=ben.pk, pips=17)
    ])  # fmt: skip
    first = chart()
    assert chart() == first  # the same figures: the same drawing
    assert "12-12" in first and "11-11" not in first
    services.record_round(game=game, starting_double=11, entries=[
        EntryInput(player=ann.pk, pips=23), EntryInput(player=ben.pk, pips=0, went_out=True)
    ])  # fmt: skip
    assert "11-11" in chart()
    services.rename_player(player=ben, name="Benedict", by=user)  # as the app renames: the version moves on
    assert "Benedict" in chart()
