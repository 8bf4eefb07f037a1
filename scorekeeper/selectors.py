"""Reads of a game: what the write path saved, never worked out again.

Every change to a game (services) derives its state once and saves it on the game row with a new
version; the sheet, the round form, the live view, the API and the lists read it here."""

from dataclasses import dataclass

from .models import Game
from .rules import snapshot
from .rules.scoring import GameState


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
