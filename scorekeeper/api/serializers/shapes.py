"""Answers that are built without a serializer (the live view, the export file), declared here so
the schema types them; tests/api/test_schema.py checks real answers against these shapes."""

from rest_framework import serializers

from scorekeeper.models import ENTRY_FIELDS, TILE_SET_CHOICES, Game
from scorekeeper.rules.seating import Change
from scorekeeper.transfer import FORMAT, VERSION

from .games import DealSerializer, RulesSerializer
from .rounds import EntrySerializer


class LiveEntrySerializer(EntrySerializer):
    name = serializers.CharField()

    class Meta(EntrySerializer.Meta):
        fields = ["name", *ENTRY_FIELDS]


class LiveRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    starting_double = serializers.IntegerField()
    blocked = serializers.BooleanField()
    entries = LiveEntrySerializer(many=True)


class NameSerializer(serializers.Serializer):
    name = serializers.CharField()


class LiveStandingSerializer(serializers.Serializer):
    name = serializers.CharField()
    total = serializers.IntegerField()
    rank = serializers.IntegerField()


class LiveGameSerializer(serializers.Serializer):
    """A game through its live link: as GET one game shows it, players by name only (no ids, no emails)."""

    name = serializers.CharField()
    tile_set = serializers.ChoiceField(choices=TILE_SET_CHOICES)
    rules = RulesSerializer()
    players = NameSerializer(many=True)
    status = serializers.ChoiceField(choices=Game.Status.choices)
    next_starting_double = serializers.IntegerField(allow_null=True)
    rounds = LiveRoundSerializer(many=True)
    standings = LiveStandingSerializer(many=True)
    winners = serializers.ListField(child=serializers.CharField(), help_text="The winners' names.")
    suggested_deal = DealSerializer()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class ExportEntrySerializer(LiveEntrySerializer):
    player = serializers.CharField(help_text="The player's name.")
    tiles_left = serializers.IntegerField(allow_null=True, min_value=0)
    tiles = serializers.ListField(child=serializers.CharField())

    class Meta(EntrySerializer.Meta):
        fields = ["player", *ENTRY_FIELDS]


class ExportRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1)
    starting_double = serializers.IntegerField(min_value=0)
    entries = ExportEntrySerializer(many=True)


class ExportSeatChangeSerializer(serializers.Serializer):
    after = serializers.IntegerField(min_value=1, help_text="The number of rounds played when it was made.")
    kind = serializers.ChoiceField(choices=Change.CHOICES)
    player = serializers.CharField(help_text="The name of who joined, left or took over.")
    replaces = serializers.CharField(allow_null=True, help_text="Whose seat a take-over continues (a name).")


class ExportGameSerializer(serializers.Serializer):
    uid = serializers.UUIDField(help_text="The game's identity across exports: an import skips a game it already has.")
    name = serializers.CharField(allow_blank=True)
    scorebook = serializers.CharField(help_text="The scorebook's name.")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    stopped_after = serializers.IntegerField(
        min_value=1, allow_null=True, required=False,
        help_text="The round the table agreed to stop after, its last (null: it was not stopped).",
    )  # fmt: skip
    tile_set = serializers.ChoiceField(choices=TILE_SET_CHOICES)
    rules = RulesSerializer()
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Names, in seat order: everyone who sat at the table."
    )
    seat_changes = ExportSeatChangeSerializer(
        many=True, help_text="Who joined, left or took over a seat between rounds, in the order made (version 2)."
    )
    rounds = ExportRoundSerializer(many=True, help_text="Each round's entries are the players seated in it.")


class ExportSerializer(serializers.Serializer):
    """An export's JSON document: what `POST /api/v1/import/` reads back."""

    format = serializers.ChoiceField(choices=[FORMAT])
    version = serializers.ChoiceField(choices=[VERSION])
    games = ExportGameSerializer(many=True)

    class Meta:
        ref_name = "ExportDocument"
