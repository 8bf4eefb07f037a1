"""Two phones recording the same round at the same instant: exactly one wins."""

import threading

import pytest
from django.db import connection

from scorekeeper import services
from scorekeeper.models import Round
from scorekeeper.rules.rounds import EntryInput
from tests.factories import make_game


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_simultaneous_recordings_of_one_round_give_one_round_and_one_conflict(postgres_only, attempt):
    game = make_game(tile_set=6)
    players = [seat.player_id for seat in game.seats.order_by("position")]
    entries = [EntryInput(player=players[0], pips=0, went_out=True)] + [
        EntryInput(player=p, pips=5) for p in players[1:]
    ]
    barrier = threading.Barrier(4)
    outcomes = []

    def record():
        try:
            barrier.wait()
            services.record_round(game=game, starting_double=6, entries=entries)
            outcomes.append("recorded")
        except services.Conflict:
            outcomes.append("conflict")
        except Exception as error:  # anything else would be a 500
            outcomes.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=record) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["conflict"] * 3 + ["recorded"]
    assert Round.objects.filter(game=game).count() == 1
