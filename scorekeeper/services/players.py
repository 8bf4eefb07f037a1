"""Writes to players: rename, link to an account, archive and bring back, merge into another, delete."""

from django.db import transaction
from django.db.models import F, Min, RestrictedError
from django.utils import timezone
from django.utils.translation import gettext as _

from ..caches.rule import announce
from ..errors import Conflict, Gone, InvalidInput
from ..models import (
    TRASH_DAYS,
    DoubleRecord,
    Entry,
    Game,
    HistoryAction,
    OpponentRecord,
    Player,
    PlayerRecord,
    Season,
    SeasonTally,
    Seat,
    SeatChange,
)
from ..rules import snapshot
from . import ratings, seasons
from .common import require_scorer, save_with_history
from .records import update_extremes, upsert_adding


@transaction.atomic
def rename_player(*, player: Player, name: str, by=None) -> Player:
    """Rename, and move on the version of every game the player sits in (the trash's too): their
    ETags, the live links' cached bodies and open forms all see the new name, so a rename meant to
    hide a real name reaches the public link at once. The games are locked in id order first, so
    two renames sharing games wait for each other instead of deadlocking."""
    # The games before the player's row, the order a round (and a merge) takes them: no deadlock.
    seated = Game.objects.filter(seats__player=player).order_by("pk").select_for_update(of=("self",))
    games = list(seated.values_list("pk", flat=True))
    player.name = name
    save_with_history(player, by, HistoryAction.PLAYER_RENAMED, update_fields=["name"])
    Game.objects.filter(pk__in=games).update(version=F("version") + 1)
    announce("player renamed", games=games)  # their versions moved on
    return player


@transaction.atomic
def link_player(*, player: Player, user, role: str | None, me: bool) -> Player:
    """ "This is me": link a player to `user`'s own account (me=True) or unlink it. A player linked to
    another account stays theirs (owners and scorers may unlink it); one player per account per scorebook."""
    locked = Player.objects.select_for_update().get(pk=player.pk)
    theirs = locked.user_id not in (None, user.pk)
    if me:
        if theirs:
            raise Conflict(_("{name} is already linked to another account.").format(name=locked.name), "player_linked")
        if Player.objects.filter(scorebook_id=locked.scorebook_id, user=user).exclude(pk=locked.pk).exists():
            raise Conflict(
                _("You are already linked to another player in this scorebook: unlink that one first."),
                "already_linked",
            )
        locked.user = user
    else:
        if theirs:
            require_scorer(role)
        locked.user = None
    action = HistoryAction.PLAYER_LINKED if me else HistoryAction.PLAYER_UNLINKED
    save_with_history(locked, user, action, update_fields=["user"])
    player.user = locked.user
    announce("player linked", games=Game.objects.filter(seats__player=player).values_list("pk", flat=True))
    return player


def delete_player(*, player: Player) -> None:
    """Refused while the player has a seat in any game, so no game loses a seat."""
    seats = player.seats.all()
    if seats.filter(game__deleted_at__isnull=True).exists():
        raise Conflict(_("{name} has games: delete those games first.").format(name=player.name), "player_has_games")
    if seats.exists():
        raise Conflict(
            _(
                "{name} still has games in the trash: they can be restored for {days} days, so the player stays until they are purged."
            ).format(name=player.name, days=TRASH_DAYS),
            "player_has_games",
        )
    try:
        with transaction.atomic():
            player.delete()
    except RestrictedError:  # seated by a game created since the check
        raise Conflict(
            _("{name} has games: delete those games first.").format(name=player.name), "player_has_games"
        ) from None


@transaction.atomic
def set_archived(*, player: Player, archived: bool, role: str | None, by=None) -> Player:
    """Archive a player (off the pickers, boards and lists; their games untouched) or bring them back."""
    require_scorer(role)
    if player.archived != archived:
        player.archived = archived
        action = HistoryAction.PLAYER_ARCHIVED if archived else HistoryAction.PLAYER_BROUGHT_BACK
        save_with_history(player, by, action, update_fields=["archived"])
    announce("player archived")  # no kept entry lists the scorebook's players (caches.rule)
    return player


def merge_refusal(*, player: Player, into: Player) -> Conflict | None:
    """Why `player` cannot be merged into `into` (the Conflict "played_together" merge_player
    raises: both sat at one table), or None; the merge page asks it before its question."""
    if Seat.objects.filter(player=player, game__seats__player=into).exists():
        return Conflict(
            _("{name} and {into} sat at one table: they are two people, not one.").format(
                name=player.name, into=into.name
            ),
            "played_together",
        )
    return None


@transaction.atomic
def merge_player(*, player: Player, into_id, role: str | None, by=None) -> Player:
    """Two names for one person made one: every seat, entry, seat change, record, season tally and
    rating step of `player` becomes `into`'s, and `player` is deleted. Refused (InvalidInput naming
    `into`) for the player itself or one of another scorebook, and (Conflict "played_together")
    when both sat at one table. History notes it on every game moved, whose versions move on.

    Two merges of the same players at once take their rows in one order (games, then both players by
    id) and the second finds what the first left: `player` gone is Gone (a 404, as for a player that
    never was), `into` merged away meanwhile a Conflict "player_gone"; never a half-made merge."""
    require_scorer(role)
    into = Player.objects.filter(scorebook_id=player.scorebook_id, pk=into_id).first() if into_id else None
    if into is None and (gone := _merged_away(player.scorebook_id, into_id)) is not None:
        raise _gone_into(gone)
    if into is None or into.pk == player.pk:
        message = (
            _("A player cannot be merged into themselves.")
            if into is not None
            else _("Choose another player of this scorebook.")
        )
        raise InvalidInput({"into": [message]})
    # The games of both, locked in id order (as rename_player and a round), so no round or seat change
    # moves under us; then both players, in id order, as they are now (linked or not, still there).
    seated = Game.objects.filter(seats__player__in=[player.pk, into.pk]).order_by("pk").select_for_update(of=("self",))
    list(seated.values_list("pk", flat=True))
    held = {
        each.pk: each for each in Player.objects.filter(pk__in=[player.pk, into.pk]).order_by("pk").select_for_update()
    }
    if player.pk not in held:
        raise Gone(_("{name} is no longer in this scorebook (merged or deleted meanwhile).").format(name=player.name))
    if into.pk not in held:
        raise _gone_into(into.name)
    player, into = held[player.pk], held[into.pk]
    refusal = merge_refusal(player=player, into=into)
    if refusal is not None:
        raise refusal
    games = list(Game.objects.filter(seats__player=player).order_by("pk"))
    first_counted = Game.objects.counted().filter(seats__player=player).aggregate(first=Min("finished_at"))["first"]
    Seat.objects.filter(player=player).update(player=into)
    Seat.objects.filter(replaced=player).update(replaced=into)
    Entry.objects.filter(player=player).update(player=into)
    SeatChange.objects.filter(player=player).update(player=into)
    SeatChange.objects.filter(replaces=player).update(replaces=into)
    # The history of seat changes names players by id: it names the one merged into from now on.
    SeatChange.history.filter(player_id=player.pk).update(player_id=into.pk)
    SeatChange.history.filter(replaces_id=player.pk).update(replaces_id=into.pk)
    for game in games:
        game.state = snapshot.with_player(game.state, player.pk, into.pk) if game.state else None
        if game.undone_round:
            game.undone_round = game.undone_round | {
                "entries": [
                    entry | {"player": into.pk if entry["player"] == player.pk else entry["player"]}
                    for entry in game.undone_round["entries"]
                ]
            }
        game.version += 1
        game.updated_at = timezone.now()
    Game.objects.bulk_update(games, ["state", "undone_round", "version", "updated_at"])
    Game.history.bulk_history_create(games, default_user=by, default_change_reason=HistoryAction.PLAYER_MERGED)
    seasons.hold(player.scorebook_id)  # a season write under way first (services.seasons.hold)
    touched = list(Season.objects.filter(tallies__player=player).distinct().select_related("scorebook"))
    _merge_records(player, into)
    if first_counted is not None:  # the ratings from the first game moved on, and the seasons holding any
        point = ratings.Point(first_counted, 0)
        ratings.changed(player.scorebook_id, point, [player.pk, into.pk])
    for season in touched:
        seasons.rebuild(season)
    if into.user_id is None and player.user_id is not None:
        into.user_id, player.user = player.user_id, None
        player.save(update_fields=["user"])
        save_with_history(into, by, HistoryAction.PLAYER_LINKED, update_fields=["user"])
    player._history_user, player._change_reason = by, HistoryAction.PLAYER_MERGED
    player.delete()
    announce("player merged", games=[game.pk for game in games])  # their seats, names and versions moved on
    return into


def _merged_away(scorebook_id: int, pk) -> str | None:
    """The name of player `pk` of the scorebook if they were deleted (a merge into them lost a race
    with a merge of them), else None."""
    if not isinstance(pk, int):
        return None
    deleted = Player.history.filter(id=pk, scorebook_id=scorebook_id, history_type="-")
    return deleted.values_list("name", flat=True).first()


def _gone_into(name: str) -> Conflict:
    return Conflict(
        _("{name} was merged or deleted meanwhile: choose another player.").format(name=name), "player_gone"
    )


def _merge_records(player: Player, into: Player) -> None:
    """Add `player`'s kept records (per set, per double, head to head both ways) to `into`'s, then
    work out `into`'s best and worst totals again from the seats. They never sat at one table, so
    no head-to-head row pairs the two."""
    upsert_adding(
        PlayerRecord, ("player_id", "tile_set"), tuple(PlayerRecord.SUMS),
        [((into.pk, tile_set), values) for tile_set, *values
         in PlayerRecord.objects.filter(player=player).values_list("tile_set", *PlayerRecord.SUMS)],
    )  # fmt: skip
    doubles = ("rounds", "pips_sum", "score_sum")
    upsert_adding(
        DoubleRecord, ("player_id", "tile_set", "starting_double"), doubles,
        [((into.pk, tile_set, double), values) for tile_set, double, *values
         in DoubleRecord.objects.filter(player=player).values_list("tile_set", "starting_double", *doubles)],
    )  # fmt: skip
    counts = ("games", "ahead", "behind", "level")
    mine = OpponentRecord.objects.filter(player=player).values_list("opponent_id", "tile_set", *counts)
    theirs = OpponentRecord.objects.filter(opponent=player).values_list("player_id", "tile_set", *counts)
    upsert_adding(
        OpponentRecord, ("player_id", "opponent_id", "tile_set"), counts,
        [((into.pk, opponent, tile_set), values) for opponent, tile_set, *values in mine]
        + [((other, into.pk, tile_set), values) for other, tile_set, *values in theirs],
    )  # fmt: skip
    for tile_set in PlayerRecord.objects.filter(player=into).values_list("tile_set", flat=True):
        update_extremes(tile_set, [into.pk])
    # The merged player's own rows go with them (CASCADE); their season tallies are rebuilt from the seats.
    SeasonTally.objects.filter(player=player).delete()
