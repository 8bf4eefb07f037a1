"""Players, games, rounds and entries.

The database itself refuses what must never happen: two entries for one player in a
round, two rounds with one number, negative pips, a score that is not pips plus
penalty, a player deleted while seated in a game.
"""

import secrets
import unicodedata
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .rules.game import DEFAULT_PENALTY, RULE_FIELDS, GameRules
from .rules.rating import START, Rating, ordinal
from .rules.rounds import Seat as SeatRule
from .rules.scoring import EndReason
from .rules.tiles import DEFAULT_SET, SUPPORTED_SETS

TILE_SET_CHOICES = [(n, format_lazy(_("Double-{n}"), n=n)) for n in SUPPORTED_SETS]


def name_key(name: str) -> str:
    """What makes two player names the same: Unicode compatibility forms folded (NFKC), then
    full case folding ("Straße" and "STRASSE", "ÐÇ" and "ðç" are one name). Stored beside the
    name, so the database's unique constraint, the forms and the API all compare this one value
    (SQLite's LOWER() folds ASCII only)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    SCORER = "scorer", _("Scorer")
    VIEWER = "viewer", _("Viewer")


# What each role may do: owners everything, scorers players/games/rounds, viewers read.
SCORING_ROLES = frozenset({Role.OWNER, Role.SCORER})


class HistoryAction(models.TextChoices):
    """What a version kept by django-simple-history records (its change reason); a game's history
    answers with these names (the API's `action`)."""

    GAME_CREATED = "game_created"
    GAME_RENAMED = "game_renamed"
    GAME_DELETED = "game_deleted"
    GAME_RESTORED = "game_restored"
    ROUND_RECORDED = "round_recorded"
    ROUND_CORRECTED = "round_corrected"
    ROUND_UNDONE = "round_undone"
    ROUND_RESTORED = "round_restored"
    PLAYER_RENAMED = "player_renamed"
    PLAYER_LINKED = "player_linked"
    PLAYER_UNLINKED = "player_unlinked"


INVITE_LIFETIME = timedelta(days=7)
TRASH_DAYS = 30


class ReaderRole:
    """A row read with the reader's `role` in its scorebook (a membership; or annotated by
    for_user / with_role, or set by scorebooks.current)."""

    @property
    def can_score(self) -> bool:
        """Whether the reader may write: players, games and rounds."""
        return getattr(self, "role", None) in SCORING_ROLES


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


class Scorebook(ReaderRole, models.Model):
    """One set of players, games and leaderboards, kept by its members."""

    name = models.CharField(max_length=80)
    # Set on the one scorebook each user gets at sign-up; it cannot be deleted.
    personal_of = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="personal_scorebook"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ScorebookQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="scorebook_name_not_empty")]

    def __str__(self):
        return self.name

    @property
    def personal(self) -> bool:
        return self.personal_of_id is not None

    @classmethod
    def personal_for(cls, user) -> "Scorebook":
        """The user's personal scorebook, made on first need (sign-up makes it; older accounts and
        `createsuperuser` ones get it here)."""
        book = cls.objects.filter(personal_of=user).first()
        if book is None:
            try:
                with transaction.atomic():
                    book = cls.objects.create(name="Personal", personal_of=user)
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


class PlayerQuerySet(models.QuerySet):
    def for_user(self, user):
        """Players of every scorebook `user` belongs to."""
        return self.filter(scorebook__in=member_of(user))

    def with_role(self, user):
        """As for_user, each with the reader's `role` in its scorebook."""
        return self.for_user(user).annotate(role=role_of(user))

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
    created_at = models.DateTimeField(auto_now_add=True)
    # The OpenSkill rating after the player's latest finished game (scorekeeper.ratings keeps it);
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


class GameQuerySet(models.QuerySet):
    def alive(self):
        """Not in the trash."""
        return self.filter(deleted_at__isnull=True)

    def trashed(self):
        return self.filter(deleted_at__isnull=False)

    def for_user(self, user):
        """Games of every scorebook `user` belongs to (the trash left out)."""
        return self.alive().filter(scorebook__in=member_of(user))

    def with_role(self, user):
        """As for_user, each with the reader's `role` in its scorebook."""
        return self.for_user(user).annotate(role=role_of(user))

    def in_progress(self):
        return self.filter(status=Game.Status.IN_PROGRESS)

    def finished(self):
        return self.filter(status=Game.Status.FINISHED)


class Game(ReaderRole, models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    scorebook = models.ForeignKey(Scorebook, on_delete=models.CASCADE, related_name="games")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="games_created"
    )
    name = models.CharField(max_length=80, blank=True)
    # Travels with the game in exports, so importing the same file twice creates nothing twice.
    uid = models.UUIDField(default=uuid.uuid4, editable=False)
    players = models.ManyToManyField(Player, through="Seat", related_name="games")

    # The rules, fixed when the game is created: one column per GameRules field, same names.
    tile_set = models.PositiveSmallIntegerField(choices=TILE_SET_CHOICES, default=DEFAULT_SET)
    double_blank_penalty = models.PositiveSmallIntegerField(default=DEFAULT_PENALTY)
    end_on_double_penalty = models.PositiveSmallIntegerField(default=DEFAULT_PENALTY)
    extended = models.BooleanField(default=False)
    target_score = models.PositiveIntegerField(null=True, blank=True)

    # The game's state (rules.scoring.derive), saved by the services after every write.
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    ended_because = models.CharField(
        max_length=10,
        blank=True,
        choices=[(EndReason.SEQUENCE, _("Every double was played")), (EndReason.TARGET, _("The target was reached"))],
    )
    next_double = models.PositiveSmallIntegerField(null=True, blank=True)
    # The whole state as rules.snapshot saves it (standings, running totals, open doubles, per-seat
    # counts), written with the columns above by every change: what every page and answer reads.
    state = models.JSONField(null=True, blank=True, editable=False)
    # The round last undone, as entered, until another round is recorded: it can be brought back.
    undone_round = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=1, help_text="Goes up with every change: ETags and stale forms.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A deleted game waits in its scorebook's trash for TRASH_DAYS, then `purge_trash` removes it.
    deleted_at = models.DateTimeField(null=True, blank=True)
    deleted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")  # fmt: skip

    objects = GameQuerySet.as_manager()
    # Who created, renamed or deleted the game, and when (the state columns change with every
    # round and are derived, so they are left out).
    history = HistoricalRecords(
        excluded_fields=["status", "ended_because", "next_double", "state", "undone_round", "version",
                         "updated_at", "finished_at", "created_at", "deleted_by"],
        related_name="changes",
    )  # fmt: skip

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["scorebook", "status", "-created_at"])]
        constraints = [
            models.CheckConstraint(condition=Q(tile_set__in=SUPPORTED_SETS), name="game_tile_set_supported"),
            models.UniqueConstraint(fields=["scorebook", "uid"], name="game_uid_unique_per_scorebook"),
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
        return GameRules(**{name: getattr(self, name) for name in RULE_FIELDS})

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def etag(self) -> str:
        return self.etag_of(self.pk, self.version)

    @staticmethod
    def etag_of(pk: int, version: int) -> str:
        return f'"game-{pk}-v{version}"'


class Seat(models.Model):
    """A player's place at a game's table, with their running total and rank."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # Summary columns kept in step by the services, so reports aggregate seats, not entries.
    total = models.IntegerField(default=0)
    rank = models.PositiveSmallIntegerField(default=1)
    place = models.PositiveSmallIntegerField(default=0, help_text="Display order in the standings: rank, then seat.")
    is_winner = models.BooleanField(default=False)
    rounds = models.PositiveSmallIntegerField(default=0)
    went_out = models.PositiveSmallIntegerField(default=0)
    double_blank_penalties = models.PositiveSmallIntegerField(default=0)
    end_on_double_penalties = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["game", "position"]
        # A player's best and worst totals: the first finished game along this index.
        indexes = [models.Index(fields=["player", "total"], name="seat_player_total")]
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
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The entries as saved, by player name: what the history keeps of each version of the round.
    entries_as_saved = models.JSONField(default=list, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(excluded_fields=["updated_at", "created_at"], related_name="changes")

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

    # Set by the services on a round they have just written, so answering with it reads nothing back.
    saved_entries: list["Entry"] | None = None

    def entries_in_order(self):
        """The entries in seat order: as just saved, or as prefetched (ordered by position)."""
        return self.saved_entries if self.saved_entries is not None else self.entries.all()

    @property
    def etag(self) -> str:
        """Tied to the game's version, which every write in the game moves on."""
        return self.etag_of(self.game_id, self.number, self.game.version)

    @staticmethod
    def etag_of(game_pk: int, number: int, version: int) -> str:
        return f'"game-{game_pk}-round-{number}-v{version}"'


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


def new_live_token() -> tuple[str, str]:
    """A selector to find the link by and a secret verifier (192 bits) compared in constant time."""
    return secrets.token_urlsafe(9), secrets.token_urlsafe(24)


LIVE_SELECTOR_LENGTH, LIVE_TOKEN_LENGTH = 12, 44


class LiveLink(models.Model):
    """A game's read-only link: whoever holds it sees the sheet, without an account. At most one
    per game; replacing it makes a new token and the old one stops working at once."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="live_link")
    selector = models.CharField(max_length=LIVE_SELECTOR_LENGTH, unique=True)
    verifier = models.CharField(max_length=LIVE_TOKEN_LENGTH - LIVE_SELECTOR_LENGTH)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return f"live link of {self.game}"

    @property
    def token(self) -> str:
        return self.selector + self.verifier

    def etag(self, version: int) -> str:
        return f'"live-{self.selector}-v{version}"'


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
    # The lowest and highest total of those games (None before any): worked out again from the
    # seats, along the seat_player_total index, whenever the set of finished games changes.
    best_total = models.IntegerField(null=True, blank=True)
    worst_total = models.IntegerField(null=True, blank=True)

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
    finished games in the order they ended (finished_at, then id); scorekeeper.ratings replays them."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_steps")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_steps")
    scorebook = models.ForeignKey(Scorebook, on_delete=models.CASCADE, related_name="+")
    finished_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()

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
