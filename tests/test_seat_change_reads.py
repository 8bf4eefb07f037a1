"""Everything that reads a game follows its seat changes: player figures, the leaderboard, head to
head and ratings (docs/architecture.md, "What reads a game follows its seats")."""

import importlib
import random

import pytest
from django.apps import apps as django_apps

from scorekeeper.demo import seed_games
from scorekeeper.models import Game, Player, PlayerRecord, RatingStep, Seat
from scorekeeper.reads import stats
from scorekeeper.rules.rating import START, Rating, rate_game
from scorekeeper.services import ratings
from tests.factories import PlayerFactory
from tests.seat_changes import changing_table
from tests.test_records import assert_records_match_seats

pytestmark = pytest.mark.django_db


@pytest.fixture
def changed(user):
    game, ids = changing_table(user)
    assert game.is_finished
    return game, ids


def record_of(player_id) -> PlayerRecord:
    return PlayerRecord.objects.get(player_id=player_id, tile_set=6)


def test_the_game_is_ranked_as_it_ended(changed):
    game, _ids = changed
    seats = {seat.player.name: seat for seat in game.seats.select_related("player")}
    assert {name: (seat.total, seat.rank) for name, seat in seats.items()} == {
        "Ann": (7, 1), "Ben": (5, None), "Cy": (19, None), "Dee": (12, 2), "Eve": (18, 4), "Fay": (13, 3),
    }  # fmt: skip


def test_a_player_who_left_is_not_counted_as_having_played_the_game(changed, user):
    _game, ids = changed
    for name in ("Ben", "Cy"):
        record = record_of(ids[name])
        assert (record.games, record.wins, record.total_sum, record.best_total, record.worst_total) == (
            0, 0, 0, None, None
        ), name  # fmt: skip
    figures = stats.player_figures(Player.objects.get(pk=ids["Cy"]))
    assert (figures.game_count, figures.average_total) == (0, None)
    assert_records_match_seats(user)


def test_round_figures_count_the_rounds_a_player_sat_in_even_after_leaving(changed):
    _game, ids = changed
    ben, cy = record_of(ids["Ben"]), record_of(ids["Cy"])
    assert (ben.rounds, ben.went_out, ben.score_sum) == (2, 1, 5)
    assert (cy.rounds, cy.went_out, cy.score_sum) == (3, 0, 19)
    assert stats.player_figures(Player.objects.get(pk=ids["Cy"])).average_round_score == 19 / 3


def test_an_opening_total_is_not_a_round_score(changed):
    _game, ids = changed
    eve = record_of(ids["Eve"])  # joined after round 1 with 10, scored 1, 5 and 2
    assert (eve.games, eve.total_sum, eve.rounds, eve.score_sum) == (1, 18, 3, 8)
    figures = stats.player_figures(Player.objects.get(pk=ids["Eve"]))
    assert (figures.average_total, figures.average_round_score) == (18, 8 / 3)
    fay = stats.player_figures(Player.objects.get(pk=ids["Fay"]))  # took over Ben's 5, scored 0 and 8
    assert (fay.game_count, fay.rounds, fay.average_round_score) == (1, 2, 4)


def test_a_period_aggregated_from_the_seats_counts_the_same_as_the_records(changed, user):
    _game, ids = changed
    players = Player.objects.filter(pk__in=ids.values())
    since = Game.objects.get(pk=changed[0].pk).finished_at
    by_seats = {f.name: f for f in stats.leaderboard(players, since=since)}
    by_records = {f.name: f for f in stats.leaderboard(players)}
    for name in ids:
        assert vars(by_seats[name]) | {"player": None} == vars(by_records[name]) | {"player": None}, name
    assert [f.name for f in stats.leaderboard(players)][:1] == ["Ann"]
    assert (by_seats["Cy"].game_count, by_seats["Cy"].score_sum) == (0, 19)


def test_best_and_worst_totals_are_over_games_the_player_was_ranked_in(changed):
    _game, ids = changed
    assert (record_of(ids["Dee"]).best_total, record_of(ids["Dee"]).worst_total) == (12, 12)
    assert Seat.objects.filter(player_id=ids["Cy"]).get().total == 19  # a total, but no place
    assert (record_of(ids["Cy"]).best_total, record_of(ids["Cy"]).worst_total) == (None, None)


def test_the_chart_of_game_totals_leaves_out_a_game_the_player_left(changed):
    game, ids = changed
    assert stats.game_totals(Player.objects.get(pk=ids["Cy"])) == []
    assert stats.game_totals(Player.objects.get(pk=ids["Eve"])) == [(game.finished_at, 18, False)]


def test_head_to_head_counts_only_pairs_who_were_both_ranked(changed, user):
    _game, ids = changed
    ann = Player.objects.get(pk=ids["Ann"])
    rows = {row["opponent_name"]: (row["games"], row["ahead"], row["behind"]) for row in stats.head_to_head(ann)}
    assert rows == {"Dee": (1, 1, 0), "Eve": (1, 1, 0), "Fay": (1, 1, 0)}
    assert stats.head_to_head(Player.objects.get(pk=ids["Ben"])) == []
    assert stats.head_to_head_from_seats(ann) == stats.head_to_head(ann)


def test_players_who_left_are_not_rated_for_the_game(changed):
    game, ids = changed
    rated = set(RatingStep.objects.filter(game=game).values_list("player_id", flat=True))
    assert rated == {ids["Ann"], ids["Dee"], ids["Eve"], ids["Fay"]}
    assert Player.objects.get(pk=ids["Cy"]).rating_mu is None


def test_each_ranked_player_is_rated_by_the_share_of_the_rounds_they_played(changed):
    game, ids = changed
    shares = {ids["Ann"]: 1.0, ids["Dee"]: 1.0, ids["Fay"]: 2 / 4, ids["Eve"]: 3 / 4}
    assert {seat.player_id: ratings.share_of_rounds(seat) for seat in game.seats.filter(left_after__isnull=True)} == (
        shares
    )
    ranks = {ids["Ann"]: 1, ids["Dee"]: 2, ids["Fay"]: 3, ids["Eve"]: 4}
    expected = rate_game({}, ranks, shares)
    steps = {step.player_id: Rating(step.mu, step.sigma) for step in RatingStep.objects.filter(game=game)}
    assert steps == expected
    # The replay from scratch gives the same steps (deterministic).
    ratings.rebuild(game.scorebook_id)
    assert {step.player_id: Rating(step.mu, step.sigma) for step in RatingStep.objects.filter(game=game)} == expected


def test_a_player_who_played_part_of_a_game_moves_that_share_of_the_way():
    ranks = {1: 1, 2: 2, 3: 3}
    whole = rate_game({}, ranks)
    half = rate_game({}, ranks, {1: 1.0, 2: 1.0, 3: 0.5})
    assert half[1] == whole[1] and half[2] == whole[2]
    assert half[3].mu - START.mu == pytest.approx((whole[3].mu - START.mu) / 2)  # loses half as much
    assert abs(half[3].sigma - START.sigma) < abs(whole[3].sigma - START.sigma)
    late_winner = rate_game({}, {1: 1, 2: 2}, {1: 0.25})
    assert 0 < late_winner[1].mu - START.mu < rate_game({}, {1: 1, 2: 2})[1].mu - START.mu


def test_a_game_without_seat_changes_rates_exactly_as_before():
    before = {1: Rating(27.0, 7.0), 2: Rating(24.0, 8.0)}
    ranks = {1: 2, 2: 1, 3: 3}
    assert rate_game(before, ranks, {1: 1.0, 2: 1.0, 3: 1.0}) == rate_game(before, ranks)


def test_the_migration_fills_the_sum_of_round_scores_from_the_totals_saved_before_seat_changes(user):
    fill = importlib.import_module("scorekeeper.migrations.0023_player_record_score_sum").from_totals
    players = [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy")]
    seed_games(user, players, 4, random.Random(5))
    kept = {record.pk: record.score_sum for record in PlayerRecord.objects.all()}
    assert any(kept.values())
    PlayerRecord.objects.update(score_sum=0)
    fill(django_apps, None)
    assert {record.pk: record.score_sum for record in PlayerRecord.objects.all()} == kept
    assert all(record.score_sum == record.total_sum for record in PlayerRecord.objects.all())


def test_a_game_card_lists_a_taken_over_seat_once_and_marks_who_left(changed, client, user):
    client.force_login(user)
    page = client.get("/history/").content.decode()
    card = page[page.index('class="standings"') :].split("</span>", 1)[0]
    # Fay took over Ben's seat (her total continues his): Ben is not listed again; Cy left.
    assert "<bdi>Ben</bdi>" not in card and "<bdi>Fay</bdi> 13" in card and "<bdi>Cy</bdi> 19 (left)" in card
    assert "<bdi>Ann</bdi> 7 ★" in card
