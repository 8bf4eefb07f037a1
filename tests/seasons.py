"""Finished games on given days, for the season tests: one round each, then "We stop here"."""

from datetime import UTC, datetime
from unittest import mock

from scorekeeper import services
from scorekeeper.models import Game, Role, Season
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import seasons


def finished_game(book, by, players, pips, *, finished_at=None, leaves=None) -> Game:
    """A finished double-six game of `players` (the first goes out, the others hold `pips` in order:
    equal pips share a place); `leaves`: a player who leaves after the round (unranked); the game
    ends at `finished_at` (a UTC datetime), else now: the clock says so while it is played, so the
    ratings replay it in its place like any game."""
    if finished_at is not None:
        with mock.patch("django.utils.timezone.now", return_value=finished_at):
            return finished_game(book, by, players, pips, leaves=leaves)
    game = services.create_game(by=by, scorebook=book, players=[p.pk for p in players], rules=GameRules(tile_set=6))
    entries = [EntryInput(player=players[0].pk, pips=0, went_out=True)] + [
        EntryInput(player=p.pk, pips=n) for p, n in zip(players[1:], pips, strict=True)
    ]
    services.record_round(game=game, starting_double=6, entries=entries, by=by)
    if leaves is not None:
        services.change_seat(game=game, kind="leave", player=leaves.pk, by=by)
    services.finish_game(game=game, by=by)
    return game


def at(year, month, day, hour=12, minute=0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def make_season(*, book, name, starts, ends, **fields) -> Season:
    """A season made as the owner makes one (its bounds and tallies with it)."""
    return seasons.create_season(book=book, role=Role.OWNER, name=name, starts=starts, ends=ends, **fields)
