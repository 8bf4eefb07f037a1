"""Seasons and their tables (docs/api.md, "Seasons")."""

from rest_framework import serializers

from scorekeeper.models import Season
from scorekeeper.reads.seasons import SeasonTable

from .common import TextField

SMALL = 32767  # the columns' largest value


class SeasonSerializer(serializers.ModelSerializer):
    """A season: `starts` and `ends` are days in the scorebook's time zone, `ends` included."""

    name = TextField(max_length=80)
    starts = serializers.DateField()
    ends = serializers.DateField(help_text="The season's last day (included).")
    min_games = serializers.IntegerField(
        min_value=0, max_value=SMALL, default=0, help_text="Games a player needs to qualify."
    )
    drop_worst = serializers.IntegerField(
        min_value=0, max_value=SMALL, default=0, help_text="Each player's lowest games left out of counted points."
    )

    class Meta:
        model = Season
        fields = ["id", "scorebook", "name", "starts", "ends", "min_games", "drop_worst"]
        read_only_fields = ["scorebook"]
        validators = []  # the service checks the days (overlap, order) and says which field is wrong


class SeasonRowSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField(help_text="Games ranked in within the season (casual games and leaving: none).")
    wins = serializers.IntegerField()
    points = serializers.FloatField(help_text="The sum of place points, to one decimal.")
    counted_points = serializers.FloatField(help_text="Points without the player's `drop_worst` lowest games.")
    average_place = serializers.FloatField()
    average_total = serializers.FloatField()
    qualified = serializers.BooleanField(help_text="At least `min_games` games.")
    rank = serializers.IntegerField(help_text="Qualified players first; equal standings share a rank.")


class SeasonDetailSerializer(SeasonSerializer):
    table = SeasonRowSerializer(many=True, read_only=True)
    champion = serializers.ListField(
        child=serializers.IntegerField(),
        read_only=True,
        help_text="Once `ends` has passed: the first-ranked qualified players (several if level); empty before.",
    )

    class Meta(SeasonSerializer.Meta):
        fields = [*SeasonSerializer.Meta.fields, "table", "champion"]


def season_detail(table: SeasonTable) -> dict:
    """A season with its table, in the shape of SeasonDetailSerializer."""
    body = SeasonSerializer(table.season).data
    body["table"] = [
        {
            "player": row.player,
            "name": row.name,
            "games": row.games,
            "wins": row.wins,
            "points": row.points / 10,
            "counted_points": row.counted_points / 10,
            "average_place": round(row.average_place, 2),
            "average_total": round(row.average_total, 1),
            "qualified": row.qualified,
            "rank": row.rank,
        }
        for row in table.rows
    ]
    body["champion"] = table.champions
    return body
