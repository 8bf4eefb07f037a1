"""The round form says which round it is entered as (its hidden `number`, beside the version it was
drawn for): sent for a round another phone saved meanwhile, it shows theirs beside it ("Keep theirs /
Replace with mine") and saves nothing, whatever double it chose; a number ahead of the game is an
error on the form, nothing saved."""

import re

import pytest

from scorekeeper import services
from scorekeeper.models import Game, Membership, Role, Round
from tests.views.test_follow import record, table  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def drawn(page) -> dict:
    """The hidden fields of a round form as drawn: the version and the number."""
    text = page.content.decode()
    return {name: re.search(rf'name="{name}" value="(\d+)"', text)[1] for name in ("version", "number")}


def hand(players, double) -> dict:
    return {"starting_double": double, f"p{players[0]}_went_out": "on", f"p{players[1]}_pips": 9,
            f"p{players[2]}_pips": 9, "confirmed": ""}  # fmt: skip


def saved(game) -> list[tuple[int, int]]:
    return list(Round.objects.filter(game=game).order_by("number").values_list("number", "starting_double"))


def test_the_round_form_carries_the_round_it_is_entered_as(table):  # noqa: F811
    game, players, phones = table
    record(game, players, 6, (5, 9), by=None)
    assert drawn(phones["bea"].get(f"/games/{game.pk}/rounds/new/"))["number"] == "2"


def test_a_round_another_phone_saved_with_another_double_is_shown_beside_this_one_and_nothing_is_saved(table):  # noqa: F811
    game, players, phones = table
    ann = Membership.objects.get(scorebook=game.scorebook, role=Role.OWNER).user
    record(game, players, 6, (5, 9), by=ann)
    fields = drawn(phones["bea"].get(f"/games/{game.pk}/rounds/new/"))
    record(game, players, 5, (10, 10), by=ann)  # Ann's round 2, with 5-5
    # Bea's round 2, with 4-4 (5-5 skipped): once it was saved as round 3.
    answer = phones["bea"].post(f"/games/{game.pk}/rounds/new/", hand(players, 4) | fields | {"confirmed": "1"})
    page = answer.content.decode()
    assert answer.status_code == 200, page
    assert "Ann's phone saved round 2 (5-5) a moment ago." in page
    assert "Keep theirs" in page and "Replace round 2 with mine" in page
    assert saved(game) == [(1, 6), (2, 5)]


def test_a_round_form_sent_with_a_number_ahead_of_the_game_says_so_and_saves_nothing(table):  # noqa: F811
    game, players, phones = table
    fields = drawn(phones["bea"].get(f"/games/{game.pk}/rounds/new/"))
    answer = phones["bea"].post(f"/games/{game.pk}/rounds/new/", hand(players, 6) | fields | {"number": "3"})
    assert answer.status_code == 200
    assert "Round 3 cannot be recorded yet: the next round of this game is round 1." in answer.content.decode()
    assert saved(game) == []


def test_a_form_drawn_before_an_undo_comes_back_as_the_round_it_now_is_and_saves_as_that(table):  # noqa: F811
    game, players, phones = table
    ann = Membership.objects.get(scorebook=game.scorebook, role=Role.OWNER).user
    record(game, players, 6, (5, 9), by=ann)
    fields = drawn(phones["bea"].get(f"/games/{game.pk}/rounds/new/"))
    assert fields["number"] == "2"
    services.undo_last_round(game=Game.objects.get(pk=game.pk), number=1, by=ann)
    answer = phones["bea"].post(f"/games/{game.pk}/rounds/new/", hand(players, 6) | fields)
    assert answer.status_code == 200 and saved(game) == []
    now = drawn(answer)
    assert now["number"] == "1" and now["version"] != fields["version"]
    again = phones["bea"].post(f"/games/{game.pk}/rounds/new/", hand(players, 6) | now)
    assert again.status_code == 302 and saved(game) == [(1, 6)]
