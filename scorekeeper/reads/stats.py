"""Leaderboard and player figures: all time from the per-set records the services keep, any other
period aggregated by the database from the seats' summary columns.

What a board counts is said once: `counted` (the games: finished, out of the trash, of the set and
window asked: casual games left out) and `listed` (the players: archived ones left out)."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time
from operator import attrgetter
from typing import ClassVar

from django.db.models import Avg, BooleanField, Count, ExpressionWrapper, F, Max, Min, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy

from ..models import DoubleRecord, Entry, Game, OpponentRecord, Player, PlayerRecord, RatingStep, Seat
from ..rules import rating as rating_rules
from ..rules.rating import Standing, ordinal
from ..rules.scoring import OUTCOMES, leaderboard_order, shared_places

PERIODS = {"month": gettext_lazy("This month"), "year": gettext_lazy("This year"), "all": gettext_lazy("All time")}
SORTS = [
    "name",
    "games",
    "wins",
    "win_rate",
    "average_round_score",
    "rounds",
    "went_out",
    "double_blank_penalties",
    "end_on_double_penalties",
]


# A rating in words, relative to the others at the table (scorekeeper.rules.rating.standings).
STANDING_WORDS = {
    Standing.TOP: gettext_lazy("likely top of this table"),
    Standing.HIGH: gettext_lazy("among the strongest here"),
    Standing.LEVEL: gettext_lazy("about level with this table"),
    Standing.LOW: gettext_lazy("behind this table for now"),
    Standing.NEW: gettext_lazy("new: a few more games to tell"),
}


def rated_games():
    """Each player's finished games, all time (their rating steps: what the rating has seen), as a
    subquery: the players' query carries it, with no query of its own and no join to multiply the
    seats' sums."""
    steps = RatingStep.objects.filter(player=OuterRef("pk")).order_by().values("player")
    return Coalesce(Subquery(steps.annotate(n=Count("pk")).values("n")), 0)


def ratings_updating():
    """Whether a task is replaying the ratings of the player's scorebook (Scorebook.ratings_updating),
    for the players' query: a join it mostly has already, no query of its own."""
    return ExpressionWrapper(Q(scorebook__ratings_pending_game__isnull=False), output_field=BooleanField())


def standings(players) -> dict[int, Standing]:
    """Each player's standing (by pk) against the others of `players`: one table's players, each
    annotated with `rated_games`. STANDING_WORDS says it."""
    return rating_rules.standings({player.pk: (player.rating, player.rated_games) for player in players})


def period_start(period: str):
    """When a reporting period began: the first of this month or year, or None for all time."""
    now = timezone.localtime()
    if period == "month":
        return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    if period == "year":
        return now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    return None


def day_begins(scorebook, day: date) -> datetime:
    """The moment `day` begins where the scorebook plays (its time zone): "since a day" counts from it."""
    return datetime.combine(day, time.min, scorebook.zone)


def window(*, season=None, since: datetime | None = None) -> dict:
    """The moments a board's games finished between: from the later of `since` and the season's
    first day, to the day after the season's last (None: no bound). Keyword arguments of `counted`."""
    starts = [moment for moment in (since, season and season.starts_at) if moment is not None]
    return {"since": max(starts, default=None), "until": season.ends_before if season else None}


def counted(game: str, tile_set: int | None = None, since=None, until=None) -> Q:
    """The games a board counts (reached through the lookup `game`): finished, out of the trash, not
    casual, of one set and finished within [since, until) when given. The one place what counts is said."""
    condition = Q(**{f"{game}__status": Game.Status.FINISHED, f"{game}__deleted_at__isnull": True,
                     f"{game}__casual": False})  # fmt: skip
    if tile_set is not None:
        condition &= Q(**{f"{game}__tile_set": tile_set})
    if since is not None:
        condition &= Q(**{f"{game}__finished_at__gte": since})
    if until is not None:
        condition &= Q(**{f"{game}__finished_at__lt": until})
    return condition


def listed(players):
    """The players a board lists, of those given (the one place a filter of players goes): not archived."""
    return players.active()


def seat_figures(seats) -> dict[int, dict]:
    """The figures of `seats` (of counted games) summed per player by the database, one grouped
    query: {player id: figures}. The game figures count the games a player was ranked in
    (PlayerRecord.GAME_SUMS), the round figures every round they sat in."""
    ranked = Q(left_after__isnull=True)
    rows = (
        seats.values("player_id")
        .annotate(
            game_count=Count("pk", filter=ranked),
            wins=Count("pk", filter=ranked & Q(is_winner=True)),
            total_sum=Coalesce(Sum("total", filter=ranked), 0),
            rounds=Coalesce(Sum("rounds"), 0),
            went_out=Coalesce(Sum("went_out"), 0),
            double_blank_penalties=Coalesce(Sum("double_blank_penalties"), 0),
            end_on_double_penalties=Coalesce(Sum("end_on_double_penalties"), 0),
            score_sum=Coalesce(Sum(F("total") - F("opening_total")), 0),
            best_total=Min("total", filter=ranked),
            worst_total=Max("total", filter=ranked),
        )
        .order_by()
    )
    return {row.pop("player_id"): row for row in rows}


@dataclass
class Figures:
    """One player's figures over finished games; the rates are worked out from the sums."""

    player: Player
    game_count: int = 0
    wins: int = 0
    total_sum: int = 0
    rounds: int = 0
    went_out: int = 0
    double_blank_penalties: int = 0
    end_on_double_penalties: int = 0
    score_sum: int = 0  # the sum of their round scores (opening totals left out)
    best_total: int | None = None
    worst_total: int | None = None
    ratings_updating: bool = False  # a task is replaying the ratings of the player's scorebook
    rank: int | None = None  # the place on a board (shared when level); None: no game it counts
    rating_over: ClassVar[str] = "all_games"  # a rating follows every game in turn, whatever a board counts

    pk = property(lambda self: self.player.pk)
    name = property(lambda self: self.player.name)
    rating = property(lambda self: self.player.rating)
    scorebook = property(lambda self: self.player.scorebook)

    @property
    def win_rate(self) -> float:
        return self.wins / self.game_count if self.game_count else 0.0

    @property
    def went_out_rate(self) -> float:
        return self.went_out / self.rounds if self.rounds else 0.0

    @property
    def average_total(self) -> float | None:
        return self.total_sum / self.game_count if self.game_count else None

    @property
    def average_round_score(self) -> float | None:
        """Round scores over rounds played: an opening total (a late joiner's) is not a round score."""
        return self.score_sum / self.rounds if self.rounds else None


# What the figures show of a player (scorebook: for the pages' links and the history).
PLAYER_FIELDS = ["pk", "scorebook", "name", "name_key", "rating_mu", "rating_sigma"]
TABLE_FIELDS = ["pk", "rating_mu", "rating_sigma"]  # what the words of a rating compare
RECORD_SUMS = list(PlayerRecord.SUMS)
SUMS = ["game_count", *RECORD_SUMS[1:]]  # as the period's aggregate names them


def figures_from_records(players, *, tile_set: int | None = None) -> list[Figures]:
    """All-time figures of `players` (Player instances) from the per-set records the services
    keep: one plain query over a few rows per player, however many games they played. The sums
    are added up here rather than by a GROUP BY: building that query cost more than running it."""
    people = list(players)
    records = PlayerRecord.objects.filter(player__in=[p.pk for p in people])
    if tile_set is not None:
        records = records.filter(tile_set=tile_set)
    sums = defaultdict(lambda: [0] * len(RECORD_SUMS))
    extremes = defaultdict(list)
    for player_id, best, worst, *values in records.values_list("player_id", "best_total", "worst_total", *RECORD_SUMS):
        sums[player_id] = [a + b for a, b in zip(sums[player_id], values, strict=True)]
        extremes[player_id] += [(best, worst)] if best is not None else []
    return [
        Figures(p, *sums[p.pk], best_total=min((b for b, _ in extremes[p.pk]), default=None),
                worst_total=max((w for _, w in extremes[p.pk]), default=None))
        for p in people
    ]  # fmt: skip


def figures_from_seats(players, *, tile_set: int | None = None, since=None, until=None) -> list[Figures]:
    """The same figures over any window, from the seats: the players (Player instances, or a
    queryset: one query), then the seats of the games counted summed per player (one grouped query).
    That query starts from the games of the players' scorebooks finished in the window (their
    (scorebook, finished_at) index), so it reads the window's seats, not every seat of the players."""
    people = list(players)
    seats = Seat.objects.filter(
        counted("game", tile_set, since, until),
        game__scorebook_id__in={person.scorebook_id for person in people},
        player_id__in=[person.pk for person in people],
    )
    sums = seat_figures(seats) if people else {}
    return [Figures(person, **sums.get(person.pk, {})) for person in people]


# Columns a leaderboard can be sorted by (the query parameter on the left, the figure on the right).
SORT_KEYS = {key: key for key in SORTS} | {"name": "player.name_key", "games": "game_count", "rating": "rating.ordinal"}


def leaderboard(
    players, *, tile_set: int | None = None, since=None, until=None, sort: str | None = None
) -> list[Figures]:
    """`players` (a Player queryset: one scorebook's) with their figures over the games counted
    (all time from the records; a set from its records; a window, `since` and `until` moments, from
    the seats): most wins first, then win rate, then the lower average per round.

    `sort` (a key of SORT_KEYS, "-" in front for descending; "rating" is the highest first and
    "-rating" the lowest first) puts one column first instead. Every line with a game counted gets
    a place, shared when level on what orders the board (1, 1, 3); the players without one follow,
    by name, with no place. The rating is the one over all games whatever the filters: a rating
    follows every game in turn, and is not worked out again for a set or a window of days."""
    players = listed(players).only(*PLAYER_FIELDS).annotate(ratings_updating=ratings_updating())
    rows = figures_from_records(players, tile_set=tile_set) if since is None and until is None else (
        figures_from_seats(players, tile_set=tile_set, since=since, until=until)
    )  # fmt: skip
    for row in rows:
        row.ratings_updating = row.player.ratings_updating
    ranked = [row for row in rows if row.game_count]
    ranked.sort(key=lambda f: (*_standing(f), f.player.name_key, f.pk))
    column = (sort or "").lstrip("-")
    place = _standing
    if column in SORT_KEYS:
        value = attrgetter(SORT_KEYS[column])
        descending = sort.startswith("-") != (column == "rating")
        present = sorted((row for row in ranked if value(row) is not None), key=value, reverse=descending)
        ranked = present + [
            row for row in ranked if value(row) is None
        ]  # sorted() is stable: ties keep the order above
        place = value
    for row, rank in zip(ranked, shared_places([place(row) for row in ranked]), strict=True):
        row.rank = rank
    apart = sorted((row for row in rows if not row.game_count), key=lambda f: (f.player.name_key, f.pk))
    return ranked + apart


def _standing(figures: Figures) -> tuple:
    return leaderboard_order(figures.wins, figures.win_rate, figures.average_round_score)


def my_players(user) -> list[Figures]:
    """The players linked to `user` in every scorebook they belong to, with all-time figures."""
    players = Player.objects.for_user(user).filter(user=user).select_related("scorebook")
    return figures_from_records(players.only("pk", "name", "scorebook__name").order_by("scorebook__name", "pk"))


def summed(rows) -> Figures:
    """One set of figures over several players' rows (no player of its own)."""
    return Figures(None, *(sum(getattr(row, key) for row in rows) for key in SUMS))


def player_figures(player, *, tile_set: int | None = None, since=None) -> Figures:
    """One player's figures: all time from the few per-set records (best and worst totals
    included), a period aggregated from the seats."""
    if since is not None:
        return figures_from_seats([player], tile_set=tile_set, since=since)[0]
    return figures_from_records([player], tile_set=tile_set)[0]


def _records_of(model, player, tile_set: int | None):
    records = model.objects.filter(player_id=player.pk)
    return records if tile_set is None else records.filter(tile_set=tile_set)


def _summed_by(rows) -> dict:
    """Rows of (key, *numbers) added up per key: the per-set records of one player, merged."""
    sums = {}
    for key, *values in rows:
        sums[key] = [a + b for a, b in zip(sums[key], values, strict=True)] if key in sums else values
    return sums


def by_starting_double(player, *, tile_set: int | None = None, since=None) -> list[dict]:
    """Per starting double: rounds played, average pips and average score, in finished games
    (all time from the per-double records, a period from the entries), the highest double first."""
    if since is not None:
        return by_starting_double_from_entries(player, tile_set=tile_set, since=since)
    records = _records_of(DoubleRecord, player, tile_set).values_list(
        "starting_double", "rounds", "pips_sum", "score_sum"
    )
    return [
        {"starting_double": double, "rounds": n, "average_pips": pips / n, "average_score": score / n}
        for double, (n, pips, score) in sorted(_summed_by(records).items(), reverse=True)
        if n
    ]


def by_starting_double_from_entries(player, *, tile_set: int | None = None, since=None) -> list[dict]:
    entries = Entry.objects.filter(counted("round__game", tile_set, since), player=player)
    return list(
        entries.values(starting_double=F("round__starting_double"))
        .annotate(rounds=Count("pk"), average_pips=Avg("pips"), average_score=Avg("score"))
        .order_by("-starting_double")
    )


def _most_games_first(rows: list[dict]) -> list[dict]:
    return sorted(rows, key=lambda row: (-row["games"], row["opponent_name"], row["opponent"]))


def head_to_head(player, *, tile_set: int | None = None, since=None) -> list[dict]:
    """Against each opponent met in finished games: games together, finished ahead, behind, level
    (all time from the head-to-head records, a period from the seats); most games first."""
    if since is not None:
        return head_to_head_from_seats(player, tile_set=tile_set, since=since)
    records = _records_of(OpponentRecord, player, tile_set).values_list(
        "opponent_id", "opponent__name", "games", "ahead", "behind", "level"
    )
    rows = _summed_by(((opponent, name), *counts) for opponent, name, *counts in records)
    return _most_games_first([
        {"opponent": opponent, "opponent_name": name, "games": n, "ahead": won, "behind": lost, "level": tied}
        for (opponent, name), (n, won, lost, tied) in rows.items()
        if n
    ])  # fmt: skip


def head_to_head_from_seats(player, *, tile_set: int | None = None, since=None) -> list[dict]:
    seats = Seat.objects.filter(counted("game", tile_set, since), player=player, left_after__isnull=True)
    # One join from my seat to every seat of the same game; each row pairs me with one opponent.
    # Only pairs who were both ranked count (a player who left finished nowhere).
    rows = (
        seats.alias(opponent_left=F("game__seats__left_after"))
        .values(opponent=F("game__seats__player"), opponent_name=F("game__seats__player__name"))
        .filter(opponent_left__isnull=True)
        .exclude(opponent=player.pk)
        .annotate(
            games=Count("pk"),
            **{
                name: Count("pk", filter=Q(**{f"rank__{lookup}": F("game__seats__rank")}))
                for name, lookup in OUTCOMES.items()
            },
        )
        .order_by()
    )
    return _most_games_first(list(rows))


def game_totals(player, *, limit: int = 100):
    """The player's most recent finished games they were ranked in, oldest first: (finished_at,
    total, won). A game they left is none of their game totals."""
    recent = (
        Seat.objects.filter(counted("game"), player=player, left_after__isnull=True)
        .order_by("-game__finished_at")
        .values_list("game__finished_at", "total", "is_winner")[:limit]
    )
    return list(reversed(recent))


def game_totals_by_set(player, *, tile_set: int | None = None, limit: int = 100) -> dict[int, list]:
    """game_totals per set, in one query: {tile_set: [(finished_at, total, won), ...]}, the set of the
    player's latest game first; `tile_set` keeps that set only."""
    seats = Seat.objects.filter(counted("game", tile_set), player=player, left_after__isnull=True)
    recent = seats.order_by("-game__finished_at").values_list(
        "game__tile_set", "game__finished_at", "total", "is_winner"
    )[:limit]
    by_set: dict[int, list] = {}
    for each_set, when, total, won in recent:
        by_set.setdefault(each_set, []).append((when, total, won))
    return {each_set: list(reversed(totals)) for each_set, totals in by_set.items()}


def rating_steps(player, *, limit: int = 100):
    """The player's rating (ordinal) after each of their latest finished games, oldest first."""
    steps = RatingStep.objects.filter(player=player).order_by("-finished_at", "-game_id")
    recent = steps.values_list("finished_at", "mu", "sigma")[:limit]
    return [(when, ordinal(mu, sigma)) for when, mu, sigma in reversed(recent)]
