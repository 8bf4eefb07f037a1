"""Games played elsewhere: checked as if entered at the table, then saved in a fixed number of statements."""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..caches.rule import announce
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
    SeatChange,
    entry_values,
)
from ..rules import paper, seating, snapshot
from ..rules.game import GameRules, SequenceConflict, place_round, seating_problems
from ..rules.rounds import EntryInput, InvalidRound, ScoredRound, score_round
from ..rules.rounds import Seat as SeatRule
from ..rules.scoring import GameState, stop_problem
from ..rules.seating import SeatChange as SeatChangeRule
from ..services import ratings
from . import nights, seasons
from .common import as_saved
from .games import table_of
from .records import add_detail, detail_of, figures_of, update_extremes, upsert_adding
from .seats import MADE
from .state import SEAT_COLUMNS, WRITTEN_COLUMNS, derive_state, round_results, story_columns


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
    changes: Sequence[SeatChangeRule] = (),
    casual: bool = False,
) -> Game:
    """A game played elsewhere (or seeded), with all its rounds, in a few bulk inserts. `played_at`
    dates it (and its end, unless `finished_at` says when it ended); `uid` keeps an exported game's.
    `players`: everyone who sat at its table, in seat order; `changes`: its seat changes.

    Every round and seat change passes the same checks as one recorded at the table."""
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
        changes=changes,
        casual=casual,
    )
    (game,) = save_imports(by=by, scorebook=scorebook, games=[checked])
    announce("game imported", games=[game.pk])
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
    changes: tuple[SeatChangeRule, ...] = ()  # its seat changes, in the order made
    stopped_after: int | None = None  # the table agreed to stop after this round (Game.stopped_after)
    casual: bool = False  # a friendly game (Game.casual): counted nowhere
    # A paper game entered afterwards (services.paper): its night, its number (a game without a
    # name), and the day it was played (otherwise the day it finished, where its scorebook plays).
    night: int | None = None
    number: int | None = None
    played_on: date | None = None
    entered_afterwards: bool = False


def check_import(
    *,
    seats: Sequence[tuple[int, str]],
    rules: GameRules,
    rounds: Sequence[tuple[int, Sequence[EntryInput]]],
    name: str = "",
    played_at=None,
    finished_at=None,
    uid=None,
    changes: Sequence[SeatChangeRule] = (),
    stopped_after: int | None = None,
    stop_at_end: bool = False,
    casual: bool = False,
) -> CheckedGame:
    """Check a played game as creating it, recording each round and making each seat change would,
    without the database (`seats`: everyone who sat at its table, in seat order, all of the
    scorebook it goes into; `changes`: its seat changes in the order made, each after some rounds).
    Each change passes the table's rules where it was made (a problem is keyed "seat_changes[i]"),
    each round is scored with the players seated in it; `stopped_after`: the table agreed to stop
    after that round, its last (as finish_game stops a game); `stop_at_end`: a game its rounds do not
    end was stopped after its last one, as agreed (a paper sheet ends where the evening did). Raises
    InvalidInput."""
    errors = {key: [message] for key, message in rules.problems().items()}
    order = [pk for pk, _name in seats]
    at_start = seating.seated_at_start(order, changes)
    problems = seating_problems(at_start)
    if len(set(order)) != len(order) and not problems:
        problems = seating_problems(order)[-1:]  # the same player seated twice
    if problems:
        errors["players"] = problems
    if errors:
        raise InvalidInput(errors)
    _check_change_order(changes, len(rounds))
    names = dict(seats)
    seated, sat, waiting = list(at_start), set(at_start), list(enumerate(changes))

    def change_seats(after: int) -> None:
        nonlocal seated
        while waiting and waiting[0][1].after == after:
            index, change = waiting.pop(0)
            refused = seating.refusal(change, seated=seated, sat=sat, names=names, finished=False)
            if refused is not None:
                raise InvalidInput({f"seat_changes[{index}]": [str(refused.message)]})
            seated = seating.apply(seated, order, change)
            sat.add(change.player)

    scored_rounds, last = [], None
    for number, (starting_double, entries) in enumerate(rounds, start=1):
        change_seats(number - 1)
        at_table = set(seated)
        try:
            scored = score_round(rules, starting_double, [SeatRule(pk, names[pk]) for pk in seated], entries,
                                 away=[SeatRule(pk, names[pk]) for pk in order if pk not in at_table])  # fmt: skip
            last = place_round(rules, last, starting_double)
        except InvalidRound as invalid:
            raise InvalidInput({f"rounds[{number - 1}]": [str(invalid)]}, invalid.errors) from None
        except SequenceConflict as conflict:
            raise InvalidInput({f"rounds[{number - 1}]": [str(conflict)]}) from None
        scored_rounds.append((last, scored))
    change_seats(len(rounds))
    state = derive_state(rules, list(seats), round_results(_played_of(scored_rounds)), changes)
    if state.ended_after is not None and state.ended_after < len(scored_rounds):
        raise InvalidInput(
            {
                "rounds": [
                    _("The game ended after round {number}; no round can follow it.").format(number=state.ended_after)
                ]
            }
        )
    if state.ended_after is not None:
        for index, change in enumerate(changes):
            if change.after >= state.ended_after:  # nobody sits down at, or leaves, a finished game
                refused = seating.refusal(change, seated=(), sat=(), names=names, finished=True)
                raise InvalidInput({f"seat_changes[{index}]": [str(refused.message)]})
    if stop_at_end and stopped_after is None and state.ended_after is None:
        stopped_after = len(scored_rounds)
    if stopped_after is not None:
        if (problem := stop_problem(state)) is not None or stopped_after != len(scored_rounds):
            message = problem or _("The table stops after the last round played, round {number}.").format(
                number=len(scored_rounds)
            )
            raise InvalidInput({"stopped_after": [str(message)]})
        state = derive_state(rules, list(seats), round_results(_played_of(scored_rounds)), changes,
                             stopped_after=stopped_after)  # fmt: skip
    return CheckedGame(rules, tuple(seats), tuple(scored_rounds), state, name, uid, played_at, finished_at,
                       tuple(changes), stopped_after, bool(casual))  # fmt: skip


def _check_change_order(changes: Sequence[SeatChangeRule], rounds: int) -> None:
    """Each seat change is made between two rounds, or after the last one, in the order played."""
    previous = 1
    for index, change in enumerate(changes):
        if not previous <= change.after <= rounds:
            message = (
                _('A seat change is made after a round: "after" must be from {least} to {most}.').format(
                    least=previous, most=rounds
                )
                if previous <= rounds
                else _("A seat change is made after a round, and this game has none.")
            )
            raise InvalidInput({f"seat_changes[{index}]": [message]})
        previous = change.after


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
    now, zone = timezone.now(), scorebook.zone
    tables = nights.joining([game.night for game in games])  # a paper game put in a night: its table
    made = [
        Game(scorebook=scorebook, created_by=by, name=game.name.strip(), night_id=game.night, table=table,
             number=None if game.name.strip() else game.number, entered_afterwards=game.entered_afterwards,
             **({"uid": game.uid} if game.uid is not None else {}), **Game.columns_of(game.rules),
             status=Game.Status.FINISHED if game.state.finished else Game.Status.IN_PROGRESS,
             finished_at=(game.finished_at or game.played_at or now) if game.state.finished else None,
             ended_because=game.state.ended_because or "", next_double=game.state.next_double,
             state=snapshot.dump(game.state, round_results(_played_of(game.rounds))),
             stopped_after=game.stopped_after, casual=game.casual,
             version=2,  # created, then its rounds recorded
             created_at=game.played_at or now, updated_at=now)
        for game, table in zip(games, tables, strict=True)
    ]  # fmt: skip
    for row, game in zip(made, games, strict=True):
        row.played_on = game.played_on or (paper.played_on(row.finished_at, zone) if row.finished_at else None)
        row._change_reason = HistoryAction.GAME_ENTERED if game.entered_afterwards else HistoryAction.GAME_CREATED
    # Inserted as they are (_insert): bulk_create would stamp created_at with the time of the insert.
    columns = ("scorebook", "created_by", "name", "uid", *RULE_COLUMNS.values(), "status", "finished_at", "ended_because",
               "next_double", "state", "stopped_after", "casual", "version", "created_at", "updated_at", "night",
               "table", "number", "played_on", "entered_afterwards")  # fmt: skip
    attributes = [Game._meta.get_field(name).attname for name in columns]
    ids = _insert(Game, columns, [tuple(getattr(row, name) for name in attributes) for row in made], returning=True)
    for row, pk in zip(made, ids, strict=True):
        row.pk, row._state.adding, row._state.db = pk, False, connection.alias
    Game.history.bulk_history_create(made, batch_size=IMPORT_BATCH, default_user=by)
    seats_of = {
        row.pk: [
            Seat(game=row, player=found[pk], position=derived.seat,
                 **{column: getattr(derived, figure) for column, figure in SEAT_COLUMNS.items()},
                 **dict(zip(WRITTEN_COLUMNS[len(SEAT_COLUMNS):], worked_out, strict=True)))
            for (pk, _name), derived, worked_out in zip(
                game.seats, game.state.seats, story_columns(game.state), strict=True
            )
        ]
        for row, game in zip(made, games, strict=True)
    }  # fmt: skip
    _insert(
        Seat,
        ("game", "player", "position", *WRITTEN_COLUMNS),
        [(seat.game_id, seat.player_id, seat.position, *(getattr(seat, column) for column in WRITTEN_COLUMNS))
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
    _save_seat_changes(by, made, games)
    _add_imports_to_records(made, games, seats_of)
    ended = [row.finished_at for row in made if row.finished_at is not None and not row.casual]
    seasons.rebuild_between(scorebook.pk, min(ended, default=None), max(ended, default=None))
    for row, game in zip(made, games, strict=True):
        if game.state.finished and not game.casual:
            ratings.changed(scorebook.pk, ratings.Point(row.finished_at, row.pk), [pk for pk, _name in game.seats])
    announce("games imported", games=[game.pk for game in made],
             nights=sorted({row.night_id for row in made if row.night_id is not None}))  # fmt: skip
    return made


def _save_seat_changes(by, made: list[Game], games: Sequence[CheckedGame]) -> None:
    """The games' seat changes, each with its history as the table records it (player_joined, ...):
    two inserts for all of them."""
    rows = [
        SeatChange(game=row, number=number, after=change.after, kind=change.kind, player_id=change.player,
                   replaces_id=change.replaces, join_total=change.join_total or "", made_by=by)
        for row, game in zip(made, games, strict=True)
        for number, change in enumerate(game.changes, start=1)
    ]  # fmt: skip
    if not rows:
        return
    rows = SeatChange.objects.bulk_create(rows, batch_size=IMPORT_BATCH)
    for row in rows:
        row._change_reason = MADE[row.kind]  # read by django-simple-history, as services.seats sets it
    SeatChange.history.bulk_history_create(rows, batch_size=IMPORT_BATCH, default_user=by)


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
        counts = game.state.finished and not game.casual  # a casual game is counted nowhere
        for seat in seats:
            sums = figures.setdefault((seat.player_id, tile_set), [0] * len(PlayerRecord.SUMS))
            if counts:
                counted = figures_of(seat)
                amounts = [counted[column] for column in PlayerRecord.SUMS]
                sums[:] = [a + b for a, b in zip(sums, amounts, strict=True)]
        if counts:
            doubles, opponents = detail.setdefault(tile_set, (Counter(), Counter()))
            more_doubles, more_opponents = detail_of(seats, _played_of(game.rounds))
            doubles.update(more_doubles)
            opponents.update(more_opponents)
            finished_players.setdefault(tile_set, set()).update(seat.player_id for seat in seats)
    upsert_adding(
        PlayerRecord,
        ("player_id", "tile_set"),
        tuple(PlayerRecord.SUMS),
        list(figures.items()),
    )
    for tile_set, counted in detail.items():
        add_detail(tile_set, None, counted)
    for tile_set, players in finished_players.items():
        update_extremes(tile_set, sorted(players))
