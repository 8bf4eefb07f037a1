"""What finished games add up to per player: records, doubles, opponents and rating steps."""

from django.db import models

from ..rules.rating import ordinal
from .common import TILE_SET_CHOICES
from .games import Game
from .players import Player
from .scorebooks import Scorebook


class PlayerRecord(models.Model):
    """A player's figures over all their finished games of one set, kept in step by the services.

    The all-time leaderboard reads these few rows instead of aggregating every seat; the
    figures for a period are aggregated from the seats (see scorekeeper.reads.stats)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="records")
    tile_set = models.PositiveSmallIntegerField(choices=TILE_SET_CHOICES)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    total_sum = models.BigIntegerField(default=0)
    rounds = models.PositiveIntegerField(default=0)
    went_out = models.PositiveIntegerField(default=0)
    double_blank_penalties = models.PositiveIntegerField(default=0)
    end_on_double_penalties = models.PositiveIntegerField(default=0)
    # The lowest and highest total of those games (None before any): worked out again from the
    # seats, along the seat_player_total index, whenever the set of finished games changes.
    best_total = models.IntegerField(null=True, blank=True)
    worst_total = models.IntegerField(null=True, blank=True)
    # The sum of their round scores (a total less what the player started with: an opening total
    # is not a round score), over the rounds counted in `rounds`.
    score_sum = models.BigIntegerField(default=0)

    # What a finished game adds to the record of each of its players: a column, and the seat's figure
    # added to it (None: one, the game itself). The one list of them (services.records, imports, stats).
    SUMS = {
        "games": None,
        "wins": "is_winner",
        "total_sum": "total",
        "rounds": "rounds",
        "went_out": "went_out",
        "double_blank_penalties": "double_blank_penalties",
        "end_on_double_penalties": "end_on_double_penalties",
        "score_sum": "score_sum",
    }
    # The game figures: counted only for a game the player was ranked in (Seat.ranked: still at the
    # table at its end). The others are round figures, counted for every round they sat in.
    GAME_SUMS = ("games", "wins", "total_sum")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "tile_set"], name="player_record_unique_per_set")]

    def __str__(self):
        return f"{self.player} on double-{self.tile_set}"


class DoubleRecord(models.Model):
    """A player's rounds that began with one starting double, over their finished games of one set:
    the player page's "by starting double" table reads these rows (kept like PlayerRecord)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="double_records")
    tile_set = models.PositiveSmallIntegerField(choices=TILE_SET_CHOICES)
    starting_double = models.PositiveSmallIntegerField()
    rounds = models.IntegerField(default=0)
    pips_sum = models.BigIntegerField(default=0)
    score_sum = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "tile_set", "starting_double"], name="double_record_unique_per_set_and_double"
            )
        ]

    def __str__(self):
        return f"{self.player} on {self.starting_double}-{self.starting_double} (double-{self.tile_set})"


class OpponentRecord(models.Model):
    """A player's finished games of one set against one opponent: ahead (lower total), behind, level."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="opponent_records")
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    tile_set = models.PositiveSmallIntegerField(choices=TILE_SET_CHOICES)
    games = models.IntegerField(default=0)
    ahead = models.IntegerField(default=0)
    behind = models.IntegerField(default=0)
    level = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "opponent", "tile_set"], name="opponent_record_unique_per_pair_and_set"
            )
        ]

    def __str__(self):
        return f"{self.player} against {self.opponent} (double-{self.tile_set})"


class RatingStep(models.Model):
    """A player's OpenSkill rating after one finished game. The steps of a scorebook follow its
    finished games in the order they ended (finished_at, then id); scorekeeper.services.ratings replays them."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_steps")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_steps")
    scorebook = models.ForeignKey(Scorebook, on_delete=models.CASCADE, related_name="+")
    finished_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    # The rating going into the game (rules.rating.START for a first game), saved with the step by the
    # replay that works it out: a game's rating move is read from its steps, never worked out again.
    mu_before = models.FloatField()
    sigma_before = models.FloatField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="rating_step_unique_per_game")]
        indexes = [
            models.Index(fields=["player", "finished_at", "game"], name="rating_step_player_order"),
            models.Index(fields=["scorebook", "finished_at", "game"], name="rating_step_scorebook_order"),
        ]

    def __str__(self):
        return f"{self.player} after game {self.game_id}: {self.ordinal:.1f}"

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def ordinal_before(self) -> float:
        return ordinal(self.mu_before, self.sigma_before)
