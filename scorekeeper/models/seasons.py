"""Seasons: windows of days of one scorebook, each with its own table and champions, and the tallies
their tables are read from."""

from datetime import date, datetime, time, timedelta

from django.db import models
from django.db.models import F, Q

from .common import ReaderRole
from .players import Player
from .scorebooks import Scorebook, member_of, role_of


class SeasonQuerySet(models.QuerySet):
    def for_user(self, user):
        """Seasons of every scorebook `user` belongs to."""
        return self.filter(scorebook__in=member_of(user))

    def with_role(self, user):
        """As for_user, each with the reader's `role` in its scorebook (and the scorebook, for its time zone)."""
        return self.for_user(user).annotate(role=role_of(user)).select_related("scorebook")

    def overlapping(self, starts: date, ends: date):
        """Seasons sharing at least one day with the window from `starts` to `ends` (both included)."""
        return self.filter(starts__lte=ends, ends__gte=starts)

    def holding(self, day: date):
        return self.filter(starts__lte=day, ends__gte=day)


class Season(ReaderRole, models.Model):
    """A window of days (`ends` included, in the scorebook's time zone) whose finished games make a
    table: a player with `min_games` games qualifies, and their `drop_worst` lowest games are not
    counted (rules.seasons). Two seasons of one scorebook never overlap (services.seasons checks)."""

    scorebook = models.ForeignKey(Scorebook, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    starts = models.DateField()
    ends = models.DateField()
    min_games = models.PositiveSmallIntegerField(default=0)
    drop_worst = models.PositiveSmallIntegerField(default=0)
    # The moments its first day begins and the day after its last begins, in the scorebook's time
    # zone (bounds(), saved by services.seasons): a game is the season's when it finished between them.
    starts_at = models.DateTimeField(editable=False)
    ends_before = models.DateTimeField(editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["-starts", "-id"]
        indexes = [models.Index(fields=["scorebook", "starts"], name="season_scorebook_starts")]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="season_name_not_empty"),
            models.CheckConstraint(condition=Q(ends__gte=F("starts")), name="season_ends_after_starts"),
            models.CheckConstraint(condition=Q(min_games__gte=0), name="season_min_games_not_negative"),
            models.CheckConstraint(condition=Q(drop_worst__gte=0), name="season_drop_worst_not_negative"),
            models.CheckConstraint(condition=Q(ends_before__gt=F("starts_at")), name="season_bounds_in_order"),
        ]

    def __str__(self):
        return self.name

    def bounds(self) -> tuple[datetime, datetime]:
        """The moments the season's first day begins and the day after its last begins, in the
        scorebook's time zone: a game is the season's when it finished between them."""
        zone = self.scorebook.zone
        return datetime.combine(self.starts, time.min, zone), datetime.combine(
            self.ends + timedelta(days=1), time.min, zone
        )

    def counted_seats(self):
        """The seats its table counts: players ranked (not those who left) in finished games of its
        scorebook, out of the trash and not casual, that finished within its days (services.seasons
        tallies the same seats as games change)."""
        from .games import Game, Seat

        return Seat.objects.filter(
            game__scorebook_id=self.scorebook_id,
            game__status=Game.Status.FINISHED,
            game__deleted_at__isnull=True,
            game__casual=False,
            game__finished_at__gte=self.starts_at,
            game__finished_at__lt=self.ends_before,
            rank__isnull=False,
            left_after__isnull=True,
        )

    def has_ended(self, today: date) -> bool:
        return today > self.ends

    def is_current(self, today: date) -> bool:
        return self.starts <= today <= self.ends


class SeasonTally(models.Model):
    """What a season's finished games gave one player, by the place points a game gave them: how many
    games, wins, the sum of their totals and of their places. Kept by the services as games finish,
    change, go to the trash and come back (services.seasons.tally), so a season's table reads a few
    rows per player however many games it holds; the counted points drop the lowest place points
    first (rules.seasons.counted_points)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="tallies")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    place_points = models.PositiveSmallIntegerField()
    games = models.IntegerField(default=0)
    wins = models.IntegerField(default=0)
    total_sum = models.BigIntegerField(default=0)
    place_sum = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "player", "place_points"], name="season_tally_unique"),
        ]

    def __str__(self):
        return f"{self.player_id} in {self.season_id}: {self.games} x {self.place_points}"
