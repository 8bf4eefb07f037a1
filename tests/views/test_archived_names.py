"""A name taken by an archived player (the guest who came once): adding it again says the player is
archived and how to bring them back, with the name as it is kept, on the page and in the API; and a
new game with nobody ticked says what to do."""

import pytest
from django.test import Client

from scorekeeper import selectors
from scorekeeper.models import Player

pytestmark = pytest.mark.django_db


def test_adding_the_name_of_an_archived_guest_says_they_are_archived_and_adds_nobody(user):
    client = Client()
    client.force_login(user)
    book = selectors.current_scorebook(user)  # where the pages add players
    Player.objects.create(scorebook=book, name="Zoe (guest)", archived=True)

    page = client.post("/players/add/", {"player-name": "zoe (GUEST)"}, follow=True).content.decode()
    assert (
        "already has a player named &quot;Zoe (guest)&quot;, archived: bring them back from the players page." in page
    )
    assert "zoe (GUEST)" not in page  # the name as it is kept, not as typed

    api = client.post(
        "/api/v1/players/", {"name": "ZOE (guest)", "scorebook": book.pk}, content_type="application/json"
    )
    assert api.status_code == 400
    assert api.json()["name"] == [
        'This scorebook already has an archived player named "Zoe (guest)" (names ignore case): '
        'bring them back with "archived": false.'
    ]
    assert list(Player.objects.filter(scorebook=book).values_list("name", flat=True)) == ["Zoe (guest)"]


def test_a_new_game_with_nobody_ticked_asks_for_the_players_at_the_table(user):
    client = Client()
    client.force_login(user)
    page = client.post("/games/new/", {"tile_set": "12"}).content.decode()
    assert "Tick the players at the table: at least two." in page  # not Django's "This field is required."
