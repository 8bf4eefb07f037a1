"""OpenSkill ratings: the pure rules, and the steps the services keep equal to a replay from scratch."""

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import services
from scorekeeper.demo import deal_round, seed_games
from scorekeeper.models import Game, Player, RatingStep, Scorebook
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rating import START, rate_game, replay
from scorekeeper.services import ratings
from tests.factories import PlayerFactory
from tests.test_records import assert_ratings_match_a_replay, assert_records_match_seats


def test_the_lowest_total_gains_and_the_highest_loses():
    after = rate_game({}, {1: 1, 2: 2, 3: 3})
    assert after[1].mu > START.mu > after[3].mu
    assert after[1].ordinal > after[2].ordinal > after[3].ordinal
    assert all(rating.sigma < START.sigma for rating in after.values())  # every game teaches something


def test_players_who_tie_are_rated_alike():
    after = rate_game({}, {1: 1, 2: 1, 3: 2})
    assert after[1] == after[2] and after[1].mu > after[3].mu


def test_two_tied_for_second_of_five_gain_more_than_the_fourth_and_alike():
    """OpenSkill alone rated these two below the fourth (its tie handling: openskill.py issue 155)."""
    after = rate_game({}, {1: 1, 2: 2, 3: 2, 4: 4, 5: 5})
    assert after[2] == after[3]
    assert after[1].ordinal > after[2].ordinal > after[4].ordinal > after[5].ordinal
    alone = rate_game({}, {1: 1, 2: 2, 3: 3, 4: 4, 5: 5})
    assert alone[3].mu < after[2].mu < alone[2].mu  # between the two places they shared


def test_a_tie_is_rated_the_same_whatever_order_the_players_are_listed_in():
    ranks = {1: 2, 2: 1, 3: 2, 4: 3, 5: 3, 6: 3}
    before = dict.fromkeys(ranks, START)
    listed, reversed_ = rate_game(before, ranks), rate_game(before, dict(reversed(ranks.items())))
    assert all(abs(listed[p].mu - reversed_[p].mu) < 1e-9 for p in ranks)


def test_beating_a_strong_table_is_worth_more_than_beating_a_weak_one():
    strong, weak = replay([{2: 1, 3: 2}] * 5)[-1][2], replay([{2: 2, 3: 1}] * 5)[-1][2]
    over_strong = rate_game({2: strong, 3: strong}, {1: 1, 2: 2, 3: 3})[1]
    over_weak = rate_game({2: weak, 3: weak}, {1: 1, 2: 2, 3: 3})[1]
    assert over_strong.mu > over_weak.mu


def test_the_same_games_in_the_same_order_give_the_same_ratings():
    games = [{1: 1, 2: 2}, {2: 1, 3: 2, 1: 3}, {1: 1, 3: 1}]
    assert replay(games) == replay(games)


@pytest.mark.django_db
def test_a_game_that_finishes_rates_its_players_and_only_them(user):
    rng = random.Random(4)
    ann, ben, cy, dot = (PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy", "Dot"))
    game = services.create_game(by=user, players=[ann.pk, ben.pk, cy.pk], rules=GameRules(tile_set=6))
    while not game.is_finished:
        double = game.next_double
        game = Game.objects.get(pk=game.pk)
        services.record_round(
            game=game, starting_double=double, entries=deal_round(game.rules, [ann.pk, ben.pk, cy.pk], double, rng)
        )
        game = Game.objects.get(pk=game.pk)
    assert RatingStep.objects.filter(game=game).count() == 3
    rated = {p.pk: p for p in Player.objects.filter(pk__in=[ann.pk, ben.pk, cy.pk, dot.pk])}
    winner = game.seats.get(rank=1).player_id
    assert rated[winner].rating_mu > START.mu and rated[dot.pk].rating_mu is None  # Dot did not play


OPERATIONS = st.lists(st.tuples(st.sampled_from(["play", "correct", "undo", "replay", "delete", "restore"]),
                                st.integers(0, 1_000)), min_size=1, max_size=8)  # fmt: skip


@pytest.mark.django_db
@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_ratings_after_any_sequence_of_edits_equal_ratings_replayed_from_scratch(user, operations):
    Game.objects.all().delete()  # every example starts from an empty scorebook
    Player.objects.all().delete()
    rng = random.Random(len(operations))
    book = Scorebook.personal_for(user)
    players = [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy", "Dot", "Eve")]
    for operation, pick in operations:
        games = list(Game.objects.filter(scorebook=book).order_by("pk"))
        finished = [g for g in games if g.is_finished and g.deleted_at is None]
        open_ = [g for g in games if not g.is_finished and g.deleted_at is None]
        trashed = [g for g in games if g.deleted_at is not None]
        if operation == "play" or not games:
            seed_games(user, players, 2, rng, days=60)  # played at random times: in the middle of the order
        elif operation == "correct" and finished:
            game = finished[pick % len(finished)]
            last = game.rounds.order_by("-number").first()
            seats = [s.player_id for s in game.seats.order_by("position")]
            # A correction that would end the game earlier is refused and changes nothing.
            with contextlib.suppress(services.Conflict):
                services.correct_round(round=last, entries=deal_round(game.rules, seats, last.starting_double, rng))
        elif operation == "undo" and finished:
            services.undo_last_round(game=finished[pick % len(finished)])
        elif operation == "replay" and open_:
            game = open_[pick % len(open_)]
            seats = [s.player_id for s in game.seats.order_by("position")]
            double = game.next_double
            services.record_round(game=game, starting_double=double, entries=deal_round(game.rules, seats, double, rng))
        elif operation == "delete" and finished:
            services.delete_game(game=finished[pick % len(finished)])
        elif operation == "restore" and trashed:
            services.restore_game(game=trashed[pick % len(trashed)])
    rated = Game.objects.filter(status="finished", deleted_at__isnull=True)
    assert RatingStep.objects.count() == sum(game.seats.count() for game in rated)
    assert_ratings_match_a_replay(user)


@pytest.mark.django_db
def test_records_and_ratings_follow_an_imported_file_and_a_bulk_seed(user):
    players = [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy", "Dot")]
    with ratings.deferred():
        seed_games(user, players, 6, random.Random(8))
        assert not RatingStep.objects.exists()  # not yet: the block replays once, at its end
    assert RatingStep.objects.count() == sum(g.seats.count() for g in Game.objects.filter(status="finished"))
    assert_records_match_seats(user)


@pytest.mark.django_db
def test_the_rebuild_command_restores_ratings_that_were_lost(user):
    from io import StringIO

    from django.core.management import call_command

    players = [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben", "Cy")]
    seed_games(user, players, 3, random.Random(2))
    kept = sorted(Player.objects.values_list("pk", "rating_mu", "rating_sigma"))
    RatingStep.objects.all().delete()
    Player.objects.update(rating_mu=None, rating_sigma=None)
    out = StringIO()
    call_command("rebuild_ratings", stdout=out)
    assert sorted(Player.objects.values_list("pk", "rating_mu", "rating_sigma")) == kept
    assert "1 scorebook" in out.getvalue()
    finished = Game.objects.filter(status="finished")
    assert RatingStep.objects.count() == sum(game.seats.count() for game in finished) > 0
