"""A paper game entered afterwards (API.md, fifth part): the whole game in one POST, every round
checked as if recorded at the table, all or nothing, and counted where its day says."""

from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from scorekeeper import clock, selectors, services
from scorekeeper.models import Game, Night, Player, RatingStep, Role, Round, Scorebook
from scorekeeper.reads import history
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import nights
from tests.api.conftest import app_for, make_players
from tests.factories import UserFactory
from tests.seasons import make_season

pytestmark = pytest.mark.django_db

# An evening's sheet of double-6 for three: per round, who went out (a seat) and the others' pips.
EVENING = [(6, 0, (12, 31)), (5, 1, (8, 19)), (4, 2, (25, 4)), (3, 0, (9, 17)), (2, 1, (30, 6)), (1, 2, (3, 11)),
           (0, 0, (14, 22))]  # fmt: skip


def paper_rounds(players, sheet=EVENING):
    rounds = []
    for double, out, pips in sheet:
        others = iter(pips)
        rounds.append({
            "starting_double": double,
            "entries": [{"player": pk, "pips": 0, "went_out": True} if seat == out else {"player": pk, "pips": next(others)}
                        for seat, pk in enumerate(players)],
        })  # fmt: skip
    return rounds


def enter(api, players, played_on, rounds=None, **body):
    rounds = paper_rounds(players) if rounds is None else rounds
    return api.post("/api/v1/games/", {"name": "From the sheet", "tile_set": 6, "players": players,
                                       "played_on": str(played_on), "rounds": rounds, **body})  # fmt: skip


def days_ago(days: int) -> date:
    return timezone.localdate() - timedelta(days=days)


def test_a_paper_game_is_saved_whole_finished_and_dated_by_its_day(app):
    players = make_players(app, "Ann", "Ben", "Cy")
    response = enter(app, players, days_ago(30))
    assert response.status_code == 201, response.content
    game = response.json()
    assert (game["status"], game["played_on"], game["entered_afterwards"]) == ("finished", str(days_ago(30)), True)
    assert [r["starting_double"] for r in game["rounds"]] == [6, 5, 4, 3, 2, 1, 0]
    totals = {row["name"]: row["total"] for row in game["standings"]}  # the sheet's sums
    assert totals == {"Ann": 8 + 25 + 30 + 3, "Ben": 12 + 4 + 9 + 11 + 14, "Cy": 31 + 19 + 17 + 6 + 22}
    assert timezone.localtime(Game.objects.get(pk=game["id"]).finished_at).date() == days_ago(30)
    assert response["ETag"] and app.get(f"/api/v1/games/{game['id']}/").json()["played_on"] == str(days_ago(30))
    # History says it was entered afterwards, and by whom.
    (change,) = app.get(f"/api/v1/games/{game['id']}/history/").json()["results"]
    assert (change["action"], change["by"]["email"]) == ("game_entered", "ann@example.com")


def test_a_game_recorded_at_the_table_carries_the_day_it_finished(app):
    players = make_players(app, "Ann", "Ben")
    game = app.post("/api/v1/games/", {"tile_set": 6, "players": players, "rules": {"rounds": 1}}).json()
    assert game["played_on"] is None and game["entered_afterwards"] is False
    body = {"starting_double": 6, "entries": [{"player": players[0], "pips": 0, "went_out": True},
                                              {"player": players[1], "pips": 9}]}  # fmt: skip
    assert app.post(f"/api/v1/games/{game['id']}/rounds/", body).status_code == 201
    book = Scorebook.objects.get(games=game["id"])
    assert app.get(f"/api/v1/games/{game['id']}/").json()["played_on"] == str(book.today())
    assert app.delete(f"/api/v1/games/{game['id']}/rounds/1/").status_code == 204  # open again: no day yet
    assert app.get(f"/api/v1/games/{game['id']}/").json()["played_on"] is None


def test_a_round_a_rule_refuses_is_a_400_naming_the_round_and_the_player_and_nothing_is_saved(app):
    players = make_players(app, "Ann", "Ben", "Cy")
    rounds = paper_rounds(players)
    rounds[3]["entries"][2] = {"player": players[2], "pips": 0, "went_out": True}  # Ann and Cy both went out
    rounds[5]["entries"][1]["pips"] = 999  # later: never reached, the first refusal is named
    before = (Game.objects.count(), Round.objects.count())
    response = enter(app, players, days_ago(3), rounds)
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"rounds[3]", "rounds[3].entries[2].went_out"} or "rounds[3]" in body, body
    assert not any(key.startswith("rounds[5]") for key in body)
    assert "Cy" in " ".join(body["rounds[3]"]) or "Ann" in " ".join(body["rounds[3]"])
    assert (Game.objects.count(), Round.objects.count()) == before


def test_a_pips_value_no_hand_can_hold_names_the_round_the_entry_and_the_player(app):
    players = make_players(app, "Ann", "Ben", "Cy")
    rounds = paper_rounds(players)
    rounds[2]["entries"][0] = {"player": players[0], "pips": 60, "tiles_left": 1}
    response = enter(app, players, days_ago(3), rounds)
    assert response.status_code == 400
    body = response.json()
    assert "Ann" in body["rounds[2]"][0]
    assert "Ann" in body["rounds[2].entries[0].pips"][0] or "Ann" in body["rounds[2].entries[0].tiles_left"][0]
    assert not Game.objects.filter(name="From the sheet").exists()


@pytest.mark.parametrize("bad", ["future", "other_scorebook", "41_rounds", "10000_entries", "no_day", "night_day"])
def test_bad_input_is_a_400_naming_the_field_and_nothing_is_saved(app, bad):
    players = make_players(app, "Ann", "Ben", "Cy")
    rounds, played_on, extra = paper_rounds(players), days_ago(2), {}
    if bad == "future":
        played_on = date.today() + timedelta(days=2)
    elif bad == "other_scorebook":
        players[2] = make_players(app_for("zed@example.com"), "Zed")[0]
    elif bad == "41_rounds":
        rounds = paper_rounds(players) * 6
        rounds = rounds[:41]
    elif bad == "10000_entries":
        rounds[0]["entries"] = [{"player": players[0], "pips": 1}] * 10_000
    elif bad == "night_day":
        book = Scorebook.personal_for(app.user)
        extra["night"] = nights.create_night(book=book, role=Role.OWNER, name="Club", date=days_ago(9)).pk
    before = Game.objects.count()
    if bad == "no_day":
        response = app.post("/api/v1/games/", {"tile_set": 6, "players": players, "rounds": rounds})
    else:
        response = enter(app, players, played_on, rounds, **extra)
    assert response.status_code == 400, response.content
    field = {"future": "played_on", "other_scorebook": "players", "41_rounds": "rounds",
             "10000_entries": "rounds[0].entries", "no_day": "played_on", "night_day": "night"}[bad]  # fmt: skip
    assert field in response.json(), response.json()
    if bad == "other_scorebook":
        assert str(players[2]) in response.json()["players"][0]
    assert Game.objects.count() == before


def test_a_paper_game_with_a_seat_change_seats_the_joiner_after_its_round(app):
    ann, ben, cy, dot = make_players(app, "Ann", "Ben", "Cy", "Dot")
    rounds = paper_rounds([ann, ben, cy], EVENING[:2]) + paper_rounds([ann, ben, cy, dot], [(4, 3, (5, 7, 9))])
    response = enter(app, [ann, ben, cy, dot], days_ago(1), rounds, rules={"rounds": 3},
                     seat_changes=[{"kind": "join", "player": dot, "after": 2}])  # fmt: skip
    assert response.status_code == 201, response.content
    joiner = response.json()["players"][3]
    assert (joiner["id"], joiner["joined_after"], joiner["rounds_played"]) == (dot, 2, 1)
    # A seat change the table's rules refuse (Dot joins twice) names it.
    bad = enter(app, [ann, ben, cy, dot], days_ago(1), rounds, rules={"rounds": 3},
                seat_changes=[{"kind": "join", "player": dot, "after": 2}, {"kind": "join", "player": dot, "after": 2}])  # fmt: skip
    assert bad.status_code == 400 and "seat_changes[1]" in bad.json(), bad.json()


def test_a_game_entered_for_an_earlier_day_moves_later_ratings_exactly_as_if_played_in_order(app):
    """Ann's book: a game played today, then last month's sheet entered. Zed's book: last month's
    sheet first, then today's game. The ratings and every game's rating moves are the same."""
    zed = app_for("zed@example.com")
    earlier = [(6, 2, (20, 11)), (5, 2, (14, 3)), (4, 1, (9, 30))]
    later = [(6, 0, (12, 31)), (5, 0, (8, 19)), (4, 2, (25, 4))]

    def live(api, players, sheet):
        game = api.post("/api/v1/games/", {"tile_set": 6, "players": players, "rules": {"rounds": 3}}).json()
        for body in paper_rounds(players, sheet):
            assert api.post(f"/api/v1/games/{game['id']}/rounds/", body).status_code == 201
        return game["id"]

    ann_players = make_players(app, "Ann", "Ben", "Cy")
    today_ann = live(app, ann_players, later)
    moved_before = app.get(f"/api/v1/games/{today_ann}/").json()["rating_changes"]
    paper_ann = enter(app, ann_players, days_ago(30), paper_rounds(ann_players, earlier), rules={"rounds": 3})
    assert paper_ann.status_code == 201
    zed_players = make_players(zed, "Ann", "Ben", "Cy")
    paper_zed = enter(zed, zed_players, days_ago(30), paper_rounds(zed_players, earlier), rules={"rounds": 3})
    today_zed = live(zed, zed_players, later)

    def moves(api, pk, players):
        names = dict(zip(players, ("Ann", "Ben", "Cy"), strict=True))
        return {names[row["player"]]: (row["before"], row["after"]) for row in api.get(f"/api/v1/games/{pk}/").json()["rating_changes"]}  # fmt: skip

    assert moves(app, today_ann, ann_players) == moves(zed, today_zed, zed_players)
    assert moves(app, paper_ann.json()["id"], ann_players) == moves(zed, paper_zed.json()["id"], zed_players)
    assert moves(app, today_ann, ann_players) != {
        dict(zip(ann_players, ("Ann", "Ben", "Cy"), strict=True))[row["player"]]: (row["before"], row["after"])
        for row in moved_before
    }  # the earlier game moved the later one's ratings
    board = {row["player"]["name"]: row["rating"] for row in app.get("/api/v1/leaderboard/").json()["results"]}
    theirs = {row["player"]["name"]: row["rating"] for row in zed.get("/api/v1/leaderboard/").json()["results"]}
    assert board == theirs
    steps = RatingStep.objects.filter(game_id=paper_ann.json()["id"]).values_list("finished_at", flat=True)
    assert {timezone.localtime(step).date() for step in steps} == {days_ago(30)}


def test_a_paper_game_counts_in_the_season_and_the_night_of_its_day(app):
    players = make_players(app, "Ann", "Ben", "Cy")
    book = Scorebook.personal_for(app.user)
    season = make_season(book=book, name="Last month", starts=days_ago(40), ends=days_ago(20))
    night = nights.create_night(book=book, role=Role.OWNER, name="Club", date=days_ago(30))
    response = enter(app, players, days_ago(30), night=night.pk)
    assert response.status_code == 201, response.content
    table = app.get(f"/api/v1/seasons/{season.pk}/").json()["table"]
    assert {row["name"]: row["games"] for row in table} == {"Ann": 1, "Ben": 1, "Cy": 1}
    standings = app.get(f"/api/v1/nights/{night.pk}/").json()["standings"]
    assert [row["name"] for row in standings][:1] == [response.json()["standings"][0]["name"]]
    assert Night.objects.get(pk=night.pk).version > 1
    # Entered for today instead, it is not in last month's season.
    assert enter(app, players, timezone.localdate()).status_code == 201
    table = app.get(f"/api/v1/seasons/{season.pk}/").json()["table"]
    assert {row["name"]: row["games"] for row in table} == {"Ann": 1, "Ben": 1, "Cy": 1}


def test_an_imported_game_counts_by_its_own_day(app, other_app):
    players = make_players(app, "Ann", "Ben", "Cy")
    made = enter(app, players, days_ago(400)).json()
    exported = app.get(f"/api/v1/games/{made['id']}/export/?format=json").json()
    response = other_app.post("/api/v1/import/", exported)
    assert response.status_code == 201, response.content
    (game,) = other_app.get("/api/v1/games/").json()["results"]
    assert game["played_on"] == str(days_ago(400))


def test_a_sheet_its_rounds_do_not_end_stays_in_progress_unless_stopped_after_its_last_round(app):
    players = make_players(app, "Ann", "Ben", "Cy")
    evening = paper_rounds(players)[:3]  # the evening stopped after 4-4
    left_open = enter(app, players, days_ago(4), evening)
    # API.md: a paper game is finished when its rounds end it; without stopped_after, this one goes on.
    assert left_open.status_code == 201 and left_open.json()["status"] == "in_progress"
    stopped = enter(app, players, days_ago(4), evening, stopped_after=3)
    assert stopped.status_code == 201, stopped.content
    game = stopped.json()
    assert (game["status"], game["ended_because"], game["next_starting_double"], len(game["rounds"])) == (
        "finished", "agreed", None, 3)  # fmt: skip
    assert [row["rank"] for row in game["standings"]] == [1, 2, 3]


@pytest.mark.parametrize("stopped_after", [2, 7])
def test_stopped_after_other_than_the_last_round_of_an_unended_sheet_is_a_400_naming_it(app, stopped_after):
    players = make_players(app, "Ann", "Ben", "Cy")
    rounds = paper_rounds(players) if stopped_after == 7 else paper_rounds(players)[:3]  # 7: its rounds end it
    response = enter(app, players, days_ago(4), rounds, stopped_after=stopped_after)
    assert response.status_code == 400 and "stopped_after" in response.json(), response.content
    assert not Game.objects.exists()


# One round of double-12 starting 12-12 for Ann, Ben, Cy (Ann went out): Ben's and Cy's hands. A hand
# holds at most 1092 - 24 = 1068 pips (RULES.md check 7); 999 is within it, and the rules know no
# deal size (RULES.md: the suggested deal is advice, never a validation), so a live round takes it.
HANDS = [
    ({"pips": 999}, {"pips": 20}, 201),  # accepted at the table: so on paper too
    ({"pips": 1069}, {"pips": 20}, 400),  # check 7: more than the set holds in a hand
    ({"pips": 999, "tiles_left": 2}, {"pips": 20}, 400),  # check 8: two tiles hold at most 45
    ({"pips": 999}, {"pips": 100}, 400),  # check 9: 1099 pips in all, the set has 1068 off the table
]


@pytest.mark.parametrize("ben, cy, answer", HANDS)
def test_a_paper_round_is_judged_exactly_as_the_same_round_recorded_at_the_table(app, ben, cy, answer):
    players = make_players(app, "Ann", "Ben", "Cy")
    entries = [{"player": players[0], "pips": 0, "went_out": True}, {"player": players[1], **ben},
               {"player": players[2], **cy}]  # fmt: skip
    live = app.post("/api/v1/games/", {"tile_set": 12, "players": players}).json()
    at_table = app.post(f"/api/v1/games/{live['id']}/rounds/", {"starting_double": 12, "entries": entries})
    before = Round.objects.count()
    rounds = [{"starting_double": 12, "entries": entries}]
    response = app.post("/api/v1/games/", {"tile_set": 12, "players": players, "played_on": str(days_ago(1)),
                                           "rounds": rounds})  # fmt: skip
    assert (response.status_code, at_table.status_code) == (answer, answer), (response.json(), at_table.json())
    if response.status_code == 400:  # the table's message, naming the round and the player; nothing saved
        said, errors = " ".join(response.json()["rounds[0]"]), at_table.json()["errors"]
        assert [error["message"] in said for error in errors] == [True] * len(errors) and "Ben" in said
        assert Round.objects.count() == before and Game.objects.filter(entered_afterwards=True).count() == 0


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_a_paper_games_title_names_the_day_on_its_sheet_whatever_zone_its_scorebook_moves_to(zone):
    """Entered on the scorebook's clock, it counts at a moment of its day (23:59:59 there): a scorebook
    moved 14 hours east, or 11 west, must not move the day its title and history name."""
    ann = UserFactory()
    book = selectors.current_scorebook(ann)
    players = [Player.objects.create(scorebook=book, name=name).pk for name in ("Ann", "Ben", "Cy")]
    rounds = [
        (double, [EntryInput(player=pk, pips=0, went_out=True) if seat == out else EntryInput(player=pk, pips=pips)
                  for seat, pk in enumerate(players)])
        for double, out, (pips, _) in EVENING
    ]  # fmt: skip
    played_on = days_ago(3)  # on the scorebook's clock as it is now
    game = services.enter_paper_game(
        by=ann, scorebook=book, players=players, rules=GameRules(tile_set=6), played_on=played_on, rounds=rounds,
        number=4,  # an unnamed game of the page is numbered
    )  # fmt: skip
    with clock.at_table(ZoneInfo(zone)):
        assert game.title == f"Game 4 · {clock.day(played_on)}"
        (change,) = history.of_game(game)
        assert change.after["name"] == game.title
