"""The pages through the client, as their owner (who may see and do what: tests/views/test_page_roles.py)."""

import json
import re

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Game, Player, Round
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import live as links
from tests.factories import PlayerFactory, UserFactory, make_game

pytestmark = pytest.mark.django_db


def play_round(game, double=6, pips=(3, 4)):
    seats = [s.player_id for s in game.seats.order_by("position")]
    entries = [EntryInput(player=seats[0], pips=0, went_out=True)] + [
        EntryInput(player=p, pips=n) for p, n in zip(seats[1:], pips, strict=True)
    ]
    return services.record_round(game=game, starting_double=double, entries=entries)


@pytest.fixture
def owned(user):
    game = make_game(owner=user, tile_set=6)
    play_round(game)
    return {"game": game.pk, "player": game.seats.first().player_id}


def test_another_users_pages_do_not_show_the_owners_games(client, owned):
    client.force_login(UserFactory())
    assert client.get(reverse("home")).context["in_progress"].count() == 0
    assert "Ann" not in re.sub(r"<[^>]*>", " ", client.get(reverse("players")).content.decode())  # text, not tokens


def test_the_rules_page_is_public_and_in_the_projects_words(client):
    response = client.get(reverse("rules"))
    assert response.status_code == 200 and b"What the app checks" in response.content


def test_the_sheet_shows_rounds_totals_and_the_next_double(client, user):
    game = make_game(owner=user, tile_set=6)
    play_round(game, 6, (3, 4))
    play_round(game, 3, (10, 1))  # 5-5 and 4-4 skipped
    client.force_login(user)
    response = client.get(reverse("game", args=[game.pk]))
    sheet = response.context["sheet"]
    assert [row.state for row in sheet.rows] == [
        "played",
        "skipped",
        "skipped",
        "played",
        "next",
        "upcoming",
        "upcoming",
    ]
    assert [cell.total for cell in sheet.rows[3].cells] == [0, 13, 5]
    assert b"this round: <strong>2-2</strong> starts, deal 7 each" in response.content


def test_recording_a_round_through_the_form(client, user):
    game = make_game(owner=user, tile_set=6)
    ann, ben, cy = (s.player_id for s in game.seats.order_by("position"))
    client.force_login(user)
    response = client.post(
        reverse("record_round", args=[game.pk]),
        {
            "starting_double": 6, "version": game.version,
            f"p{ann}_went_out": "on", f"p{ann}_ended_on_double": "on",
            f"p{ben}_pips": 12, f"p{ben}_double_blank": "on",
            f"p{cy}_pips": 7, f"p{cy}_tiles_left": 2,
        },
    )  # fmt: skip
    assert response.status_code == 302
    assert [e.score for e in Round.objects.get().entries.order_by("position")] == [50, 62, 7]


def test_an_impossible_round_shows_the_error_beside_the_player_and_saves_nothing(client, user):
    game = make_game(owner=user, tile_set=6)
    ann, ben, cy = (s.player_id for s in game.seats.order_by("position"))
    client.force_login(user)
    response = client.post(
        reverse("record_round", args=[game.pk]),
        {"starting_double": 6, "version": game.version, f"p{ann}_went_out": "on", f"p{ben}_pips": 12,
         f"p{ben}_tiles_left": 1, f"p{cy}_pips": 7},
    )  # fmt: skip
    assert response.status_code == 200
    rows = {row["seat"].player_id: row["problems"] for row in response.context["rows"]}
    assert rows[ben] and "Ben: 1 tile cannot hold 12 pips" in rows[ben][0] and not rows[cy]
    assert Round.objects.count() == 0


def test_a_stale_form_shows_a_conflict_and_overwrites_nothing(client, user):
    game = make_game(owner=user, tile_set=6)
    ann, ben, cy = (s.player_id for s in game.seats.order_by("position"))
    stale = game.version
    play_round(game, 6, (3, 4))  # the other phone
    client.force_login(user)
    response = client.post(
        reverse("edit_round", args=[game.pk, 1]),
        {"starting_double": 6, "version": stale, f"p{ann}_went_out": "on", f"p{ben}_pips": 9, f"p{cy}_pips": 9},
    )
    # Theirs is kept and shown beside this phone's entry, which stays in the form.
    assert response.status_code == 200 and "saved round 1 (6-6) a moment ago" in response.content.decode()
    assert 'value="9"' in response.content.decode()
    assert [e.pips for e in Round.objects.get().entries.order_by("position")] == [0, 3, 4]


def test_undo_and_rematch(client, user):
    game = make_game(owner=user, tile_set=6)
    play_round(game)
    client.force_login(user)
    client.post(reverse("undo_round", args=[game.pk]), {"number": 1})
    assert Round.objects.count() == 0
    response = client.post(reverse("rematch", args=[game.pk]))
    new = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == reverse("game", args=[new.pk])
    assert [s.player_id for s in new.seats.order_by("position")] == [
        s.player_id for s in game.seats.order_by("position")
    ]
    assert new.rules == game.rules


def test_new_game_seats_players_in_the_order_they_were_tapped(client, user):
    game = make_game(owner=user, tile_set=6)
    ann, ben, cy = (s.player_id for s in game.seats.order_by("position"))
    client.force_login(user)
    response = client.post(
        reverse("new_game"),
        {"players": [ann, ben, cy], "seat_order": f"{cy},{ann}", "tile_set": 9, "double_blank_penalty": 25,
         "end_on_double_penalty": 0, "name": "Club"},
    )  # fmt: skip
    new = Game.objects.get(name="Club")
    assert response["Location"] == reverse("game", args=[new.pk])
    assert [s.player_id for s in new.seats.order_by("position")] == [cy, ann, ben]
    assert (new.tile_set, new.double_blank_penalty, new.end_on_double_penalty) == (9, 25, 0)


def test_new_game_needs_two_players(client, user):
    player = PlayerFactory(owner=user, name="Solo")
    client.force_login(user)
    response = client.post(
        reverse("new_game"),
        {"players": [player.pk], "tile_set": 12, "double_blank_penalty": 50, "end_on_double_penalty": 50},
    )
    assert response.status_code == 200 and response.context["form"].errors
    assert Game.objects.count() == 0


def test_players_can_be_added_renamed_and_deleted_when_they_have_no_games(client, user):
    client.force_login(user)
    client.post(reverse("add_player"), {"player-name": "Dot"})
    dot = Player.objects.get(name="Dot")
    client.post(reverse("player", args=[dot.pk]), {"name": "Dottie"})
    dot.refresh_from_db()
    assert dot.name == "Dottie"
    client.post(reverse("delete_player", args=[dot.pk]))
    assert not Player.objects.filter(pk=dot.pk).exists()


def test_a_duplicate_player_name_is_refused(client, user):
    PlayerFactory(owner=user, name="Dot")
    client.force_login(user)
    response = client.post(reverse("add_player"), {"player-name": "dot"}, follow=True)
    assert "already has a player" in response.content.decode()
    assert Player.objects.count() == 1


def test_adding_a_player_inline_with_htmx_returns_a_checked_choice(client, user):
    client.force_login(user)
    response = client.post(reverse("add_player"), {"player-name": "Eve"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    player = Player.objects.get(name="Eve")
    assert f'value="{player.pk}" data-seat checked' in response.content.decode()


def test_adding_an_existing_name_inline_names_that_player_for_the_page_to_tick(client, user):
    dot = PlayerFactory(owner=user, name="Dot")
    client.force_login(user)
    response = client.post(reverse("add_player"), {"player-name": "dot"}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and Player.objects.count() == 1
    assert json.loads(response["HX-Trigger"]) == {"tick-player": {"pk": dot.pk}}
    assert "Dot is already a player here: ticked." in response.content.decode()


def test_the_correction_page_keeps_and_shows_the_tiles_a_round_was_recorded_with(client, user):
    game = make_game(owner=user, tile_set=6)
    ann, ben, cy = (s.player_id for s in game.seats.order_by("position"))
    entries = [
        EntryInput(player=ann, pips=0, went_out=True),
        EntryInput(player=ben, tiles=["5-4", "0-0"]),
        EntryInput(player=cy, pips=4),
    ]
    services.record_round(game=game, starting_double=6, entries=entries)
    client.force_login(user)
    page = client.get(reverse("edit_round", args=[game.pk, 1]))
    assert f'name="p{ben}_tiles" value="5-4 0-0"' in page.content.decode()
    # Saving the page as it came back changes nothing: the list is sent again, not erased.
    form = page.context["form"]
    data = {name: value for name, value in form.initial.items() if value not in (None, False)}
    response = client.post(reverse("edit_round", args=[game.pk, 1]), {**data, "starting_double": 6})
    assert response.status_code == 302
    saved = Round.objects.get().entries.get(player_id=ben)
    assert saved.tiles == ["5-4", "0-0"] and saved.pips == 9 and saved.double_blank and saved.score == 59


def test_tiles_typed_on_the_round_page_are_read_with_any_spacing_and_dash(client, user):
    game = make_game(owner=user, tile_set=6)
    ann, ben, cy = (s.player_id for s in game.seats.order_by("position"))
    client.force_login(user)
    response = client.post(
        reverse("record_round", args=[game.pk]),
        {"starting_double": 6, "version": game.version, f"p{ann}_went_out": "on",
         f"p{ben}_tiles": "5 – 4,  3-1", f"p{cy}_pips": 2},  # noqa: RUF001
    )  # fmt: skip
    assert response.status_code == 302
    assert Round.objects.get().entries.get(player_id=ben).tiles == ["5-4", "3-1"]


def test_a_visitor_sees_what_the_app_does_a_sample_sheet_and_the_way_in(client):
    html = client.get(reverse("home")).content.decode()
    assert "The Chicken Foot score sheet, on your phone" in html and 'id="sample-sheet"' in html
    for name in ("account_signup", "account_login", "rules"):
        assert f'href="{reverse(name)}"' in html
    # The sample is scored by the rules module: Ana 0+62+14+0, Bea 37+0+21+9, Carlos 19+8+0+55.
    assert '<strong class="running">76</strong>' in html and "Leading: Bea with 67" in html
    doubles = re.findall(r'<th scope="row">(\d+)-\1</th>', html.split('id="sample-sheet"')[1].split("</table>")[0])
    assert doubles == ["12", "11", "10", "9", "8"]  # in order: 8-8 is the next round


def test_the_rules_page_explains_how_to_play(client):
    html = client.get(reverse("rules")).content.decode()
    for section in ("Dealing", "The centre double", "chicken-foot rule", "Drawing and passing", "The end of a round"):
        assert section in html


def test_bringing_back_a_round_with_a_malformed_version_is_refused_and_brings_back_nothing(client, user):
    game = make_game(owner=user, tile_set=6)
    play_round(game)
    client.force_login(user)
    client.post(reverse("undo_round", args=[game.pk]), {"number": 1})
    assert Round.objects.count() == 0
    for version in ("abc", "١٢", "-1"):
        response = client.post(reverse("restore_round", args=[game.pk]), {"version": version}, follow=True)
        assert Round.objects.count() == 0, version
        assert "Nothing was brought back" in response.content.decode()
    client.post(reverse("restore_round", args=[game.pk]), {})
    assert Round.objects.count() == 1


def test_a_finished_sheet_says_how_the_game_ended_in_the_readers_language(client, user):
    game = make_game(owner=user, tile_set=6, target_score=20)
    play_round(game, pips=(25, 4))
    link = links.share(game=game, by=user)
    client.force_login(user)
    for url in (reverse("game", args=[game.pk]), reverse("live", args=[link.token])):
        assert "Ended after round 1: a total reached 20." in client.get(url).content.decode()
        spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
        assert "Terminó en la ronda 1: un total llegó a 20." in spanish
    other = make_game(owner=user, tile_set=6)
    for double in range(6, -1, -1):
        play_round(other, double)
    assert "Every starting double has been played." in client.get(reverse("game", args=[other.pk])).content.decode()


def test_the_sheet_says_by_how_many_points_the_leader_is_clear(client, user):
    game = make_game(owner=user, names=("Ann", "Ben", "Cy"), tile_set=6)
    ann, ben, cy = (s.player_id for s in game.seats.order_by("position"))
    client.force_login(user)
    assert "clear)" not in client.get(reverse("game", args=[game.pk])).content.decode()  # no round yet
    entries = [EntryInput(player=ann, pips=0, went_out=True), EntryInput(player=ben, pips=9)]
    services.record_round(game=game, starting_double=6, entries=[*entries, EntryInput(player=cy, pips=1)])
    assert "Leading: Ann with 0 (1 point clear)" in client.get(reverse("game", args=[game.pk])).content.decode()
    services.record_round(game=game, starting_double=5, entries=[
        EntryInput(player=ann, pips=12), EntryInput(player=ben, pips=0, went_out=True), EntryInput(player=cy, pips=3),
    ])  # fmt: skip
    # Ann 12, Ben 9, Cy 4: Cy leads, 5 clear of Ben.
    assert "Leading: Cy with 4 (5 points clear)" in client.get(reverse("game", args=[game.pk])).content.decode()
