"""Games played elsewhere: checked as if entered at the table, then saved in a fixed number of statements."""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import ratings
from ..errors import InvalidInput
from ..models import (
    ENTRY_FIELDS,
    RULE_COLUMNS,
    Entry,
    Game,
    HistoryAction,
    Player,
    PlayerRecord,
    Round,
    Scorebook,
    Seat,
    entry_values,
)
from ..rules import snapshot
from ..rules.game import GameRules, SequenceConflict, place_round, seating_problems
from ..rules.rounds import EntryInput, InvalidRound, ScoredRound, score_round
from ..rules.rounds import Seat as SeatRule
from ..rules.scoring import GameState
from .common import as_saved
from .games import table_of
from .records import SEAT_SUMMARY, add_detail, detail_of, figures_of, update_extremes, upsert_adding
from .state import derive_state, round_results


def import_game(
    *,
    by,
    players: Sequence[int],
    rules: GameRules,
    rounds: Sequence[tuple[int, Sequence[EntryInput]]],
    name: str = "",
    played_at=None,
    scorebook: Scorebook | None = None,
    finished_at=None,
    uid=None,
) -> Game:
    """A game played elsewhere (or seeded), with all its rounds, in a few bulk inserts. `played_at`
    dates it (and its end, unless `finished_at` says when it ended); `uid` keeps an exported game's.

    Every round passes the same checks as one recorded at the table."""
    scorebook = scorebook or Scorebook.personal_for(by)
    player_ids = list(players)
    found, errors = table_of(scorebook, rules, player_ids)
    if errors:
        raise InvalidInput(errors)
    checked = check_import(
        seats=[(pk, found[pk].name) for pk in player_ids],
        rules=rules,
        rounds=rounds,
        name=name,
        played_at=played_at,
        finished_at=finished_at,
        uid=uid,
    )
    (game,) = save_imports(by=by, scorebook=scorebook, games=[checked])
    return game


@dataclass(frozen=True)
class CheckedGame:
    """A game played elsewhere, its every round checked and scored (check_import): what
    save_imports writes."""

    rules: GameRules
    seats: tuple[tuple[int, str], ...]  # player id and name, in seat order
    rounds: tuple[tuple[int, ScoredRound], ...]  # each round's position in the sequence, and the round
    state: GameState
    name: str = ""
    uid: object = None
    played_at: object = None
    finished_at: object = None


def check_import(
    *,
    seats: Sequence[tuple[int, str]],
    rules: GameRules,
    rounds: Sequence[tuple[int, Sequence[EntryInput]]],
    name: str = "",
    played_at=None,
    finished_at=None,
    uid=None,
) -> CheckedGame:
    """Check a played game as creating it and recording each round would, without the database
    (`seats`: its players, in seat order, all of the scorebook it goes into). Raises InvalidInput."""
    errors = {key: [message] for key, message in rules.problems().items()}
    if seating := seating_problems([pk for pk, _name in seats]):
        errors["players"] = seating
    if errors:
        raise InvalidInput(errors)
    rule_seats = [SeatRule(pk, player_name) for pk, player_name in seats]
    scored_rounds, last = [], None
    for number, (starting_double, entries) in enumerate(rounds, start=1):
        try:
            scored = score_round(rules, starting_double, rule_seats, entries)
            last = place_round(rules, last, starting_double)
        except InvalidRound as invalid:
            raise InvalidInput({f"rounds[{number - 1}]": [str(invalid)]}, invalid.errors) from None
        except SequenceConflict as conflict:
            raise InvalidInput({f"rounds[{number - 1}]": [str(conflict)]}) from None
        scored_rounds.append((last, scored))
    state = derive_state(rules, list(seats), round_results(_played_of(scored_rounds)))
    if state.ended_after is not None and state.ended_after < len(scored_rounds):
        raise InvalidInput(
            {
                "rounds": [
                    _("The game ended after round {number}; no round can follow it.").format(number=state.ended_after)
                ]
            }
        )
    return CheckedGame(rules, tuple(seats), tuple(scored_rounds), state, name, uid, played_at, finished_at)


def _played_of(scored_rounds) -> list[tuple]:
    """Rows as played_rows reads them from the database, from rounds not saved yet."""
    return [
        (position, e.player, e.score, e.went_out, e.double_blank, e.ended_on_double, scored.starting_double, e.pips)
        for position, scored in scored_rounds
        for e in scored.entries
    ]


IMPORT_BATCH = 1000  # rows per INSERT: a long import stays a handful of statements of bounded size


@transaction.atomic
@ratings.deferring
def save_imports(*, by, scorebook: Scorebook, games: Sequence[CheckedGame]) -> list[Game]:
    """Save games that check_import passed, in a fixed number of statements however many there
    are: the games (and their first history version), seats, rounds and entries in bulk, then the
    records of the finished ones added once per player and set, and the ratings replayed once."""
    ids = {pk for game in games for pk, _name in game.seats}
    found = Player.objects.filter(scorebook=scorebook, pk__in=ids).in_bulk()
    if missing := sorted(ids - set(found)):
        raise InvalidInput(
            {"players": [_("No player of this scorebook has id {ids}.").format(ids=", ".join(map(str, missing)))]}
        )
    now = timezone.now()
    made = [
        Game(scorebook=scorebook, created_by=by, name=game.name.strip(),
             **({"uid": game.uid} if game.uid is not None else {}), **Game.columns_of(game.rules),
             status=Game.Status.FINISHED if game.state.finished else Game.Status.IN_PROGRESS,
             finished_at=(game.finished_at or game.played_at or now) if game.state.finished else None,
             ended_because=game.state.ended_because or "", next_double=game.state.next_double,
             state=snapshot.dump(game.state, round_results(_played_of(game.rounds))),
             version=2,  # created, then its rounds recorded
             created_at=game.played_at or now, updated_at=now)
        for game in games
    ]  # fmt: skip
    # Inserted as they are (_insert): bulk_create would stamp created_at with the time of the insert.
    columns = ("scorebook", "created_by", "name", "uid", *RULE_COLUMNS.values(), "status", "finished_at", "ended_because",
               "next_double", "state", "version", "created_at", "updated_at")  # fmt: skip
    attributes = [Game._meta.get_field(name).attname for name in columns]
    ids = _insert(Game, columns, [tuple(getattr(row, name) for name in attributes) for row in made], returning=True)
    for row, pk in zip(made, ids, strict=True):
        row.pk, row._state.adding, row._state.db = pk, False, connection.alias
    Game.history.bulk_history_create(
        made, batch_size=IMPORT_BATCH, default_user=by, default_change_reason=HistoryAction.GAME_CREATED
    )
    seats_of = {
        row.pk: [
            Seat(game=row, player=found[pk], position=derived.seat,
                 **{name: getattr(derived, name) for name in SEAT_SUMMARY})
            for (pk, _name), derived in zip(game.seats, game.state.seats, strict=True)
        ]
        for row, game in zip(made, games, strict=True)
    }  # fmt: skip
    _insert(
        Seat,
        ("game", "player", "position", *SEAT_SUMMARY),
        [(seat.game_id, seat.player_id, seat.position, *(getattr(seat, name) for name in SEAT_SUMMARY))
         for seats in seats_of.values() for seat in seats],
    )  # fmt: skip
    # Rounds and entries are most of the rows: inserted without a model instance each (_insert).
    round_ids = _insert(
        Round,
        ("game", "number", "position", "starting_double", "blocked", "recorded_by", "entries_as_saved",
         "created_at", "updated_at"),
        [(row.pk, number, position, scored.starting_double, scored.blocked, by.pk if by else None,
          as_saved(scored, seats_of[row.pk]), now, now)
         for row, game in zip(made, games, strict=True)
         for number, (position, scored) in enumerate(game.rounds, start=1)],
        returning=True,
    )  # fmt: skip
    in_game = [(row.pk, scored) for row, game in zip(made, games, strict=True) for _position, scored in game.rounds]
    positions = {row.pk: {seat.player_id: seat.position for seat in seats_of[row.pk]} for row in made}
    _insert(
        Entry,
        ("round", "player", "position", *ENTRY_FIELDS),
        [(round_id, e.player, positions[game_id][e.player], *entry_values(e).values())
         for round_id, (game_id, scored) in zip(round_ids, in_game, strict=True) for e in scored.entries],
    )  # fmt: skip
    _add_imports_to_records(made, games, seats_of)
    for row, game in zip(made, games, strict=True):
        if game.state.finished:
            ratings.changed(scorebook.pk, ratings.Point(row.finished_at, row.pk), [pk for pk, _name in game.seats])
    return made


def _insert(model, names: Sequence[str], rows: list[tuple], *, returning: bool = False) -> list[int]:
    """INSERT rows (values in the order of the fields `names`) without a model instance per row: a
    thousand games are some 70,000 rows, and bulk_create spent most of an import's time building
    and compiling those. No save(), no signals, no defaults: every column without a database
    default is named. Numbers, text, booleans and ids go to the database as they are; JSON, dates
    and UUIDs are adapted as the field would. With `returning`, the new ids, in the rows' order.

    PostgreSQL gets COPY (the ids drawn from the table's sequence first, when they are wanted):
    a statement with thousands of placeholders, or arrays of them, is parsed in Python by psycopg
    and took longer than the rest of the import. SQLite gets multi-row VALUES, within its cap on
    parameters."""
    fields = [model._meta.get_field(name) for name in names]
    adapted = [field if field.get_internal_type() in ("JSONField", "DateTimeField", "UUIDField") else None
               for field in fields]  # fmt: skip
    # Most entries list no tiles: their empty list is adapted once.
    empty = {index: field.get_db_prep_save([], connection) for index, field in enumerate(adapted)
             if field is not None and field.get_internal_type() == "JSONField"}  # fmt: skip
    prepared = [
        [value if field is None
         else empty[index] if value == [] and index in empty
         else field.get_db_prep_save(value, connection)
         for index, (field, value) in enumerate(zip(adapted, row, strict=True))]
        for row in rows
    ]  # fmt: skip
    quote = connection.ops.quote_name
    table, pk = model._meta.db_table, model._meta.pk.column
    columns = [field.column for field in fields]
    ids = []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            if returning:
                cursor.execute(
                    "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                    [table, pk, len(prepared)],
                )
                ids = [row[0] for row in cursor.fetchall()]
                columns = [pk, *columns]
                prepared = [[pk_value, *row] for pk_value, row in zip(ids, prepared, strict=True)]
            with cursor.cursor.copy(f"COPY {quote(table)} ({', '.join(map(quote, columns))}) FROM STDIN") as copy:
                for row in prepared:
                    copy.write_row(row)
            return ids
        limit = connection.features.max_query_params  # SQLite's cap on parameters
        size = min(IMPORT_BATCH, limit // len(fields)) if limit else IMPORT_BATCH
        one = "(" + ", ".join(["%s"] * len(fields)) + ")"
        head = f"INSERT INTO {quote(table)} ({', '.join(map(quote, columns))}) VALUES "
        tail = f" RETURNING {quote(pk)}" if returning else ""
        for start in range(0, len(prepared), size):
            batch = prepared[start : start + size]
            cursor.execute(head + ", ".join([one] * len(batch)) + tail, [value for row in batch for value in row])
            if returning:
                ids += [row[0] for row in cursor.fetchall()]
    return ids


def _add_imports_to_records(made: list[Game], games: Sequence[CheckedGame], seats_of: dict) -> None:
    """What save_state adds for each game that finishes, added for all the imported games at once:
    one row per player and set even when none of their games finished (as create_game makes)."""
    figures: dict[tuple[int, int], list[int]] = {}
    detail: dict[int, tuple[Counter, Counter]] = {}
    finished_players: dict[int, set[int]] = {}
    for row, game in zip(made, games, strict=True):
        tile_set, seats = game.rules.tile_set, seats_of[row.pk]
        for seat in seats:
            sums = figures.setdefault((seat.player_id, tile_set), [0] * 7)
            if game.state.finished:
                counted = figures_of(seat)
                amounts = (1, counted["is_winner"], counted["total"], counted["rounds"], counted["went_out"],
                           counted["double_blank_penalties"], counted["end_on_double_penalties"])  # fmt: skip
                sums[:] = [a + b for a, b in zip(sums, amounts, strict=True)]
        if game.state.finished:
            doubles, opponents = detail.setdefault(tile_set, (Counter(), Counter()))
            more_doubles, more_opponents = detail_of(seats, _played_of(game.rounds))
            doubles.update(more_doubles)
            opponents.update(more_opponents)
            finished_players.setdefault(tile_set, set()).update(seat.player_id for seat in seats)
    upsert_adding(
        PlayerRecord,
        ("player_id", "tile_set"),
        ("games", "wins", "total_sum", "rounds", "went_out", "double_blank_penalties", "end_on_double_penalties"),
        list(figures.items()),
    )
    for tile_set, counted in detail.items():
        add_detail(tile_set, None, counted)
    for tile_set, players in finished_players.items():
        update_extremes(tile_set, sorted(players))
