"""A round sent through the page's form, the API and the offline queue goes through one command
(services.submit_round) and gets the same result there: saved, needs confirmation, clash or invalid.
Each door only shows that result in its own way."""

import json

import pytest
from django.test import Client

from scorekeeper import services
from scorekeeper.http import offline
from scorekeeper.models import Membership, Round
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from tests.api.conftest import app_for
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
DOORS = ("page", "api", "queue")


@pytest.fixture
def results(monkeypatch):
    """Every answer the round command gives, in order (the doors call it as services.submit_round)."""
    answers = []
    command = services.submit_round

    def recorded(**kwargs):
        answers.append(command(**kwargs))
        return answers[-1]

    monkeypatch.setattr(services, "submit_round", recorded)
    return answers


@pytest.fixture
def ann():
    """One account with its three doors: a phone's page, an app (X-Session-Token), the page's queue."""
    app = app_for("ann@example.com")
    page = Client()
    page.force_login(app.user)
    queue = Client(enforce_csrf_checks=True)
    queue.force_login(app.user)
    queue.get("/")  # the CSRF cookie a page sets
    return {"page": page, "api": app, "queue": queue, "user": app.user}


def new_game(ann):
    players = [PlayerFactory(owner=ann["user"], name=name).pk for name in ("Ann", "Ben", "Cy")]
    return services.create_game(by=ann["user"], players=players, rules=GameRules(tile_set=6), name="Friday")


def send(door, ann, game, double, pips, *, version=None, confirm=False):
    """The round `pips` (0: went out; None: went out, the pips left empty) for the seats in order,
    as each door sends it."""
    players = [seat.player_id for seat in game.seats.order_by("position")]
    if door == "page":
        data = {"starting_double": double, "version": game.version if version is None else version}
        for player, value in zip(players, pips, strict=True):
            data[f"p{player}_pips"] = "" if value is None else value
            if value in (0, None):
                data[f"p{player}_went_out"] = "on"
        if confirm:
            data["confirmed"] = confirm
        return ann["page"].post(f"/games/{game.pk}/rounds/new/", data)
    entries = [
        {"player": p, "went_out": v in (0, None)} | ({} if v is None else {"pips": v})
        for p, v in zip(players, pips, strict=True)
    ]
    body = {"starting_double": double, "entries": entries, "confirm": confirm}
    if door == "api":  # an app asks to be asked (its default saves a surprising round as it is)
        return ann["api"].post(f"/api/v1/games/{game.pk}/rounds/", body)
    client = ann["queue"]
    headers = {"X-CSRFToken": client.cookies["csrftoken"].value, "Idempotency-Key": f"{game.pk}-{double}-{confirm}",
               "X-Account": offline.account_marker(ann["user"])}  # fmt: skip
    return client.post(f"/api/v1/games/{game.pk}/rounds/", json.dumps(body), content_type="application/json",
                       headers=headers)  # fmt: skip


def test_a_round_is_saved_alike_from_the_page_the_api_and_the_queue(ann, results):
    saved = {}
    for door in DOORS:
        game = new_game(ann)
        response = send(door, ann, game, 6, [0, 9, 14])
        assert response.status_code == (302 if door == "page" else 201), door
        (answer,) = results[-1:]
        assert isinstance(answer, services.Saved) and answer.version == game.version + 1
        saved[door] = [(e.pips, e.went_out, e.score) for e in Round.objects.get(game=game).entries.order_by("position")]
    assert len(results) == 3 and saved["page"] == saved["api"] == saved["queue"] == [(0, True, 0), (9, False, 9),
                                                                                      (14, False, 14)]  # fmt: skip


def test_a_surprising_round_is_asked_about_alike_and_saved_alike_once_confirmed(ann, results):
    keys = {}
    for door in DOORS:
        game = new_game(ann)
        response = send(door, ann, game, 6, [0, 80, 14])  # more than 7 dealt tiles of a double-6 set hold
        answer = results[-1]
        assert isinstance(answer, services.NeedsConfirmation), door
        assert answer.surprises == ("Ben: 80 pips is more than the 7 biggest tiles of a deal hold (65). A typo?",)
        if door == "page":
            assert response.status_code == 200 and response.context["surprise_key"] == answer.key
            assert "Ben: 80 pips is more than" in response.content.decode()
        else:
            assert response.status_code == 400 and response.json()["code"] == "confirmation_needed"
            assert response.json()["surprises"] == list(answer.surprises) and response.json()["confirm"] == answer.key
        assert not Round.objects.filter(game=game).exists()
        keys[door] = answer.key
        confirmed = send(door, ann, game, 6, [0, 80, 14], confirm=answer.key)
        assert isinstance(results[-1], services.Saved) and confirmed.status_code in (302, 201)
    assert keys["page"] == keys["api"] == keys["queue"]


def test_a_round_whose_double_another_phone_saved_first_clashes_alike_and_shows_theirs(ann, results):
    zed = UserFactory(first_name="Zed")
    for door in DOORS:
        game = new_game(ann)
        Membership.objects.get_or_create(scorebook=game.scorebook, user=zed, defaults={"role": "scorer"})
        drawn = game.version  # the page was drawn; then Zed's phone saves 6-6
        players = [seat.player_id for seat in game.seats.order_by("position")]
        services.record_round(game=game, starting_double=6, by=zed, entries=[
            EntryInput(player=players[0], pips=3), EntryInput(player=players[1], pips=0, went_out=True),
            EntryInput(player=players[2], pips=8)])  # fmt: skip
        response = send(door, ann, game, 6, [0, 9, 14], version=drawn)
        answer = results[-1]
        assert isinstance(answer, services.Clash) and answer.theirs.number == 1 and answer.theirs.recorded_by == zed
        if door == "page":
            page = response.content.decode()
            assert response.status_code == 200 and "Zed's phone saved round 1 (6-6) a moment ago" in page
            assert "Replace round 1 with mine" in page
        else:
            assert response.status_code == 409
            assert response.json()["detail"] == "Zed's phone saved round 1 (6-6) first: this one was not saved."
            assert [entry["pips"] for entry in response.json()["round"]["entries"]] == [3, 0, 8]
        assert [e.pips for e in Round.objects.get(game=game).entries.order_by("position")] == [3, 0, 8]


def test_a_round_that_breaks_a_rule_is_invalid_alike_and_names_the_player(ann, results):
    for door in DOORS:
        game = new_game(ann)
        ben = game.seats.get(position=1).player_id
        response = send(door, ann, game, 6, [0, 400, 14])  # more pips than a double-6 set holds
        answer = results[-1]
        assert isinstance(answer, services.Invalid) and [e.player for e in answer.round_errors] == [ben]
        message = answer.round_errors[0].message
        assert message.startswith("Ben") and "400" in message
        if door == "page":
            rows = {row["seat"].player_id: row["problems"] for row in response.context["rows"]}
            assert response.status_code == 200 and rows[ben] == [message]
        else:
            assert response.status_code == 400 and response.json()["errors"][0]["message"] == message
            assert response.json()["errors"][0]["player"] == ben
        assert not Round.objects.filter(game=game).exists()


def test_going_out_with_the_pips_left_empty_is_0_pips_alike_at_every_door(ann, results):
    """One rule (rules.rounds check 10) for every door: the player who went out holds nothing, so
    pips left empty (no `pips` in the API's entry) are their 0; anyone else's are still asked for."""
    saved = {}
    for door in DOORS:
        game = new_game(ann)
        response = send(door, ann, game, 6, [None, 9, 14])
        assert response.status_code == (302 if door == "page" else 201), door
        assert isinstance(results[-1], services.Saved)
        saved[door] = [(e.pips, e.went_out, e.score) for e in Round.objects.get(game=game).entries.order_by("position")]
    assert saved["page"] == saved["api"] == saved["queue"] == [(0, True, 0), (9, False, 9), (14, False, 14)]
    # Anyone else's empty pips are asked for, at both doors: Ben's.
    game = new_game(ann)
    ann_, ben, cy = (seat.player_id for seat in game.seats.order_by("position"))
    page = ann["page"].post(f"/games/{game.pk}/rounds/new/", {"starting_double": 6, "version": game.version,
                            f"p{ann_}_went_out": "on", f"p{ben}_pips": "", f"p{cy}_pips": 14})  # fmt: skip
    entries = [{"player": ann_, "went_out": True}, {"player": ben}, {"player": cy, "pips": 14}]
    api = ann["api"].post(f"/api/v1/games/{game.pk}/rounds/", {"starting_double": 6, "entries": entries})
    assert [(e.code, e.player) for e in results[-2].round_errors] == [("pips_required", ben)]
    assert results[-1].round_errors == results[-2].round_errors
    assert page.status_code == 200 and api.status_code == 400 and api.json()["errors"][0]["code"] == "pips_required"
    assert not Round.objects.filter(game=game).exists()


@pytest.mark.parametrize("rounds", [1, 5])
def test_a_round_saved_from_the_page_costs_a_fixed_number_of_queries(ann, django_assert_num_queries, rounds):
    game = new_game(ann)
    for double in range(6, 6 - rounds, -1):
        send("page", ann, game, double, [0, 9, 14])
        game.refresh_from_db()
    ann_, ben, cy = (seat.player_id for seat in game.seats.order_by("position"))
    data = {"starting_double": 6 - rounds, "version": game.version, f"p{ann_}_pips": 4, f"p{ben}_pips": 0,
            f"p{ben}_went_out": "on", f"p{cy}_pips": 7}  # fmt: skip
    # 1 the session, 2 the user; 3 the game with the user's role (and its saved state: the doubles the
    # form offers), 4 seats + players (the form's rows); the round command: 5 lock the game (its saved
    # state holds every round's scores: no round or entry is read), 6 seats + players, 7 insert the
    # round, 8 its history row, 9 its entries (one insert), 10 the seats' figures (one UPDATE ... FROM
    # VALUES), 11 the game's new state and version; 2 savepoints. Then a redirect to the sheet.
    with django_assert_num_queries(11 + 2):
        response = ann["page"].post(f"/games/{game.pk}/rounds/new/", data)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"


@pytest.mark.parametrize("rounds", [1, 5])
def test_a_round_the_queue_sends_costs_a_fixed_number_of_queries(ann, django_assert_num_queries, rounds):
    game = new_game(ann)
    for double in range(6, 6 - rounds, -1):
        send("queue", ann, game, double, [0, 9, 14])
    players = [seat.player_id for seat in game.seats.order_by("position")]
    body = {
        "starting_double": 6 - rounds,
        "confirm": False,
        "entries": [{"player": p, "pips": v, "went_out": v == 0} for p, v in zip(players, [4, 0, 7], strict=True)],
    }
    headers = {"X-CSRFToken": ann["queue"].cookies["csrftoken"].value, "Idempotency-Key": "the-key"}  # fmt: skip
    # 1 the session, 2 the user; 3 claim the Idempotency-Key; 4 the game with the user's role; the
    # round command: 5 lock the game (with its saved state), 6 seats + players, 7 insert the round,
    # 8 its history row, 9 its entries, 10 the seats' figures, 11 the game's new state and version;
    # 12 store the answer with the key; 6 savepoints (the key's claim, its answer, the command).
    with django_assert_num_queries(12 + 6):
        response = ann["queue"].post(f"/api/v1/games/{game.pk}/rounds/", json.dumps(body),
                                     content_type="application/json", headers=headers)  # fmt: skip
    assert response.status_code == 201


def test_the_last_round_of_a_game_played_in_order_saves_with_no_question_at_every_door(ann, results):
    for door in DOORS:
        game = new_game(ann)
        players = [seat.player_id for seat in game.seats.order_by("position")]
        for double in range(6, 0, -1):
            services.record_round(game=game, starting_double=double, by=ann["user"], entries=[
                EntryInput(player=players[0], pips=0, went_out=True), EntryInput(player=players[1], pips=4),
                EntryInput(player=players[2], pips=6)])  # fmt: skip
        game.refresh_from_db()
        response = send(door, ann, game, 0, [0, 9, 14])  # 0-0, the normal end: asked nothing
        assert isinstance(results[-1], services.Saved), door
        assert response.status_code == (302 if door == "page" else 201), door
        game.refresh_from_db()
        assert game.is_finished and game.rounds.count() == 7


def test_a_0_0_round_that_ends_a_game_early_is_still_asked_about_at_every_door(ann, results):
    for door in DOORS:
        game = new_game(ann)
        players = [seat.player_id for seat in game.seats.order_by("position")]
        for double in (6, 5, 4, 3, 2):
            services.record_round(game=game, starting_double=double, by=ann["user"], entries=[
                EntryInput(player=players[0], pips=0, went_out=True), EntryInput(player=players[1], pips=4),
                EntryInput(player=players[2], pips=6)])  # fmt: skip
        game.refresh_from_db()
        response = send(door, ann, game, 0, [0, 9, 14])  # 0-0 after 2-2: 1-1 skipped, the game ends early
        answer = results[-1]
        assert isinstance(answer, services.NeedsConfirmation), door
        assert answer.surprises == ("This round ends the game.",)
        assert response.status_code in (200, 400) and game.rounds.count() == 5
