"""Writes to players: rename, link to an account, delete."""

from django.db import transaction
from django.db.models import F, RestrictedError
from django.utils.translation import gettext as _

from ..caches.rule import announce
from ..errors import Conflict
from ..models import TRASH_DAYS, Game, HistoryAction, Player
from .common import require_scorer, save_with_history


@transaction.atomic
def rename_player(*, player: Player, name: str, by=None) -> Player:
    """Rename, and move on the version of every game the player sits in (the trash's too): their
    ETags, the live links' cached bodies and open forms all see the new name, so a rename meant to
    hide a real name reaches the public link at once. The games are locked in id order first, so
    two renames sharing games wait for each other instead of deadlocking."""
    player.name = name
    save_with_history(player, by, HistoryAction.PLAYER_RENAMED, update_fields=["name"])
    seated = Game.objects.filter(seats__player=player).order_by("pk").select_for_update(of=("self",))
    games = list(seated.values_list("pk", flat=True))
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
