"""The leaderboard and stats answers are written out by hand for speed; they must say exactly what
the declared serializer fields (and so the published schema) say."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework import serializers

from scorekeeper.api.serializers import LeaderboardRowSerializer, PlayerStatsSerializer
from scorekeeper.demo import seed_games
from scorekeeper.models import Player
from scorekeeper.reads import stats, story
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def by_declared_fields(serializer_class, instance):
    """What DRF's generic field-by-field walk makes of `instance`."""
    return serializers.Serializer.to_representation(serializer_class(), instance)


@pytest.fixture
def seeded(user):
    players = [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy", "Dot")]
    seed_games(user, players, 12, random.Random(11), days=2)
    PlayerFactory(owner=user, name="Newcomer")  # no games: averages are null, rates zero
    return Player.objects.filter(scorebook__personal_of=user)


@pytest.mark.parametrize("since", [None, timezone.now() - timedelta(days=400)], ids=["all time", "a period"])
def test_a_leaderboard_row_written_by_hand_equals_the_declared_fields(seeded, since):
    rows = stats.leaderboard(seeded, since=since)
    assert len(rows) == 5 and rows[-1].game_count == 0
    for row in rows:
        assert LeaderboardRowSerializer(row).data == by_declared_fields(LeaderboardRowSerializer, row)


@pytest.mark.parametrize("since", [None, timezone.now() - timedelta(days=400)], ids=["all time", "a period"])
def test_player_stats_written_by_hand_equal_the_declared_fields(seeded, since):
    for player in seeded:
        figures = stats.player_figures(player, since=since)
        figures.by_starting_double = stats.by_starting_double(player, since=since)
        figures.head_to_head = stats.head_to_head(player, since=since)
        for key, value in story.player_story(player, since=since).items():
            setattr(figures, key, value)
        by_hand = PlayerStatsSerializer(figures).data
        assert by_hand == by_declared_fields(PlayerStatsSerializer, figures)
        assert set(by_hand) == set(PlayerStatsSerializer().fields)
    assert by_hand["average_total"] is None and by_hand["by_starting_double"] == []  # the newcomer
