"""The per-set records the services keep always equal the figures aggregated from the seats."""

import importlib
import random
from datetime import timedelta

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper import services
from scorekeeper.demo import deal_round, seed_games
from scorekeeper.models import Game, Player, PlayerRecord, RatingStep, Scorebook, Seat
from scorekeeper.reads import stats
from scorekeeper.services import ratings
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

FIELDS = [
    "game_count", "wins", "total_sum", "rounds", "went_out", "double_blank_penalties", "end_on_double_penalties",
    "score_sum", "best_total", "worst_total",
]  # fmt: skip


def figures(queryset):
    return {p.pk: tuple(getattr(p, f) for f in FIELDS) for p in queryset}


def assert_records_match_seats(user):
    """The records equal the figures aggregated from the seats and entries; the ratings equal a
    replay of every finished game from scratch."""
    players = Player.objects.for_user(user)
    for tile_set in (None, 6, 9, 12, 15):
        assert figures(stats.figures_from_records(players, tile_set=tile_set)) == figures(
            stats.figures_from_seats(players, tile_set=tile_set)
        ), tile_set
        for player in players:
            assert _rounded(stats.by_starting_double(player, tile_set=tile_set)) == _rounded(
                stats.by_starting_double_from_entries(player, tile_set=tile_set)
            ), (player, tile_set)
            assert list(stats.head_to_head(player, tile_set=tile_set)) == list(
                stats.head_to_head_from_seats(player, tile_set=tile_set)
            ), (player, tile_set)
            kept = stats.player_figures(player, tile_set=tile_set)
            (aggregated,) = stats.figures_from_seats(Player.objects.filter(pk=player.pk), tile_set=tile_set)
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

    # Delete the finished game with someone's best total, and bring it back from the trash.
    best = Seat.objects.filter(game__status=Game.Status.FINISHED, game__in=finished[2:]).order_by("total").first()
    services.delete_game(game=best.game)
    assert_records_match_seats(user)
    services.restore_game(game=Game.objects.get(pk=best.game_id))
    assert_records_match_seats(user)


def test_the_all_time_leaderboard_reads_records_and_a_period_reads_seats(user):
    players = [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy")]
    seed_games(user, players, 8, random.Random(5), days=1)
    book = Player.objects.filter(scorebook=Scorebook.personal_for(user))
    with CaptureQueriesContext(connection) as all_time_queries:
        all_time = [(p.pk, p.wins, round(p.average_total, 6)) for p in stats.leaderboard(book)]
    since = timezone.now() - timedelta(days=2)
    with CaptureQueriesContext(connection) as recent_queries:
        recent = [(p.pk, p.wins, round(p.average_total, 6)) for p in stats.leaderboard(book, since=since)]
    assert any("scorekeeper_playerrecord" in q["sql"] for q in all_time_queries.captured_queries)
    assert not any("scorekeeper_playerrecord" in q["sql"] for q in recent_queries.captured_queries)
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


def test_the_migration_fills_best_and_worst_totals_from_the_games_finished_before_it(user):
    fill = importlib.import_module("scorekeeper.migrations.0013_record_extremes").fill
    players = [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy")]
    seed_games(user, players, 6, random.Random(9))
    kept = figures(stats.figures_from_records(Player.objects.for_user(user)))
    PlayerRecord.objects.update(best_total=None, worst_total=None)
    fill(django_apps, None)
    assert figures(stats.figures_from_records(Player.objects.for_user(user))) == kept
    assert all(row[-2] is not None for row in kept.values())  # everyone has finished games
