"""Leaderboard and player figures, aggregated by the database from the seats' summary columns."""

from dataclasses import dataclass

from django.db.models import Avg, Count, F, FloatField, Max, Min, Q, Subquery, Sum, Value
from django.db.models.functions import Cast, Coalesce, NullIf
from django.utils import timezone

from .models import DoubleRecord, Entry, Game, OpponentRecord, Player, PlayerRecord, RatingStep, Seat
from .rules.rating import START

PERIODS = {"month": "This month", "year": "This year", "all": "All time"}
SORTS = [
    "name",
    "games",
    "wins",
    "win_rate",
    "average_total",
    "rounds",
    "went_out",
    "double_blank_penalties",
    "end_on_double_penalties",
]


def period_start(period: str):
    """When a reporting period began: the first of this month or year, or None for all time."""
    now = timezone.localtime()
    if period == "month":
        return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    if period == "year":
        return now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    return None


def _finished(game: str, tile_set: int | None = None, since=None) -> Q:
    """Finished games (reached through the lookup `game`) of one set and period, when given."""
    condition = Q(**{f"{game}__status": Game.Status.FINISHED, f"{game}__deleted_at__isnull": True})
    if tile_set is not None:
        condition &= Q(**{f"{game}__tile_set": tile_set})
    if since is not None:
        condition &= Q(**{f"{game}__finished_at__gte": since})
    return condition


def _ratio(numerator: str, denominator: str):
    return Cast(F(numerator), FloatField()) / Cast(NullIf(F(denominator), 0), FloatField())


# Derived from the sums above, in the same query (annotate keeps keyword order).
RATES = {
    "win_rate": Coalesce(_ratio("wins", "game_count"), Value(0.0)),
    "went_out_rate": Coalesce(_ratio("went_out", "rounds"), Value(0.0)),
    "average_total": _ratio("total_sum", "game_count"),
    "average_round_score": _ratio("total_sum", "rounds"),
}


def with_figures(players, *, tile_set: int | None = None, since=None):
    """Annotate players with their figures over finished games, aggregated from the seats
    (one query, one join); any period."""
    done = _finished("seats__game", tile_set, since)
    return players.annotate(
        game_count=Count("seats", filter=done),
        wins=Count("seats", filter=done & Q(seats__is_winner=True)),
        total_sum=Coalesce(Sum("seats__total", filter=done), 0),
        best_total=Min("seats__total", filter=done),
        worst_total=Max("seats__total", filter=done),
        rounds=Coalesce(Sum("seats__rounds", filter=done), 0),
        went_out=Coalesce(Sum("seats__went_out", filter=done), 0),
        double_blank_penalties=Coalesce(Sum("seats__double_blank_penalties", filter=done), 0),
        end_on_double_penalties=Coalesce(Sum("seats__end_on_double_penalties", filter=done), 0),
        **RATES,
    )


def with_records(players, *, tile_set: int | None = None):
    """The same figures over all time, from the per-set records the services keep: a few rows
    per player, however many games they played."""
    chosen = Q() if tile_set is None else Q(records__tile_set=tile_set)

    def total(field):
        return Coalesce(Sum(f"records__{field}", filter=chosen), 0)

    return players.only("pk", "name", "rating_mu", "rating_sigma").annotate(
        game_count=total("games"),
        wins=total("wins"),
        total_sum=total("total_sum"),
        rounds=total("rounds"),
        went_out=total("went_out"),
        double_blank_penalties=total("double_blank_penalties"),
        end_on_double_penalties=total("end_on_double_penalties"),
        **RATES,
    )


def leaderboard(scorebook, *, tile_set: int | None = None, since=None, sort: str | None = None):
    """Every player of `scorebook`: most wins first, then win rate, then the lower average total.

    `sort` (one of SORTS, "-" in front for descending) puts one column first instead."""
    order = [F("wins").desc(), F("win_rate").desc(), F("average_total").asc(nulls_last=True), "name_key", "pk"]
    if sort and sort.lstrip("-") == "rating":  # the highest first; "-rating" the lowest first
        players_ordinal = Coalesce(F("rating_mu") - 3 * F("rating_sigma"), Value(START.ordinal))
        order.insert(0, players_ordinal.asc() if sort.startswith("-") else players_ordinal.desc())
    elif sort and sort.lstrip("-") in SORTS:
        key = F("name_key") if sort.lstrip("-") == "name" else F(sort.lstrip("-"))
        order.insert(0, key.desc(nulls_last=True) if sort.startswith("-") else key.asc(nulls_last=True))
    players = Player.objects.filter(scorebook=scorebook)
    rows = (
        with_records(players, tile_set=tile_set)
        if since is None
        else with_figures(players, tile_set=tile_set, since=since)
    )
    return rows.order_by(*order)


def my_players(user):
    """The players linked to `user` in every scorebook they belong to, with all-time figures."""
    players = Player.objects.for_user(user).filter(user=user).select_related("scorebook")
    return with_records(players).only("pk", "name", "scorebook__name").order_by("scorebook__name", "pk")


def summed(rows) -> dict:
    """One set of figures over several players' rows (from with_records)."""
    games = sum(row.game_count for row in rows)
    wins = sum(row.wins for row in rows)
    totals = sum(row.total_sum for row in rows)
    return {
        "game_count": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "average_total": totals / games if games else None,
        **{key: sum(getattr(row, key) for row in rows) for key in
           ("rounds", "went_out", "double_blank_penalties", "end_on_double_penalties")},
    }  # fmt: skip


@dataclass
class Figures:
    """One player's all-time figures, summed from their per-set records (see player_figures)."""

    pk: int
    name: str
    rating: object
    game_count: int
    wins: int
    total_sum: int
    rounds: int
    went_out: int
    double_blank_penalties: int
    end_on_double_penalties: int
    best_total: int | None
    worst_total: int | None

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
        return self.total_sum / self.rounds if self.rounds else None


RECORD_SUMS = ["games", "wins", "total_sum", "rounds", "went_out", "double_blank_penalties", "end_on_double_penalties"]


def player_figures(player, *, tile_set: int | None = None, since=None):
    """One player's figures: all time from the few per-set records (and the best and worst totals
    along the seat_player_total index), a period aggregated from the seats."""
    if since is not None:
        return with_figures(Player.objects.filter(pk=player.pk), tile_set=tile_set, since=since).get()
    records = PlayerRecord.objects.filter(player=player, **({} if tile_set is None else {"tile_set": tile_set}))
    sums = [sum(column) for column in zip(*records.values_list(*RECORD_SUMS), strict=True)] or [0] * len(RECORD_SUMS)
    seats = Seat.objects.filter(_finished("game", tile_set), player=player).values("total")
    best, worst = (
        Player.objects.filter(pk=player.pk)
        .annotate(best=Subquery(seats.order_by("total")[:1]), worst=Subquery(seats.order_by("-total")[:1]))
        .values_list("best", "worst")
        .get()
    )
    return Figures(player.pk, player.name, player.rating, *sums, best_total=best, worst_total=worst)


def by_starting_double(player, *, tile_set: int | None = None, since=None):
    """Per starting double: rounds played, average pips and average score, in finished games
    (all time from the per-double records, a period from the entries)."""
    if since is not None:
        return by_starting_double_from_entries(player, tile_set=tile_set, since=since)
    records = DoubleRecord.objects.filter(player=player, **({} if tile_set is None else {"tile_set": tile_set}))
    rows = (
        records.values("starting_double")
        .annotate(n=Sum("rounds"), pips=Sum("pips_sum"), score=Sum("score_sum"))
        .filter(n__gt=0)
        .order_by("-starting_double")
    )
    return [
        {"starting_double": row["starting_double"], "rounds": row["n"], "average_pips": row["pips"] / row["n"],
         "average_score": row["score"] / row["n"]}
        for row in rows
    ]  # fmt: skip


def by_starting_double_from_entries(player, *, tile_set: int | None = None, since=None):
    entries = Entry.objects.filter(_finished("round__game", tile_set, since), player=player)
    return (
        entries.values(starting_double=F("round__starting_double"))
        .annotate(rounds=Count("pk"), average_pips=Avg("pips"), average_score=Avg("score"))
        .order_by("-starting_double")
    )


def head_to_head(player, *, tile_set: int | None = None, since=None):
    """Against each opponent met in finished games: games together, finished ahead, behind, level
    (all time from the head-to-head records, a period from the seats)."""
    if since is not None:
        return head_to_head_from_seats(player, tile_set=tile_set, since=since)
    records = OpponentRecord.objects.filter(player=player, **({} if tile_set is None else {"tile_set": tile_set}))
    rows = (
        records.values("opponent", opponent_name=F("opponent__name"))
        .annotate(n=Sum("games"), won=Sum("ahead"), lost=Sum("behind"), tied=Sum("level"))
        .filter(n__gt=0)
        .order_by("-n", "opponent_name")
    )
    return [
        {"opponent": row["opponent"], "opponent_name": row["opponent_name"], "games": row["n"], "ahead": row["won"],
         "behind": row["lost"], "level": row["tied"]}
        for row in rows
    ]  # fmt: skip


def head_to_head_from_seats(player, *, tile_set: int | None = None, since=None):
    seats = Seat.objects.filter(_finished("game", tile_set, since), player=player)
    # One join from my seat to every seat of the same game; each row pairs me with one opponent.
    return (
        seats.values(opponent=F("game__seats__player"), opponent_name=F("game__seats__player__name"))
        .exclude(opponent=player.pk)
        .annotate(
            games=Count("pk"),
            ahead=Count("pk", filter=Q(total__lt=F("game__seats__total"))),
            behind=Count("pk", filter=Q(total__gt=F("game__seats__total"))),
            level=Count("pk", filter=Q(total=F("game__seats__total"))),
        )
        .order_by("-games", "opponent_name")
    )


def game_totals(player, *, limit: int = 100):
    """The player's most recent finished games, oldest first: (finished_at, total, won)."""
    recent = (
        Seat.objects.filter(player=player, game__status=Game.Status.FINISHED, game__deleted_at__isnull=True)
        .order_by("-game__finished_at")
        .values_list("game__finished_at", "total", "is_winner")[:limit]
    )
    return list(reversed(recent))


def rating_steps(player, *, limit: int = 100):
    """The player's rating (ordinal) after each of their latest finished games, oldest first."""
    steps = RatingStep.objects.filter(player=player).order_by("-finished_at", "-game_id")
    recent = steps.values_list("finished_at", "mu", "sigma")[:limit]
    return [(when, mu - 3 * sigma) for when, mu, sigma in reversed(recent)]
