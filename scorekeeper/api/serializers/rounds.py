"""Rounds and entries: what a client sends, and the answers written out by hand for speed."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scorekeeper.models import ENTRY_FIELDS, Entry, Round, entry_values
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.rules.tiles import SUPPORTED_SETS

from .common import BIG, UserRefSerializer, user_ref


class EntryWriteSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=2**53)
    pips = serializers.IntegerField(required=False, allow_null=True, min_value=-BIG, max_value=BIG)
    tiles_left = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=1000)
    # No length limits here: the rules module bounds a list and its tiles, naming the player.
    tiles = serializers.ListField(
        child=serializers.CharField(trim_whitespace=False, allow_blank=True), required=False, allow_null=True
    )
    double_blank = serializers.BooleanField(required=False, allow_null=True)
    went_out = serializers.BooleanField(default=False)
    ended_on_double = serializers.BooleanField(default=False)


@extend_schema_field({"oneOf": [{"type": "boolean"}, {"type": "string", "minLength": 1, "maxLength": 64}]})
class ConfirmField(serializers.Field):
    """true: save a legal but unusual round as it is; false: ask first (400 confirmation_needed);
    the key that answer gave: save it, while it surprises in the same ways."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or (isinstance(data, str) and 1 <= len(data) <= 64):
            return data
        raise serializers.ValidationError(_("Send true, false or the key a confirmation question came with."))

    def to_representation(self, value):
        return value


class RoundWriteSerializer(serializers.Serializer):
    starting_double = serializers.IntegerField(min_value=0, max_value=max(SUPPORTED_SETS))
    entries = EntryWriteSerializer(many=True, allow_empty=False, max_length=50)
    confirm = ConfirmField(default=True, help_text="Default true. false: a surprising round is not saved "
                           "but answered with its questions and a key; the key: saves it.")  # fmt: skip

    def entry_inputs(self) -> list[EntryInput]:
        return entry_inputs(self.validated_data["entries"])


def entry_inputs(items) -> list[EntryInput]:
    """Entries as EntryWriteSerializer validated them, for the rules (a round's, a paper game's)."""
    return [
        EntryInput(
            player=item["player"],
            pips=item.get("pips"),
            tiles_left=item.get("tiles_left"),
            tiles=item.get("tiles"),
            double_blank=item.get("double_blank"),
            went_out=item["went_out"],
            ended_on_double=item["ended_on_double"],
        )
        for item in items
    ]


class RoundCreateSerializer(RoundWriteSerializer):
    """A new round, with the number it was entered as (the If-Match header says from which version)."""

    number = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**31 - 1,
        help_text="The round this is meant to be (the next one when the client read the game). Already "
        "recorded: 409 `round_taken`, with the round that holds it; beyond the next round: 400 naming "
        "`number`. Left out: the next round, whatever it is.",
    )


# Rounds and entries are answered on every write and in every game: their answers are written out
# in to_representation (DRF's field-by-field walk was a tenth of a round's time). The declared
# fields still make the schema; tests/api/test_round_representation.py checks the two agree.
WHEN = serializers.DateTimeField()


def entry_data(entry) -> dict:
    return {"player": entry.player_id, **entry_values(entry)}


class EntrySerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    tiles = serializers.ListField(child=serializers.CharField())

    class Meta:
        model = Entry
        fields = ["player", *ENTRY_FIELDS]

    def to_representation(self, entry):
        return entry_data(entry)


class RoundSerializer(serializers.ModelSerializer):
    """Needs recorded_by and corrected_by selected, and the entries prefetched in order (or just saved)."""

    entries = EntrySerializer(many=True, source="entries_in_order")
    recorded_by = serializers.SerializerMethodField()
    corrected_by = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "number", "starting_double", "blocked", "entries", "recorded_by", "corrected_by", "created_at", "updated_at"
        ]  # fmt: skip

    def get_recorded_by(self, round_) -> UserRefSerializer(allow_null=True):
        return user_ref(round_.recorded_by)

    def get_corrected_by(self, round_) -> UserRefSerializer(allow_null=True):
        return user_ref(round_.corrected_by)

    def to_representation(self, round_):
        return round_data(round_)


def round_data(round_) -> dict:
    """A round as RoundSerializer answers it, written out (see the note above)."""
    return {
        "number": round_.number,
        "starting_double": round_.starting_double,
        "blocked": round_.blocked,
        "entries": [entry_data(entry) for entry in round_.entries_in_order()],
        "recorded_by": user_ref(round_.recorded_by),
        "corrected_by": user_ref(round_.corrected_by),
        "created_at": WHEN.to_representation(round_.created_at),
        "updated_at": WHEN.to_representation(round_.updated_at),
    }
