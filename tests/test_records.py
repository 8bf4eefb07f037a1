"""The per-set records the services keep always equal the figures aggregated from the seats."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from scorekeeper import ratings, services, stats
from scorekeeper.demo import PlayerFactory, deal_round, seed_games
from scorekeeper.models import Game, Player, RatingStep, Scorebook

pytestmark = pytest.mark.django_db

FIELDS = ["game_count", "wins", "total_sum", "rounds", "went_out", "double_blank_penalties", "end_on_double_penalties"]


def figures(queryset):
    return {p.pk: tuple(getattr(p, f) for f in FIELDS) for p in queryset}


def assert_records_match_seats(user):
    """The records equal the figures aggregated from the seats and entries; the ratings equal a
    replay of every finished game from scratch."""
    players = Player.objects.for_user(user)
    for tile_set in (None, 6, 9, 12, 15):
        assert figures(stats.with_records(players, tile_set=tile_set)) == figures(
            stats.with_figures(players, tile_set=tile_set)
        ), tile_set
        for player in players:
            assert _rounded(stats.by_starting_double(player, tile_set=tile_set)) == _rounded(
                stats.by_starting_double_from_entries(player, tile_set=tile_set)
            ), (player, tile_set)
            assert list(stats.head_to_head(player, tile_set=tile_set)) == list(
                stats.head_to_head_from_seats(player, tile_set=tile_set)
            ), (player, tile_set)
            kept = stats.player_figures(player, tile_set=tile_set)
            aggregated = stats.with_figures(Player.objects.filter(pk=player.pk), tile_set=tile_set).get()
            assert (kept.best_total, kept.worst_total) == (aggregated.best_total, aggregated.worst_total)
    assert_ratings_match_a_replay(user)


def _rounded(rows):
    return [{key: round(value, 9) for key, value in row.items()} for row in rows]


def assert_ratings_match_a_replay(user):
    kept_steps = _steps()
    kept_players = _current(user)
    for book in Scorebook.objects.for_user(user):
        ratings.rebuild(book.pk)
    assert _steps() == kept_steps
    assert _current(user) == kept_players


def _steps():
    return sorted(
        (step.game_id, step.player_id, round(step.mu, 9), round(step.sigma, 9)) for step in RatingStep.objects.all()
    )


def _current(user):
    return {
        p.pk: (p.rating_mu and round(p.rating_mu, 9), p.rating_sigma and round(p.rating_sigma, 9))
        for p in Player.objects.for_user(user)
    }


def test_records_follow_finishing_correcting_undoing_and_deleting_games(user):
    rng = random.Random(3)
    players = [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy", "Dot")]
    games = seed_games(user, players, 15, rng)
    assert_records_match_seats(user)

    finished = [g for g in games if g.is_finished]
    # Correct the last round of a finished game: totals and maybe the winner change.
    game = finished[0]
    last = game.rounds.order_by("-number").first()
    seats = [s.player_id for s in game.seats.order_by("position")]
    services.correct_round(round=last, entries=deal_round(game.rules, seats, last.starting_double, rng))
    assert_records_match_seats(user)

    # Undo the last round of another: it is no longer finished, so it leaves the records.
    services.undo_last_round(game=finished[1])
    assert not Game.objects.get(pk=finished[1].pk).is_finished
    assert_records_match_seats(user)

    # Play that round again: finished once more.
    again = Game.objects.get(pk=finished[1].pk)
    seats = [s.player_id for s in again.seats.order_by("position")]
    double = again.next_double
    services.record_round(game=again, starting_double=double, entries=deal_round(again.rules, seats, double, rng))
    assert_records_match_seats(user)

    # Delete a finished game, and bring it back from the trash.
    services.delete_game(game=finished[2])
    assert_records_match_seats(user)
    services.restore_game(game=finished[2])
    assert_records_match_seats(user)


def test_the_all_time_leaderboard_reads_records_and_a_period_reads_seats(user):
    players = [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy")]
    seed_games(user, players, 8, random.Random(5), days=1)
    all_time = [(p.pk, p.wins, round(p.average_total, 6)) for p in stats.leaderboard(Scorebook.personal_for(user))]
    since = timezone.now() - timedelta(days=2)
    recent = [
        (p.pk, p.wins, round(p.average_total, 6)) for p in stats.leaderboard(Scorebook.personal_for(user), since=since)
    ]
    assert "scorekeeper_playerrecord" in str(stats.leaderboard(Scorebook.personal_for(user)).query)
    assert "scorekeeper_playerrecord" not in str(stats.leaderboard(Scorebook.personal_for(user), since=since).query)
    assert all_time == recent  # every game was played within the last day


@pytest.mark.django_db
def test_the_saved_state_of_every_seeded_game_is_what_the_rules_derive(user):
    import random

    from scorekeeper.demo import seed_games
    from scorekeeper.rules.scoring import RoundResult, derive
    from tests.factories import PlayerFactory

    players = [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy", "Di", "Ed")]
    for game in seed_games(user, players, 12, random.Random(12)):
        game = Game.objects.get(pk=game.pk)
        seats = list(game.seats.select_related("player").order_by("position"))
        results = {}
        for round_ in game.rounds.order_by("number").prefetch_related("entries"):
            results[round_.position] = {entry.player_id: entry.score for entry in round_.entries.all()}
        state = derive(
            game.rules, [(s.player_id, s.player.name) for s in seats], [RoundResult(p, s) for p, s in results.items()]
        )
        assert [(s.total, s.rank, s.place, s.is_winner) for s in seats] == [
            (d.total, d.rank, d.place, d.is_winner) for d in state.seats
        ]
        assert (game.next_double, game.ended_because or None, game.is_finished) == (
            state.next_double, state.ended_because, state.finished
        )  # fmt: skip
