"""Scorebooks, their members and invites, and the reader's role read with a row."""

import secrets
import zoneinfo
from datetime import date

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from .common import INVITE_LIFETIME, ReaderRole, Role


def role_of(user, scorebook_ref: str = "scorebook"):
    """The user's role in the scorebook `scorebook_ref` points at (None for a non-member), as a
    subquery, so a row and the reader's role come back in one query."""
    return Subquery(Membership.objects.filter(scorebook=OuterRef(scorebook_ref), user_id=user.pk).values("role")[:1])


def member_of(user):
    """Ids of the scorebooks `user` belongs to, as a subquery (a semi-join the database plans well)."""
    return Membership.objects.filter(user_id=user.pk).values("scorebook_id")


class ScorebookQuerySet(models.QuerySet):
    def for_user(self, user):
        """The scorebooks `user` belongs to, each with `role`: theirs."""
        return self.filter(pk__in=member_of(user)).annotate(role=role_of(user, "pk"))


def default_time_zone() -> str:
    return settings.TIME_ZONE


PERSONAL_NAME = _("{name}'s scorebook")  # a personal scorebook's, after its owner: "Ana's scorebook"


def personal_name(owner_name: str, language: str | None = None) -> str:
    """The name a personal scorebook starts with: its owner's (`owner_name`: the first name, else
    the email's part before @), in `language` (the page's, by default), within the 80 characters."""
    with translation.override(language or translation.get_language()):
        words = str(PERSONAL_NAME)
    room = 80 - len(words.format(name=""))
    return words.format(name=owner_name.strip()[:room].strip() or "?")


def personal_owner(name: str) -> str | None:
    """The owner's name in `name` when it is a personal scorebook's first name in any language of
    the site ("Ana's scorebook", "Libreta de Ana" -> "Ana"); None for any other name."""
    for language, _words in settings.LANGUAGES:
        with translation.override(language):
            before, after = str(PERSONAL_NAME).split("{name}")
        if len(name) > len(before) + len(after) and name.startswith(before) and name.endswith(after):
            return name[len(before) : len(name) - len(after)]
    return None


class Scorebook(ReaderRole, models.Model):
    """One set of players, games and leaderboards, kept by its members."""

    name = models.CharField(max_length=80)
    # Set on the one scorebook each user gets at sign-up; it cannot be deleted.
    personal_of = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="personal_scorebook"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A replay of the ratings left to a task (scorekeeper.services.ratings): where in the order of finished
    # games it starts (finished_at, game id), empty while the ratings are up to date. The point only
    # moves earlier until the task has replayed from it; `ratings_changes` counts every change handed
    # over, so a task that read an older count leaves the writing to the task enqueued after it.
    ratings_pending_at = models.DateTimeField(null=True, blank=True, editable=False)
    ratings_pending_game = models.BigIntegerField(null=True, blank=True, editable=False)
    ratings_changes = models.PositiveIntegerField(default=0, editable=False)
    # Where its members play (an IANA name): the day a game finished on, for its seasons.
    time_zone = models.CharField(max_length=64, default=default_time_zone)

    objects = ScorebookQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="scorebook_name_not_empty")]

    def __str__(self):
        return self.name

    @property
    def shown_name(self) -> str:
        """Its name as the page's language says it: a personal scorebook still under the name it
        started with, made in another language, reads in this one ("Ana's scorebook" is "Libreta de
        Ana" on a Spanish page, never "Libreta Ana's scorebook"); a name given by its owner, as given."""
        owner = personal_owner(self.name) if self.personal_of_id is not None else None
        return self.name if owner is None else personal_name(owner)

    @property
    def default_named(self) -> bool:
        """Still under its first name, which says "scorebook" itself: a page's "Scorebook" before it
        would say it twice ("Scorebook Ana's scorebook")."""
        return self.personal_of_id is not None and personal_owner(self.name) is not None

    @property
    def personal(self) -> bool:
        return self.personal_of_id is not None

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo(settings.TIME_ZONE)

    def today(self) -> date:
        """Today, where its members play."""
        return timezone.localdate(timezone=self.zone)

    @property
    def ratings_updating(self) -> bool:
        """A task is replaying the ratings: until it is done they are those from before the change."""
        return self.ratings_pending_game is not None

    @classmethod
    def personal_for(cls, user) -> "Scorebook":
        """The user's personal scorebook, made on first need (sign-up makes it; older accounts and
        `createsuperuser` ones get it here)."""
        book = cls.objects.filter(personal_of=user).first()
        if book is None:
            try:
                with transaction.atomic():
                    name = personal_name(user.short_name, user.language or None)
                    book = cls.objects.create(name=name, personal_of=user)
                    Membership.objects.create(scorebook=book, user=user, role=Role.OWNER, last_used_at=timezone.now())
            except IntegrityError:  # made at the same moment by another request
                book = cls.objects.get(personal_of=user)
        return book


class Membership(ReaderRole, models.Model):
    scorebook = models.ForeignKey(Scorebook, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=6, choices=Role.choices)
    joined_at = models.DateTimeField(auto_now_add=True)
    # The pages work in the scorebook a user chose last (the switcher sets this).
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["scorebook", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["scorebook", "user"], name="membership_unique"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_known"),
        ]

    def __str__(self):
        return f"{self.user} ({self.role}) in {self.scorebook}"


def new_invite_code() -> str:
    return secrets.token_urlsafe(18)  # 144 bits


def invite_expiry():
    return timezone.now() + INVITE_LIFETIME


class InviteQuerySet(models.QuerySet):
    def unused(self):
        """Never accepted and not expired. `accepted_at` is the mark of use: it outlives the account
        that used the code (`accepted_by` goes empty when that account is deleted)."""
        return self.filter(accepted_at__isnull=True, expires_at__gt=timezone.now())

    def usable_by(self, user):
        """What `user` may accept: an unused invite, or (accepting again changes nothing) one they
        used themselves, still unexpired, while they are still a member with its role. A code is
        used once, by one account, ever: after that member leaves or is removed, or an owner changes
        their role, it answers nobody, so no old code undoes an owner's decision."""
        if user.pk is None:
            return self.unused()
        still_theirs = Membership.objects.filter(
            scorebook=OuterRef("scorebook"), user_id=user.pk, role=OuterRef("role")
        )
        return self.filter(
            Q(accepted_at__isnull=True) | Q(accepted_by_id=user.pk) & Exists(still_theirs),
            expires_at__gt=timezone.now(),
        )


class Invite(models.Model):
    """A link that makes whoever opens it (signed in) a member with `role`: once, within 7 days."""

    scorebook = models.ForeignKey(Scorebook, on_delete=models.CASCADE, related_name="invites")
    code = models.CharField(max_length=32, unique=True, default=new_invite_code, editable=False)
    role = models.CharField(max_length=6, choices=[(Role.SCORER, "Scorer"), (Role.VIEWER, "Viewer")])
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(default=invite_expiry)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)

    objects = InviteQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # An accepted invite always carries the mark of use that outlives the account.
            models.CheckConstraint(
                condition=Q(accepted_by__isnull=True) | Q(accepted_at__isnull=False), name="invite_accepted_has_time"
            ),
        ]

    def __str__(self):
        return f"{self.role} invite to {self.scorebook}"
