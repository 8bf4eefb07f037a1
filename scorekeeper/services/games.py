"""Writes to games: create, rename, trash and bring back, purge."""

from collections.abc import Sequence
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from .. import polls, ratings
from ..errors import Conflict, InvalidInput
from ..models import TRASH_DAYS, Game, HistoryAction, LiveLink, Player, PlayerRecord, Scorebook, Seat
from ..rules import snapshot
from ..rules.game import GameRules, seating_problems
from .common import lock_game, save_with_history
from .records import add_detail, add_to_records, detail_of, figures_of, update_extremes
from .state import derive_state, played_rows


def create_game(
    *, by, players: Sequence[int], rules: GameRules, name: str = "", scorebook: Scorebook | None = None, uid=None
) -> Game:
    """Seat `players` (ids of the scorebook's players) in the order given; the scorebook is
    `by`'s personal one unless given."""
    scorebook = scorebook or Scorebook.personal_for(by)
    player_ids = list(players)
    found, errors = table_of(scorebook, rules, player_ids)
    if errors:
        raise InvalidInput(errors)
    state = derive_state(rules, [(pk, found[pk].name) for pk in player_ids], [])
    with transaction.atomic():
        game = Game(
            scorebook=scorebook,
            created_by=by,
            name=name.strip(),
            next_double=state.next_double,
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
    return game


def default_game_name(scorebook: Scorebook, day=None) -> str:
    """A new game's name when none is given: "Game 3 · Mon 23 Nov", numbered among the scorebook's
    games (the trash's too, so no two share a number), the day in the page's language."""
    number = Game.objects.filter(scorebook=scorebook).count() + 1
    # Translators: the day in a new game's name, as Django's date format ("Mon 23 Nov"; Spanish months are lowercase: "D j b").
    day = date_format(day or timezone.localdate(), pgettext("day in a game's name", "D j M"))
    return _("Game {number} · {day}").format(number=number, day=day)


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
    polls.game_changed(game.pk, game.version)
    return game


@transaction.atomic
def delete_game(*, game: Game, expected_version: int | None = None, by=None) -> None:
    """Into the trash: gone from every list, page, report and live link; its owner may bring it
    back for TRASH_DAYS (restore_game), then purge_trash removes it."""
    game = lock_game(game, expected_version)
    LiveLink.objects.filter(game=game).delete()
    polls.games_gone([game.pk])
    game.deleted_at, game.deleted_by = timezone.now(), by
    save_with_history(game, by, HistoryAction.GAME_DELETED, update_fields=["deleted_at", "deleted_by"])
    if game.is_finished:
        _count_finished(game, sign=-1)


@transaction.atomic
def restore_game(*, game: Game, by=None) -> Game:
    """Out of the trash, as it was (its figures count again)."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.deleted_at is None:
        raise Conflict(_("This game is not in the trash."), "not_in_trash")
    game.deleted_at, game.deleted_by = None, None
    polls.games_gone([game.pk])
    save_with_history(game, by, HistoryAction.GAME_RESTORED, update_fields=["deleted_at", "deleted_by"])
    if game.is_finished:
        _count_finished(game, sign=+1)
    return game


def _count_finished(game: Game, sign: int) -> None:
    """A finished game leaves (-1, to the trash) or comes back (+1): records and ratings follow."""
    seats = list(game.seats.all())
    add_to_records(game.tile_set, [figures_of(seat) for seat in seats], sign=sign)
    update_extremes(game.tile_set, [seat.player_id for seat in seats])
    detail = detail_of(seats, played_rows(game))
    add_detail(game.tile_set, *((detail, None) if sign < 0 else (None, detail)))
    ratings.changed(game.scorebook_id, ratings.Point(game.finished_at, game.pk), [seat.player_id for seat in seats])


def purge_trash(*, now=None) -> int:
    """Remove the games that have been in the trash longer than TRASH_DAYS; how many."""
    limit = (now or timezone.now()) - timedelta(days=TRASH_DAYS)
    removed = 0
    for game in Game.objects.filter(deleted_at__lt=limit).iterator():
        game.delete()
        removed += 1
    return removed
