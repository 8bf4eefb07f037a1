"""Games: their rules, the write shapes, and the answers (state, standings, the suggested deal)."""

from django.utils.translation import gettext as _
from rest_framework import serializers

from scorekeeper.models import TILE_SET_CHOICES, Game
from scorekeeper.rules.deal import suggested_deal
from scorekeeper.rules.game import (
    DEFAULT_PENALTY,
    MAX_PENALTY,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_TARGET_SCORE,
    MIN_PLAYERS,
    GameRules,
    TieBreak,
)
from scorekeeper.rules.tiles import DEFAULT_SET, SUPPORTED_SETS
from scorekeeper.selectors import game_state

from .common import TextField
from .rounds import RoundSerializer


class RulesSerializer(serializers.Serializer):
    double_blank_penalty = serializers.IntegerField(default=DEFAULT_PENALTY, min_value=0, max_value=MAX_PENALTY)
    end_on_double_penalty = serializers.IntegerField(default=DEFAULT_PENALTY, min_value=0, max_value=MAX_PENALTY)
    extended = serializers.BooleanField(default=False)
    target_score = serializers.IntegerField(default=None, allow_null=True, min_value=1, max_value=MAX_TARGET_SCORE)
    first_double = serializers.IntegerField(
        default=None,
        allow_null=True,
        min_value=0,
        max_value=max(SUPPORTED_SETS),
        help_text="The double the sequence starts from, at most the set's top double (null: the top double). "
        "Answers give the number.",
    )
    rounds = serializers.IntegerField(
        default=None,
        allow_null=True,
        min_value=1,
        max_value=MAX_ROUNDS,
        help_text="The game ends after this many rounds, or earlier at the end of its sequence or target "
        "(null: no number of rounds).",
    )
    tie_break = serializers.ChoiceField(
        choices=TieBreak.CHOICES,
        default=TieBreak.SHARED,
        help_text="shared: equal totals share the rank; most_went_out: then more rounds gone out ranks first.",
    )


class GameCreateSerializer(serializers.Serializer):
    name = TextField(max_length=80, default="", allow_blank=True)
    scorebook = serializers.IntegerField(required=False, min_value=1, max_value=2**53)
    tile_set = serializers.ChoiceField(choices=TILE_SET_CHOICES, default=DEFAULT_SET)
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**53), min_length=MIN_PLAYERS, max_length=MAX_PLAYERS
    )
    rules = RulesSerializer(required=False)

    def game_rules(self) -> GameRules:
        data = self.validated_data
        options = data.get("rules") or RulesSerializer().run_validation({})
        return GameRules(tile_set=data["tile_set"], **options)


class GameUpdateSerializer(serializers.Serializer):
    name = TextField(max_length=80, allow_blank=True)

    def to_internal_value(self, data):
        if isinstance(data, dict):
            fixed = sorted(set(data) - {"name"})
            if fixed:
                raise serializers.ValidationError(
                    {
                        field: [_("Only the name of a game can change; its rules and players are fixed.")]
                        for field in fixed
                    }
                )
        return super().to_internal_value(data)


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class StandingSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()
    rank = serializers.IntegerField()


class DealSerializer(serializers.Serializer):
    tiles = serializers.IntegerField()
    alternative = serializers.IntegerField(allow_null=True)


class GameListSerializer(serializers.ModelSerializer):
    """A game as listed: everything but the rounds. Needs seats (with players) prefetched.

    It reads the state the services saved (selectors.game_state); it works nothing out."""

    rules = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField()
    next_starting_double = serializers.SerializerMethodField()
    standings = serializers.SerializerMethodField()
    winners = serializers.SerializerMethodField()
    rounds_planned = serializers.SerializerMethodField()
    suggested_deal = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id", "name", "scorebook", "tile_set", "rules", "players", "status", "next_starting_double", "standings",
            "winners", "rounds_planned", "suggested_deal", "created_at", "updated_at", "finished_at",
        ]  # fmt: skip

    def get_rules(self, game) -> RulesSerializer:
        return RulesSerializer(game.rules.as_dict()).data

    def get_players(self, game) -> PlayerRefSerializer(many=True):
        return [{"id": seat.player, "name": seat.name} for seat in game_state(game).state.seats]

    def get_status(self, game) -> serializers.ChoiceField(choices=Game.Status.choices):
        return Game.Status.FINISHED if game_state(game).state.finished else Game.Status.IN_PROGRESS

    def get_next_starting_double(self, game) -> int | None:
        return game_state(game).state.next_double

    def get_standings(self, game) -> StandingSerializer(many=True):
        return [
            {"player": s.player, "name": s.name, "total": s.total, "rank": s.rank}
            for s in game_state(game).state.standings
        ]

    def get_winners(self, game) -> list[int]:
        return list(game_state(game).state.winners)

    def get_rounds_planned(self, game) -> int | None:
        return game.rules.rounds_planned

    def get_suggested_deal(self, game) -> DealSerializer:
        hint = suggested_deal(game.tile_set, len(game.seats.all()))
        return {"tiles": hint.tiles, "alternative": hint.alternative}


class GameSerializer(GameListSerializer):
    """One game with its rounds. Needs rounds and their entries prefetched."""

    rounds = RoundSerializer(many=True)

    class Meta(GameListSerializer.Meta):
        fields = [*GameListSerializer.Meta.fields[:7], "rounds", *GameListSerializer.Meta.fields[7:]]
