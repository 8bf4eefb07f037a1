"""Writes to games: create, rename, make casual, finish early, trash and bring back, purge."""

from collections.abc import Sequence
from datetime import timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from ..caches.rule import announce
from ..errors import Conflict, InvalidInput
from ..models import (
    TRASH_DAYS,
    Game,
    HistoryAction,
    LiveLink,
    Player,
    PlayerRecord,
    Scorebook,
    Seat,
    numbered_title,
    table_title,
)
from ..rules import snapshot
from ..rules.game import GameRules, seating_problems
from ..rules.scoring import stop_problem
from . import nights, ratings, seasons
from .common import lock_game, save_with_history
from .records import add_detail, add_to_records, detail_of, figures_of, update_extremes
from .state import derive_state, played_rows, save_state, saved_state


def create_game(
    *,
    by,
    players: Sequence[int],
    rules: GameRules,
    name: str = "",
    number: int | None = None,
    scorebook: Scorebook | None = None,
    uid=None,
    night: int | None = None,
    casual: bool = False,
) -> Game:
    """Seat `players` (ids of the scorebook's players) in the order given; the scorebook is
    `by`'s personal one unless given. A game without a name may be given its `number`
    (next_game_number), which it is called by. `night`: a night of the scorebook it is a table of;
    a `casual` game counts nowhere (Game.casual)."""
    scorebook = scorebook or Scorebook.personal_for(by)
    player_ids = list(players)
    found, errors = table_of(scorebook, rules, player_ids)
    try:
        chosen = nights.night_of(scorebook.pk, night)
    except InvalidInput as invalid:
        errors |= invalid.errors
    if errors:
        raise InvalidInput(errors)
    state = derive_state(rules, [(pk, found[pk].name) for pk in player_ids], [])
    with transaction.atomic():
        (table,) = nights.joining([chosen.pk if chosen else None])
        game = Game(
            scorebook=scorebook,
            created_by=by,
            night=chosen,
            table=table,
            name=name.strip(),
            number=None if name.strip() else number,
            next_double=state.next_double,
            casual=bool(casual),
            state=snapshot.dump(state, []),
            **({"uid": uid} if uid is not None else {}),
            **Game.columns_of(rules),
        )
        save_with_history(game, by, HistoryAction.GAME_CREATED)
        Seat.objects.bulk_create(
            Seat(game=game, player=found[pk], position=seat.seat, place=seat.place)
            for pk, seat in zip(player_ids, state.seats, strict=True)
        )
        # The rows the finished-game figures are added to (see add_to_records).
        PlayerRecord.objects.bulk_create(
            [PlayerRecord(player_id=pk, tile_set=rules.tile_set) for pk in player_ids], ignore_conflicts=True
        )
        announce("game created", games=[game.pk], nights=[game.night_id] if game.night_id else [])
    return game


def next_game_number(scorebook: Scorebook) -> int:
    """A new game's number among the scorebook's games (the trash's too, so no two share one): what
    a game started on the pages without a name is called by (Game.title)."""
    return Game.objects.filter(scorebook=scorebook).count() + 1


def default_game_name(scorebook: Scorebook, night: int | None = None) -> str:
    """What a new game of the scorebook started today without a name will be called: at the night
    `night`, its next table ("Table 4", unless another phone takes that one first)."""
    if night is not None:
        taken = Game.objects.filter(night_id=night).aggregate(top=Max("table"))["top"] or 0
        return table_title(taken + 1)
    return numbered_title(next_game_number(scorebook), timezone.localdate())


def table_of(scorebook: Scorebook, rules: GameRules, player_ids: list[int]) -> tuple[dict[int, Player], dict]:
    """The players of a new game (ids of `scorebook`'s players, in seat order), and what is wrong
    with its rules and its table, if anything."""
    errors = {key: [message] for key, message in rules.problems().items()}
    if seating := seating_problems(player_ids):
        errors["players"] = seating
    found = Player.objects.filter(scorebook=scorebook, pk__in=player_ids).in_bulk()
    missing = [str(pk) for pk in player_ids if pk not in found]
    if missing:
        errors.setdefault("players", []).append(
            _("No player of this scorebook has id {ids}.").format(ids=", ".join(missing))
        )
    return found, errors


@transaction.atomic
def rename_game(*, game: Game, name: str, expected_version: int | None = None, by=None) -> Game:
    game = lock_game(game, expected_version)
    game.name = name.strip()
    game.version += 1
    save_with_history(game, by, HistoryAction.GAME_RENAMED, update_fields=["name", "version", "updated_at"])
    announce("game renamed", games=[game.pk])
    return game


@transaction.atomic
def set_casual(*, game: Game, casual: bool, expected_version: int | None = None, by=None) -> Game:
    """Make the game friendly (it counts nowhere but history and exports) or count it again. A
    finished game takes back, or gives again, what it counted: records, head to head, season
    tallies, and the ratings replayed from it on, as the trash does (_count_finished)."""
    game = lock_game(game, expected_version)
    if game.casual == casual:
        return game
    game.casual = casual
    game.version += 1
    action = HistoryAction.GAME_MADE_CASUAL if casual else HistoryAction.GAME_COUNTED
    # Saved first: the extremes and the replay read which finished games count from the game rows.
    save_with_history(game, by, action, update_fields=["casual", "version", "updated_at"])
    announce("game made casual or counted", games=[game.pk])
    if game.is_finished and game.deleted_at is None:
        _count_finished(game, sign=-1 if casual else +1)
    return game


@transaction.atomic
def finish_game(*, game: Game, expected_version: int | None = None, by=None) -> Game:
    """The table stops after the last recorded round ("We stop here"): the game is over, ranked as
    it stands, and its end reason says so (EndReason.AGREED). Raises Conflict when it is over
    already ("game_finished") or has no round ("no_rounds"). Undoing its last round takes the stop
    back with the round (undo_last_round), and bringing that round back leaves the game open."""
    game = lock_game(game, expected_version)
    seats = list(game.seats.in_order())
    saved = saved_state(game, seats)
    before = snapshot.load(saved, {seat.player_id: seat.player.name for seat in seats})
    if problem := stop_problem(before):
        raise Conflict(str(problem), "game_finished" if before.finished else "no_rounds")
    results, changes = snapshot.results(saved), snapshot.changes(saved)
    game.stopped_after = len(results)
    save_with_history(game, by, HistoryAction.GAME_FINISHED, update_fields=["stopped_after"])
    state = derive_state(game.rules, seats, results, changes, stopped_after=game.stopped_after)
    save_state(game, seats, state, results)  # announces
    return game


@transaction.atomic
def delete_game(*, game: Game, expected_version: int | None = None, by=None) -> None:
    """Into the trash: gone from every list, page, report and live link; its owner may bring it
    back for TRASH_DAYS (restore_game), then purge_trash removes it."""
    game = lock_game(game, expected_version)
    LiveLink.objects.filter(game=game).delete()
    announce("game trashed", games=[game.pk])
    game.deleted_at, game.deleted_by = timezone.now(), by
    save_with_history(game, by, HistoryAction.GAME_DELETED, update_fields=["deleted_at", "deleted_by"])
    if game.is_finished and not game.casual:
        _count_finished(game, sign=-1)


@transaction.atomic
def restore_game(*, game: Game, by=None) -> Game:
    """Out of the trash, as it was (its figures count again)."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.deleted_at is None:
        raise Conflict(_("This game is not in the trash."), "not_in_trash")
    game.deleted_at, game.deleted_by = None, None
    announce("game restored", games=[game.pk])
    save_with_history(game, by, HistoryAction.GAME_RESTORED, update_fields=["deleted_at", "deleted_by"])
    if game.is_finished and not game.casual:
        _count_finished(game, sign=+1)
    return game


def _count_finished(game: Game, sign: int) -> None:
    """A finished game leaves (-1: to the trash, made casual) or comes back (+1): records, season
    tallies and ratings follow."""
    seats = list(game.seats.all())
    add_to_records(game.tile_set, [figures_of(seat) for seat in seats], sign=sign)
    update_extremes(game.tile_set, [seat.player_id for seat in seats])
    seasons.hold(game.scorebook_id)
    seasons.tally(
        scorebook_id=game.scorebook_id, finished_at=game.finished_at, rows=seasons.tally_rows(seats), sign=sign
    )
    detail = detail_of(seats, played_rows(game))
    add_detail(game.tile_set, *((detail, None) if sign < 0 else (None, detail)))
    ratings.changed(game.scorebook_id, ratings.Point(game.finished_at, game.pk), [seat.player_id for seat in seats])


def purge_trash(*, now=None) -> int:
    """Remove the games that have been in the trash longer than TRASH_DAYS; how many."""
    limit = (now or timezone.now()) - timedelta(days=TRASH_DAYS)
    removed = 0
    gone = []
    for game in Game.objects.filter(deleted_at__lt=limit).iterator():
        gone.append(game.pk)
        game.delete()
        removed += 1
    announce("trash purged", games=gone)
    return removed
