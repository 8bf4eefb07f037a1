"""Games: their rules, the write shapes, and the answers (state, standings, the suggested deal)."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from scorekeeper.models import TILE_SET_CHOICES, Game
from scorekeeper.reads import story
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
from scorekeeper.rules.paper import MAX_PAPER_ROUNDS
from scorekeeper.rules.seating import Change, JoinTotal, SeatChange
from scorekeeper.rules.tiles import DEFAULT_SET, SUPPORTED_SETS
from scorekeeper.selectors import game_state

from .common import TextField
from .rounds import WHEN, EntryWriteSerializer, RoundSerializer, entry_inputs, round_data


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
    join_total = serializers.ChoiceField(
        choices=JoinTotal.CHOICES,
        default=JoinTotal.HIGHEST,
        help_text="What a player joining after the first round starts with: the highest total at the table, "
        "the seated players' average (rounded up), or zero.",
    )


RULE_NAMES = frozenset(RulesSerializer().fields)


class PaperRoundSerializer(serializers.Serializer):
    """One round of a paper game: as `POST .../rounds/` takes it, without `confirm` (a sheet is what
    was played: nothing to ask)."""

    starting_double = serializers.IntegerField(min_value=0, max_value=max(SUPPORTED_SETS))
    entries = EntryWriteSerializer(many=True, allow_empty=False, max_length=50)


class PaperSeatChangeSerializer(serializers.Serializer):
    """A seat change of a paper game, as export version 2 writes it (players by id)."""

    kind = serializers.ChoiceField(choices=Change.CHOICES)
    player = serializers.IntegerField(min_value=1, max_value=2**53)
    after = serializers.IntegerField(min_value=1, max_value=MAX_PAPER_ROUNDS, help_text="The round it was made after.")
    replaces = serializers.IntegerField(
        min_value=1, max_value=2**53, allow_null=True, default=None, help_text="Whose seat a take-over continues."
    )
    join_total = serializers.ChoiceField(
        choices=JoinTotal.CHOICES,
        allow_null=True,
        default=None,
        help_text="A joiner's opening total as the table chose it at the door (null: the game's rules.join_total).",
        error_messages={"invalid_choice": gettext_lazy("Choose one of: highest, average, zero (got {input}).")},
    )

    def validate(self, data):
        if (data["replaces"] is None) == (data["kind"] == Change.TAKE_OVER):
            raise serializers.ValidationError(
                {"replaces": [_("replaces names whose seat a take-over continues, and only a take-over's.")]}
            )
        return data


class GameCreateSerializer(serializers.Serializer):
    name = TextField(max_length=80, default="", allow_blank=True)
    scorebook = serializers.IntegerField(required=False, min_value=1, max_value=2**53)
    tile_set = serializers.ChoiceField(choices=TILE_SET_CHOICES, default=DEFAULT_SET)
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**53), min_length=MIN_PLAYERS, max_length=MAX_PLAYERS
    )
    rules = RulesSerializer(required=False)
    casual = serializers.BooleanField(
        default=False, help_text="A friendly game: counted in no leaderboard, rating, record, season or night."
    )
    night = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**53,
        help_text="A night of the scorebook (a table of it).",
    )

    played_on = serializers.DateField(
        required=False,
        help_text="A paper game entered afterwards: the day it was played, in the scorebook's time zone, not after "
        "today. Sent with `rounds`.",
    )
    rounds = PaperRoundSerializer(
        many=True,
        required=False,
        max_length=MAX_PAPER_ROUNDS,
        help_text="A paper game's rounds in play order, each as `POST .../rounds/` takes it; every one checked as "
        "if recorded at the table, all saved or none (the first refused: 400 naming `rounds[i]` and the player).",
    )
    seat_changes = PaperSeatChangeSerializer(
        many=True,
        required=False,
        max_length=MAX_PAPER_ROUNDS * MAX_PLAYERS,
        help_text="A paper game's seat changes in the order made (as in export version 2, players by id); "
        "`players` then lists everyone who sat at the table, in seat order.",
    )
    stopped_after = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_PAPER_ROUNDS,
        help_text="A paper game its rounds do not end (an evening that stopped early): the table agreed to stop "
        "after this round, its last (as in export version 2, and as `POST .../finish/` would). Left out: the game "
        "is finished only when its rounds end it.",
    )

    def validate(self, data):
        paper = {"played_on", "rounds", "seat_changes", "stopped_after"} & set(data)
        if paper and "played_on" not in data:
            raise serializers.ValidationError({"played_on": [_("Give the day the game was played (YYYY-MM-DD).")]})
        if paper and "rounds" not in data:
            raise serializers.ValidationError({"rounds": [_("Enter the game's rounds: at least one.")]})
        return data

    @property
    def is_paper(self) -> bool:
        """A paper game entered afterwards (services.enter_paper_game), not a game to play now."""
        return "played_on" in self.validated_data

    def game_rules(self) -> GameRules:
        data = self.validated_data
        options = data.get("rules") or RulesSerializer().run_validation({})
        return GameRules(tile_set=data["tile_set"], **options)

    def paper_rounds(self) -> list[tuple[int, list]]:
        return [(item["starting_double"], entry_inputs(item["entries"])) for item in self.validated_data["rounds"]]

    def paper_changes(self) -> list[SeatChange]:
        return [
            SeatChange(item["kind"], item["player"], item["after"], item.get("replaces"), item.get("join_total"))
            for item in self.validated_data.get("seat_changes", [])
        ]


class GameUpdateSerializer(serializers.Serializer):
    """A new name, a night (or none), and whether the game is casual (a finished one takes back or gives
    again what it counted)."""

    CHANGEABLE = frozenset({"name", "night", "casual"})

    name = TextField(max_length=80, allow_blank=True, required=False)
    night = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**53,
        help_text="Put the game in a night of its scorebook, or in none (null).",
    )  # fmt: skip
    casual = serializers.BooleanField(required=False)

    def to_internal_value(self, data):
        if isinstance(data, dict):
            fixed = sorted(set(data) - self.CHANGEABLE)
            if fixed:
                raise serializers.ValidationError(
                    {
                        field: [
                            _(
                                "Only the name of a game, its night and whether it is casual can change; its rules and players are fixed."
                            )
                        ]
                        for field in fixed
                    }
                )
        return super().to_internal_value(data)

    def validate(self, data):
        if not data:
            # Nothing to change: named as a missing name is (a night or casual may come instead).
            raise serializers.ValidationError({"name": [self.fields["name"].error_messages["required"]]})
        return data


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class GamePlayerSerializer(PlayerRefSerializer):
    """Someone who sat at the game's table, in seat order, with their time at it."""

    joined_after = serializers.IntegerField(
        allow_null=True, help_text="The round they joined after (null: from the start)."
    )
    left_after = serializers.IntegerField(allow_null=True, help_text="The round they left after (null: still seated).")
    opening_total = serializers.IntegerField(
        help_text="What they started with: 0 unless they joined late or took over."
    )
    replaced = serializers.IntegerField(allow_null=True, help_text="The player whose seat they took over.")
    seated = serializers.BooleanField(help_text="Seated for the next round.")
    rounds_played = serializers.IntegerField()


class RatingSerializer(serializers.Serializer):
    mu = serializers.FloatField(help_text="OpenSkill's best guess of the player's skill (25 before any game)")
    sigma = serializers.FloatField(help_text="how unsure that guess is (25/3 before any game; shrinks with play)")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: the rating the leaderboard sorts by")


class RatingChangeSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    before = RatingSerializer(help_text="The player's rating going into the game.")
    after = RatingSerializer(help_text="Their rating after it.")


class StandingSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()
    rank = serializers.IntegerField(allow_null=True, help_text="Null for a player who left: unranked.")
    left_after = serializers.IntegerField(allow_null=True)


class DealSerializer(serializers.Serializer):
    tiles = serializers.IntegerField()
    alternative = serializers.IntegerField(allow_null=True)


class GameListSerializer(serializers.ModelSerializer):
    """A game as listed: everything but the rounds. Needs seats (with players) prefetched.

    It reads the state the services saved (selectors.game_state); it works nothing out."""

    name = serializers.CharField(
        source="title",
        help_text='A game without a name is called by its table at its night ("Table 4"); outside a night, '
        'one started on the pages is called "Game 3 · Mon 23 Nov", in the language asked for (Accept-Language), '
        'and one made here without a name has "".',
    )
    rules = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField()
    ended_because = serializers.SerializerMethodField()
    next_starting_double = serializers.SerializerMethodField()
    standings = serializers.SerializerMethodField()
    winners = serializers.SerializerMethodField()
    rounds_planned = serializers.SerializerMethodField()
    suggested_deal = serializers.SerializerMethodField()
    shuffles_next = serializers.SerializerMethodField()
    casual = serializers.BooleanField(
        help_text="A friendly game: counted in no leaderboard, rating, record, season or night; kept in history "
        "and exports."
    )
    night = serializers.IntegerField(source="night_id", allow_null=True, help_text="The night it is a table of.")
    played_on = serializers.DateField(
        allow_null=True,
        help_text="The day it was played, in the scorebook's time zone: the day written on a paper game entered "
        "afterwards; for a game recorded at the table, the day it finished (null while it goes on).",
    )
    entered_afterwards = serializers.BooleanField(
        help_text="A paper game entered afterwards (POST with `played_on` and `rounds`)."
    )

    class Meta:
        model = Game
        fields = [
            "id", "name", "scorebook", "tile_set", "rules", "players", "status", "next_starting_double", "standings",
            "winners", "ended_because", "rounds_planned", "suggested_deal", "shuffles_next", "casual", "created_at",
            "updated_at", "finished_at", "night", "played_on", "entered_afterwards",
        ]  # fmt: skip

    # Answered on every game read and write, so written out by hand (DRF's field-by-field walk, with
    # its fields copied for each game, was most of a serialized game's time); the declared fields
    # make the schema, and tests/api/test_round_representation.py checks the two agree.
    def to_representation(self, game):
        state = game_state(game).state
        return {
            "id": game.pk,
            "name": game.title,
            "scorebook": game.scorebook_id,
            "tile_set": game.tile_set,
            "rules": self.get_rules(game),
            "players": self.get_players(game),
            "status": Game.Status.FINISHED if state.finished else Game.Status.IN_PROGRESS,
            **self._rounds(game),
            "next_starting_double": state.next_double,
            "standings": self.get_standings(game),
            "winners": list(state.winners),
            "ended_because": state.ended_because,
            "rounds_planned": game.rules.rounds_planned,
            "suggested_deal": self.get_suggested_deal(game),
            "shuffles_next": state.shuffles_next,
            "casual": game.casual,
            "created_at": WHEN.to_representation(game.created_at),
            "updated_at": WHEN.to_representation(game.updated_at),
            "finished_at": WHEN.to_representation(game.finished_at) if game.finished_at else None,
            "night": game.night_id,
            "played_on": game.played_on.isoformat() if game.played_on else None,
            "entered_afterwards": game.entered_afterwards,
        }

    def _rounds(self, game) -> dict:
        return {}

    def get_rules(self, game) -> RulesSerializer:
        return {name: value for name, value in game.rules.as_dict().items() if name in RULE_NAMES}

    def get_players(self, game) -> GamePlayerSerializer(many=True):
        return [
            {"id": seat.player, "name": seat.name, "joined_after": seat.joined_after, "left_after": seat.left_after,
             "opening_total": seat.opening_total, "replaced": seat.replaced,
             "seated": seat.seated and not game_state(game).state.finished, "rounds_played": seat.rounds}
            for seat in game_state(game).state.seats
        ]  # fmt: skip

    def get_status(self, game) -> serializers.ChoiceField(choices=Game.Status.choices):
        return Game.Status.FINISHED if game_state(game).state.finished else Game.Status.IN_PROGRESS

    def get_ended_because(self, game) -> serializers.ChoiceField(
        choices=Game._meta.get_field("ended_because").choices, allow_null=True
    ):
        """Why the game ended (null while it goes on): "agreed" when the table stopped early."""
        return game_state(game).state.ended_because

    def get_next_starting_double(self, game) -> int | None:
        return game_state(game).state.next_double

    def get_standings(self, game) -> StandingSerializer(many=True):
        return [
            {"player": s.player, "name": s.name, "total": s.total, "rank": s.rank, "left_after": s.left_after}
            for s in game_state(game).state.standings
        ]

    def get_winners(self, game) -> list[int]:
        return list(game_state(game).state.winners)

    def get_rounds_planned(self, game) -> int | None:
        return game.rules.rounds_planned

    def get_suggested_deal(self, game) -> DealSerializer:
        """For the next round's number of players (the last round's, once the game is over)."""
        hint = suggested_deal(game.tile_set, sum(1 for seat in game_state(game).state.seats if seat.seated))
        return {"tiles": hint.tiles, "alternative": hint.alternative}

    def get_shuffles_next(self, game) -> int | None:
        return game_state(game).state.shuffles_next


class GameSerializer(GameListSerializer):
    """One game with its rounds. Needs rounds and their entries prefetched; reads the rating moves of
    a finished game (one query, reads.story.rating_changes)."""

    rounds = RoundSerializer(many=True)
    rating_changes = serializers.SerializerMethodField(
        help_text="Each rated player's rating before and after the game, in standings order: empty for a game "
        "not finished or not rated, null while the scorebook's ratings are being updated."
    )

    class Meta(GameListSerializer.Meta):
        fields = [*GameListSerializer.Meta.fields[:7], "rounds", *GameListSerializer.Meta.fields[7:], "rating_changes"]

    def to_representation(self, game):
        return super().to_representation(game) | {"rating_changes": self.get_rating_changes(game)}

    def _rounds(self, game) -> dict:
        return {"rounds": [round_data(round_) for round_ in game.rounds.all()]}

    def get_rating_changes(self, game) -> RatingChangeSerializer(many=True, allow_null=True):
        return story.rating_changes(game, game_state(game).state)


class SeatChangeSerializer(serializers.Serializer):
    """A player joins the table, or takes over a seated player's seat, after the last recorded round."""

    player = serializers.IntegerField(min_value=1, max_value=2**53, help_text="Who joins or takes over.")
    replaces = serializers.IntegerField(
        min_value=1,
        max_value=2**53,
        allow_null=True,
        default=None,
        help_text="Whose seat they take over (null: a join).",
    )
    after = serializers.IntegerField(
        min_value=1, max_value=2**53, allow_null=True, default=None,
        help_text="A joiner sits after this seated player (null: last).",
    )  # fmt: skip
    join_total = serializers.ChoiceField(
        choices=JoinTotal.CHOICES,
        allow_null=True,
        default=None,
        help_text="What this joiner starts with, decided at the door: the highest total at the table, the seated "
        "players' average (rounded up) or zero (null: the game's `rules.join_total`). Joins only.",
        error_messages={"invalid_choice": gettext_lazy("Choose one of: highest, average, zero (got {input}).")},
    )

    def validate(self, data):
        if data["replaces"] is not None and data["after"] is not None:
            raise serializers.ValidationError(
                {"after": [_("A player who takes over sits in that seat: leave out after.")]}
            )
        return data
