"""A game ended early by agreement ("We stop here"): services.finish_game, and how undo, bring back
and corrections treat a game the table stopped."""

import pytest

from scorekeeper import services
from scorekeeper.caches import rule
from scorekeeper.models import HistoryAction
from scorekeeper.reads import history
from scorekeeper.rules.scoring import EndReason
from tests.test_services import plain_round

pytestmark = pytest.mark.django_db


def play(game, *rounds):
    """Record rounds of (starting double, pips of seats 2 and 3; seat 1 went out)."""
    for double, *pips in rounds:
        services.record_round(game=game, starting_double=double, entries=plain_round(game, *pips))
    game.refresh_from_db()
    return game


def test_stopping_after_a_round_ends_the_game_ranked_as_it_stands(game, user):
    play(game, (6, 12, 7), (5, 3, 20))
    version = game.version
    rule.heard.clear()
    services.finish_game(game=game, expected_version=version, by=user)
    game.refresh_from_db()
    assert game.is_finished and game.finished_at is not None and game.version == version + 1
    assert (game.ended_because, game.stopped_after, game.next_double) == (EndReason.AGREED, 2, None)
    seats = game.seats.order_by("place")
    assert [(s.player.name, s.total, s.rank, s.is_winner) for s in seats] == [
        ("Ann", 0, 1, True),
        ("Ben", 15, 2, False),
        ("Cy", 27, 3, False),
    ]
    assert [change.what for change in rule.heard] == ["game changed"] and rule.heard[0].games == {game.pk}
    stopped = history.of_game(game)[0]
    assert (stopped.action, stopped.by, stopped.round) == (HistoryAction.GAME_FINISHED, user, 2)


def test_a_stopped_game_says_why_it_ended():
    from scorekeeper.rules.game import GameRules
    from scorekeeper.rules.scoring import RoundResult, derive

    state = derive(GameRules(tile_set=6), [(1, "Ann"), (2, "Ben")], [RoundResult(0, {1: 0, 2: 9})], stopped_after=1)
    assert state.finished and state.winners == (1,) and state.ended_after == 1
    assert str(state.ending(GameRules(tile_set=6))) == "Stopped after round 1: the table agreed to end the game here."


def test_a_game_without_rounds_cannot_be_stopped_and_nothing_changes(game):
    version = game.version
    with pytest.raises(services.Conflict) as refused:
        services.finish_game(game=game)
    assert refused.value.code == "no_rounds"
    game.refresh_from_db()
    assert not game.is_finished and game.version == version and game.stopped_after is None


def test_a_game_over_already_cannot_be_stopped(game):
    play(game, (6, 5, 5), (0, 5, 5))  # 0-0 ends a plain game
    assert game.ended_because == EndReason.SEQUENCE
    with pytest.raises(services.Conflict) as refused:
        services.finish_game(game=game)
    assert refused.value.code == "game_finished"
    game.refresh_from_db()
    assert game.ended_because == EndReason.SEQUENCE and game.stopped_after is None


def test_a_stale_version_stops_nothing(game):
    play(game, (6, 5, 5))
    with pytest.raises(services.Conflict) as refused:
        services.finish_game(game=game, expected_version=game.version - 1)
    assert refused.value.code == "stale"
    game.refresh_from_db()
    assert not game.is_finished


def test_no_round_can_be_recorded_after_the_stop(game):
    play(game, (6, 5, 5))
    services.finish_game(game=game)
    with pytest.raises(services.Conflict) as refused:
        services.record_round(game=game, starting_double=5, entries=plain_round(game, 1, 1))
    assert refused.value.code == "game_finished"


def test_undoing_the_last_round_of_a_stopped_game_opens_it_again_and_bringing_it_back_keeps_it_open(game):
    """The stop was "after round 2": taking round 2 away takes the stop with it. Bringing round 2
    back gives the table its round again, and the game goes on until someone says stop again."""
    play(game, (6, 5, 5), (5, 4, 4))
    services.finish_game(game=game)
    services.undo_last_round(game=game, number=2)
    game.refresh_from_db()
    assert not game.is_finished and game.stopped_after is None and game.next_double == 5
    assert all(not seat.is_winner for seat in game.seats.all())
    services.restore_round(game=game)
    game.refresh_from_db()
    assert not game.is_finished and game.rounds.count() == 2 and game.next_double == 4
    services.finish_game(game=game)
    game.refresh_from_db()
    assert game.is_finished and game.stopped_after == 2


def test_a_correction_keeps_a_stopped_game_over_with_the_new_totals(game):
    play(game, (6, 5, 5), (5, 4, 4))
    services.finish_game(game=game)
    round_ = game.rounds.get(number=1)
    services.correct_round(round=round_, entries=plain_round(game, 30, 4))
    game.refresh_from_db()
    assert game.is_finished and game.ended_because == EndReason.AGREED
    assert [(s.player.name, s.total) for s in game.seats.order_by("place")] == [("Ann", 0), ("Cy", 8), ("Ben", 34)]
