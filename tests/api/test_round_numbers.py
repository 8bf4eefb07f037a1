"""A round says which round it is (API.md, "A round says which round it is"): `POST .../rounds/`
takes `number` (the round the client means) and `If-Match` (the game's ETag it was entered from),
both optional. A number recorded already is a 409 `round_taken` with the round that holds it; a
game changed since the ETag is a 412; a number beyond the next is a 400 naming `number`; nothing
is saved then. Two phones sending round 3 at once save one round, never two."""

import pytest
from django.test import Client

from scorekeeper.models import Round
from tests.api.conftest import app_for, round_body, start_game
from tests.races import at_once


def rounds_url(game) -> str:
    return f"/api/v1/games/{game['id']}/rounds/"


def etag_of(app, game) -> str:
    return app.get(f"/api/v1/games/{game['id']}/")["ETag"]


def two_rounds_in(app):
    """A double-six game of three with rounds 1 (6-6) and 2 (5-5) recorded: round 3 is next."""
    game = start_game(app)
    for double in (6, 5):
        assert app.post(rounds_url(game), round_body(game, double, 3, 4)).status_code == 201
    return game


def numbers(game) -> list[tuple[int, int]]:
    return list(Round.objects.filter(game_id=game["id"]).order_by("number").values_list("number", "starting_double"))


def test_the_next_number_with_the_current_etag_is_saved_as_that_round(app):
    game = two_rounds_in(app)
    response = app.post(rounds_url(game), round_body(game, 4, 2, 9, number=3), headers={"If-Match": etag_of(app, game)})
    assert response.status_code == 201, response.content
    assert response.json()["number"] == 3 and numbers(game) == [(1, 6), (2, 5), (3, 4)]


def test_a_round_without_number_or_if_match_is_saved_as_the_next_one_as_before(app):
    game = two_rounds_in(app)
    response = app.post(rounds_url(game), round_body(game, 3, 2, 9))
    assert response.status_code == 201 and response.json()["number"] == 3


def test_a_number_recorded_already_is_a_409_round_taken_with_that_round_and_nothing_saved(app):
    game = two_rounds_in(app)
    etag = etag_of(app, game)
    assert (
        app.post(rounds_url(game), round_body(game, 4, 10, 10, number=3), headers={"If-Match": etag}).status_code == 201
    )
    # The other phone's round 3, entered from the same version, starting with 3-3 (4-4 skipped).
    response = app.post(rounds_url(game), round_body(game, 3, 9, 9, number=3), headers={"If-Match": etag})
    assert response.status_code == 409, response.content
    body = response.json()
    assert body["code"] == "round_taken"
    assert body["round"]["number"] == 3 and body["round"]["starting_double"] == 4
    assert [entry["pips"] for entry in body["round"]["entries"]] == [0, 10, 10]
    assert "saved round 3 (4-4) first: this one was not saved." in body["detail"]
    assert numbers(game) == [(1, 6), (2, 5), (3, 4)]


def test_a_number_recorded_already_is_a_409_without_if_match_too(app):
    game = two_rounds_in(app)
    response = app.post(rounds_url(game), round_body(game, 4, 9, 9, number=2))
    assert response.status_code == 409 and response.json()["code"] == "round_taken"
    assert response.json()["round"]["number"] == 2 and len(numbers(game)) == 2


def test_an_etag_the_game_has_moved_on_from_is_a_412_and_nothing_saved(app):
    game = two_rounds_in(app)
    etag = etag_of(app, game)
    assert app.patch(f"/api/v1/games/{game['id']}/", {"name": "Renamed"}).status_code == 200
    response = app.post(rounds_url(game), round_body(game, 4, 2, 9, number=3), headers={"If-Match": etag})
    assert response.status_code == 412 and response.json()["code"] == "precondition_failed"
    assert len(numbers(game)) == 2


@pytest.mark.parametrize(
    "header",
    ["", "garbage", '"game-1-v1"', 'W/"game-{id}-round-2-v{version}"', '"game-{id}-v{version}0"', '"game-{id}-v٣"'],
    ids=["empty", "not-an-etag", "another-game", "a-rounds-etag", "another-version", "other-digits"],
)
def test_an_empty_malformed_or_foreign_if_match_is_a_412_and_nothing_saved(app, header):
    game = two_rounds_in(app)
    version = etag_of(app, game).strip('"').rsplit("-v", 1)[1]
    sent = header.replace("{id}", str(game["id"])).replace("{version}", version)
    response = app.post(rounds_url(game), round_body(game, 4, 2, 9, number=3), headers={"If-Match": sent})
    assert response.status_code == 412, (sent, response.content)
    assert len(numbers(game)) == 2


def test_if_match_star_matches_whatever_the_game_is_now(app):
    game = two_rounds_in(app)
    response = app.post(rounds_url(game), round_body(game, 4, 2, 9, number=3), headers={"If-Match": "*"})
    assert response.status_code == 201


def test_a_number_beyond_the_next_is_a_400_naming_number_and_nothing_saved(app):
    game = two_rounds_in(app)
    response = app.post(rounds_url(game), round_body(game, 4, 2, 9, number=4), headers={"If-Match": etag_of(app, game)})
    assert response.status_code == 400, response.content
    body = response.json()
    message = "Round 4 cannot be recorded yet: the next round of this game is round 3."
    assert body["number"] == [message] and body["detail"] == message
    assert [(error["field"], error["rule"]) for error in body["errors"]] == [("number", None)]
    assert len(numbers(game)) == 2


@pytest.mark.parametrize("number", [0, -3, "three", True, 2.5, None, [3], 2**31])
def test_a_number_that_is_not_a_round_number_is_a_400_naming_number(app, number):
    game = two_rounds_in(app)
    response = app.post(rounds_url(game), round_body(game, 4, 2, 9, number=number))
    assert response.status_code == 400, response.content
    assert "number" in response.json() and any(error["field"] == "number" for error in response.json()["errors"])
    assert len(numbers(game)) == 2


def test_a_retry_with_the_same_key_replays_the_first_answer_even_once_the_number_is_taken(app):
    game = two_rounds_in(app)
    body, headers = round_body(game, 4, 2, 9, number=3), {"If-Match": etag_of(app, game), "Idempotency-Key": "r3"}
    first = app.post(rounds_url(game), body, headers=headers)
    again = app.post(rounds_url(game), body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert numbers(game) == [(1, 6), (2, 5), (3, 4)]


def test_a_refused_round_retried_with_its_key_is_refused_again_the_same_way(app):
    game = two_rounds_in(app)
    body, headers = round_body(game, 4, 2, 9, number=2), {"Idempotency-Key": "late"}
    first = app.post(rounds_url(game), body, headers=headers)
    again = app.post(rounds_url(game), body, headers=headers)
    assert first.status_code == again.status_code == 409 and again.json() == first.json()
    assert len(numbers(game)) == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_phones_sending_round_3_at_once_save_one_round_and_the_other_is_told(postgres_only, attempt):
    """The attack's N4: round 3 as 4-4 from one phone and as 3-3 (4-4 skipped) from another, each
    entered from the same version: one is saved as round 3, the other 409 or 412, never a round 4."""
    app = app_for(f"numbers{attempt}@example.com")
    game = two_rounds_in(app)
    etag = etag_of(app, game)
    bodies = [round_body(game, 4, 10, 10, number=3), round_body(game, 3, 9, 9, number=3)]
    headers = {"X-Session-Token": app.headers["X-Session-Token"], "If-Match": etag}

    def post():
        body = bodies.pop()
        return Client().post(rounds_url(game), body, content_type="application/json", headers=headers).status_code

    statuses = sorted(at_once(2, post))
    assert statuses[0] == 201 and statuses[1] in (409, 412), statuses
    assert [number for number, _double in numbers(game)] == [1, 2, 3]
