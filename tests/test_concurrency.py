"""Two phones recording the same round at the same instant: exactly one wins."""

import pytest

from scorekeeper import services
from scorekeeper.models import Round
from scorekeeper.rules.rounds import EntryInput
from tests.factories import make_game
from tests.races import at_once


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_simultaneous_recordings_of_one_round_give_one_round_and_one_conflict(postgres_only, attempt):
    game = make_game(tile_set=6)
    players = [seat.player_id for seat in game.seats.order_by("position")]
    entries = [EntryInput(player=players[0], pips=0, went_out=True)] + [
        EntryInput(player=p, pips=5) for p in players[1:]
    ]
    outcomes = at_once(4, lambda: services.record_round(game=game, starting_double=6, entries=entries))
    # Anything but a saved round or a Conflict would be a 500.
    kinds = sorted("conflict" if isinstance(o, services.Conflict) else type(o).__name__ for o in outcomes)
    assert kinds == ["Round"] + ["conflict"] * 3
    assert Round.objects.filter(game=game).count() == 1
