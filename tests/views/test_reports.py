import random
import re

import pytest
from django.urls import reverse

from scorekeeper.demo import seed_games
from scorekeeper.models import Game
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(user):
    players = [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy", "Dot")]
    seed_games(user, players, 12, random.Random(7))
    return players


def test_the_leaderboard_page_lists_every_player_with_their_figures(client, user, history):
    client.force_login(user)
    response = client.get(reverse("leaderboard"))
    rows = list(response.context["rows"])
    assert {row.name for row in rows} == {"Ann", "Ben", "Cy", "Dot"}
    assert sum(row.wins for row in rows) >= 12  # ties share a win
    assert [(r.wins, r.win_rate) for r in rows] == sorted(((r.wins, r.win_rate) for r in rows), reverse=True)


def test_the_leaderboard_page_sorts_by_a_column_and_ignores_unknown_sorts(client, user, history):
    client.force_login(user)
    by_name = client.get(reverse("leaderboard"), {"sort": "name"}).context["rows"]
    assert [row.name for row in by_name] == ["Ann", "Ben", "Cy", "Dot"]
    by_round = client.get(reverse("leaderboard"), {"sort": "-average_round_score"}).context["rows"]
    averages = [row.average_round_score for row in by_round]
    assert averages == sorted(averages, reverse=True)
    assert client.get(reverse("leaderboard"), {"sort": "drop table", "tile_set": "7"}).status_code == 200


def test_the_leaderboard_filters_by_set_and_period(client, user, history):
    client.force_login(user)
    nine = client.get(reverse("leaderboard"), {"tile_set": 9}).context["rows"]
    everything = client.get(reverse("leaderboard")).context["rows"]
    assert sum(r.game_count for r in nine) < sum(r.game_count for r in everything)
    this_month = client.get(reverse("leaderboard"), {"period": "month"}).context["rows"]
    assert sum(r.game_count for r in this_month) <= sum(r.game_count for r in everything)


def test_the_player_page_shows_figures_head_to_head_and_a_chart(client, user, history):
    ann = history[0]
    client.force_login(user)
    response = client.get(reverse("player", args=[ann.pk]))
    assert response.context["figures"].game_count == ann.seats.count()
    opponents = {row["opponent_name"]: row for row in response.context["head_to_head"]}
    assert set(opponents) <= {"Ben", "Cy", "Dot"} and opponents
    for row in opponents.values():
        assert row["ahead"] + row["behind"] + row["level"] == row["games"]
    html = response.content.decode()
    svg = html.split('class="chart totals-chart"', 1)[1].split("<svg", 1)[1].split("</svg>")[0]
    assert "game totals" in svg
    assert not re.search(r'(src|href)="(https?:)?//', svg)  # the chart fetches nothing


def test_the_game_page_draws_running_totals(client, user, history):
    client.force_login(user)
    game = Game.objects.filter(created_by=user).first()
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'aria-label="Running totals per player after each round"' in html


def test_the_leaderboard_says_each_rating_in_words_relative_to_the_table_not_as_a_formula(client, user, history):
    newcomer = PlayerFactory(owner=user, name="Eve")
    client.force_login(user)
    response = client.get(reverse("leaderboard"))
    html = response.content.decode()
    cards = {card["row"].name: card for card in response.context["cards"]}
    assert {card["standing"] for card in cards.values()} <= {"top", "high", "level", "low", "new"}
    assert "uncertainty" not in html and "<table" not in html
    assert html.count('class="board-card"') == len(cards) == 4
    assert [row.name for row in response.context["apart"]] == ["Eve"]  # no game yet: listed apart, unranked
    player = client.get(reverse("player", args=[newcomer.pk])).content.decode()
    assert player.count("<details") >= 2 and 'id="rating">new: a few more games to tell<' in player


def test_the_leaderboard_shows_the_figure_it_is_sorted_by_when_a_card_does_not(client, user, history):
    client.force_login(user)
    cards = client.get(reverse("leaderboard"), {"sort": "-went_out"}).context["cards"]
    assert [card["extra"][1] for card in cards] == sorted((card["row"].went_out for card in cards), reverse=True)
    assert all(card["extra"] is None for card in client.get(reverse("leaderboard")).context["cards"])
