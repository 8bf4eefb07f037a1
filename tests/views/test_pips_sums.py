"""The round form's pips boxes take a sum ("12+9+4") as the table counts it; the API keeps integers."""

import pytest
from django.urls import reverse

from scorekeeper.models import Round
from tests.factories import make_game

pytestmark = pytest.mark.django_db


def post_round(client, game, ben, cy):
    ann, ben_id, cy_id = (s.player_id for s in game.seats.order_by("position"))
    return client.post(
        reverse("record_round", args=[game.pk]),
        {"starting_double": 6, "version": game.version, f"p{ann}_went_out": "on", f"p{ben_id}_pips": ben,
         f"p{cy_id}_pips": cy},
    )  # fmt: skip


def test_a_sum_typed_in_a_pips_box_is_saved_as_its_total(client, user):
    game = make_game(owner=user, tile_set=6)
    client.force_login(user)
    assert post_round(client, game, "6+5+1", " 4 + 3 ").status_code == 302
    assert [e.pips for e in Round.objects.get().entries.order_by("position")] == [0, 12, 7]


def test_the_pips_boxes_offer_a_keypad_with_a_plus_and_a_place_for_the_total(client, user):
    game = make_game(owner=user, tile_set=6)
    client.force_login(user)
    page = client.get(reverse("record_round", args=[game.pk])).content.decode()
    box = page[page.index('class="pips"') - 200 : page.index('class="pips"') + 200]
    assert 'inputmode="tel"' in box and 'type="text"' in box and "pattern" not in box
    assert page.count('class="pips-sum"') == 3 and page.count('class="list-sum muted"') == 3


@pytest.mark.parametrize(("typed", "message"), [
    ("12+", "Write the pips as a number, or as a sum like 12+9+4 (got “12+”)."),
    ("twelve", "Write the pips as a number, or as a sum like 12+9+4 (got “twelve”)."),
    ("99999+99999", "That is more pips than a hand can hold (199998)."),
])  # fmt: skip
def test_a_sum_that_does_not_read_is_a_clear_error_beside_the_player_and_saves_nothing(client, user, typed, message):
    game = make_game(owner=user, tile_set=6)
    client.force_login(user)
    response = post_round(client, game, typed, "7")
    assert response.status_code == 200 and Round.objects.count() == 0
    page = response.content.decode()
    assert message.replace("“", "&ldquo;")[:20] in page or message in page
    assert f'value="{typed}"' in page  # what was typed stays, to fix


def test_a_sum_reads_the_same_in_spanish(client, user):
    game = make_game(owner=user, tile_set=6)
    client.force_login(user)
    ann, ben, cy = (s.player_id for s in game.seats.order_by("position"))
    response = client.post(
        reverse("record_round", args=[game.pk]),
        {"starting_double": 6, "version": game.version, f"p{ann}_went_out": "on", f"p{ben}_pips": "1+", f"p{cy}_pips": 3},
        HTTP_ACCEPT_LANGUAGE="es",
    )  # fmt: skip
    assert "Escribe los puntos como un número, o como una suma del tipo 12+9+4" in response.content.decode()
