"""The story of the ratings and of a player's games: the odds of a new table, rivals, streaks, comebacks."""

from django.utils.translation import gettext as _
from rest_framework import serializers

from ...rules.percents import whole_percents


class RivalSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField(help_text="Ranked games the two played together (at least 3).")
    behind = serializers.IntegerField(
        help_text="For the nemesis: the games the player finished behind them; for the victim: the games the "
        "victim finished behind the player. A shared rank counts as neither."
    )


class StreakSerializer(serializers.Serializer):
    current = serializers.IntegerField(help_text="Wins in a row up to the player's latest ranked finished game.")
    longest = serializers.IntegerField(help_text="The most wins in a row (a shared win is a win).")


class ComebackSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    behind = serializers.IntegerField(help_text="Points behind the leader, at the worst of the game.")
    after_round = serializers.IntegerField(help_text="The round after which the player was that far behind.")


class OddsQuerySerializer(serializers.Serializer):
    """?players=3,1,2&scorebook=7"""

    scorebook = serializers.IntegerField(min_value=1, max_value=2**53)
    players = serializers.CharField(help_text="The players' ids, comma separated (2 to 10, no repeats).")

    def validate_players(self, value: str) -> list[int]:
        from scorekeeper.rules.game import MAX_PLAYERS, MIN_PLAYERS

        try:
            ids = [int(part) for part in value.split(",")]
        except ValueError:
            raise serializers.ValidationError(_("Give the players' ids, separated by commas.")) from None
        if any(not 1 <= pk <= 2**53 for pk in ids) or len(set(ids)) != len(ids):
            raise serializers.ValidationError(_("Give each player's id once."))
        if not MIN_PLAYERS <= len(ids) <= MAX_PLAYERS:
            raise serializers.ValidationError(
                _("Choose between {low} and {high} players.").format(low=MIN_PLAYERS, high=MAX_PLAYERS)
            )
        return ids


class ChanceSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    win_chance = serializers.FloatField(help_text="From 0 to 1; the players' chances add up to 1.")
    win_percent = serializers.IntegerField(
        help_text="The chance as a whole percent, as the pages show it: the players' add up to exactly 100 "
        "(largest remainder)."
    )


class OddsSerializer(serializers.Serializer):
    players = ChanceSerializer(many=True)


def odds_data(chances) -> dict:
    percents = whole_percents([chance.win_chance for chance in chances])
    return {
        "players": [
            {"player": chance.player.pk, "name": chance.player.name, "win_chance": chance.win_chance,
             "win_percent": percent}
            for chance, percent in zip(chances, percents, strict=True)
        ]
    }  # fmt: skip
