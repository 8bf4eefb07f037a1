"""The per-player, per-double and head-to-head records that finished games add to."""

from collections import Counter

from django.db import connection
from django.db.models import F, OuterRef, Subquery

from ..models import DoubleRecord, Game, OpponentRecord, PlayerRecord, Seat
from ..rules.scoring import OUTCOMES, outcome

# The seat's summary columns a game's state writes (services.state.SEAT_COLUMNS adds the seating ones).
SEAT_SUMMARY = ["total", "rank", "place", "is_winner", "rounds", "went_out", "double_blank_penalties",
                "end_on_double_penalties"]  # fmt: skip


def figures_of(seat: Seat) -> dict:
    """What a finished game's seat adds to each column of its player's record (PlayerRecord.SUMS):
    the game figures only when the player was ranked in it (one who left is not counted as having
    played the game), the round figures for the rounds they sat in."""
    counted = {
        column: (1 if figure is None else int(getattr(seat, figure)))
        if seat.ranked or column not in PlayerRecord.GAME_SUMS
        else 0
        for column, figure in PlayerRecord.SUMS.items()
    }
    return {"player": seat.player_id, **counted}


def add_to_records(tile_set: int, figures: list[dict], sign: int) -> None:
    """Add (+1) or take back (-1) a finished game's seat figures (figures_of) in their players' records."""
    for seat in figures:
        PlayerRecord.objects.filter(player_id=seat["player"], tile_set=tile_set).update(
            **{column: F(column) + sign * seat[column] for column in PlayerRecord.SUMS}
        )


def update_extremes(tile_set: int, player_ids: list[int]) -> None:
    """Work out the players' best and worst totals on this set again, from their finished games'
    seats they were ranked in (one UPDATE; each total is one step along the seat_player_total index).
    A minimum cannot be kept by adding and taking back, as the other figures are."""
    seats = Seat.objects.filter(
        player=OuterRef("player"),
        left_after__isnull=True,
        game__tile_set=tile_set,
        game__status=Game.Status.FINISHED,
        game__deleted_at__isnull=True,
        game__casual=False,
    ).values("total")
    PlayerRecord.objects.filter(player_id__in=player_ids, tile_set=tile_set).update(
        best_total=Subquery(seats.order_by("total")[:1]), worst_total=Subquery(seats.order_by("-total")[:1])
    )


# An opponent record's counts, in the order detail_of counts them: games, then each outcome.
OPPONENT_COUNTS = ("games", *OUTCOMES)


def detail_of(seats: list[Seat], played) -> tuple[Counter, Counter]:
    """What a finished game adds to the per-double and head-to-head records, from its seats and its
    entries (rows of played_rows): {(player, double): (rounds, pips, score)} and
    {(player, opponent): (games, ahead, behind, level)}, as Counters of tuples' parts. Head to head
    counts the pairs who were both ranked (a player who left finished nowhere)."""
    doubles: Counter = Counter()
    for _position, player, score, _went_out, _blank, _ended, double, pips in played:
        doubles[(player, double, 0)] += 1
        doubles[(player, double, 1)] += pips
        doubles[(player, double, 2)] += score
    opponents: Counter = Counter()
    ranked = [seat for seat in seats if seat.ranked]
    for seat in ranked:
        for other in ranked:
            if other is not seat:
                key = (seat.player_id, other.player_id)
                opponents[(*key, 0)] += 1
                opponents[(*key, OPPONENT_COUNTS.index(outcome(seat.rank, other.rank)))] += 1
    return doubles, opponents


def add_detail(tile_set: int, before: tuple[Counter, Counter] | None, after: tuple[Counter, Counter] | None) -> None:
    """Move the per-double and head-to-head records from what `before` counted to what `after` counts."""
    for index, (model, keys, values) in enumerate((
        (DoubleRecord, ("player_id", "starting_double"), ("rounds", "pips_sum", "score_sum")),
        (OpponentRecord, ("player_id", "opponent_id"), OPPONENT_COUNTS),
    )):  # fmt: skip
        delta = Counter(after[index]) if after else Counter()
        if before:
            delta.subtract(before[index])
        rows: dict[tuple, list[int]] = {}
        for (*key, part), amount in delta.items():
            rows.setdefault(tuple(key), [0] * len(values))[part] += amount
        rows = {key: amounts for key, amounts in rows.items() if any(amounts)}
        upsert_adding(
            model, ("tile_set", *keys), values, [((tile_set, *key), amounts) for key, amounts in rows.items()]
        )


UPSERT_BATCH = 500


def upsert_adding(model, keys: tuple[str, ...], values: tuple[str, ...], rows: list[tuple[tuple, list[int]]]) -> None:
    """INSERT the rows, or add their values to the rows already there: one statement, on SQLite and
    PostgreSQL alike (INSERT ... ON CONFLICT ... DO UPDATE)."""
    if len(rows) > UPSERT_BATCH:  # a statement of bounded size (SQLite caps its parameters)
        for start in range(0, len(rows), UPSERT_BATCH):
            upsert_adding(model, keys, values, rows[start : start + UPSERT_BATCH])
        return
    if not rows:
        return
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = [model._meta.get_field(name).column for name in (*keys, *values)]
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (
        f"INSERT INTO {table} ({', '.join(map(quote, columns))}) VALUES {', '.join([row] * len(rows))} "
        f"ON CONFLICT ({', '.join(quote(column) for column in columns[: len(keys)])}) DO UPDATE SET "
        + ", ".join(f"{quote(c)} = {table}.{quote(c)} + excluded.{quote(c)}" for c in columns[len(keys) :])
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for key, amounts in rows for value in (*key, *amounts)])
