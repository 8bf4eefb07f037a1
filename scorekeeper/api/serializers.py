"""Request and response shapes of API v1. Rules are checked by the rules module, not here."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scorekeeper.models import TILE_SET_CHOICES, Entry, Game, Membership, Player, Role, Round, Scorebook
from scorekeeper.rules.deal import suggested_deal
from scorekeeper.rules.game import (
    DEFAULT_PENALTY,
    MAX_PENALTY,
    MAX_PLAYERS,
    MAX_TARGET_SCORE,
    MIN_PLAYERS,
    GameRules,
)
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.rules.tiles import DEFAULT_SET, SUPPORTED_SETS
from scorekeeper.selectors import game_state

# Big enough for any real value, small enough that no database column overflows.
BIG = 1_000_000


class UserRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    email = serializers.EmailField()


def user_ref(user) -> dict | None:
    return None if user is None else {"id": user.pk, "email": user.email}


class PlayerSerializer(serializers.ModelSerializer):
    """A player; `scorebook` on create (default: the personal one); `user`: "me" links the
    player to the caller's account, null unlinks."""

    name = serializers.CharField(max_length=40, trim_whitespace=True, required=False)
    scorebook = serializers.IntegerField(source="scorebook_id", required=False, min_value=1, max_value=2**53)
    user = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name", "scorebook", "user"]

    def get_user(self, player) -> UserRefSerializer(allow_null=True):
        return user_ref(player.user)

    def validate(self, data):
        if self.instance is None and "name" not in data:
            raise serializers.ValidationError({"name": [_("This field is required.")]})
        if (
            self.instance is not None
            and data.get("scorebook_id", self.instance.scorebook_id) != self.instance.scorebook_id
        ):
            raise serializers.ValidationError({"scorebook": [_("A player stays in the scorebook it was made in.")]})
        book = self.instance.scorebook_id if self.instance is not None else self.context.get("scorebook_id")
        name = data.get("name")
        if name is not None and book is not None:
            taken = Player.objects.filter(scorebook_id=book).named(name)
            if self.instance is not None:
                taken = taken.exclude(pk=self.instance.pk)
            if taken.exists():
                raise serializers.ValidationError(
                    {
                        "name": [
                            _('This scorebook already has a player named "{name}" (names ignore case).').format(
                                name=name
                            )
                        ]
                    }
                )
        return data


class PlayerLinkSerializer(serializers.Serializer):
    user = serializers.ChoiceField(choices=["me"], allow_null=True)


class MemberSerializer(serializers.ModelSerializer):
    user = serializers.IntegerField(source="user_id")
    email = serializers.EmailField(source="user.email")

    class Meta:
        model = Membership
        fields = ["user", "email", "role"]


class ScorebookSerializer(serializers.ModelSerializer):
    """A scorebook as its member sees it: `role` is the caller's. Needs memberships prefetched."""

    name = serializers.CharField(max_length=80)
    personal = serializers.BooleanField(read_only=True)
    role = serializers.ChoiceField(choices=Role.choices, read_only=True)
    members = MemberSerializer(many=True, read_only=True, source="memberships")

    class Meta:
        model = Scorebook
        fields = ["id", "name", "personal", "role", "members", "created_at"]
        read_only_fields = ["created_at"]


class MemberRoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)


class InviteCreateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=[Role.SCORER, Role.VIEWER])


class InviteSerializer(serializers.Serializer):
    code = serializers.CharField()
    url = serializers.URLField()
    qr_svg_url = serializers.URLField()
    role = serializers.CharField()
    expires_at = serializers.DateTimeField()


class RulesSerializer(serializers.Serializer):
    double_blank_penalty = serializers.IntegerField(default=DEFAULT_PENALTY, min_value=0, max_value=MAX_PENALTY)
    end_on_double_penalty = serializers.IntegerField(default=DEFAULT_PENALTY, min_value=0, max_value=MAX_PENALTY)
    extended = serializers.BooleanField(default=False)
    target_score = serializers.IntegerField(default=None, allow_null=True, min_value=1, max_value=MAX_TARGET_SCORE)


class GameCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80, default="", allow_blank=True)
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
    name = serializers.CharField(max_length=80, allow_blank=True)

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
            for item in self.validated_data["entries"]
        ]


# Rounds and entries are answered on every write and in every game: their answers are written out
# in to_representation (DRF's field-by-field walk was a tenth of a round's time). The declared
# fields still make the schema; tests/api/test_round_representation.py checks the two agree.
_WHEN = serializers.DateTimeField()


def entry_data(entry) -> dict:
    return {
        "player": entry.player_id,
        "pips": entry.pips,
        "tiles_left": entry.tiles_left,
        "tiles": [str(tile) for tile in entry.tiles],
        "double_blank": entry.double_blank,
        "went_out": entry.went_out,
        "ended_on_double": entry.ended_on_double,
        "penalty": entry.penalty,
        "score": entry.score,
    }


class EntrySerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    tiles = serializers.ListField(child=serializers.CharField())

    class Meta:
        model = Entry
        fields = [
            "player", "pips", "tiles_left", "tiles", "double_blank", "went_out", "ended_on_double", "penalty", "score"
        ]  # fmt: skip

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
        return {
            "number": round_.number,
            "starting_double": round_.starting_double,
            "blocked": round_.blocked,
            "entries": [entry_data(entry) for entry in round_.entries_in_order()],
            "recorded_by": user_ref(round_.recorded_by),
            "corrected_by": user_ref(round_.corrected_by),
            "created_at": _WHEN.to_representation(round_.created_at),
            "updated_at": _WHEN.to_representation(round_.updated_at),
        }


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
        return game.rules.round_limit

    def get_suggested_deal(self, game) -> DealSerializer:
        hint = suggested_deal(game.tile_set, len(game.seats.all()))
        return {"tiles": hint.tiles, "alternative": hint.alternative}


class GameSerializer(GameListSerializer):
    """One game with its rounds. Needs rounds and their entries prefetched."""

    rounds = RoundSerializer(many=True)

    class Meta(GameListSerializer.Meta):
        fields = [*GameListSerializer.Meta.fields[:7], "rounds", *GameListSerializer.Meta.fields[7:]]


class StatsQuerySerializer(serializers.Serializer):
    scorebook = serializers.IntegerField(required=False, min_value=1, max_value=2**53)
    tile_set = serializers.ChoiceField(choices=TILE_SET_CHOICES, required=False)
    period = serializers.ChoiceField(choices=["month", "year", "all"], default="all")


class LeaderboardQuerySerializer(StatsQuerySerializer):
    sort = serializers.ChoiceField(
        choices=["rating"], required=False, help_text="rating: the highest rating (ordinal) first"
    )


class FiguresSerializer(serializers.Serializer):
    games = serializers.IntegerField(source="game_count")
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    average_total = serializers.FloatField(allow_null=True)
    rounds = serializers.IntegerField()
    went_out = serializers.IntegerField()
    double_blank_penalties = serializers.IntegerField()
    end_on_double_penalties = serializers.IntegerField()


class RatingSerializer(serializers.Serializer):
    mu = serializers.FloatField(help_text="OpenSkill's best guess of the player's skill (25 before any game)")
    sigma = serializers.FloatField(help_text="how unsure that guess is (25/3 before any game; shrinks with play)")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: the rating the leaderboard sorts by")


class LeaderboardRowSerializer(FiguresSerializer):
    player = serializers.SerializerMethodField()
    rating = serializers.SerializerMethodField()

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
            "player": self.get_player(figures),
            "rating": self.get_rating(figures),
        }


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


class PlayerStatsSerializer(LeaderboardRowSerializer):
    went_out_rate = serializers.FloatField()
    best_total = serializers.IntegerField(allow_null=True)
    worst_total = serializers.IntegerField(allow_null=True)
    average_round_score = serializers.FloatField(allow_null=True)
    by_starting_double = ByDoubleSerializer(many=True)
    head_to_head = HeadToHeadSerializer(many=True)

    def to_representation(self, figures):
        return super().to_representation(figures) | {
            "went_out_rate": float(figures.went_out_rate),
            "best_total": figures.best_total,
            "worst_total": figures.worst_total,
            "average_round_score": _float_or_none(figures.average_round_score),
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
