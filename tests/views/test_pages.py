"""Every page through the client: the owner sees it, another user gets 404, anonymous goes to log in."""

import pytest
from django.urls import URLPattern, get_resolver, reverse

from scorekeeper import services
from scorekeeper.models import Game, Player, Round
from scorekeeper.rules.rounds import EntryInput
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db

# Page name -> (kwargs from the owner's objects, belongs to one object?)
GET_PAGES = {
    "home": (lambda o: {}, False),
    "new_game": (lambda o: {}, False),
    "game": (lambda o: {"pk": o["game"]}, True),
    "record_round": (lambda o: {"pk": o["game"]}, True),
    "edit_round": (lambda o: {"pk": o["game"], "number": 1}, True),
    "history": (lambda o: {}, False),
    "players": (lambda o: {}, False),
    "player": (lambda o: {"pk": o["player"]}, True),
    "leaderboard": (lambda o: {}, False),
}
POST_ONLY = {
    "add_player": (lambda o: {}, False),
    "undo_round": (lambda o: {"pk": o["game"]}, True),
    "rename_game": (lambda o: {"pk": o["game"]}, True),
    "rematch": (lambda o: {"pk": o["game"]}, True),
    "delete_game": (lambda o: {"pk": o["game"]}, True),
    "delete_player": (lambda o: {"pk": o["player"]}, True),
}
PUBLIC = {"rules"}


def page_names():
    names = set()
    for pattern in get_resolver().url_patterns:
        if isinstance(pattern, URLPattern) and pattern.name and pattern.callback.__module__ == "scorekeeper.views":
            names.add(pattern.name)
    return names


def test_every_page_is_covered():
    assert page_names() == set(GET_PAGES) | set(POST_ONLY) | PUBLIC


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


@pytest.mark.parametrize("name", sorted(GET_PAGES))
def test_the_owner_sees_every_page(client, user, owned, name):
    client.force_login(user)
    response = client.get(reverse(name, kwargs=GET_PAGES[name][0](owned)))
    assert response.status_code == 200


@pytest.mark.parametrize("name", sorted(GET_PAGES) + sorted(POST_ONLY))
def test_another_user_gets_404_for_the_owners_objects(client, owned, name):
    kwargs, per_object = {**GET_PAGES, **POST_ONLY}[name]
    if not per_object:
        pytest.skip("not about one object")
    client.force_login(UserFactory())
    method = client.post if name in POST_ONLY else client.get
    assert method(reverse(name, kwargs=kwargs(owned))).status_code == 404


def test_another_users_pages_do_not_show_the_owners_games(client, owned):
    client.force_login(UserFactory())
    assert client.get(reverse("home")).context["in_progress"].count() == 0
    assert b"Ann" not in client.get(reverse("players")).content


@pytest.mark.parametrize("name", sorted(GET_PAGES) + sorted(POST_ONLY))
def test_anonymous_is_sent_to_log_in(client, owned, name):
    kwargs = {**GET_PAGES, **POST_ONLY}[name][0](owned)
    method = client.post if name in POST_ONLY else client.get
    response = method(reverse(name, kwargs=kwargs))
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))


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
    rows = {row["seat"].player_id: row["errors"] for row in response.context["rows"]}
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
    assert response.status_code == 200 and "Someone else changed this game" in response.content.decode()
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
    player = Player.objects.create(owner=user, name="Solo")
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
    Player.objects.create(owner=user, name="Dot")
    client.force_login(user)
    response = client.post(reverse("add_player"), {"player-name": "dot"}, follow=True)
    assert "already have a player" in response.content.decode()
    assert Player.objects.count() == 1


def test_adding_a_player_inline_with_htmx_returns_a_checked_choice(client, user):
    client.force_login(user)
    response = client.post(reverse("add_player"), {"player-name": "Eve"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    player = Player.objects.get(name="Eve")
    assert f'value="{player.pk}" data-seat checked' in response.content.decode()
