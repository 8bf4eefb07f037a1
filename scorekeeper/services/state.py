"""A game's derived state: worked out once per write (derive_state) and saved on the game and its seats."""

from collections.abc import Sequence

from django.db import connection
from django.utils import timezone

from ..caches.rule import announce
from ..models import Entry, Game, Seat
from ..rules import paper, snapshot
from ..rules.game import GameRules
from ..rules.places import place_points
from ..rules.scoring import GameState, RoundResult, derive
from ..rules.seating import SeatChange
from ..rules.story import deficits
from . import ratings, seasons
from .records import SEAT_SUMMARY, add_detail, add_to_records, detail_of, figures_of, update_extremes


def round_results(played) -> list[RoundResult]:
    """Entries given in round order as (position, player, score, went_out, double_blank,
    ended_on_double), gathered into one RoundResult per round."""
    rounds: dict[int, dict] = {}
    for position, player, score, went_out, double_blank, ended_on_double, *_rest in played:
        line = rounds.setdefault(position, {"scores": {}, "went_out": set(), "double_blank": set(), "ended": set()})
        line["scores"][player] = score
        for flag, key in ((went_out, "went_out"), (double_blank, "double_blank"), (ended_on_double, "ended")):
            if flag:
                line[key].add(player)
    return [
        RoundResult(position, line["scores"], frozenset(line["went_out"]), frozenset(line["double_blank"]),
                    frozenset(line["ended"]))
        for position, line in rounds.items()
    ]  # fmt: skip


def played_rows(game: Game) -> list[tuple]:
    """The game's entries in round order, as rows for round_results (and starting double and pips
    at the end, for the per-double records)."""
    return list(
        Entry.objects.filter(round__game=game)
        .order_by("round__number", "position")
        .values_list("round__position", "player_id", "score", "went_out", "double_blank", "ended_on_double",
                     "round__starting_double", "pips")
    )  # fmt: skip


# The seat's columns the derived state writes (by attribute name), each with the SeatState figure it holds.
SEAT_COLUMNS = {name: name for name in SEAT_SUMMARY} | {
    "opening_total": "opening_total",
    "joined_after": "joined_after",
    "left_after": "left_after",
    "replaced_id": "replaced",
}
# And what is worked out from the whole table: the seat's place points (rules.places) and its worst
# deficit and the round of it (rules.story.deficits), in the order story_columns gives them.
WRITTEN_COLUMNS = [*SEAT_COLUMNS, "place_points", "deficit", "deficit_after"]


def story_columns(state: GameState) -> list[tuple]:
    """Per seat (seat order), the written columns after SEAT_COLUMNS: the place points once the game
    is finished (what a season counts; none while it goes on), the worst deficit and its round."""
    points = place_points([seat.rank for seat in state.seats]) if state.finished else [None] * len(state.seats)
    return [(earned, worst.behind, worst.after) for earned, worst in zip(points, deficits(state), strict=True)]


def derive_state(
    rules: GameRules,
    seats,
    results: Sequence[RoundResult],
    changes: Sequence[SeatChange] = (),
    *,
    stopped_after: int | None = None,
) -> GameState:
    """The one place a game's state is worked out (rules.scoring.derive): on every change to a game
    (reads load what was saved), and for the front page's sample sheet, which is no game. Seats are
    Seats (with players) or (player id, name) pairs, in seat order (everyone who ever sat);
    `changes` the seat changes in the order made; `stopped_after` the game's (Game.stopped_after),
    when the table agreed to stop."""
    pairs = [seat if isinstance(seat, tuple) else (seat.player_id, seat.player.name) for seat in seats]
    return derive(rules, pairs, results, changes, stopped_after=stopped_after)


def saved_state(game: Game, seats: list[Seat]) -> dict:
    """The game's state as saved (rules.snapshot); worked out from its entries if it has none."""
    if game.state is None:
        results = round_results(played_rows(game))
        changes = [change.as_rule() for change in game.seat_changes.all()]
        game.state = snapshot.dump(
            derive_state(game.rules, seats, results, changes, stopped_after=game.stopped_after), results
        )
    return game.state


def save_state(
    game: Game, seats: list[Seat], state: GameState, results: list[RoundResult], *, played_before=None
) -> None:
    """Save a locked game's new state (_derive made it from `results`, its rounds now): the state
    and the game row (status, next double, version), the seats' figures, the records, the ratings.
    `seats` in seat order; `played_before`: the entries as they were (rows of played_rows), when a
    finished game's entries have just changed (what the records counted must be taken back)."""
    was_finished, finished_before = game.is_finished, game.finished_at
    # A casual game counts nowhere (records, ratings, seasons): as if it never finished, for them.
    counted_before, counts = was_finished and not game.casual, state.finished and not game.casual
    before = [figures_of(seat) for seat in seats] if counted_before else []
    detail_before = (
        detail_of(seats, played_rows(game) if played_before is None else played_before) if counted_before else None
    )
    ranks_before = [seat.rank for seat in seats]
    tally_before = seasons.tally_rows(seats) if counted_before else []
    changed = []
    for seat, derived, worked_out in zip(seats, state.seats, story_columns(state), strict=True):
        figures = [*(getattr(derived, name) for name in SEAT_COLUMNS.values()), *worked_out]
        if figures != [getattr(seat, column) for column in WRITTEN_COLUMNS]:
            for column, value in zip(WRITTEN_COLUMNS, figures, strict=True):
                setattr(seat, column, value)
            changed.append(seat)
    # A seat not saved yet (a player who has just joined) is inserted with its figures.
    new = {id(seat): seat for seat in seats if seat.pk is None}
    Seat.objects.bulk_create(new.values())
    _write_seat_summaries([seat for seat in changed if id(seat) not in new])
    # The records hold finished games only: take back what was counted, count what is now.
    add_to_records(game.tile_set, before, sign=-1)
    if counts:
        add_to_records(game.tile_set, [figures_of(seat) for seat in seats], sign=+1)
    if counted_before or counts:
        add_detail(game.tile_set, detail_before, detail_of(seats, played_rows(game)) if counts else None)
    if not state.finished:
        game.status, game.finished_at = Game.Status.IN_PROGRESS, None
        game.played_on = game.played_on if game.entered_afterwards else None
    elif not game.is_finished:
        game.status, game.finished_at, game.played_on = Game.Status.FINISHED, *_finishing(game)
    # The game row is locked in this transaction: its version is the current one.
    game.ended_because, game.next_double = state.ended_because or "", state.next_double
    game.state = snapshot.dump(state, results)
    game.version, game.updated_at = game.version + 1, timezone.now()
    Game.objects.filter(pk=game.pk).update(
        **{name: getattr(game, name) for name in
           ("status", "finished_at", "played_on", "ended_because", "next_double", "state", "undone_round",
            "stopped_after", "version", "updated_at")}
    )  # fmt: skip
    announce("game changed", games=[game.pk])  # every round write, and a new game
    # Its season's tallies: what the game gave is taken back, what it gives now is added.
    tally_after = seasons.tally_rows(seats) if counts else []
    moved = (finished_before, tally_before) != (game.finished_at if state.finished else None, tally_after)
    if (tally_before or tally_after) and moved:  # a casual game has nothing to tally
        seasons.hold(game.scorebook_id)
        seasons.tally(scorebook_id=game.scorebook_id, finished_at=finished_before, rows=tally_before, sign=-1)
        seasons.tally(scorebook_id=game.scorebook_id, finished_at=game.finished_at, rows=tally_after, sign=+1)
    if counted_before or counts:  # after the game row: the finished games are the ones now saved
        update_extremes(game.tile_set, [seat.player_id for seat in seats])
    # Ratings hang on the finishing order alone: replay them when that order appears, changes or goes.
    if (counted_before or counts) and (counted_before != counts or ranks_before != [s.rank for s in seats]):
        point = ratings.Point(finished_before if was_finished else game.finished_at, game.pk)
        ratings.changed(game.scorebook_id, point, [seat.player_id for seat in seats])


def _finishing(game: Game) -> tuple:
    """When a game that finishes now counts, and the day it was played: now and today where its
    scorebook plays; for a paper game (entered afterwards, finished at the table since), the day on
    its sheet, and a moment of that day (rules.paper.counted_at)."""
    now, zone = timezone.now(), game.scorebook.zone
    if game.entered_afterwards and game.played_on is not None:
        return paper.counted_at(game.played_on, zone, now), game.played_on
    return now, paper.played_on(now, zone)


def _write_seat_summaries(seats: list[Seat]) -> None:
    """Save the seats' summary columns in one UPDATE ... FROM (VALUES ...), on SQLite and PostgreSQL
    alike (bulk_update would build a CASE expression per column and seat in Python)."""
    if not seats:
        return
    quote = connection.ops.quote_name
    table = quote(Seat._meta.db_table)
    fields = [Seat._meta.get_field(column) for column in WRITTEN_COLUMNS]
    # VALUES names its columns column1, column2, ... on both databases; column1 is the seat's id.
    assignments = ", ".join(
        f"{quote(field.column)} = CAST(v.column{number} AS {'boolean' if field.get_internal_type() == 'BooleanField' else 'integer'})"
        for number, field in enumerate(fields, start=2)
    )
    row = "(" + ", ".join(["%s"] * (len(fields) + 1)) + ")"
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {assignments} FROM (VALUES {', '.join([row] * len(seats))}) AS v "
            f"WHERE {table}.{quote('id')} = v.column1",
            [value for seat in seats for value in (seat.pk, *(getattr(seat, field.attname) for field in fields))],
        )
