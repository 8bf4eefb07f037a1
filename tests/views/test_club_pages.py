"""The pages of friendly games, archived players and merged duplicates (issue 34, item 3), and the
scorebook's time zone: what a member sees and does, errors beside their fields, nothing changed on
a refusal, viewers 403 and outsiders 404."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Game, Player, RatingStep, Season
from scorekeeper.rules.game import GameRules
from tests.roles import make_club
from tests.seasons import finished_game, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    club = make_club()
    Game.objects.all().delete()
    Season.objects.all().delete()
    today = timezone.localdate()
    club.now = make_season(book=club.book, name="Now", starts=today - timedelta(days=5), ends=today + timedelta(days=5))
    return club


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(client, path) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


# Friendly games


def test_the_new_game_page_starts_a_friendly_game_and_its_sheet_says_so(club):
    ann, ben, _cy, _dot = club.players
    scorer = signed_in(club.users["scorer"])
    form = page(scorer, "/games/new/")
    assert 'name="casual"' in form and "Friendly game: counts in no leaderboard, rating or season" in form
    response = scorer.post("/games/new/", {"players": [ann.pk, ben.pk], "seat_order": f"{ann.pk},{ben.pk}",
                                           "tile_set": 6, "double_blank_penalty": 50, "end_on_double_penalty": 50,
                                           "casual": "on"})  # fmt: skip
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.casual is True
    sheet = page(signed_in(club.users["viewer"]), f"/games/{game.pk}/")
    assert 'id="casual-note"' in sheet and "Friendly game: it counts in no leaderboard" in sheet
    assert 'id="casual-form"' not in sheet  # a viewer cannot switch it


def test_the_games_page_switches_a_finished_game_to_friendly_and_back(club):
    ann, ben, cy, _dot = club.players
    game = finished_game(club.book, club.users["owner"], [ann, ben, cy], (3, 4))
    scorer = signed_in(club.users["scorer"])
    assert "Make it a friendly game (counted nowhere)" in page(scorer, f"/games/{game.pk}/")
    assert scorer.post(f"/games/{game.pk}/casual/", {"casual": "1"}).status_code == 302
    assert not RatingStep.objects.filter(game=game).exists()
    board = page(scorer, "/leaderboard/")
    sheet = page(scorer, f"/games/{game.pk}/")
    assert 'id="casual-note"' in sheet and "Count this game again" in sheet
    assert "made it a friendly game" in page(scorer, f"/games/{game.pk}/history/")
    assert scorer.post(f"/games/{game.pk}/casual/", {"casual": "0"}).status_code == 302
    assert RatingStep.objects.filter(game=game).count() == 3
    assert page(scorer, "/leaderboard/") != board
    assert 'id="casual-note"' not in page(scorer, f"/games/{game.pk}/")


@pytest.mark.parametrize("value", ["", "yes", "2"])
def test_a_bad_switch_says_so_and_changes_nothing(club, value):
    ann, ben, cy, _dot = club.players
    game = finished_game(club.book, club.users["owner"], [ann, ben, cy], (3, 4))
    response = signed_in(club.users["scorer"]).post(f"/games/{game.pk}/casual/", {"casual": value}, follow=True)
    assert "Nothing was changed" in response.content.decode()
    game.refresh_from_db()
    assert game.casual is False and RatingStep.objects.filter(game=game).count() == 3


@pytest.mark.parametrize(("role", "status"), [("viewer", 403), ("stranger", 404)])
def test_a_viewer_cannot_switch_a_game_and_an_outsider_does_not_find_it(club, role, status):
    ann, ben, cy, _dot = club.players
    game = finished_game(club.book, club.users["owner"], [ann, ben, cy], (3, 4))
    assert signed_in(club.users[role]).post(f"/games/{game.pk}/casual/", {"casual": "1"}).status_code == status
    game.refresh_from_db()
    assert game.casual is False


# Archived players


def test_an_archived_guest_leaves_the_pickers_and_the_boards_and_comes_back(club):
    ann, ben, _cy, dot = club.players
    game = finished_game(club.book, club.users["owner"], [ann, ben, dot], (3, 4))
    scorer = signed_in(club.users["scorer"])
    assert scorer.post(f"/players/{dot.pk}/archive/", {"archived": "1"}).status_code == 302
    players = page(scorer, "/players/")
    assert players.index("Archived") < players.index(">Dot<") and "Bring back Dot" in players
    assert f'value="{dot.pk}"' not in page(scorer, "/games/new/").split('id="player-choices"')[1].split("</div>")[0]
    open_game = services.create_game(by=club.users["owner"], scorebook=club.book, players=[ann.pk, ben.pk],
                                     rules=GameRules(tile_set=6))  # fmt: skip
    join = page(scorer, f"/games/{open_game.pk}/seats/join/")  # who may join or take over a seat
    assert ">Cy<" in join and ">Dot<" not in join
    board = page(scorer, "/leaderboard/")
    assert ">Dot<" not in board and ">Ann<" in board
    assert ">Dot<" in page(scorer, f"/games/{game.pk}/")  # their games are untouched
    assert scorer.post(f"/players/{dot.pk}/archive/", {"archived": "0"}).status_code == 302
    assert "Archive Dot" in page(scorer, "/players/") and ">Dot<" in page(scorer, "/leaderboard/")


def test_a_bad_archive_says_so_and_changes_nothing(club):
    dot = club.spare
    response = signed_in(club.users["scorer"]).post(f"/players/{dot.pk}/archive/", {"archived": "x"}, follow=True)
    assert "Nothing was changed" in response.content.decode()
    dot.refresh_from_db()
    assert dot.archived is False


@pytest.mark.parametrize(("role", "status"), [("viewer", 403), ("stranger", 404)])
def test_a_viewer_cannot_archive_and_an_outsider_does_not_find_the_player(club, role, status):
    dot = club.spare
    assert signed_in(club.users[role]).post(f"/players/{dot.pk}/archive/", {"archived": "1"}).status_code == status
    dot.refresh_from_db()
    assert dot.archived is False
    assert "Archive Dot" not in page(signed_in(club.users["viewer"]), "/players/")


# Merging


@pytest.fixture
def bob(club):
    ann, _ben, cy, _dot = club.players
    bob = Player.objects.create(scorebook=club.book, name="Bob")
    for _ in range(2):
        finished_game(club.book, club.users["owner"], [bob, ann, cy], (3, 4))
    return bob


def test_a_merge_asks_first_then_moves_the_games(club, bob):
    ben = club.players[1]
    scorer = signed_in(club.users["scorer"])
    assert 'id="merge-form"' in page(scorer, "/players/")
    question = page(scorer, f"/players/merge/?player={bob.pk}&into={ben.pk}")
    assert "Merge Bob into Ben? Bob&#x27;s 2 games become Ben&#x27;s. This cannot be undone." in question
    assert Player.objects.filter(pk=bob.pk).exists()  # asking changes nothing
    response = scorer.post("/players/merge/", {"player": bob.pk, "into": ben.pk})
    assert response.status_code == 302 and response["Location"] == f"/players/{ben.pk}/"
    assert not Player.objects.filter(pk=bob.pk).exists()
    assert "2 games" in page(scorer, "/players/").split(">Ben<")[1].split("</li>")[0]


def test_a_merge_of_two_who_played_together_is_refused_beside_the_field(club, bob):
    ann = club.players[0]
    response = signed_in(club.users["scorer"]).post("/players/merge/", {"player": bob.pk, "into": ann.pk})
    body = response.content.decode()
    assert response.status_code == 200 and "Bob and Ann sat at one table" in body
    assert body.index('id="id_into"') < body.index("Bob and Ann sat at one table")
    assert Player.objects.filter(pk=bob.pk).exists()


def test_the_merge_page_refuses_two_who_played_together_before_asking_and_offers_no_merge(club, bob):
    ann = club.players[0]
    scorer = signed_in(club.users["scorer"])
    body = page(scorer, f"/players/merge/?player={bob.pk}&into={ann.pk}")
    assert "Bob and Ann sat at one table: they are two people, not one." in body  # the service's own words
    assert body.index('id="id_into"') < body.index("Bob and Ann sat at one table")
    assert 'id="merge-question"' not in body and "cannot be undone" not in body and ">Merge</button>" not in body
    spanish = scorer.get(f"/players/merge/?player={bob.pk}&into={ann.pk}", HTTP_ACCEPT_LANGUAGE="es")
    assert 'id="merge-question"' not in spanish.content.decode()
    assert Player.objects.filter(pk=bob.pk).exists()


@pytest.mark.parametrize(
    ("data", "words"),
    [({"into": "same"}, "cannot be merged into themselves"), ({"into": "foreign"}, "Choose a player of this scorebook"),
     ({"into": ""}, "This field is required")],
)  # fmt: skip
def test_a_bad_merge_shows_its_error_beside_the_field_and_changes_nothing(club, bob, data, words):
    foreign = Player.objects.create(
        scorebook=services.scorebooks.create(by=club.users["owner"], name="Else"), name="Zed"
    )
    into = {"same": bob.pk, "foreign": foreign.pk, "": ""}[data["into"]]
    scorer = signed_in(club.users["scorer"])
    for response in (scorer.get("/players/merge/", {"player": bob.pk, "into": into}),
                     scorer.post("/players/merge/", {"player": bob.pk, "into": into})):  # fmt: skip
        body = response.content.decode()
        assert response.status_code == 200 and words in body and 'id="merge-question"' not in body
    assert Player.objects.filter(pk=bob.pk).exists() and Player.objects.filter(pk=foreign.pk).exists()


def test_a_viewer_cannot_merge(club, bob):
    viewer = signed_in(club.users["viewer"])
    assert viewer.get("/players/merge/", {"player": bob.pk, "into": club.players[1].pk}).status_code == 403
    assert viewer.post("/players/merge/", {"player": bob.pk, "into": club.players[1].pk}).status_code == 403
    assert 'id="merge-form"' not in page(viewer, "/players/")
    assert Player.objects.filter(pk=bob.pk).exists()


def test_an_outsider_cannot_merge_the_clubs_players_from_their_own_scorebook(club, bob):
    stranger = signed_in(club.users["stranger"])
    response = stranger.post("/players/merge/", {"player": bob.pk, "into": club.players[1].pk})
    assert response.status_code == 200 and "Choose a player of this scorebook" in response.content.decode()
    assert Player.objects.filter(pk=bob.pk).exists()


# The scorebook's time zone


def test_an_owner_sets_the_time_zone_and_a_bad_one_is_shown_beside_the_field(club):
    owner = signed_in(club.users["owner"])
    assert 'id="time-zone-form"' in page(owner, f"/scorebooks/{club.book.pk}/")
    refused = owner.post(f"/scorebooks/{club.book.pk}/", {"zone-time_zone": "Mars/Olympus_Mons"})
    body = refused.content.decode()
    assert refused.status_code == 200 and "Give a time zone by its IANA name" in body
    assert body.index('id="id_zone-time_zone"') < body.index("Give a time zone by its IANA name")
    club.book.refresh_from_db()
    assert club.book.time_zone != "Mars/Olympus_Mons"
    assert owner.post(f"/scorebooks/{club.book.pk}/", {"zone-time_zone": "Europe/Madrid"}).status_code == 302
    club.book.refresh_from_db()
    assert club.book.time_zone == "Europe/Madrid"


@pytest.mark.parametrize(("role", "status"), [("scorer", 403), ("viewer", 403), ("stranger", 404)])
def test_only_an_owner_sets_the_time_zone_on_the_page(club, role, status):
    before = club.book.time_zone
    response = signed_in(club.users[role]).post(f"/scorebooks/{club.book.pk}/", {"zone-time_zone": "Asia/Tokyo"})
    assert response.status_code == status
    club.book.refresh_from_db()
    assert club.book.time_zone == before


def test_the_players_page_and_the_question_speak_spanish(club, bob):
    ben = club.players[1]
    scorer = signed_in(club.users["scorer"])
    scorer.post(f"/players/{club.spare.pk}/archive/", {"archived": "1"})
    spanish = {"HTTP_ACCEPT_LANGUAGE": "es-MX,es;q=0.9"}
    players = scorer.get("/players/", **spanish).content.decode()
    assert (
        "Archivados" in players and "Recuperar a Dot" in players and "¿Dos nombres para una misma persona?" in players
    )
    question = scorer.get(f"/players/merge/?player={bob.pk}&into={ben.pk}", **spanish).content.decode()
    assert "¿Unir a Bob con Ben? 2 partidas de Bob pasan a ser de Ben. No se puede deshacer." in question
    refused = scorer.post("/players/merge/", {"player": bob.pk, "into": club.players[0].pk}, **spanish)
    assert "Bob y Ann jugaron en la misma mesa" in refused.content.decode()
    form = scorer.get("/games/new/", **spanish).content.decode()
    assert "Partida amistosa: no cuenta en clasificaciones" in form


def test_a_friendly_table_is_tagged_on_the_night_page_its_live_page_the_api_and_the_history_list(club):
    from scorekeeper.services import nights as night_services
    from tests.seasons import finished_game

    ann, ben, cy, _dot = club.players
    friendly = finished_game(club.book, club.users["scorer"], [ann, ben], (5,))
    counted = finished_game(club.book, club.users["scorer"], [cy, ann], (4,))
    services.set_casual(game=friendly, casual=True)
    for game in (friendly, counted):
        night_services.set_night(game=game, night=club.night.pk)
    viewer = signed_in(club.users["viewer"])
    night_page = page(viewer, f"/nights/{club.night.pk}/")
    assert night_page.count("Friendly: counts nowhere") == 1
    assert night_page.index("Friendly: counts nowhere") < night_page.index('id="table-2"')
    live_page = page(Client(), f"/live/nights/{club.night_live.token}/")
    assert live_page.count("Friendly: counts nowhere") == 1 and 'id="tv-mode"' in live_page
    tables = viewer.get(f"/api/v1/nights/{club.night.pk}/").json()["games"]
    assert [table["casual"] for table in tables] == [True, False]
    live = Client().get(f"/api/v1/live/nights/{club.night_live.token}/").json()["tables"]
    assert [table["casual"] for table in live] == [True, False]
    history = page(viewer, "/history/")
    assert history.count("Friendly: counts nowhere") == 1


def test_the_players_list_counts_the_games_the_player_page_counts_not_the_friendly_one(club):
    from tests.seasons import finished_game

    ann, ben, cy, _dot = club.players
    finished_game(club.book, club.users["scorer"], [ann, ben], (5,))
    finished_game(club.book, club.users["scorer"], [ann, cy], (4,))
    services.set_casual(game=finished_game(club.book, club.users["scorer"], [ann, cy], (3,)), casual=True)
    viewer = signed_in(club.users["viewer"])
    player = page(viewer, f"/players/{ann.pk}/")
    assert "<dt>Games</dt><dd>2</dd>" in player
    listing = page(viewer, "/players/")
    line = listing[listing.index(f'href="/players/{ann.pk}/"') :]
    assert line[: line.index("</li>")].count("2 games") == 1 and "3 games" not in listing
