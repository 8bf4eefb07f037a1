"""Club nights, their tables and standings (docs/api.md, "Club nights")."""

from rest_framework import serializers

from scorekeeper.models import Night
from scorekeeper.reads.nights import NightRead

from .common import TextField


class NightSerializer(serializers.ModelSerializer):
    """A night: `date` is a day in the scorebook's time zone."""

    name = TextField(max_length=80)
    date = serializers.DateField()

    class Meta:
        model = Night
        fields = ["id", "scorebook", "name", "date"]
        read_only_fields = ["scorebook"]


class TablePlayerSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()
    rank = serializers.IntegerField(allow_null=True, help_text="Null for a player who left: unranked.")
    seated = serializers.BooleanField()
    leads = serializers.BooleanField(help_text="Ranked first at the table (several if level; none before round 1).")
    last = serializers.IntegerField(
        allow_null=True,
        help_text="Their score in the round played last (null before round 1, and for a player not at the table "
        "in it).",
    )


class NightTableSerializer(serializers.Serializer):
    """One game of the night."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    round = serializers.IntegerField(allow_null=True, help_text="The round the table is on (null once it is over).")
    rounds_played = serializers.IntegerField()
    finished = serializers.BooleanField()
    casual = serializers.BooleanField(
        help_text="A friendly game: it counts in no leaderboard, rating, record or season."
    )
    players = TablePlayerSerializer(many=True, help_text="In standings order.")


class NightRowSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField(help_text="The night's finished games they were ranked in.")
    points = serializers.FloatField(help_text="The sum of place points, to one decimal.")
    total = serializers.IntegerField(
        help_text="The sum of their game totals (lower ranks first when points are level)."
    )
    rank = serializers.IntegerField(help_text="Equal points and totals share a rank.")


class NightDetailSerializer(NightSerializer):
    games = NightTableSerializer(many=True, read_only=True, help_text="The night's tables, oldest first.")
    standings = NightRowSerializer(many=True, read_only=True)

    class Meta(NightSerializer.Meta):
        fields = [*NightSerializer.Meta.fields, "games", "standings"]


class LiveNightTableSerializer(serializers.Serializer):
    name = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    rounds_played = serializers.IntegerField()
    finished = serializers.BooleanField()
    casual = serializers.BooleanField(help_text="A friendly game: it counts nowhere.")
    players = serializers.ListField(
        child=serializers.DictField(),
        help_text="name, total, rank, seated, leads, and `last`: the score in the round played last (null before "
        "the first round, and for a player not at the table in it).",
    )


class LiveNightRowSerializer(serializers.Serializer):
    name = serializers.CharField()
    games = serializers.IntegerField()
    points = serializers.FloatField()
    total = serializers.IntegerField()
    rank = serializers.IntegerField()


class LiveNightSerializer(serializers.Serializer):
    """A night through its live link: names and numbers only."""

    name = serializers.CharField()
    date = serializers.DateField()
    tables = LiveNightTableSerializer(many=True)
    standings = LiveNightRowSerializer(many=True)


def night_detail(read: NightRead) -> dict:
    """A night with its tables and standings, in the shape of NightDetailSerializer."""
    body = NightSerializer(read.night).data
    body["games"] = [
        {"id": table.game.pk, "name": table.title, "round": table.round, "rounds_played": table.rounds_played,
         "finished": table.finished, "casual": table.casual, "players": table.players}
        for table in read.tables
    ]  # fmt: skip
    body["standings"] = [
        {"player": row.player, "name": row.name, "games": row.games, "points": row.points / 10, "total": row.total,
         "rank": row.rank}
        for row in read.standings
    ]  # fmt: skip
    return body
