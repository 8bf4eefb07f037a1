"""Games back in from the JSON export: every value checked and every round scored as if it were entered, all or nothing, and games already held (by their uid) skipped."""

import contextlib
import functools
import gc
import json
import re
import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from django.conf import settings
from django.db import transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from .. import services
from ..models import Game, Player, Scorebook, name_key
from ..rules.game import GameRules
from ..rules.rounds import EntryInput
from ..rules.seating import Change, JoinTotal, SeatChange
from .exports import FORMAT, VERSION, VERSIONS
from .limits import TooBig


@dataclass
class Imported:
    games: int = 0
    rounds: int = 0
    players_created: int = 0
    skipped: int = 0  # already in the scorebook


class BadFile(services.InvalidInput):
    pass


def _problem(where: str, message: str) -> BadFile:
    return BadFile({"file": [f"{where}: {message}"]})


def _quoted(field: str) -> str:
    return f'"{field}"'


def _shown(value) -> str:
    """A value as the file has it, short enough for a message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 30 else f"{text[:30]}…"


def _named(field: str, of: str | None) -> str:
    """A value's name as a message shows it: `"pips" of Ann's entry`, or `"tile_set"`."""
    return _("{field} of {player}'s entry").format(field=_quoted(field), player=of) if of else _quoted(field)


def _number(value, where: str, field: str, *, optional: bool = False, of: str | None = None) -> int | None:
    """A whole number (JSON's true and false are not numbers, though Python counts them as 1 and
    0). `of`: the player whose entry holds it."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _problem(
            where,
            _("{field} must be a whole number (not {value}).").format(field=_named(field, of), value=_shown(value)),
        )
    return value


def _flag(value, where: str, field: str, *, optional: bool = False, of: str | None = None) -> bool | None:
    if value is None and optional:
        return None
    if not isinstance(value, bool):
        raise _problem(
            where,
            _("{field} must be true or false (not {value}).").format(field=_named(field, of), value=_shown(value)),
        )
    return value


def _when(value, where: str, field: str) -> datetime | None:
    """An ISO 8601 date and time that the database can hold (a date without an offset is UTC)."""
    if value is None:
        return None
    try:
        parsed = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:  # well formed, but no such day or hour
        parsed = None
    if parsed is None:
        raise _problem(where, _('"{field}" is not a date and time (ISO 8601).').format(field=field))
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        return parsed.astimezone(UTC)
    except OverflowError:  # 9999-12-31T23:59:59-14:00 is in the year 10000 in UTC
        raise _problem(
            where,
            _('"{field}" is out of range: a date must fall between the years 1 and 9999 in UTC.').format(field=field),
        ) from None


# Text no database column can store: NUL (PostgreSQL refuses it) and lone halves of surrogate pairs.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _unstorable(value, at: str = "") -> str | None:
    """Where in a game of the file a string (or a key) holds text no column can store, or None."""
    stack = [(value, at)]
    while stack:
        value, at = stack.pop()
        if isinstance(value, str):
            if _UNSTORABLE.search(value):
                return at
        elif isinstance(value, dict):
            for key, item in value.items():
                name = f"{at}.{key}" if at else str(key)
                if _UNSTORABLE.search(str(key)):
                    return _UNSTORABLE.sub("?", name)
                stack.append((item, name))
        elif isinstance(value, list):
            stack.extend((item, f"{at}[{index}]") for index, item in enumerate(value))
    return None


_UNSTORABLE_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")


def _may_hold_unstorable(data) -> bool:
    """Whether any string of the file may hold a NUL or half a surrogate pair: JSON (as json.dumps
    writes it, in C, at once) spells them only as \\u escapes. Characters beyond the BMP (emoji)
    are pairs of such escapes too, so a yes is checked game by game (_unstorable)."""
    return _UNSTORABLE_ESCAPE.search(json.dumps(data)) is not None


def _check_shape(data, max_games: int | None) -> list:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadFile(
            {
                "file": [
                    _('Not a Chicken Foot Scorekeeper export (its "format" must be "{format}").').format(format=FORMAT)
                ]
            }
        )
    version = data.get("version")
    if isinstance(version, bool) or version not in VERSIONS:
        raise BadFile(
            {
                "file": [
                    _("This app reads exports of version {oldest} to {newest}, not {got}.").format(
                        oldest=VERSIONS[0], newest=VERSION, got=repr(version)
                    )
                ]
            }
        )
    games = data.get("games")
    if not isinstance(games, list):
        raise BadFile({"file": [_('"games" must be a list of games.')]})
    if max_games is not None and len(games) > max_games:
        raise TooBig
    return games


# The same few names come back in every entry of every game: fold each once.
_key = functools.lru_cache(maxsize=4096)(name_key)


@dataclass
class _GameInFile:
    """One game of the file, every value of the right type; players by name key."""

    where: str
    uid: uuid.UUID | None
    names: list[str]
    rules: GameRules
    rounds: list[tuple[int, list[EntryInput]]]
    name: str
    created_at: datetime | None
    finished_at: datetime | None
    changes: list[SeatChange]  # its seat changes in the order made, players by name key (version 2)
    stopped_after: int | None = None  # the table agreed to stop after this round (version 2)
    casual: bool = False  # a friendly game, counted nowhere (files written before it lack it: false)


def _read_game(index: int, game, *, suspect: bool) -> _GameInFile:
    """A game of the file, its values checked for type and range (the rules are checked later,
    as if the game were entered here); raises BadFile naming the game and the field. `suspect`:
    the file may hold a NUL somewhere (_may_hold_unstorable), so each game is searched for it."""
    if not isinstance(game, dict):
        raise _problem(_("Game {number}").format(number=index), _("must be an object."))
    if suspect and (at := _unstorable(game)) is not None:
        raise _problem(
            _("Game {number}").format(number=index),
            _('"{field}" holds a NUL character (or half of a Unicode surrogate pair), which is not allowed.').format(
                field=at
            ),
        )
    named = next((text for text in (game.get("name"), game.get("title")) if isinstance(text, str) and text), "")
    where = (_("Game {number} ({name})") if named else _("Game {number}")).format(number=index, name=named)
    name = game.get("name")
    if name is not None and not isinstance(name, str):
        raise _problem(where, _('"{field}" must be text (not {value}).').format(field="name", value=_shown(name)))
    try:
        uid = uuid.UUID(str(game.get("uid"))) if game.get("uid") is not None else None
    except ValueError:
        raise _problem(where, _('"uid" is not a UUID.')) from None
    names = game.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        raise _problem(where, _('"players" must list the players\' names in seat order.'))
    if not isinstance(game.get("rounds", []), list):
        raise _problem(where, _('"rounds" must be a list.'))
    seated = {_key(n) for n in names}
    rounds = []
    for number, round_ in enumerate(game.get("rounds") or [], start=1):
        at = _("{game}, round {number}").format(game=where, number=number)
        if not isinstance(round_, dict) or not isinstance(round_.get("entries"), list):
            raise _problem(at, _("must have a starting double and a list of entries."))
        starting_double = _number(round_.get("starting_double"), at, "starting_double")
        rounds.append((starting_double, [_read_entry(entry, at, seated) for entry in round_["entries"]]))
    options = game.get("rules", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _problem(where, _('"{field}" must be an object.').format(field="rules"))
    defaults = GameRules()
    rules = GameRules(
        tile_set=_number(game.get("tile_set"), where, "tile_set"),
        double_blank_penalty=_number(options.get("double_blank_penalty", defaults.double_blank_penalty), where,
                                     "double_blank_penalty"),
        end_on_double_penalty=_number(options.get("end_on_double_penalty", defaults.end_on_double_penalty), where,
                                      "end_on_double_penalty"),
        extended=_flag(options.get("extended", defaults.extended), where, "extended"),
        target_score=_number(options.get("target_score", defaults.target_score), where, "target_score",
                             optional=True),
        # House options (files written before them lack them: the defaults then).
        first_double=_number(options.get("first_double"), where, "first_double", optional=True),
        rounds=_number(options.get("rounds"), where, "rounds", optional=True),
        tie_break=options.get("tie_break", defaults.tie_break),
        join_total=options.get("join_total", defaults.join_total),
    )  # fmt: skip
    created_at = _when(game.get("created_at"), where, "created_at")
    finished_at = _when(game.get("finished_at"), where, "finished_at")
    if created_at is not None and finished_at is not None and finished_at < created_at:
        raise _problem(
            where,
            _('"{ended}" is before "{began}": a game ends after it begins.').format(
                ended="finished_at", began="created_at"
            ),
        )
    changes = _read_seat_changes(game.get("seat_changes"), where, seated)
    stopped_after = _number(game.get("stopped_after"), where, "stopped_after", optional=True)
    casual = _flag(game.get("casual", False), where, "casual")
    return _GameInFile(
        where, uid, names, rules, rounds, name or "", created_at, finished_at, changes, stopped_after, casual
    )


def _read_seat_changes(changes, where: str, seated: set[str]) -> list[SeatChange]:
    """A game's "seat_changes" (version 2; none in version 1), players by name key; each value of
    the right type, the rules checked later (services.check_import)."""
    if changes is None:
        return []
    if not isinstance(changes, list):
        raise _problem(where, _('"{field}" must be a list.').format(field="seat_changes"))
    read = []
    for number, change in enumerate(changes, start=1):
        at = _("{game}, seat change {number}").format(game=where, number=number)
        if not isinstance(change, dict):
            raise _problem(at, _("must be an object."))
        after = _number(change.get("after"), at, "after")
        kind = change.get("kind")
        if kind not in Change.CHOICES:
            raise _problem(
                at,
                _('"{field}" must be one of {choices} (not {value}).').format(
                    field="kind", choices=", ".join(Change.CHOICES), value=_shown(kind)
                ),
            )
        player, replaces = change.get("player"), change.get("replaces")
        for field, value in (("player", player), ("replaces", replaces)):
            if (value is not None or field == "player") and (not isinstance(value, str) or _key(value) not in seated):
                raise _problem(
                    at, _('"{field}" names nobody in "players": {value}.').format(field=field, value=_shown(value))
                )
        if (replaces is None) == (kind == Change.TAKE_OVER):
            raise _problem(at, _('"replaces" names whose seat a take-over continues, and only a take-over\'s.'))
        join_total = change.get("join_total")
        if join_total is not None and join_total not in JoinTotal.CHOICES:
            raise _problem(
                at,
                _('"{field}" must be one of {choices} (not {value}).').format(
                    field="join_total", choices=", ".join(JoinTotal.CHOICES), value=_shown(join_total)
                ),
            )
        read.append(SeatChange(kind, _key(player), after, None if replaces is None else _key(replaces), join_total))
    return read


def _read_entry(entry, where: str, seated: set[str]) -> EntryInput:
    """One entry of a round, its player by name key (the caller puts the player's id in)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("player"), str) or _key(entry["player"]) not in seated:
        raise _problem(where, _("an entry names nobody at this table: {entry}.").format(entry=f"{entry!r:.60}"))
    tiles, player = entry.get("tiles"), entry["player"]
    if tiles is not None and (not isinstance(tiles, list) or not all(isinstance(tile, str) for tile in tiles)):
        raise _problem(where, _('{field} must be a list of tiles like "3-4" (not {value}).').format(
            field=_named("tiles", player), value=_shown(tiles)))  # fmt: skip
    values = {
        "pips": _number(entry.get("pips"), where, "pips", optional=True, of=player),
        "tiles_left": _number(entry.get("tiles_left"), where, "tiles_left", optional=True, of=player),
        "tiles": tiles,
        "double_blank": _flag(entry.get("double_blank"), where, "double_blank", optional=True, of=player),
        "went_out": bool(_flag(entry.get("went_out"), where, "went_out", optional=True, of=player)),
        "ended_on_double": bool(
            _flag(entry.get("ended_on_double"), where, "ended_on_double", optional=True, of=player)
        ),
    }
    if values["tiles"] == [] and not values["went_out"]:
        values["tiles"] = None  # a count given without the tiles listed
    return EntryInput(player=_key(entry["player"]), **values)  # the player's id goes in later


@contextlib.contextmanager
def _without_cycle_collection():
    """Pause Python's cycle collector while an import runs. A file of a thousand games is a
    million small objects (the parsed file, then the rows), and each of the collector's full passes
    walks all of them: a third of the import's time. Nothing here makes reference cycles, and
    reference counting still frees everything as usual; the collector runs again afterwards."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@_without_cycle_collection()
@transaction.atomic
def import_games(*, data, scorebook: Scorebook, by, progress=None, max_games: int | None = None) -> Imported:
    """Every game of an export into `scorebook`, all or nothing. Players are matched by name
    (ignoring case as everywhere) and made when missing. Over `max_games` games, or (when it is given)
    over settings.IMPORT_MAX_ENTRIES round scores: TooBig, before anything is written.

    Read in three passes, so a file of a thousand games costs a handful of statements: every value
    checked for its type; the missing players made; every game checked as if entered here; then
    all of them saved at once (services.save_imports)."""
    games = _check_shape(data, max_games)
    result = Imported()
    players = {player.name_key: player for player in Player.objects.filter(scorebook=scorebook)}
    held = set(Game.objects.filter(scorebook=scorebook).values_list("uid", flat=True))
    wanted = []
    suspect = _may_hold_unstorable(games)
    for index, game in enumerate(games, start=1):
        read = _read_game(index, game, suspect=suspect)
        if read.uid is not None and read.uid in held:  # in the scorebook, or earlier in this file
            result.skipped += 1
            continue
        if read.uid is not None:
            held.add(read.uid)
        wanted.append(read)
    # What an import costs follows its round scores (every round is checked as if entered): a file
    # may hold few games with many rounds and players. Bounded so a request ends well inside 10 s.
    if max_games is not None and sum(len(entries) for read in wanted for _, entries in read.rounds) > (
        settings.IMPORT_MAX_ENTRIES
    ):
        raise TooBig
    new = {}
    for read in wanted:
        for name in read.names:
            key = _key(name)
            if key not in players and key not in new:
                if len(name.strip()) > 40:
                    raise _problem(
                        read.where, _('the player name "{name}…" is longer than 40 characters.').format(name=name[:40])
                    )
                new[key] = Player(scorebook=scorebook, name=name.strip(), name_key=name_key(name.strip()))
    if new:
        made = Player.objects.bulk_create(new.values())
        Player.history.bulk_history_create(made, default_user=by)
        players |= {player.name_key: player for player in made}
        result.players_created = len(made)
    checked = []
    # A game without a name is called by its number among the scorebook's games and its day, in
    # whoever reads it's language (Game.title), as one started on the pages: never a stored "Table 4".
    number = services.next_game_number(scorebook)
    for read in wanted:
        ids = {_key(name): players[_key(name)].pk for name in read.names}
        rounds = [
            (
                starting_double,
                [
                    EntryInput(
                        ids[e.player], e.pips, e.tiles_left, e.tiles, e.double_blank, e.went_out, e.ended_on_double
                    )
                    for e in entries
                ],
            )
            for starting_double, entries in read.rounds
        ]
        changes = [
            SeatChange(c.kind, ids[c.player], c.after, None if c.replaces is None else ids[c.replaces], c.join_total)
            for c in read.changes
        ]
        try:
            checked_game = services.check_import(
                seats=[(players[_key(name)].pk, players[_key(name)].name) for name in read.names],
                rules=read.rules,
                rounds=rounds,
                name=read.name[:80],
                played_at=read.created_at,
                finished_at=read.finished_at,
                uid=read.uid,
                changes=changes,
                stopped_after=read.stopped_after,
                casual=read.casual,
            )
        except services.InvalidInput as invalid:
            where = read.where
            problems = [
                f"{where}{_round_of(key, read)}{m}" for key, messages in invalid.errors.items() for m in messages
            ]
            raise BadFile({"file": problems}) from None
        if not checked_game.name.strip():
            checked_game, number = replace(checked_game, number=number), number + 1
        checked.append(checked_game)
        if progress is not None:
            progress.update(1)
    services.save_imports(by=by, scorebook=scorebook, games=checked)
    result.games = len(checked)
    result.rounds = sum(len(game.rounds) for game in checked)
    return result


def _round_of(key: str, read: _GameInFile) -> str:
    """Where in a game a problem of the services is: "rounds[2]" -> ", round 3: ";
    "seat_changes[0]" -> ", seat change 1 (Eve joins after round 2): "; any other field (a rule)
    -> ': "tie_break": '."""
    if key.startswith("rounds[") and key.endswith("]"):
        return ", " + _("round {number}: ").format(number=int(key[7:-1]) + 1)
    if key.startswith("seat_changes[") and key.endswith("]"):
        index = int(key[13:-1])
        return ", " + _("seat change {number} ({change}): ").format(
            number=index + 1, change=_change_in_words(read.changes[index], read.names)
        )
    return f": {_quoted(key)}: "


def _change_in_words(change: SeatChange, names: list[str]) -> str:
    """A seat change of the file as a problem names it, players as the file names them."""
    name = {_key(each): each for each in names}
    if change.kind == Change.JOIN:
        return _("{player} joins after round {after}").format(player=name[change.player], after=change.after)
    if change.kind == Change.LEAVE:
        return _("{player} leaves after round {after}").format(player=name[change.player], after=change.after)
    return _("{player} takes over {replaced}'s seat after round {after}").format(
        player=name[change.player], replaced=name[change.replaces], after=change.after
    )
