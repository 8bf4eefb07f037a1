"""Games out of the app and back in: CSV (one row per entry) and versioned JSON (players by
name), and an import that checks every round as if it were entered, saves all or nothing, and
skips games it already holds (by the uid each game carries), so a file imported twice creates
nothing the second time."""

import csv
import io
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Prefetch
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from . import ratings, services
from .models import Entry, Game, Player, Round, Scorebook, Seat, name_key
from .rules.game import RULE_FIELDS, GameRules
from .rules.rounds import EntryInput

FORMAT, VERSION = "chicken-foot-scorekeeper", 1
CSV_COLUMNS = ["game", "date", "tile_set", "round", "starting_double", "player", "pips", "tiles", "penalty", "score"]
ENTRY_FIELDS = ("pips", "tiles_left", "tiles", "double_blank", "went_out", "ended_on_double")
MAX_GAMES = 10_000


def games_with_everything(games):
    """What an export reads, in a fixed number of queries however many games there are."""
    entries = Prefetch("entries", Entry.objects.select_related("player").order_by("position"))
    return games.select_related("scorebook").prefetch_related(
        Prefetch("seats", Seat.objects.select_related("player").order_by("position")),
        Prefetch("rounds", Round.objects.order_by("number").prefetch_related(entries)),
    )


def as_json(games: Iterable[Game]) -> dict:
    return {"format": FORMAT, "version": VERSION, "games": [_game(game) for game in games]}


def _game(game: Game) -> dict:
    rules = game.rules.as_dict()
    return {
        "uid": str(game.uid),
        "name": game.name,
        "scorebook": game.scorebook.name,
        "created_at": game.created_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "tile_set": rules.pop("tile_set"),
        "rules": rules,
        "players": [seat.player.name for seat in game.seats.all()],
        "rounds": [
            {
                "number": round_.number,
                "starting_double": round_.starting_double,
                "entries": [
                    {
                        "player": entry.player.name,
                        **{key: getattr(entry, key) for key in ENTRY_FIELDS},
                        "penalty": entry.penalty,
                        "score": entry.score,
                    }
                    for entry in round_.entries.all()
                ],
            }
            for round_ in game.rounds.all()
        ],
    }


def as_csv(games: Iterable[Game]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for game in games:
        for round_ in game.rounds.all():
            for entry in round_.entries.all():
                writer.writerow(
                    [str(game), game.created_at.date().isoformat(), game.tile_set, round_.number, round_.starting_double,
                     entry.player.name, entry.pips, " ".join(entry.tiles), entry.penalty, entry.score]
                )  # fmt: skip
    return out.getvalue()


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


def _when(value, where: str, field: str) -> datetime | None:
    if value is None:
        return None
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None:
        raise _problem(where, _('"{field}" is not a date and time (ISO 8601).').format(field=field))
    return parsed


def _check_shape(data) -> list:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadFile(
            {
                "file": [
                    _('Not a Chicken Foot Scorekeeper export (its "format" must be "{format}").').format(format=FORMAT)
                ]
            }
        )
    if data.get("version") != VERSION:
        raise BadFile(
            {
                "file": [
                    _("This app reads version {version} exports, not {got}.").format(
                        version=VERSION, got=repr(data.get("version"))
                    )
                ]
            }
        )
    games = data.get("games")
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise BadFile({"file": [_('"games" must be a list of at most {count} games.').format(count=MAX_GAMES)]})
    return games


@transaction.atomic
@ratings.deferring  # one replay of the ratings for the whole file
def import_games(*, data, scorebook: Scorebook, by, progress=None) -> Imported:
    """Every game of an export into `scorebook`, all or nothing. Players are matched by name
    (ignoring case as everywhere) and made when missing."""
    games = _check_shape(data)
    result = Imported()
    players = {player.name_key: player for player in Player.objects.filter(scorebook=scorebook)}
    held = set(Game.objects.filter(scorebook=scorebook).values_list("uid", flat=True))
    for index, game in enumerate(games, start=1):
        named = isinstance(game, dict) and isinstance(game.get("name"), str) and game.get("name")
        where = (_("Game {number} ({name})") if named else _("Game {number}")).format(number=index, name=named)
        if not isinstance(game, dict):
            raise _problem(where, _("must be an object."))
        try:
            uid = uuid.UUID(str(game.get("uid"))) if game.get("uid") is not None else None
        except ValueError:
            raise _problem(where, _('"uid" is not a UUID.')) from None
        if uid is not None and uid in held:
            result.skipped += 1
            continue
        names = game.get("players")
        if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
            raise _problem(where, _('"players" must list the players\' names in seat order.'))
        ids = []
        for name in names:
            key = name_key(name)
            if key not in players:
                if len(name.strip()) > 40:
                    raise _problem(
                        where, _('the player name "{name}…" is longer than 40 characters.').format(name=name[:40])
                    )
                players[key] = Player.objects.create(scorebook=scorebook, name=name.strip())
                result.players_created += 1
            ids.append(players[key].pk)
        by_name = dict(zip([name_key(n) for n in names], ids, strict=True))
        if not isinstance(game.get("rounds", []), list):
            raise _problem(where, _('"rounds" must be a list.'))
        rounds = []
        for number, round_ in enumerate(game.get("rounds") or [], start=1):
            if not isinstance(round_, dict) or not isinstance(round_.get("entries"), list):
                raise _problem(
                    _("{game}, round {number}").format(game=where, number=number),
                    _("must have a starting double and a list of entries."),
                )
            entries = []
            for entry in round_["entries"]:
                if not isinstance(entry, dict) or name_key(str(entry.get("player", ""))) not in by_name:
                    raise _problem(
                        _("{game}, round {number}").format(game=where, number=number),
                        _("an entry names nobody at this table: {entry}.").format(entry=f"{entry!r:.60}"),
                    )
                values = {key: entry.get(key) for key in ENTRY_FIELDS}
                values["went_out"], values["ended_on_double"] = (
                    bool(values["went_out"]),
                    bool(values["ended_on_double"]),
                )
                if values["tiles"] == [] and not values["went_out"]:
                    values["tiles"] = None  # a count given without the tiles listed
                entries.append(EntryInput(player=by_name[name_key(entry["player"])], **values))
            rounds.append((round_.get("starting_double"), entries))
        options = game.get("rules") if isinstance(game.get("rules"), dict) else {}
        played_at = _when(game.get("created_at"), where, "created_at")
        finished_at = _when(game.get("finished_at"), where, "finished_at")
        try:
            rules = GameRules(tile_set=game.get("tile_set"), **{
                key: options.get(key, getattr(GameRules(), key)) for key in RULE_FIELDS if key != "tile_set"
            })  # fmt: skip
            made = services.import_game(
                by=by,
                scorebook=scorebook,
                players=ids,
                rules=rules,
                rounds=rounds,
                name=str(game.get("name") or "")[:80],
                played_at=played_at,
                finished_at=finished_at,
                uid=uid,
            )
        except services.InvalidInput as invalid:
            problems = [f"{where}, {_round_of(key)}{m}" for key, messages in invalid.errors.items() for m in messages]
            raise BadFile({"file": problems}) from None
        except (TypeError, ValueError) as error:
            raise _problem(where, _("a value has the wrong type ({error}).").format(error=error)) from None
        held.add(made.uid)
        result.games += 1
        result.rounds += len(rounds)
        if progress is not None:
            progress.update(1)
    return result


def _round_of(key: str) -> str:
    """ "rounds[2]" as the services name a round -> "round 3: "."""
    if key.startswith("rounds[") and key.endswith("]"):
        return _("round {number}: ").format(number=int(key[7:-1]) + 1)
    return ""
