"""The sheet and the game-over card of a game whose seats changed, as the server draws them."""

import html
import re

import pytest
from django.test import Client

from scorekeeper import services
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.names import short_names
from scorekeeper.rules.rounds import EntryInput
from tests.factories import PlayerFactory, UserFactory, make_game

pytestmark = pytest.mark.django_db


def test_every_row_of_a_sheet_after_a_take_over_has_a_cell_per_column_and_who_left_is_not_asked_back():
    user = UserFactory()
    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben", "Cy", "Dee")]
    game = services.create_game(by=user, players=ids[:3], rules=GameRules(tile_set=6))
    services.record_round(game=game, starting_double=6, entries=[
        EntryInput(player=ids[0], pips=0, went_out=True), EntryInput(player=ids[1], pips=9),
        EntryInput(player=ids[2], pips=4)])  # fmt: skip
    services.change_seat(game=game, kind="take_over", player=ids[3], replaces=ids[1], by=user)
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    head = re.search(r"<thead>.*?</thead>", page, re.S).group(0)
    columns = head.count('class="player')
    assert columns == 3  # Dee continues Ben's column
    rows = re.findall(r'<tr class="(?:upcoming|next)".*?</tr>', page, re.S)
    assert len(rows) == 6  # 5-5 down to 0-0
    for row in rows:
        assert row.count("<td") == columns
    services.finish_game(game=game, by=user)
    card = client.get(f"/games/{game.pk}/").content.decode()
    boxes = dict(re.findall(r'name="players" value="(\d+)"( checked)?', card))
    assert boxes == {str(ids[0]): " checked", str(ids[1]): "", str(ids[2]): " checked", str(ids[3]): " checked"}


def joined_after_one_round(join_total="average"):
    user = UserFactory()
    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben", "Cy")]
    game = services.create_game(by=user, players=ids, rules=GameRules(tile_set=6, join_total=join_total))
    services.record_round(game=game, starting_double=6, entries=[
        EntryInput(player=ids[0], pips=0, went_out=True), EntryInput(player=ids[1], pips=9),
        EntryInput(player=ids[2], pips=4)])  # fmt: skip
    game.refresh_from_db()
    client = Client()
    client.force_login(user)
    return user, game, client


def join_options(page: str) -> dict[str, tuple[bool, str]]:
    """The join screen's options: value -> (chosen, the label's words)."""
    block = re.search(r'<fieldset[^>]*id="join-rule".*?</fieldset>', page, re.S).group(0)
    return {
        value: (" checked" in attributes, html.unescape(re.sub(r"<[^>]+>", "", label)).strip())
        for value, attributes, label in re.findall(
            r'<input type="radio" name="join_total" value="(\w+)"([^>]*)>(.*?)</label>', block, re.S
        )
    }


def test_the_join_page_offers_each_join_rule_with_its_opening_total_and_the_games_option_chosen():
    _user, game, client = joined_after_one_round("average")
    page = client.get(f"/games/{game.pk}/seats/join/").content.decode()
    assert join_options(page) == {
        "highest": (False, "The highest total at the table: 9"),
        "average": (True, "The table's average, rounded up: 5"),  # (0 + 9 + 4) / 3, rounded up
        "zero": (False, "Zero: 0"),
    }
    assert 'id="join-rule"' not in client.get(f"/games/{game.pk}/seats/take_over/").content.decode()


def test_the_join_page_seats_a_joiner_with_the_total_the_table_chose_and_refuses_another_rule_beside_it():
    user, game, client = joined_after_one_round("highest")
    dee = PlayerFactory(owner=user, name="Dee")
    refused = client.post(
        f"/games/{game.pk}/seats/join/", {"version": game.version, "player": dee.pk, "join_total": "lowest"}
    )
    assert refused.status_code == 200  # the page again, the error beside the options
    assert re.search(r'id="join-rule".*?errorlist.*?</fieldset>', refused.content.decode(), re.S)
    assert not game.seat_changes.exists()
    answer = client.post(
        f"/games/{game.pk}/seats/join/", {"version": game.version, "player": dee.pk, "join_total": "zero"}
    )
    assert answer.status_code == 302, re.findall(r"errorlist.*?</ul>", answer.content.decode(), re.S)
    game.refresh_from_db()
    assert next(seat for seat in game.state["seats"] if seat["player"] == dee.pk)["opening_total"] == 0


def test_a_full_scorebook_asks_the_join_page_for_a_new_name():
    user, game, client = joined_after_one_round()
    page = client.get(f"/games/{game.pk}/seats/join/").content.decode()
    assert "A new player&#x27;s name" in page or "A new player's name" in page  # nobody else to choose
    PlayerFactory(owner=user, name="Dee")
    page = client.get(f"/games/{game.pk}/seats/take_over/").content.decode()
    assert "Or a new player" in page  # Dee to choose, or a new name


@pytest.mark.parametrize(
    ("names", "rows"),
    [
        (("Ann", "Ben", "Cy", "Dee", "Eve", "Flo"), False),  # six short names fit their columns
        (("Cousin Maximiliano", "Grandma Josefina", "Little Christopher"), False),  # three wide columns
        (("Cousin Maximiliano", "Grandma Josefina", "Little Christopher", "Uncle Bob", "Ann"), False),
        (("Cousin Maximiliano", "Grandma Josefina", "Little Christopher", "Uncle Bob", "Ann", "Ben"), True),
        (("Wolfeschlegelsteinhausen", "Bartholomew-Alexander Featherstonehaugh", "Ann", "Ben"), True),
    ],
)
def test_a_sheet_of_up_to_six_never_hyphenates_a_name_and_turns_to_rows_when_one_would_not_fit(names, rows):
    """Each head shows its short name whole ("Grandma J.", never "Grand-ma J."): a sheet whose
    names do not fit its columns whole turns to a row per player on a narrow screen, as ten do."""
    user = UserFactory()
    game = make_game(owner=user, names=names)
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "\u00ad" not in page and "&shy;" not in page
    heads = re.findall(r'<span class="who" aria-hidden="true"><bdi>(.*?)</bdi>', page)
    assert heads[-len(names) :] == [html.escape(name) for name in short_names(names)]
    assert ('id="sheet-rows"' in page) is rows
    assert ('class="sheet-box wide"' in page) is rows


def test_a_full_table_of_ten_offers_no_join_but_says_it_is_full_and_still_offers_a_take_over():
    user = UserFactory()
    game = make_game(owner=user, names=[f"P{n}" for n in range(10)])
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="seat-join"' not in page
    assert "The table is full (10 players)" in page
    assert 'id="seat-take-over"' in page and 'id="seat-leave"' in page
    # An old link to the join page goes back to the game, which says why.
    answer = client.get(f"/games/{game.pk}/seats/join/", follow=True)
    assert answer.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert "The table is full" in answer.content.decode()
    # Nine seated: the join is offered again.
    services.change_seat(game=game, kind="leave", player=game.seats.order_by("position").last().player_id, by=user)
    assert 'id="seat-join"' in client.get(f"/games/{game.pk}/").content.decode()
    client.cookies["language"] = "es"
    services.change_seat(game=game, kind="join", name="Zoe", by=user)
    assert "La mesa está completa (10 jugadores)" in client.get(f"/games/{game.pk}/").content.decode()
