"""Ratings a person understands on the player's page: the rating as a figure beside its words, the
rating over time in view (not folded away), and the game totals charted per set, never mixed (a
double-6 game ends near 90, a double-12 one near 1,000)."""

import re

import pytest
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Player
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def finished(user, players, tile_set, pips):
    """A game of `tile_set` stopped after one round: the first player went out, the others hold `pips`."""
    game = services.create_game(by=user, players=[p.pk for p in players], rules=GameRules(tile_set=tile_set))
    entries = [EntryInput(player=players[0].pk, pips=0, went_out=True)]
    entries += [EntryInput(player=p.pk, pips=n) for p, n in zip(players[1:], pips, strict=True)]
    services.record_round(game=game, starting_double=tile_set, entries=entries, by=user)
    services.finish_game(game=game, by=user)
    return game


def chart_values(page: str, figure_id: str) -> list[int]:
    figure = re.search(rf'<figure class="chart[^"]*" id="{figure_id}">(.*?)</figure>', page, re.S).group(1)
    return [int(float(value)) for value in re.findall(r'<desc class="value">([^<]+)</desc>', figure)]


def test_the_player_page_charts_game_totals_per_set_and_shows_the_rating_over_time_unfolded():
    user = UserFactory()
    ann, ben = PlayerFactory(owner=user, name="Ann"), PlayerFactory(owner=user, name="Ben")
    for pips in (12, 30):
        finished(user, [ann, ben], 6, [pips])
    for pips in (200, 350):
        finished(user, [ann, ben], 12, [pips])
    client = Client()
    client.force_login(user)
    page = client.get(f"/players/{ben.pk}/").content.decode()
    # One chart per set, each with that set's totals only.
    assert chart_values(page, "totals-chart-6") == [12, 30]
    assert chart_values(page, "totals-chart-12") == [200, 350]
    assert "Ben: game totals, double-6" in page and "Ben: game totals, double-12" in page
    # The page's set filter keeps that set's chart only.
    only = client.get(f"/players/{ben.pk}/", {"tile_set": 12}).content.decode()
    assert 'id="totals-chart-12"' in only and 'id="totals-chart-6"' not in only
    # The rating: a figure beside its words, and its chart over time outside every fold.
    ben = Player.objects.get(pk=ben.pk)
    figure = f"{ben.rating.ordinal:.1f}"
    assert re.search(
        rf'<dd id="rating"><strong id="rating-figure">{re.escape(figure)}</strong> <small>[^<]+</small>', page
    )
    chart_at = page.index('id="rating-chart"')
    assert page.count("<details", 0, chart_at) == page.count("</details>", 0, chart_at)  # not inside a fold
    assert len(chart_values(page, "rating-chart")) == 4
    spanish = Client(headers={"Accept-Language": "es"})
    spanish.force_login(user)
    page = spanish.get(f"/players/{ben.pk}/").content.decode()
    assert "Ben: totales por partida, doble 12" in page and "Ben: valoración a lo largo del tiempo" in page
