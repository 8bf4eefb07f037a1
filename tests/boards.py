"""Finished games round by round, on given days, for the leaderboard's hand-worked tables."""

from datetime import UTC, date, datetime
from unittest import mock

from scorekeeper import services
from scorekeeper.models import Game, Player, Season
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from tests.roles import make_club
from tests.seasons import make_season


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


def at(year, month, day, hour=12) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


def reported_club():
    """The club of the new user's report (issue 34, item 5), hand-worked; it plays in Mexico City (UTC-6).
      G1-G3  Jan-Feb 2025, double-6, one round: Ann out, Dot 5, Eve 10       (Ann wins three)
      G4     10 Apr 2025, double-12, two rounds: Ben out then Cy out;
             Ben 0+5, Cy 5+0, Dot 15+15, Eve 20+20                          (Ben and Cy share the only double-12 win)
      G5     20 May 2025 04:00 UTC (19 May in Mexico City), double-6: Ann out, Ben 10
      Spring (club.spring): 1 Mar - 31 May 2025, G4 and G5.
    The club's own open game and season (tests.roles.make_club) are gone."""
    club = make_club()
    Game.objects.all().delete()
    Season.objects.all().delete()
    club.book.time_zone = "America/Mexico_City"
    club.book.save(update_fields=["time_zone"])
    ann, ben, cy, dot = club.players
    eve = Player.objects.create(scorebook=club.book, name="Eve")
    owner = club.users["owner"]
    for day in (at(2025, 1, 10), at(2025, 1, 20), at(2025, 2, 10)):
        played(club.book, owner, [ann, dot, eve], [(0, 5, 10)], finished_at=day)
    played(club.book, owner, [ben, cy, dot, eve], [(0, 5, 15, 20), (5, 0, 15, 20)], tile_set=12,
           finished_at=at(2025, 4, 10))  # fmt: skip
    played(club.book, owner, [ann, ben], [(0, 10)], finished_at=at(2025, 5, 20, hour=4))
    club.spring = make_season(book=club.book, name="Spring", starts=date(2025, 3, 1), ends=date(2025, 5, 31))
    club.eve = eve
    return club
