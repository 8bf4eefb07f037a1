"""The reads access depends on: a game's saved state, the games and scorebooks a user may read or
write, the scorebook the pages work in.

Every change to a game (services) derives its state once and saves it on the game row with a new
version; the sheet, the round form, the live view, the API and the lists read it here."""

from dataclasses import dataclass

from django.db.models import F
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from .models import Game, Membership, Night, Role, Scorebook, Season
from .rules import snapshot
from .rules.scoring import GameState
from .services.common import require_scorer


@dataclass(frozen=True)
class GameRead:
    """A game's state (rules.scoring.GameState, as last saved) and the version it belongs to."""

    state: GameState
    version: int


def game_state(game: Game) -> GameRead:
    """The game's saved state, its players named as they are now. Reads the seats (with their
    players) unless they were prefetched; the state is rebuilt once per game object."""
    read = getattr(game, "_read", None)
    if read is None or read.version != game.version:
        prefetched = "seats" in getattr(game, "_prefetched_objects_cache", {})
        seats = game.seats.all() if prefetched else game.seats.select_related("player")
        names = {seat.player_id: seat.player.name for seat in seats}
        read = game._read = GameRead(snapshot.load(game.state, names), game.version)
    return read


def games_for(user, *, role: bool = False):
    """Games of every scorebook the user belongs to (the trash left out), with their seats; `role`:
    each with the user's role in its scorebook."""
    games = Game.objects.with_role(user) if role else Game.objects.for_user(user)
    return games.with_seats()


def game_to_write(user, pk) -> Game:
    """A game of the user's scorebooks that they may write: 404 for a stranger, 403 for a viewer."""
    game = get_object_or_404(Game.objects.with_role(user), pk=pk)
    require_scorer(game.role)
    return game


def scorebook_for(user, pk) -> Scorebook:
    """One of the user's scorebooks, with their `role`; 404 for any other (or no `pk`)."""
    book = Scorebook.objects.for_user(user).filter(pk=pk).first() if pk is not None else None
    if book is None:
        raise Http404(_("No such scorebook among yours."))
    return book


def season_for(user, pk) -> Season:
    """A season of one of the user's scorebooks, with their `role` and its scorebook; 404 for any other."""
    return get_object_or_404(Season.objects.with_role(user), pk=pk)


def night_for(user, pk) -> Night:
    """A night of one of the user's scorebooks, with their `role` and its scorebook; 404 for any other."""
    return get_object_or_404(Night.objects.with_role(user), pk=pk)


# A user's memberships, the current one first: the scorebook switched to last, else the first joined.
CURRENT_FIRST = (F("last_used_at").desc(nulls_last=True), "joined_at")


def current_scorebook(user) -> Scorebook:
    """The scorebook the pages work in: the one the user switched to last, else their personal one."""
    membership = Membership.objects.filter(user=user).select_related("scorebook").order_by(*CURRENT_FIRST).first()
    book = membership.scorebook if membership else Scorebook.personal_for(user)
    book.role = membership.role if membership else Role.OWNER
    return book
