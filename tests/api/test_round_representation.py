"""Games, rounds and entries are answered by hand-written to_representation (they come with every
write and every read of a game); they must say exactly what the declared fields (and so the
published schema) say."""

import pytest
from django.db import models
from rest_framework import serializers

from scorekeeper import services
from scorekeeper.api.serializers import EntrySerializer, GameListSerializer, GameSerializer, RoundSerializer
from scorekeeper.models import Game, Round
from scorekeeper.rules.rounds import EntryInput
from tests.factories import UserFactory, make_game
from tests.seat_changes import changing_table, play

pytestmark = pytest.mark.django_db


def by_declared_fields(serializer_class, instance):
    """What DRF's generic field-by-field walk makes of `instance`."""
    return serializers.Serializer.to_representation(serializer_class(), instance)


def test_rounds_by_totals_by_tiles_and_corrected_are_answered_as_the_declared_fields_say():
    ann = UserFactory()
    game = make_game(owner=ann, names=("Ann", "Ben", "Cy"), tile_set=6)
    ids = [seat.player_id for seat in game.seats.order_by("position")]
    by_totals = services.record_round(
        game=game,
        starting_double=6,
        entries=[EntryInput(ids[0], pips=0, went_out=True), EntryInput(ids[1], pips=9), EntryInput(ids[2], pips=4)],
    )
    by_tiles = services.record_round(
        game=game,
        starting_double=5,
        entries=[
            EntryInput(ids[0], tiles=["0-0", "3-4"]),
            EntryInput(ids[1], pips=0, went_out=True, ended_on_double=True),
            EntryInput(ids[2], pips=7, tiles_left=2),
        ],
        by=ann,
    )
    corrected = services.correct_round(
        round=by_tiles,
        entries=[
            EntryInput(ids[0], tiles=["0-0", "2-4"]),
            EntryInput(ids[1], pips=0, went_out=True),
            EntryInput(ids[2], pips=7),
        ],
        by=UserFactory(),
    )
    just_saved = [by_totals, corrected]  # as the services return them: entries just written
    as_read = list(Round.objects.filter(game=game).select_related("recorded_by", "corrected_by").order_by("number"))
    for round_ in just_saved + as_read:
        by_hand = RoundSerializer(round_).data
        assert by_hand == by_declared_fields(RoundSerializer, round_)
        assert list(by_hand) == list(RoundSerializer().fields)
        for entry in round_.entries_in_order():
            assert EntrySerializer(entry).data == by_declared_fields(EntrySerializer, entry)
    assert as_read[1].corrected_by is not None and RoundSerializer(as_read[1]).data["entries"][0]["tiles"] == [
        "4-2",
        "0-0",
    ]


def test_games_new_played_stopped_and_with_a_changing_table_are_answered_as_the_declared_fields_say():
    ann = UserFactory()
    new = make_game(owner=ann, names=("Ann", "Ben"), tile_set=9, target_score=150, first_double=7)
    changed, _ = changing_table(ann)  # finished, with a join, a take-over and a leave
    stopped = make_game(owner=ann, names=("Gil", "Hal", "Ike"), tile_set=6, tie_break="most_went_out")
    stopped = play(play(stopped, 6, Gil=0, Hal=4, Ike=9), 5, Gil=3, Hal=0, Ike=2)
    services.finish_game(game=stopped, by=ann)
    answers = {}
    for game in Game.objects.filter(pk__in=[new.pk, changed.pk, stopped.pk]).prefetch_related(
        "seats__player", models.Prefetch("rounds", Round.objects.in_order())
    ):
        for serializer in (GameListSerializer, GameSerializer):
            by_hand = serializer(game).data
            assert by_hand == by_declared_fields(serializer, game)
            assert list(by_hand) == list(serializer().fields)
            answers[game.pk] = by_hand
    assert answers[stopped.pk]["ended_because"] == "agreed" and answers[stopped.pk]["finished_at"] is not None
    assert answers[new.pk]["rules"]["first_double"] == 7 and answers[new.pk]["finished_at"] is None
    left = {player["name"]: player["left_after"] for player in answers[changed.pk]["players"]}
    assert left == {"Ann": None, "Ben": 2, "Fay": None, "Cy": 3, "Dee": None, "Eve": None}
