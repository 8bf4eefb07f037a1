"""Game detail and game list cost the same number of queries however big the games are."""

import pytest
from django.core.cache import cache

from tests.api.conftest import app_for, make_players, round_body

pytestmark = pytest.mark.django_db


def build(app, players, rounds, games=1):
    # Another scorebook of the user's with a game, and a stranger's: scoping must not cost queries.
    for api in (app, app_for(f"stranger{players}{rounds}{games}@example.com")):
        club = api.post("/api/v1/scorebooks/", {"name": "Club"}).json()["id"]
        ids = [api.post("/api/v1/players/", {"name": n, "scorebook": club}).json()["id"] for n in ("X", "Y")]
        api.post("/api/v1/games/", {"players": ids, "scorebook": club})
    ids = make_players(app, *(f"P{i}" for i in range(players)))
    made = []
    for _ in range(games):
        game = app.post("/api/v1/games/", {"players": ids, "tile_set": 12}).json()
        for double in range(12, 12 - rounds, -1):
            body = round_body(game, double, *range(3, 2 + players))  # distinct hands a deal can give
            assert app.post(f"/api/v1/games/{game['id']}/rounds/", body).status_code == 201
        made.append(game)
    return made


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (8, 10)])
def test_game_detail_runs_a_fixed_number_of_queries(app, django_assert_num_queries, players, rounds):
    (game,) = build(app, players, rounds)
    cache.clear()  # the game's answer is built, not read from the cache
    # 1 the token's session, 2 its user with the game's version, 3 game (with whether its scorebook's
    # ratings are being updated), 4 seats + players, 5 rounds, 6 entries. A game going on has no rating
    # moves to read; a finished one reads its rating steps, one query more (tests/api/test_story.py).
    with django_assert_num_queries(6):
        response = app.get(f"/api/v1/games/{game['id']}/")
    assert len(response.json()["rounds"]) == rounds and response.json()["rating_changes"] == []
    # Again at the same version: the answer every member shares comes from the cache. 1 the
    # token's session (none with sessions in Redis), 2 its user with the game's version
    with django_assert_num_queries(2):
        again = app.get(f"/api/v1/games/{game['id']}/")
    assert again.json() == response.json() and again["ETag"] == response["ETag"]


@pytest.mark.parametrize(("players", "games"), [(2, 1), (6, 5)])
def test_game_list_runs_a_fixed_number_of_queries(app, django_assert_num_queries, players, games):
    build(app, players, 3, games)
    # 1 the token's session (one read: accounts.tokens), 2 user, 3 count, 4 page of games with last
    # position, 5 seats + players
    with django_assert_num_queries(5):
        response = app.get("/api/v1/games/")
    assert response.json()["count"] == games + 1  # and the club's game
    personal = app.get("/api/v1/scorebooks/").json()["results"][0]["id"]
    # 1 the token's session, 2 user, 3 the scorebook (membership checked), 4 count, 5 page, 6 seats + players
    with django_assert_num_queries(6):
        response = app.get(f"/api/v1/games/?scorebook={personal}")
    assert response.json()["count"] == games


def tile_body(game, starting_double):
    """Seat 0 went out; the others list their tiles (none of them the starting double)."""
    hands = [["1-2", "3-4"], ["5-6", "0-1", "4-4"], ["4-5", "6-6"], ["0-3"], ["1-5", "2-6"], ["0-6"], ["3-5"]]
    entries = [{"player": game["players"][0]["id"], "pips": 0, "went_out": True}]
    entries += [{"player": seat["id"], "tiles": hand} for seat, hand in zip(game["players"][1:], hands, strict=False)]
    return {"starting_double": starting_double, "entries": entries}


@pytest.mark.parametrize(("players", "rounds"), [(4, 1), (8, 9)])
def test_recording_correcting_and_undoing_a_round_cost_a_fixed_number_of_queries(
    app, django_assert_num_queries, players, rounds
):
    (game,) = build(app, players, rounds)
    url = f"/api/v1/games/{game['id']}/rounds/"
    next_double = 12 - rounds
    # 1-2 the token's session (one read: accounts.tokens) and user; 3 claim the Idempotency-Key
    # (insert); 4 the game with the user's role; 5 lock the game (its saved state comes with it: the
    # last round's place and every round's scores, so no round or entry is read); 6 seats + players;
    # 7 insert the round, 8 its history row, 9 its entries (one insert); 10 the seats' figures (one
    # UPDATE ... FROM VALUES); 11 the game's new state and version; 12 store the answer with the key.
    # The rest are savepoints (2 per transaction: idempotency, the round command).
    with django_assert_num_queries(12 + 6):
        response = app.post(
            url, round_body(game, next_double, *range(3, 2 + players)), headers={"Idempotency-Key": "a"}
        )
    assert response.status_code == 201 and len(response.json()["entries"]) == players
    with django_assert_num_queries(12 + 6):  # by tile lists: the same queries
        response = app.post(url, tile_body(game, next_double - 1), headers={"Idempotency-Key": "b"})
    assert response.status_code == 201 and response.json()["entries"][2]["tiles_left"] == 3
    number = rounds + 2
    # 1-2 token and user; 3 the game with the role; 4 the round's id; 5 lock the game (with its saved
    # state); 6 seats + players; 7 the round again, under the lock, and who recorded it; 8 delete its
    # entries; 9 insert the new ones; 10 the round; 11 its history row; 12 seats; 13 the game's new
    # state and version; 2 savepoints.
    with django_assert_num_queries(13 + 2):
        response = app.put(f"{url}{number}/", round_body(game, next_double - 1, *range(4, 3 + players)))
    assert response.status_code == 200 and response.json()["corrected_by"]["email"] == "ann@example.com"
    # 1-2 token and user; 3 game with role; 4 the round; 5 lock the game (with its saved state);
    # 6 the last round, 7 its entries (kept for restore); 8 seats + players; 9 delete its entries,
    # 10 the round; 11 its history row; 12 seats; 13 the game's new state, version and the round kept
    # for restore; 2 savepoints.
    with django_assert_num_queries(13 + 2):
        assert app.delete(f"{url}{number}/").status_code == 204


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (8, 10)])
def test_a_seat_change_and_its_undoing_cost_a_fixed_number_of_queries(app, django_assert_num_queries, players, rounds):
    (game,) = build(app, players, rounds)
    (late,) = make_players(app, "Late")
    url = f"/api/v1/games/{game['id']}/seats/"
    app.post(url, {"player": late})  # the first join makes the newcomer's record row: later ones find it
    assert app.delete(f"{url}changes/last/").status_code == 200
    # 1-2 the token's session and user; 3 claim the Idempotency-Key; 4 the game with the user's
    # role; 5 lock the game (with its saved state: rounds and seat changes, none read); 6 seats +
    # players; 7 the newcomer, with whether they have a record of this set; 8 insert the change,
    # 9 its history row; 10 insert the newcomer's seat with its figures (the others' figures did not
    # move: no UPDATE); 11 the game's new state and version; 12 the answer's rounds with their entries
    # (one query, who recorded them is the writer); 13 store the answer with the key. The rest are
    # savepoints (2 per transaction: the key's claim, the request, the seat command), as for a round.
    with django_assert_num_queries(13 + 6):
        response = app.post(url, {"player": late}, headers={"Idempotency-Key": "join"})
    assert response.status_code == 201 and len(response.json()["rounds"]) == rounds
    assert response.json()["rounds"][-1]["entries"][0]["player"] == game["players"][0]["id"]
    # 1-2 token and user; 3 the game with the role; 4 lock the game; 5 the last seat change; 6 seats
    # + players; 7 delete the change, 8 its history row; 9 the newcomer's seat; 10 the game's new
    # state and version (no seat's figures moved); 11 the answer's rounds with their entries; 2 savepoints.
    with django_assert_num_queries(11 + 2):
        response = app.delete(f"{url}changes/last/")
    assert response.status_code == 200 and len(response.json()["players"]) == players
