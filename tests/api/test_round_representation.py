"""Rounds and entries are answered by hand-written to_representation (they come with every write
and every game); they must say exactly what the declared fields (and so the published schema) say."""

import pytest
from rest_framework import serializers

from scorekeeper import services
from scorekeeper.api.serializers import EntrySerializer, RoundSerializer
from scorekeeper.models import Round
from scorekeeper.rules.rounds import EntryInput
from tests.factories import UserFactory, make_game

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
