"""Club nights through the API (docs/api.md, "Club nights"): scorers make them,
every member reads their tables and standings, a game joins one at creation or by PATCH; bad input
is a 400 naming the field and changes nothing; viewers get 403, outsiders 404."""

import pytest
from django.core.cache import cache
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Game, Night, NightLink, Role
from scorekeeper.rules.game import GameRules
from scorekeeper.services import nights, scorebooks
from tests.nights import STANDINGS, hand_worked_night
from tests.roles import make_club, round_entries

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    return make_club()


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client, path, body, **headers):
    return client.post(path, body, content_type="application/json", headers=headers)


def patch(client, path, body):
    return client.patch(path, body, content_type="application/json")


def test_a_scorer_makes_a_night_and_every_member_lists_and_reads_it(club):
    made = post(signed_in(club.users["scorer"]), f"/api/v1/scorebooks/{club.book.pk}/nights/",
                {"name": "  Friday club ", "date": "2026-11-27"})  # fmt: skip
    assert made.status_code == 201, made.content
    body = made.json()
    assert made["Location"] == f"/api/v1/nights/{body['id']}/"
    assert body == {"id": body["id"], "scorebook": club.book.pk, "name": "Friday club", "date": "2026-11-27",
                    "games": [], "standings": []}  # fmt: skip
    viewer = signed_in(club.users["viewer"])
    listed = viewer.get(f"/api/v1/scorebooks/{club.book.pk}/nights/").json()
    assert [night["name"] for night in listed["results"]] == ["Friday club", "Club night"]  # newest day first
    assert viewer.get(f"/api/v1/nights/{body['id']}/").json() == body


def test_the_standings_sum_place_points_over_the_tables_then_the_lower_total_and_leave_out_who_left(club):
    Game.objects.all().delete()
    worked = hand_worked_night(club.book, club.users["owner"])
    answer = signed_in(club.users["viewer"]).get(f"/api/v1/nights/{worked.night.pk}/")
    assert answer.status_code == 200
    body = answer.json()
    assert [(r["name"], r["games"], r["points"], r["total"], r["rank"]) for r in body["standings"]] == STANDINGS
    assert body["standings"][0]["player"] == worked.players.eve.pk
    tables = body["games"]
    assert [table["id"] for table in tables] == [game.pk for game in worked.tables]
    assert [len(table["players"]) for table in tables] == [4, 5, 6]
    assert all(table["finished"] and table["round"] is None and table["rounds_played"] == 1 for table in tables)
    second = tables[1]["players"]
    assert [(p["name"], p["rank"], p["leads"]) for p in second] == [
        ("Eve", 1, True), ("Ben", 2, False), ("Fay", 3, False), ("Gus", 3, False), ("Hal", 5, False),
    ]  # fmt: skip
    hal = next(p for p in tables[2]["players"] if p["name"] == "Hal")
    assert hal["rank"] is None and hal["seated"] is False and hal["leads"] is False


def test_a_night_of_ties_shares_a_rank(club):
    Game.objects.all().delete()
    ann, ben, cy, _dot = club.players
    night = nights.create_night(book=club.book, role=Role.OWNER, name="Ties", date=club.night.date)
    from tests.seasons import finished_game

    for players in ([ann, ben, cy], [ben, ann, cy]):  # each wins one and shares 2nd with Cy in the other: 10 + 2.5
        game = finished_game(club.book, club.users["owner"], players, (3, 3))
        nights.set_night(game=game, night=night.pk)
    rows = signed_in(club.users["owner"]).get(f"/api/v1/nights/{night.pk}/").json()["standings"]
    assert [(r["name"], r["points"], r["rank"]) for r in rows] == [("Ann", 12.5, 1), ("Ben", 12.5, 1), ("Cy", 5.0, 3)]


def test_a_game_joins_a_night_when_it_is_made_and_by_patch_and_leaves_it(club):
    owner = signed_in(club.users["owner"])
    ann, ben, _cy, _dot = club.players
    made = post(
        owner, "/api/v1/games/", {"scorebook": club.book.pk, "players": [ann.pk, ben.pk], "night": club.night.pk}
    )
    assert made.status_code == 201, made.content
    assert made.json()["night"] == club.night.pk
    read = owner.get(f"/api/v1/nights/{club.night.pk}/").json()
    assert made.json()["id"] in [table["id"] for table in read["games"]]
    table = next(table for table in read["games"] if table["id"] == made.json()["id"])
    assert table["round"] == 1 and table["finished"] is False
    assert all(not player["leads"] for player in table["players"])  # nobody leads before a round
    moved = patch(owner, f"/api/v1/games/{club.game.pk}/", {"night": club.night.pk})
    assert moved.status_code == 200 and moved.json()["night"] == club.night.pk
    assert moved["ETag"] != club.game.etag  # the game's answer changed: its version moved on
    left = patch(owner, f"/api/v1/games/{club.game.pk}/", {"night": None})
    assert left.status_code == 200 and left.json()["night"] is None
    assert Game.objects.get(pk=club.game.pk).night_id is None


def test_a_night_of_another_scorebook_is_a_400_naming_night_and_changes_nothing(club):
    owner = club.users["owner"]
    other = scorebooks.create(by=owner, name="Elsewhere")
    foreign = nights.create_night(book=other, role=Role.OWNER, name="Theirs", date=club.night.date)
    client = signed_in(owner)
    ann, ben, _cy, _dot = club.players
    count = Game.objects.count()
    made = post(client, "/api/v1/games/", {"scorebook": club.book.pk, "players": [ann.pk, ben.pk], "night": foreign.pk})
    assert made.status_code == 400 and "night" in made.json()
    assert Game.objects.count() == count
    before = Game.objects.get(pk=club.game.pk)
    moved = patch(client, f"/api/v1/games/{club.game.pk}/", {"night": foreign.pk, "name": "Renamed"})
    assert moved.status_code == 400 and "night" in moved.json()
    after = Game.objects.get(pk=club.game.pk)
    assert (after.night_id, after.name, after.version) == (before.night_id, before.name, before.version)


@pytest.mark.parametrize(
    ("body", "field"),
    [({"name": "", "date": "2026-11-27"}, "name"), ({"name": "x" * 81, "date": "2026-11-27"}, "name"),
     ({"name": "Fri", "date": "27/11/2026"}, "date"), ({"name": "Fri"}, "date"), ({"date": "2026-11-27"}, "name")],
)  # fmt: skip
def test_a_bad_night_is_a_400_naming_the_field_and_nothing_is_made(club, body, field):
    count = Night.objects.count()
    made = post(signed_in(club.users["owner"]), f"/api/v1/scorebooks/{club.book.pk}/nights/", body)
    assert made.status_code == 400 and field in made.json(), made.content
    assert Night.objects.count() == count
    renamed = patch(signed_in(club.users["owner"]), f"/api/v1/nights/{club.night.pk}/", {field: body.get(field, "")})
    assert renamed.status_code == 400 and field in renamed.json()
    assert Night.objects.get(pk=club.night.pk).name == club.night.name


def test_viewers_may_not_write_a_night_and_outsiders_see_none(club):
    viewer, stranger = signed_in(club.users["viewer"]), signed_in(club.users["stranger"])
    night = club.night
    assert (
        post(viewer, f"/api/v1/scorebooks/{club.book.pk}/nights/", {"name": "X", "date": "2026-11-27"}).status_code
        == 403
    )
    assert patch(viewer, f"/api/v1/nights/{night.pk}/", {"name": "X"}).status_code == 403
    assert viewer.delete(f"/api/v1/nights/{night.pk}/").status_code == 403
    assert post(viewer, f"/api/v1/nights/{night.pk}/share/", {}).status_code == 403
    assert patch(viewer, f"/api/v1/games/{club.game.pk}/", {"night": night.pk}).status_code == 403
    for answer in (
        stranger.get(f"/api/v1/scorebooks/{club.book.pk}/nights/"),
        post(stranger, f"/api/v1/scorebooks/{club.book.pk}/nights/", {"name": "X", "date": "2026-11-27"}),
        stranger.get(f"/api/v1/nights/{night.pk}/"),
        patch(stranger, f"/api/v1/nights/{night.pk}/", {"name": "X"}),
        stranger.delete(f"/api/v1/nights/{night.pk}/"),
        stranger.get(f"/api/v1/nights/{night.pk}/share/"),
    ):
        assert answer.status_code == 404
    assert Night.objects.get(pk=night.pk).name == night.name


def test_a_scorer_renames_and_deletes_a_night_and_its_games_stay_in_none(club):
    scorer = signed_in(club.users["scorer"])
    nights.set_night(game=club.game, night=club.night.pk)
    renamed = patch(scorer, f"/api/v1/nights/{club.night.pk}/", {"name": "Saturday club", "date": "2026-11-28"})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Saturday club"
    version = Game.objects.get(pk=club.game.pk).version
    assert scorer.delete(f"/api/v1/nights/{club.night.pk}/").status_code == 204
    game = Game.objects.get(pk=club.game.pk)
    assert game.night_id is None and game.version == version + 1


def test_the_night_sends_an_etag_and_answers_304_until_a_table_changes(club):
    client = signed_in(club.users["viewer"])
    nights.set_night(game=club.game, night=club.night.pk)
    first = client.get(f"/api/v1/nights/{club.night.pk}/")
    etag = first["ETag"]
    assert etag.startswith('"night-')
    assert client.get(f"/api/v1/nights/{club.night.pk}/", headers={"If-None-Match": etag}).status_code == 304
    game = Game.objects.get(pk=club.game.pk)
    ann, ben, cy, _dot = club.players
    services.record_round(game=game, starting_double=5, entries=round_entries([ann, ben, cy], (1, 2)), by=None)
    changed = client.get(f"/api/v1/nights/{club.night.pk}/", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    table = changed.json()["games"][0]
    assert table["rounds_played"] == 2 and table["round"] == 3
    renamed = nights.update_night(night=club.night, role=Role.OWNER, name="Renamed")
    assert renamed.version > club.night.version - 1
    assert client.get(f"/api/v1/nights/{club.night.pk}/", headers={"If-None-Match": changed["ETag"]}).status_code == 200


def test_a_night_read_costs_the_same_queries_whatever_its_tables(club, django_assert_num_queries):
    Game.objects.all().delete()
    worked = hand_worked_night(club.book, club.users["owner"])
    client = signed_in(club.users["viewer"])
    path = f"/api/v1/nights/{worked.night.pk}/"
    etag = client.get(path)["ETag"]
    cache.clear()
    # 1 session, 2 user, 3 the night with the reader's role and its scorebook, 4 the versions of its
    # games (its ETag), 5 its games with their states, 6 their seats and players, 7 the standings
    # (one grouped query)
    with django_assert_num_queries(7):
        assert client.get(path).status_code == 200
    # The body is the same for every member at one ETag: kept, it is sent without 5 to 7.
    with django_assert_num_queries(4):
        assert client.get(path).json()["standings"][0]["name"] == "Eve"
    # 1 session, 2 user, 3 the night with the role, 4 the versions of its games: a 304
    with django_assert_num_queries(4):
        assert client.get(path, headers={"If-None-Match": etag}).status_code == 304


def test_a_scorer_shares_a_night_and_anyone_with_the_link_reads_it(club):
    scorer = signed_in(club.users["scorer"])
    nights.set_night(game=club.game, night=club.night.pk)
    NightLink.objects.filter(night=club.night).delete()
    assert scorer.get(f"/api/v1/nights/{club.night.pk}/share/").status_code == 404
    made = post(scorer, f"/api/v1/nights/{club.night.pk}/share/", {})
    assert made.status_code == 201, made.content
    token = made.json()["token"]
    assert made.json()["url"].endswith(f"/live/nights/{token}/")
    assert scorer.get(f"/api/v1/nights/{club.night.pk}/share/").json()["token"] == token
    seen = Client().get(f"/api/v1/live/nights/{token}/")
    assert seen.status_code == 200
    body = seen.json()
    assert body["name"] == club.night.name and [t["name"] for t in body["tables"]] == ["Table 1"]  # unnamed: its table
    assert "id" not in body["tables"][0] and all("player" not in p for p in body["tables"][0]["players"])
    assert Client().get(f"/api/v1/live/nights/{token}/", headers={"If-None-Match": seen["ETag"]}).status_code == 304
    page = Client().get(f"/live/nights/{token}/")
    assert page.status_code == 200 and club.night.name in page.content.decode()
    again = post(scorer, f"/api/v1/nights/{club.night.pk}/share/", {}).json()["token"]
    assert again != token and Client().get(f"/api/v1/live/nights/{token}/").status_code == 404
    assert scorer.delete(f"/api/v1/nights/{club.night.pk}/share/").status_code == 204
    assert Client().get(f"/api/v1/live/nights/{again}/").status_code == 404
    assert Client().get(f"/live/nights/{again}/").status_code == 404


def _cached(client, path, etag, tries=4):
    """Ask until the cache has learned the night (a full request or three: its games, the session's
    account, then the entry), then once more: the status of that last poll."""
    for _ in range(tries):
        client.get(path, headers={"If-None-Match": etag})
    return client.get(path, headers={"If-None-Match": etag})


def test_a_night_poll_is_a_304_from_the_cache_until_a_round_at_one_of_its_tables(club, django_assert_num_queries):
    Game.objects.all().delete()
    ann, ben, cy, dot = club.players
    tables = [services.create_game(by=club.users["owner"], scorebook=club.book, players=[p.pk for p in four],
                                   rules=GameRules(tile_set=6), night=club.night.pk)
              for four in ([ann, ben], [cy, dot], [ann, cy])]  # fmt: skip
    client = signed_in(club.users["viewer"])
    path = f"/api/v1/nights/{club.night.pk}/"
    etag = client.get(path)["ETag"]
    _cached(client, path, etag)
    with django_assert_num_queries(0):  # the cache alone answers
        assert client.get(path, headers={"If-None-Match": etag}).status_code == 304
    services.record_round(game=tables[2], starting_double=6, entries=round_entries([ann, cy], (4,)), by=None)
    changed = client.get(path, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["games"][2]["rounds_played"] == 1


@pytest.mark.parametrize("change", ["rename", "new game", "game leaves", "link replaced"])
def test_every_change_of_a_night_takes_its_poll_off_the_cache(club, change, settings):
    settings.LIVE_REQUESTS_PER_MINUTE = 1_000_000
    nights.set_night(game=club.game, night=club.night.pk)
    client = signed_in(club.users["viewer"])
    path = f"/api/v1/nights/{club.night.pk}/"
    live = f"/api/v1/live/nights/{club.night_live.token}/"
    etag, live_etag = client.get(path)["ETag"], Client().get(live)["ETag"]
    assert _cached(client, path, etag).status_code == 304
    assert _cached(Client(), live, live_etag).status_code == 304
    ann, ben, _cy, _dot = club.players
    match change:
        case "rename":
            nights.update_night(night=club.night, role=Role.OWNER, name="Renamed")
        case "new game":
            services.create_game(by=club.users["owner"], scorebook=club.book, players=[ann.pk, ben.pk],
                                 rules=GameRules(tile_set=6), night=club.night.pk)  # fmt: skip
        case "game leaves":
            nights.set_night(game=Game.objects.get(pk=club.game.pk), night=None)
        case "link replaced":
            nights.share(night=club.night, by=club.users["owner"])
    if change == "link replaced":  # what members read is the same: only the old link shows nothing more
        assert Client().get(live, headers={"If-None-Match": live_etag}).status_code == 404
    else:
        assert client.get(path, headers={"If-None-Match": etag}).status_code == 200
        assert Client().get(live, headers={"If-None-Match": live_etag}).status_code == 200
