"""Games out of the app: CSV (one row per entry, neutralised for spreadsheets) and versioned JSON."""

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from .. import clock
from ..models import ENTRY_FIELDS, Entry, Game, Round, Seat
from ..rules import snapshot

# Version 2 carries each game's seat changes ("seat_changes"); version 1, written before them, reads
# as games whose table never changed.
FORMAT, VERSION = "chicken-foot-scorekeeper", 2
VERSIONS = (1, 2)  # what an import reads
# went_out came last (after the first release), so a sheet that reads columns by place still works.
CSV_COLUMNS = ["game", "date", "tile_set", "round", "starting_double", "player", "pips", "tiles", "penalty", "score",
               "went_out"]  # fmt: skip


@dataclass
class GameOut:
    """One game as an export writes it: its row, its players' names in seat order (everyone who
    sat at its table), its rounds as (number, starting double, entries in seat order, each a dict
    of the entry's fields), and its seat changes in the order made ({"after", "kind", "player",
    "replaces"}, players by name)."""

    game: Game
    players: list[str]
    rounds: list[tuple[int, int, list[dict]]]
    seat_changes: list[dict] = field(default_factory=list)


ENTRY_COLUMNS = ("player__name", *ENTRY_FIELDS)


def games_with_everything(games) -> list[GameOut]:
    """What an export reads, in four queries however many games there are. Seats, rounds and
    entries are read as plain rows, not model instances: a thousand games hold some 50,000
    entries, and building a model (and its player) for each cost most of an export's time. The seat
    changes come from each game's saved state (its players by id, named from the seats' query)."""
    games = list(games.select_related("scorebook"))
    ids = [game.pk for game in games]
    players: dict[int, list[str]] = {pk: [] for pk in ids}
    names: dict[int, dict[int, str]] = {pk: {} for pk in ids}
    for game_id, player_id, name in (
        Seat.objects.filter(game_id__in=ids)
        .order_by("game_id", "position")
        .values_list("game_id", "player_id", "player__name")
    ):
        players[game_id].append(name)
        names[game_id][player_id] = name
    rounds: dict[int, list] = {pk: [] for pk in ids}
    entries_of: dict[int, list[dict]] = {}
    for round_id, game_id, number, starting_double in (
        Round.objects.filter(game_id__in=ids)
        .order_by("game_id", "number")
        .values_list("id", "game_id", "number", "starting_double")
    ):
        entries_of[round_id] = []
        rounds[game_id].append((number, starting_double, entries_of[round_id]))
    for round_id, *values in (
        Entry.objects.filter(round__game_id__in=ids)
        .order_by("round_id", "position")
        .values_list("round_id", *ENTRY_COLUMNS)
    ):
        entries_of[round_id].append(dict(zip(("player", *ENTRY_COLUMNS[1:]), values, strict=True)))
    return [GameOut(game, players[game.pk], rounds[game.pk], _seat_changes(game, names[game.pk])) for game in games]


def _seat_changes(game: Game, names: dict[int, str]) -> list[dict]:
    """The game's seat changes as the export writes them, players by name (`names`: id -> name). A
    game saved before seat changes (or without a state) has none."""
    return [
        {"after": change.after, "kind": change.kind, "player": names[change.player],
         "replaces": None if change.replaces is None else names[change.replaces]}
        | ({"join_total": change.join_total} if change.join_total else {})
        for change in snapshot.changes(game.state or {})
    ]  # fmt: skip


def as_json(games: Iterable[GameOut]) -> dict:
    return {"format": FORMAT, "version": VERSION, "games": [_game(out) for out in games]}


def _game(out: GameOut) -> dict:
    game = out.game
    rules = game.rules.as_dict()
    with timezone.override(game.scorebook.zone):  # its day in the name is the table's (scorekeeper.clock)
        title = game.title
    return {
        "uid": str(game.uid),
        # Its own name, "" for a game without one: an import keeps it unnamed, called in its reader's
        # language ("Game 3 · Fri 27 Nov", "Partida 3 · vie 27 nov"). "title" is what it was called
        # here, in the language of the export ("Table 4" at a night), for whoever reads the file.
        "name": game.name,
        "title": title,
        "scorebook": game.scorebook.name,
        "created_at": game.created_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "stopped_after": game.stopped_after,  # the round the table agreed to stop after ("We stop here")
        "casual": game.casual,  # a friendly game: counted nowhere but history and exports
        "tile_set": rules.pop("tile_set"),
        "rules": rules,
        "players": out.players,
        "seat_changes": out.seat_changes,
        "rounds": [
            {"number": number, "starting_double": starting_double, "entries": entries}
            for number, starting_double, entries in out.rounds
        ],
    }


# A spreadsheet runs a cell that begins with one of these as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text: str) -> str:
    """A text cell a spreadsheet shows as written: one that would start a formula gets a leading
    single quote (OWASP's advice). Only text people typed goes through here (game and player
    names); the numbers are written as numbers, so a negative one stays a number."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def as_csv(games: Iterable[GameOut]) -> str:
    """One row per entry, after a UTF-8 byte-order mark (without it, spreadsheets read the accents
    in names as another encoding). A round has entries for the players seated in it only, so a
    player who joined late or left has rows for the rounds they sat in."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for out_game in games:
        game = out_game.game
        # The day it was played on the table's own clock (its scorebook's time zone), and its name with it.
        with timezone.override(game.scorebook.zone):
            name = spreadsheet_text(str(game))
        date = clock.local_day(game.created_at, game.scorebook.zone).isoformat()
        for number, starting_double, entries in out_game.rounds:
            for entry in entries:
                writer.writerow(
                    [name, date, game.tile_set, number, starting_double, spreadsheet_text(entry["player"]),
                     entry["pips"], " ".join(entry["tiles"]), entry["penalty"], entry["score"],
                     "true" if entry["went_out"] else "false"]
                )  # fmt: skip
    return out.getvalue()


class ExportTooBig(Exception):
    """More games than one download holds (settings.EXPORT_MAX_GAMES): a 413 naming the limit.
    One scorebook or one game at a time fits; `manage.py export_games` writes any number."""

    def __init__(self, count: int):
        self.count = count

    def __str__(self):
        return _(
            "This export holds {count} games; one download holds at most {limit}. Export one scorebook or one "
            "game at a time, or ask whoever runs the server for manage.py export_games."
        ).format(
            count=number_format(self.count, force_grouping=True),
            limit=number_format(settings.EXPORT_MAX_GAMES, force_grouping=True),
        )


def bounded_export(games):
    """The games of one download, everything they hold read in a fixed number of queries; more
    than EXPORT_MAX_GAMES raises ExportTooBig (a worker is never held for an account's whole past)."""
    count = games.count()
    if count > settings.EXPORT_MAX_GAMES:
        raise ExportTooBig(count)
    return games_with_everything(games)
