"""Players, games, rounds and entries.

The database itself refuses what must never happen: two entries for one player in a
round, two rounds with one number, negative pips, a score that is not pips plus
penalty, a player deleted while seated in a game.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower

from .rules.game import GameRules
from .rules.rounds import Seat as SeatRule
from .rules.tiles import SUPPORTED_SETS

TILE_SET_CHOICES = [(n, f"Double-{n}") for n in SUPPORTED_SETS]


class PlayerQuerySet(models.QuerySet):
    def for_user(self, user):
        return self.filter(owner=user)


class Player(models.Model):
    """Someone at the table. Belongs to the user who keeps score; needs no account."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = [Lower("name")]
        constraints = [
            models.UniqueConstraint(
                "owner",
                Lower("name"),
                name="player_name_unique_per_owner",
                violation_error_message="You already have a player with this name.",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self):
        return self.name


class GameQuerySet(models.QuerySet):
    def for_user(self, user):
        return self.filter(owner=user)

    def in_progress(self):
        return self.filter(status=Game.Status.IN_PROGRESS)

    def finished(self):
        return self.filter(status=Game.Status.FINISHED)


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games")
    name = models.CharField(max_length=80, blank=True)
    players = models.ManyToManyField(Player, through="Seat", related_name="games")

    # The rules, fixed when the game is created.
    tile_set = models.PositiveSmallIntegerField(choices=TILE_SET_CHOICES, default=12)
    double_blank_penalty = models.PositiveSmallIntegerField(default=50)
    end_on_double_penalty = models.PositiveSmallIntegerField(default=50)
    extended = models.BooleanField(default=False)
    target_score = models.PositiveIntegerField(null=True, blank=True)

    # Kept in step by the services after every write.
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    version = models.PositiveIntegerField(default=1, help_text="Goes up with every change: ETags and stale forms.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "status", "-created_at"])]
        constraints = [
            models.CheckConstraint(condition=Q(tile_set__in=SUPPORTED_SETS), name="game_tile_set_supported"),
            models.CheckConstraint(
                condition=Q(target_score__isnull=True) | Q(target_score__gte=1), name="game_target_positive"
            ),
            models.CheckConstraint(
                condition=Q(status="finished", finished_at__isnull=False)
                | Q(status="in_progress", finished_at__isnull=True),
                name="game_finished_at_matches_status",
            ),
        ]

    def __str__(self):
        return self.name or f"Game {self.pk}"

    @property
    def rules(self) -> GameRules:
        return GameRules(
            tile_set=self.tile_set,
            double_blank_penalty=self.double_blank_penalty,
            end_on_double_penalty=self.end_on_double_penalty,
            extended=self.extended,
            target_score=self.target_score,
        )

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def etag(self) -> str:
        return f'"game-{self.pk}-v{self.version}"'

    def next_starting_double(self, last_position: int | None) -> int | None:
        """The double the next round is expected to start with; None once the game is over."""
        if self.is_finished:
            return None
        return self.rules.double_at(0 if last_position is None else last_position + 1)


class Seat(models.Model):
    """A player's place at a game's table, with their running total and rank."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # Summary columns kept in step by the services, so reports aggregate seats, not entries.
    total = models.IntegerField(default=0)
    rank = models.PositiveSmallIntegerField(default=1)
    is_winner = models.BooleanField(default=False)
    rounds = models.PositiveSmallIntegerField(default=0)
    went_out = models.PositiveSmallIntegerField(default=0)
    double_blank_penalties = models.PositiveSmallIntegerField(default=0)
    end_on_double_penalties = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_unique"),
        ]

    def __str__(self):
        return f"{self.player} at {self.game}"

    def as_rule(self) -> SeatRule:
        return SeatRule(self.player_id, self.player.name)


class Round(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    # Index into the sequence of starting doubles (passes repeat in target-score games).
    position = models.PositiveIntegerField()
    starting_double = models.PositiveSmallIntegerField()
    blocked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_number_unique"),
            models.UniqueConstraint(fields=["game", "position"], name="round_position_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(condition=Q(starting_double__lte=max(SUPPORTED_SETS)), name="round_double_in_range"),
        ]

    def __str__(self):
        return f"Round {self.number} ({self.starting_double}-{self.starting_double})"

    @property
    def etag(self) -> str:
        """Tied to the game's version, which every write in the game moves on."""
        return f'"game-{self.game_id}-round-{self.number}-v{self.game.version}"'


class Entry(models.Model):
    """One player's result in one round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="entries")
    position = models.PositiveSmallIntegerField(help_text="The player's seat, so entries list in seat order.")
    pips = models.PositiveIntegerField()
    tiles_left = models.PositiveSmallIntegerField(null=True, blank=True)
    tiles = models.JSONField(default=list, blank=True)
    double_blank = models.BooleanField(default=False)
    went_out = models.BooleanField(default=False)
    ended_on_double = models.BooleanField(default=False)
    penalty = models.PositiveIntegerField(default=0)
    score = models.PositiveIntegerField()

    class Meta:
        ordering = ["round", "position"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="entry_player_unique_per_round"),
            models.CheckConstraint(condition=Q(pips__gte=0), name="entry_pips_not_negative"),
            models.CheckConstraint(
                condition=Q(score=F("pips") + F("penalty")), name="entry_score_is_pips_plus_penalty"
            ),
            models.CheckConstraint(
                condition=Q(went_out=False) | Q(pips=0, double_blank=False), name="entry_went_out_holds_nothing"
            ),
            models.CheckConstraint(
                condition=Q(ended_on_double=False) | Q(went_out=True), name="entry_ended_on_double_went_out"
            ),
        ]

    def __str__(self):
        return f"{self.player}: {self.score}"


class IdempotencyKey(models.Model):
    """A POST's Idempotency-Key, kept with the response it got, so a retry gets that response again."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True, help_text="Empty while the first request runs.")
    response_body = models.JSONField(null=True)
    location = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "key"], name="idempotency_key_unique_per_owner")]

    def __str__(self):
        return self.key


class PlayerRecord(models.Model):
    """A player's figures over all their finished games of one set, kept in step by the services.

    The all-time leaderboard reads these few rows instead of aggregating every seat; the
    figures for a period are aggregated from the seats (see scorekeeper.stats)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="records")
    tile_set = models.PositiveSmallIntegerField(choices=TILE_SET_CHOICES)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    total_sum = models.BigIntegerField(default=0)
    rounds = models.PositiveIntegerField(default=0)
    went_out = models.PositiveIntegerField(default=0)
    double_blank_penalties = models.PositiveIntegerField(default=0)
    end_on_double_penalties = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "tile_set"], name="player_record_unique_per_set")]

    def __str__(self):
        return f"{self.player} on double-{self.tile_set}"
