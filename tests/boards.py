"""Finished games round by round, on given days, for the leaderboard's hand-worked tables."""

from unittest import mock

from scorekeeper import services
from scorekeeper.models import Game
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput


def played(book, by, players, rounds, *, tile_set=6, finished_at=None) -> Game:
    """A finished game of `players` (in seat order) with the set `tile_set`: each of `rounds` gives
    the pips each player holds, in seat order, 0 for the one who went out. The game stops after its
    rounds ("We stop here") unless they were all the set's rounds; it ends at `finished_at` (a UTC
    datetime), else now."""
    if finished_at is not None:
        with mock.patch("django.utils.timezone.now", return_value=finished_at):
            return played(book, by, players, rounds, tile_set=tile_set)
    ids = [player.pk for player in players]
    game = services.create_game(by=by, scorebook=book, players=ids, rules=GameRules(tile_set=tile_set))
    for double, pips in zip(range(tile_set, -1, -1), rounds, strict=False):
        entries = [EntryInput(player=pk, pips=n, went_out=n == 0) for pk, n in zip(ids, pips, strict=True)]
        services.record_round(game=game, starting_double=double, entries=entries, by=by)
    game.refresh_from_db()
    if game.status != Game.Status.FINISHED:
        services.finish_game(game=game, by=by)
    return game
