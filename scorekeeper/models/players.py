"""Someone at the table, in one scorebook."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ..rules.rating import START, Rating
from .common import ReaderRole, name_key
from .scorebooks import Scorebook, member_of, role_of


class PlayerQuerySet(models.QuerySet):
    def for_user(self, user):
        """Players of every scorebook `user` belongs to."""
        return self.filter(scorebook__in=member_of(user))

    def with_role(self, user):
        """As for_user, each with the reader's `role` in its scorebook."""
        return self.for_user(user).annotate(role=role_of(user))

    def active(self):
        """Not archived: who the pickers offer and the boards rank."""
        return self.filter(archived=False)

    def named(self, name: str):
        return self.filter(name_key=name_key(name))


class Player(ReaderRole, models.Model):
    """Someone at the table, in one scorebook; needs no account, but may be linked to one ("this is me")."""

    history = HistoricalRecords(
        excluded_fields=["created_at", "name_key", "rating_mu", "rating_sigma"], related_name="changes"
    )

    scorebook = models.ForeignKey(Scorebook, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="linked_players"
    )
    name = models.CharField(max_length=40)
    # name_key(name), kept by save(): folding can lengthen a name ("ß" becomes "ss").
    name_key = models.CharField(max_length=160, editable=False)
    # An archived player (a guest who came once) is left off pickers, boards and lists; their games
    # are untouched, and they can be brought back.
    archived = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # The OpenSkill rating after the player's latest finished game (scorekeeper.services.ratings keeps it);
    # empty before the first one, which means the model's starting rating.
    rating_mu = models.FloatField(null=True, blank=True, editable=False)
    rating_sigma = models.FloatField(null=True, blank=True, editable=False)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name_key"]
        constraints = [
            models.UniqueConstraint(
                fields=["scorebook", "name_key"],
                name="player_name_unique_per_scorebook",
                violation_error_message=_("This scorebook already has a player with this name."),
            ),
            models.UniqueConstraint(
                fields=["scorebook", "user"], condition=Q(user__isnull=False), name="player_one_per_user_per_scorebook"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.name_key = name_key(self.name)
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key"}
        super().save(*args, **kwargs)

    @property
    def rating(self) -> Rating:
        """The current rating; the model's starting one before any finished game."""
        return START if self.rating_mu is None else Rating(self.rating_mu, self.rating_sigma)
