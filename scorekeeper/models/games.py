"""Games, their seats, rounds and entries, live links and idempotency keys.

The database itself refuses what must never happen: two entries for one player in a
round, two rounds with one number, negative pips, a score that is not pips plus
penalty, a player deleted while seated in a game."""

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .. import clock
from ..rules.game import DEFAULT_PENALTY, MAX_ROUNDS, RULE_FIELDS, GameRules, TieBreak
from ..rules.rounds import Seat as SeatRule
from ..rules.scoring import EndReason
from ..rules.seating import Change, JoinTotal
from ..rules.seating import SeatChange as SeatChangeRule
from ..rules.tiles import DEFAULT_SET, SUPPORTED_SETS
from .common import TILE_SET_CHOICES, ReaderRole
from .players import Player
from .scorebooks import Scorebook, member_of, role_of


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

    def counted(self):
        """Finished games that count (in records, ratings, boards, seasons): out of the trash, not casual."""
        return self.finished().alive().filter(casual=False)

    def with_seats(self):
        """Each game with its seats in order and their players: one query for all of them."""
        return self.prefetch_related(models.Prefetch("seats", Seat.objects.in_order()))


class SeatQuerySet(models.QuerySet):
    def in_order(self):
        """Around the table, each with its player."""
        return self.select_related("player").order_by("position")


class RoundQuerySet(models.QuerySet):
    def with_entries(self):
        """Each round with its entries in seat order: one query for all of them."""
        return self.prefetch_related(models.Prefetch("entries", Entry.objects.order_by("position")))

    def in_order(self):
        """In order, with who recorded and corrected each: what a sheet and the API show."""
        return self.order_by("number").select_related("recorded_by", "corrected_by").with_entries()


# The column that holds each of GameRules' fields: the same name, except `rounds` (a game's
# `rounds` are the rounds it played; the house's number of rounds is `max_rounds`).
RULE_COLUMNS = {name: "max_rounds" if name == "rounds" else name for name in RULE_FIELDS}
JOIN_TOTAL_CHOICES = [
    (JoinTotal.HIGHEST, _("The highest total at the table")),
    (JoinTotal.AVERAGE, _("The table's average, rounded up")),
    (JoinTotal.ZERO, _("Zero")),
]
TIE_BREAK_CHOICES = [
    (TieBreak.SHARED, _("Share the place")),
    (TieBreak.MOST_WENT_OUT, _("Most rounds gone out ranks first")),
]


def numbered_title(number: int, day) -> str:
    """What a game without a name is called: "Game 3 · Mon 23 Nov", in the current language (the day as
    every page writes one, clock.day: a paper game of another year says its year)."""
    return gettext("Game {number} · {day}").format(number=number, day=clock.day(day))


def table_title(table: int) -> str:
    """What a night's game without a name is called: "Table 4", in the current language."""
    return gettext("Table {number}").format(number=table)


def title_of(*, name: str, table: int | None, number: int | None, day) -> str:
    """What a game is called, wherever it is shown (Game.title, its history): its name; without one,
    at a night, its table ("Table 4"); else its number and day ("Game 3 · Mon 23 Nov"); else ""
    (a game made through the API without a name). `table`: None outside a night."""
    if name:
        return name
    if table is not None:
        return table_title(table)
    return "" if number is None else numbered_title(number, day)


class Game(ReaderRole, models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    scorebook = models.ForeignKey(Scorebook, on_delete=models.CASCADE, related_name="games")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="games_created"
    )
    name = models.CharField(max_length=80, blank=True)
    # A game started on the pages without a name is called by its number among the scorebook's
    # games and the day it was made, in the language of whoever reads it (Game.title).
    number = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # Travels with the game in exports, so importing the same file twice creates nothing twice.
    uid = models.UUIDField(default=uuid.uuid4, editable=False)
    players = models.ManyToManyField(Player, through="Seat", through_fields=("game", "player"), related_name="games")
    # The club night the game is a table of (models.nights), if any: of the game's scorebook.
    night = models.ForeignKey(
        "scorekeeper.Night", null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    # Its table at the night: 1, 2, ... in the order the night's games joined it (services.nights
    # numbers it under the night's lock); empty outside a night. What a night's game without a name is
    # called on every phone and TV ("Table 4", Game.title). A number is never given twice in a night.
    table = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)

    # The rules, fixed when the game is created: one column per GameRules field (RULE_COLUMNS).
    tile_set = models.PositiveSmallIntegerField(choices=TILE_SET_CHOICES, default=DEFAULT_SET)
    double_blank_penalty = models.PositiveSmallIntegerField(default=DEFAULT_PENALTY)
    end_on_double_penalty = models.PositiveSmallIntegerField(default=DEFAULT_PENALTY)
    extended = models.BooleanField(default=False)
    target_score = models.PositiveIntegerField(null=True, blank=True)
    # House options: the double the sequence starts from (empty: the set's top double), a number
    # of rounds the game ends after (empty: none), and how equal totals are ranked.
    first_double = models.PositiveSmallIntegerField(null=True, blank=True)
    max_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    tie_break = models.CharField(max_length=16, choices=TIE_BREAK_CHOICES, default=TieBreak.SHARED)
    # What a player joining after the first round starts with (rules.seating.JoinTotal).
    join_total = models.CharField(max_length=8, choices=JOIN_TOTAL_CHOICES, default=JoinTotal.HIGHEST)
    # A friendly game: kept in history and exports, counted nowhere else (no record, rating, board,
    # season or night). Switching a finished game takes back, or gives again, what it counted
    # (services.games.set_casual).
    casual = models.BooleanField(default=False)
    # The day the game was played, in its scorebook's time zone: the day it finished, for a game
    # recorded at the table (services.state.save_state); the day written on the sheet, for a paper
    # game entered afterwards (`entered_afterwards`, services.paper), whose finished_at is a moment
    # of that day (rules.paper.counted_at), so it counts where its day says.
    played_on = models.DateField(null=True, blank=True)
    entered_afterwards = models.BooleanField(default=False)

    # The game's state (rules.scoring.derive), saved by the services after every write.
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    ended_because = models.CharField(
        max_length=10,
        blank=True,
        choices=[
            (EndReason.SEQUENCE, _("Every double was played")),
            (EndReason.TARGET, _("The target was reached")),
            (EndReason.ROUNDS, _("The agreed rounds were played")),
            (EndReason.AGREED, _("The table agreed to stop")),
        ],
    )
    # The round after which the table agreed to stop ("We stop here", services.finish_game): a fact
    # of the game, like its rounds, that the state is derived from. Undoing that round takes it away.
    stopped_after = models.PositiveSmallIntegerField(null=True, blank=True)
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
        indexes = [
            models.Index(fields=["scorebook", "status", "-created_at"]),
            # A season's games: those of its scorebook finished within its days.
            models.Index(fields=["scorebook", "finished_at"], name="game_scorebook_finished"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(tile_set__in=SUPPORTED_SETS), name="game_tile_set_supported"),
            models.UniqueConstraint(fields=["scorebook", "uid"], name="game_uid_unique_per_scorebook"),
            models.UniqueConstraint(fields=["night", "table"], name="game_table_unique_per_night"),
            models.CheckConstraint(
                condition=Q(target_score__isnull=True) | Q(target_score__gte=1), name="game_target_positive"
            ),
            models.CheckConstraint(
                condition=Q(first_double__isnull=True) | Q(first_double__lte=F("tile_set")),
                name="game_first_double_in_set",
            ),
            models.CheckConstraint(
                condition=Q(max_rounds__isnull=True) | Q(max_rounds__gte=1, max_rounds__lte=MAX_ROUNDS),
                name="game_max_rounds_in_range",
            ),
            models.CheckConstraint(condition=Q(tie_break__in=TieBreak.CHOICES), name="game_tie_break_known"),
            models.CheckConstraint(condition=Q(join_total__in=JoinTotal.CHOICES), name="game_join_total_known"),
            models.CheckConstraint(
                condition=Q(status="finished", finished_at__isnull=False)
                | Q(status="in_progress", finished_at__isnull=True),
                name="game_finished_at_matches_status",
            ),
        ]

    def __str__(self):
        return self.title or gettext("Game {number}").format(number=self.pk)

    @property
    def title(self) -> str:
        """The name; without one, "Table 4" for a night's game, "Game 3 · Mon 23 Nov" for a game
        started on the pages, "" for one made through the API (title_of)."""
        return title_of(name=self.name, table=self.table_at_night, number=self.number, day=self.title_day)

    @property
    def table_at_night(self) -> int | None:
        """Its table number while it is a night's game (a game whose night went keeps no table)."""
        return self.table if self.night_id is not None else None

    @property
    def title_day(self):
        """The day a game's numbered title names: the day on its sheet for a paper game (whatever
        time zone its scorebook has since), else the day it was started on the table's clock."""
        return self.played_on if self.entered_afterwards and self.played_on else timezone.localdate(self.created_at)

    def hold(self, relation: str, objects) -> "Game":
        """`self.<relation>.all()` gives `objects` from now on, without a query, as if prefetched:
        a write's answer built from what its command has in hand."""
        kept = self._meta.get_field(relation).related_model.objects.none()
        kept._result_cache, kept._prefetch_done = list(objects), True
        self.__dict__.setdefault("_prefetched_objects_cache", {})[relation] = kept
        return self

    @property
    def rules(self) -> GameRules:
        return GameRules(**{name: getattr(self, column) for name, column in RULE_COLUMNS.items()})

    @staticmethod
    def columns_of(rules: GameRules) -> dict:
        """The rules as the game's columns hold them (RULE_COLUMNS)."""
        return {RULE_COLUMNS[name]: value for name, value in rules.as_dict().items()}

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
    """A player's place at a game's table, with their running total and rank. Everyone who ever sat
    at the table keeps a seat: one who joined late, left, or took over another's seat says so
    (the columns below mirror the game's saved state, written with it)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # Summary columns kept in step by the services, so reports aggregate seats, not entries.
    total = models.IntegerField(default=0)
    rank = models.PositiveSmallIntegerField(default=1, null=True, help_text="Empty for a player who left: unranked.")
    place = models.PositiveSmallIntegerField(default=0, help_text="Display order in the standings: rank, then seat.")
    # rules.places.place_points, in tenths (0 to 100): what the finished game gives the seat in a
    # season's table (empty while the game goes on).
    place_points = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty for a player who left, and while the game goes on."
    )
    is_winner = models.BooleanField(default=False)
    rounds = models.PositiveSmallIntegerField(default=0)
    went_out = models.PositiveSmallIntegerField(default=0)
    double_blank_penalties = models.PositiveSmallIntegerField(default=0)
    end_on_double_penalties = models.PositiveSmallIntegerField(default=0)
    # Their time at the table (rules.seating): what they started with, the rounds they joined and
    # left after (empty: from the start, still here), whose seat they took over.
    opening_total = models.IntegerField(default=0)
    joined_after = models.PositiveSmallIntegerField(null=True, blank=True)
    left_after = models.PositiveSmallIntegerField(null=True, blank=True)
    replaced = models.ForeignKey(Player, null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    # rules.story.deficits: how far behind the leader the seat was at its worst after a round it sat
    # in, and after which round (the latest when it was that far behind more than once); 0 and empty
    # when never behind. A win's `deficit` is its comeback (reads.story.comeback).
    deficit = models.PositiveSmallIntegerField(default=0)
    deficit_after = models.PositiveSmallIntegerField(null=True, blank=True)

    objects = SeatQuerySet.as_manager()

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

    @property
    def ranked(self) -> bool:
        """Ranked in the game: still at the table at its end (a player who left is not)."""
        return self.left_after is None

    @property
    def score_sum(self) -> int:
        """The sum of their round scores: the total less what they started with."""
        return self.total - self.opening_total


class SeatChange(models.Model):
    """A player joined, left or took over a seat between two rounds: `after` rounds were recorded.
    The game's saved state replays them in `number` order; undo takes the last one away."""

    KIND_CHOICES = [(Change.JOIN, _("Joined")), (Change.LEAVE, _("Left")), (Change.TAKE_OVER, _("Took over"))]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_changes")
    number = models.PositiveSmallIntegerField(help_text="1, 2, ... in the order they were made.")
    after = models.PositiveSmallIntegerField(help_text="How many rounds were recorded when it was made.")
    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="+")
    replaces = models.ForeignKey(Player, null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    # A joiner's opening total chosen at the door when it differs from the game's option ("": the option).
    join_total = models.CharField(max_length=8, blank=True, default="", choices=JOIN_TOTAL_CHOICES)
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)
    # Who made or undid each change, and when (the history's player_joined, ..., and their undoing).
    history = HistoricalRecords(excluded_fields=["created_at"], related_name="changes")

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_change_number_unique"),
            models.CheckConstraint(condition=Q(kind__in=Change.CHOICES), name="seat_change_kind_known"),
            models.CheckConstraint(
                condition=Q(kind="take_over", replaces__isnull=False) | ~Q(kind="take_over") & Q(replaces__isnull=True),
                name="seat_change_replaces_only_a_take_over",
            ),
            models.CheckConstraint(
                condition=Q(join_total="") | Q(kind="join", join_total__in=JoinTotal.CHOICES),
                name="seat_change_join_total_only_a_join",
            ),
        ]

    def __str__(self):
        return f"{self.kind} {self.player_id} after round {self.after} of {self.game_id}"

    def as_rule(self) -> SeatChangeRule:
        return SeatChangeRule(self.kind, self.player_id, self.after, self.replaces_id, self.join_total or None)


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

    objects = RoundQuerySet.as_manager()

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

    @staticmethod
    def whole(game, known_users=()) -> list["Round"]:
        """`game`'s rounds as in_order() gives them, in one query instead of two: each entry read
        with its round (every round has entries). Who recorded and corrected each is taken from
        `known_users` (the writer, usually) and read only when someone else did (a second query).
        What a write's answer reads right after its command, where every query counts."""
        entries = Entry.objects.filter(round__game=game).select_related("round").order_by("round__number", "position")
        rounds: dict[int, Round] = {}
        for entry in entries:
            round_ = rounds.get(entry.round_id)
            if round_ is None:
                round_ = rounds[entry.round_id] = entry.round
                round_.game, round_.saved_entries = game, []
            entry.round = round_
            round_.saved_entries.append(entry)
        users = {user.pk: user for user in known_users}
        ids = {pk for round_ in rounds.values() for pk in (round_.recorded_by_id, round_.corrected_by_id)}
        if missing := ids - set(users) - {None}:
            users |= Round._meta.get_field("recorded_by").related_model.objects.only("email").in_bulk(missing)
        for round_ in rounds.values():
            round_.recorded_by = users.get(round_.recorded_by_id)
            round_.corrected_by = users.get(round_.corrected_by_id)
        return list(rounds.values())

    @property
    def etag(self) -> str:
        """Tied to the game's version, which every write in the game moves on."""
        return self.etag_of(self.game_id, self.number, self.game.version)

    @staticmethod
    def etag_of(game_pk: int, number: int, version: int) -> str:
        return f'"game-{game_pk}-round-{number}-v{version}"'


# What the table says of one seat in a round; the rules work out the rest. The one list every
# copy of an entry (history, undo, imports, exports, the API, the live link) walks.
ENTRY_GIVEN = ("pips", "tiles_left", "tiles", "double_blank", "went_out", "ended_on_double")
ENTRY_FIELDS = (*ENTRY_GIVEN, "penalty", "score")


def entry_values(entry, fields: tuple[str, ...] = ENTRY_FIELDS) -> dict:
    """An entry (saved, or as the rules scored it) as plain values: its tiles as a list of text."""
    values = {field: getattr(entry, field) for field in fields}
    if "tiles" in values:
        values["tiles"] = [str(tile) for tile in values["tiles"] or ()]
    return values


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


class Link(models.Model):
    """A read-only link to what it opens (`KIND`: a game, LiveLink, or a night, NightLink): whoever
    holds it sees names and scores, without an account. At most one per game or night; replacing it
    makes a new token and the old one stops working at once. One kind of link: the same token, the
    same budget, the same kept entries and views (reads.live), whatever it opens."""

    KIND = ""
    selector = models.CharField(max_length=LIVE_SELECTOR_LENGTH, unique=True)
    verifier = models.CharField(max_length=LIVE_TOKEN_LENGTH - LIVE_SELECTOR_LENGTH)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        abstract = True

    def __str__(self):
        return f"live link of {self.opened}"

    @property
    def token(self) -> str:
        return self.selector + self.verifier

    @property
    def opened(self):
        """The game or night the link opens."""
        return getattr(self, self.KIND)

    @property
    def opens_id(self) -> int:
        return getattr(self, f"{self.KIND}_id")


class LiveLink(Link):
    """A game's live link: the sheet."""

    KIND = "game"
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="live_link")


class IdempotencyKey(models.Model):
    """A POST's Idempotency-Key, kept with the response it got, so a retry gets that response again."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True, help_text="Empty while the first request runs.")
    response_body = models.JSONField(null=True)
    location = models.CharField(max_length=500, blank=True)
    etag = models.CharField(max_length=100, blank=True, help_text="The first answer's ETag, replayed with it.")
    claimed_by = models.CharField(
        max_length=20, blank=True, help_text="The database session of the request that claimed it (PostgreSQL)."
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "key"], name="idempotency_key_unique_per_owner")]

    def __str__(self):
        return self.key
