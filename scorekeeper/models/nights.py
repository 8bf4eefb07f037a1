"""Club nights: the games (tables) a club plays one evening, their standings, and the night's live link."""

from django.db import models
from django.db.models import Q

from .common import ReaderRole
from .games import Game, Link, Seat
from .scorebooks import Scorebook, member_of, role_of


class NightQuerySet(models.QuerySet):
    def for_user(self, user):
        """Nights of every scorebook `user` belongs to."""
        return self.filter(scorebook__in=member_of(user))

    def with_role(self, user):
        """As for_user, each with the reader's `role` in its scorebook (and the scorebook, for its time zone)."""
        return self.for_user(user).annotate(role=role_of(user)).select_related("scorebook")


class Night(ReaderRole, models.Model):
    """An evening of a club: its games are its tables (Game.night), and its standings sum the place
    points each player earned at them (rules.nights). `date` is a day in the scorebook's time zone.
    `version` moves on with every change of the night itself (a new name or day, a game coming or
    going), so the night's ETag (reads.nights.etag_of) changes with it and with every table's."""

    scorebook = models.ForeignKey(Scorebook, on_delete=models.CASCADE, related_name="nights")
    name = models.CharField(max_length=80)
    date = models.DateField()
    version = models.PositiveIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = NightQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["scorebook", "date"], name="night_scorebook_date")]
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="night_name_not_empty")]

    def __str__(self):
        return self.name

    def counted_seats(self):
        """The seats its standings count: players ranked (not those who left) in its finished games,
        out of the trash and not casual (a friendly game counts nowhere)."""
        return Seat.objects.filter(
            game__night_id=self.pk,
            game__status=Game.Status.FINISHED,
            game__deleted_at__isnull=True,
            game__casual=False,
            rank__isnull=False,
            left_after__isnull=True,
            place_points__isnull=False,
        )


class NightLink(Link):
    """A night's live link (a club's TV, the phones at its tables): every table and the standings."""

    KIND = "night"
    night = models.OneToOneField(Night, on_delete=models.CASCADE, related_name="live_link")
