"""Hand-worked games for the story tests: rounds given as {player: pips} (0 is the one who went out)."""

from unittest import mock

from scorekeeper import services
from scorekeeper.models import Game
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput


def play(book, by, players, rounds, *, finished_at=None, leaves=None, finish=True) -> Game:
    """A double-six game of `players` (seat order), its rounds played 6-6, 5-5, ... as given: each a
    dict of player to pips, 0 for the one who went out (every seated player once). `leaves` leaves
    after the rounds (unranked); then the table stops (`finish`) at `finished_at` (UTC), else now."""
    if finished_at is not None:
        with mock.patch("django.utils.timezone.now", return_value=finished_at):
            return play(book, by, players, rounds, leaves=leaves, finish=finish)
    game = services.create_game(by=by, scorebook=book, players=[p.pk for p in players], rules=GameRules(tile_set=6))
    for number, pips in enumerate(rounds):
        entries = [EntryInput(player=p.pk, pips=n, went_out=n == 0) for p, n in pips.items()]
        services.record_round(game=game, starting_double=6 - number, entries=entries, by=by)
    if leaves is not None:
        services.change_seat(game=game, kind="leave", player=leaves.pk, by=by)
    if finish:
        services.finish_game(game=game, by=by)
    return game
