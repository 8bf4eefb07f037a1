"""Leaderboards, a player's figures and the account's own."""

from rest_framework import serializers

from scorekeeper.models import TILE_SET_CHOICES

from .games import PlayerRefSerializer, RatingSerializer
from .story import ComebackSerializer, RivalSerializer, StreakSerializer


class StatsQuerySerializer(serializers.Serializer):
    scorebook = serializers.IntegerField(required=False, min_value=1, max_value=2**53)
    tile_set = serializers.ChoiceField(choices=TILE_SET_CHOICES, required=False)
    period = serializers.ChoiceField(choices=["month", "year", "all"], default="all")


class LeaderboardQuerySerializer(StatsQuerySerializer):
    sort = serializers.ChoiceField(
        choices=["rating"], required=False, help_text="rating: the highest rating (ordinal) first"
    )
    season = serializers.IntegerField(
        required=False, min_value=1, max_value=2**53, help_text="only games of this season (of a scorebook of yours)"
    )
    since = serializers.DateField(
        required=False,
        input_formats=["%Y-%m-%d"],
        help_text="only games finished on or after this day (YYYY-MM-DD, the scorebook's time zone)",
    )


class FiguresSerializer(serializers.Serializer):
    games = serializers.IntegerField(source="game_count")
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    average_total = serializers.FloatField(
        allow_null=True, help_text="per game: games of different lengths do not compare (see average_round_score)"
    )
    rounds = serializers.IntegerField()
    went_out = serializers.IntegerField()
    double_blank_penalties = serializers.IntegerField()
    end_on_double_penalties = serializers.IntegerField()


class RatedFiguresSerializer(FiguresSerializer):
    """A player's figures over the games asked for, with their rating (over all games, whatever was asked)."""

    average_round_score = serializers.FloatField(
        allow_null=True,
        help_text="points per round played (opening totals left out): the average a leaderboard compares",
    )
    player = serializers.SerializerMethodField()
    rating = serializers.SerializerMethodField()
    rating_over = serializers.ChoiceField(
        choices=["all_games"],
        help_text="what `rating` is worked out over: every finished game, whatever the filters (a rating "
        "follows the games in turn; it is not worked out again for a set, a season or a day)",
    )
    rating_updating = serializers.BooleanField(
        source="ratings_updating",
        help_text="true while a change to an older game is being replayed: `rating` is the one from before it",
    )

    def get_player(self, player) -> PlayerRefSerializer:
        return {"id": player.pk, "name": player.name}

    def get_rating(self, player) -> RatingSerializer:
        rating = player.rating
        return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal}

    def to_representation(self, figures):
        # Written out: on these hot reads DRF's field-by-field walk cost about as much as a query.
        # The declared fields still make the schema; tests/api/test_stats_representation.py checks
        # that this answer equals theirs.
        return {
            "games": figures.game_count,
            "wins": figures.wins,
            "win_rate": float(figures.win_rate),
            "average_total": _float_or_none(figures.average_total),
            "rounds": figures.rounds,
            "went_out": figures.went_out,
            "double_blank_penalties": figures.double_blank_penalties,
            "end_on_double_penalties": figures.end_on_double_penalties,
            "average_round_score": _float_or_none(figures.average_round_score),
            "player": self.get_player(figures),
            "rating": self.get_rating(figures),
            "rating_over": figures.rating_over,
            "rating_updating": figures.ratings_updating,
        }


class LeaderboardRowSerializer(RatedFiguresSerializer):
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="the place on this board, in the order asked: players level on it share one (1, 1, 3); "
        "null for a player with no game under the filters (listed after the others)",
    )

    def to_representation(self, figures):
        return super().to_representation(figures) | {"rank": figures.rank}


def _float_or_none(value) -> float | None:
    return None if value is None else float(value)


class ByDoubleSerializer(serializers.Serializer):
    starting_double = serializers.IntegerField()
    rounds = serializers.IntegerField()
    average_pips = serializers.FloatField()
    average_score = serializers.FloatField()


class HeadToHeadSerializer(serializers.Serializer):
    opponent = serializers.SerializerMethodField()
    games = serializers.IntegerField()
    ahead = serializers.IntegerField(help_text="games this player finished with the lower total")
    behind = serializers.IntegerField()
    level = serializers.IntegerField()

    def get_opponent(self, row) -> PlayerRefSerializer:
        return {"id": row["opponent"], "name": row["opponent_name"]}


# What reads.story.player_story adds to a player's figures (the view sets them on the figures).
STORY = ("nemesis", "victim", "streak", "comeback")


class PlayerStatsSerializer(RatedFiguresSerializer):
    went_out_rate = serializers.FloatField()
    best_total = serializers.IntegerField(allow_null=True)
    worst_total = serializers.IntegerField(allow_null=True)
    by_starting_double = ByDoubleSerializer(many=True)
    head_to_head = HeadToHeadSerializer(many=True)
    nemesis = RivalSerializer(
        allow_null=True,
        help_text="The opponent who most often finished ahead of the player (3 games together at least).",
    )
    victim = RivalSerializer(allow_null=True, help_text="The opponent who most often finished behind the player.")
    streak = StreakSerializer(help_text="Wins in a row over the player's ranked finished games, in finishing order.")
    comeback = ComebackSerializer(
        allow_null=True, help_text="The player's win from furthest behind the leader after a round (null: none)."
    )

    def to_representation(self, figures):
        return super().to_representation(figures) | {
            "went_out_rate": float(figures.went_out_rate),
            "best_total": figures.best_total,
            "worst_total": figures.worst_total,
            "by_starting_double": [
                {"starting_double": row["starting_double"], "rounds": row["rounds"],
                 "average_pips": float(row["average_pips"]), "average_score": float(row["average_score"])}
                for row in figures.by_starting_double
            ],
            "head_to_head": [
                {"opponent": {"id": row["opponent"], "name": row["opponent_name"]}, "games": row["games"],
                 "ahead": row["ahead"], "behind": row["behind"], "level": row["level"]}
                for row in figures.head_to_head
            ],
            **{key: getattr(figures, key) for key in STORY},
        }  # fmt: skip


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    email = serializers.EmailField()


class MyPlayerStatsSerializer(FiguresSerializer):
    player = serializers.SerializerMethodField()
    scorebook = serializers.SerializerMethodField()

    def get_player(self, player) -> PlayerRefSerializer:
        return {"id": player.pk, "name": player.name}

    def get_scorebook(self, player) -> PlayerRefSerializer:
        return {"id": player.scorebook.pk, "name": player.scorebook.name}


class MyStatsSerializer(serializers.Serializer):
    """Every player linked to the caller, in every scorebook they belong to, and the sum of them."""

    players = MyPlayerStatsSerializer(many=True)
    total = FiguresSerializer()
