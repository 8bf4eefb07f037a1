import pytest
from django.db import IntegrityError, transaction

from scorekeeper import services
from scorekeeper.models import Entry, Game, Player, Round
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from tests.factories import PlayerFactory, UserFactory, make_game

pytestmark = pytest.mark.django_db


def seats(game):
    return [seat.player_id for seat in game.seats.order_by("position")]


def plain_round(game, *scores, went_out=0):
    """Entries where seat `went_out` went out and the others hold `scores` pips in seat order."""
    players = seats(game)
    pips = iter(scores)
    return [
        EntryInput(player=p, pips=0, went_out=True) if i == went_out else EntryInput(player=p, pips=next(pips))
        for i, p in enumerate(players)
    ]


def test_it_seats_players_in_the_order_given(user):
    players = [PlayerFactory(owner=user, name=n) for n in ("Cy", "Ann", "Ben")]
    game = services.create_game(by=user, players=[p.pk for p in reversed(players)], rules=GameRules())
    assert [s.player.name for s in game.seats.order_by("position")] == ["Ben", "Ann", "Cy"]
    assert game.rules == GameRules() and game.status == Game.Status.IN_PROGRESS


@pytest.mark.parametrize(
    ("players", "field"),
    [("one", "players"), ("twice", "players"), ("stranger", "players"), ("eleven", "players")],
)
def test_it_refuses_a_game_without_a_proper_table(user, players, field):
    mine = [PlayerFactory(owner=user) for _ in range(11)]
    ids = {
        "one": [mine[0].pk],
        "twice": [mine[0].pk, mine[0].pk],
        "stranger": [mine[0].pk, PlayerFactory().pk],
        "eleven": [p.pk for p in mine],
    }[players]
    with pytest.raises(services.InvalidInput) as caught:
        services.create_game(by=user, players=ids, rules=GameRules())
    assert field in caught.value.errors
    assert Game.objects.count() == 0


def test_it_refuses_rules_out_of_range(user):
    ids = [PlayerFactory(owner=user).pk for _ in range(2)]
    with pytest.raises(services.InvalidInput) as caught:
        services.create_game(by=user, players=ids, rules=GameRules(tile_set=7, target_score=0))
    assert set(caught.value.errors) == {"tile_set", "target_score"}


def test_recording_a_round_updates_totals_ranks_and_version(game):
    version = game.version
    round_ = services.record_round(game=game, starting_double=6, entries=plain_round(game, 12, 7))
    game.refresh_from_db()
    assert (round_.number, round_.starting_double, round_.blocked) == (1, 6, False)
    assert [(s.total, s.rank) for s in game.seats.order_by("position")] == [(0, 1), (12, 3), (7, 2)]
    assert game.version == version + 1


def test_an_invalid_round_changes_nothing(game):
    bad = plain_round(game, 12, 7)
    bad[1] = EntryInput(player=bad[1].player, pips=12, ended_on_double=True)
    with pytest.raises(services.InvalidInput) as caught:
        services.record_round(game=game, starting_double=6, entries=bad)
    assert "ended_on_double" in caught.value.errors
    assert caught.value.round_errors[0].player == bad[1].player
    assert Round.objects.count() == 0 and Entry.objects.count() == 0


def test_a_double_already_played_is_a_conflict(game):
    services.record_round(game=game, starting_double=6, entries=plain_round(game, 12, 7))
    with pytest.raises(services.Conflict) as caught:
        services.record_round(game=game, starting_double=6, entries=plain_round(game, 12, 7))
    assert caught.value.code == "starting_double_unavailable"
    assert Round.objects.count() == 1


def test_a_game_finishes_after_its_last_double_and_names_its_winners(game):
    for double in range(6, -1, -1):
        services.record_round(game=game, starting_double=double, entries=plain_round(game, 5, 5, went_out=0))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert [(s.total, s.is_winner) for s in game.seats.order_by("position")] == [(0, True), (35, False), (35, False)]
    with pytest.raises(services.Conflict, match="finished"):
        services.record_round(game=game, starting_double=0, entries=plain_round(game, 1, 1))


def test_skipping_doubles_shortens_the_game(game):
    services.record_round(game=game, starting_double=6, entries=plain_round(game, 3, 4))
    services.record_round(game=game, starting_double=0, entries=plain_round(game, 3, 4))
    game.refresh_from_db()
    assert game.is_finished and game.rounds.count() == 2


def test_correcting_a_round_replaces_its_entries_and_totals(game):
    round_ = services.record_round(game=game, starting_double=6, entries=plain_round(game, 12, 7))
    services.correct_round(round=round_, entries=plain_round(game, 2, 3))
    game.refresh_from_db()
    assert [s.total for s in game.seats.order_by("position")] == [0, 2, 3]
    assert round_.entries.count() == 3


def test_a_correction_cannot_change_the_starting_double(game):
    round_ = services.record_round(game=game, starting_double=6, entries=plain_round(game, 12, 7))
    with pytest.raises(services.Conflict):
        services.correct_round(round=round_, starting_double=5, entries=plain_round(game, 2, 3))


def test_a_correction_that_would_end_a_target_game_early_is_refused(user):
    game = make_game(owner=user, tile_set=6, target_score=100)
    first = services.record_round(game=game, starting_double=6, entries=plain_round(game, 10, 10))
    services.record_round(game=game, starting_double=5, entries=plain_round(game, 10, 10))
    with pytest.raises(services.Conflict, match="undo"):
        services.correct_round(round=first, entries=plain_round(game, 100, 10))
    assert [e.pips for e in first.entries.order_by("position")] == [0, 10, 10]


def test_a_target_game_ends_when_someone_reaches_it(user):
    game = make_game(owner=user, tile_set=6, target_score=30)
    services.record_round(game=game, starting_double=6, entries=plain_round(game, 20, 10))
    services.record_round(game=game, starting_double=5, entries=plain_round(game, 10, 1))
    game.refresh_from_db()
    assert game.is_finished
    assert [s.is_winner for s in game.seats.order_by("position")] == [True, False, False]


def test_undo_removes_the_last_round_and_reopens_a_finished_game(game):
    for double in range(6, -1, -1):
        services.record_round(game=game, starting_double=double, entries=plain_round(game, 1, 2))
    services.undo_last_round(game=game)
    game.refresh_from_db()
    assert not game.is_finished and game.finished_at is None and game.rounds.count() == 6
    assert [s.total for s in game.seats.order_by("position")] == [0, 6, 12]


def test_undo_without_rounds_is_a_conflict(game):
    with pytest.raises(services.Conflict):
        services.undo_last_round(game=game)


def test_a_stale_version_is_a_conflict_and_changes_nothing(game):
    stale = game.version
    services.record_round(game=game, starting_double=6, entries=plain_round(game, 1, 2))
    with pytest.raises(services.Conflict) as caught:
        services.record_round(game=game, starting_double=5, entries=plain_round(game, 1, 2), expected_version=stale)
    assert caught.value.code == "stale" and game.rounds.count() == 1


def test_the_database_refuses_a_second_entry_for_one_player(game):
    services.record_round(game=game, starting_double=6, entries=plain_round(game, 1, 2))
    entry = Entry.objects.first()
    entry.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        entry.save()


def test_the_database_refuses_a_score_that_is_not_pips_plus_penalty(game):
    services.record_round(game=game, starting_double=6, entries=plain_round(game, 1, 2))
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.filter(went_out=False).update(score=999)


def test_the_database_refuses_negative_pips(game):
    services.record_round(game=game, starting_double=6, entries=plain_round(game, 1, 2))
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.filter(went_out=False).update(pips=-1, score=-1)


def test_a_player_with_games_cannot_be_deleted(game):
    from django.db.models import RestrictedError

    player = game.players.first()
    with pytest.raises(RestrictedError):
        player.delete()
    assert Player.objects.filter(pk=player.pk).exists()


def test_deleting_a_user_takes_their_games_and_players_along(game):
    services.record_round(game=game, starting_double=6, entries=plain_round(game, 1, 2))
    game.created_by.delete()
    assert Game.objects.count() == Player.objects.count() == Entry.objects.count() == 0


def test_player_names_are_unique_per_scorebook_ignoring_case(user):
    PlayerFactory(owner=user, name="Ann")
    PlayerFactory(owner=UserFactory(), name="ann")
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerFactory(owner=user, name="ANN")
