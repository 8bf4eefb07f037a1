import pytest

from tests.api.conftest import make_players, round_body

pytestmark = pytest.mark.django_db


def play(app, ids, rounds, tile_set=6, **rules):
    """A full double-6 game; `rounds` is a list of (went_out seat, pips of the others)."""
    game = app.post("/api/v1/games/", {"players": ids, "tile_set": tile_set, "rules": rules}).json()
    for double, (out, pips) in zip(range(tile_set, -1, -1), rounds, strict=False):
        response = app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, double, *pips, went_out=out))
        assert response.status_code == 201, response.json()
    return game


def test_the_leaderboard_counts_finished_games_only_and_orders_by_wins(app):
    ann, ben = make_players(app, "Ann", "Ben")
    play(app, [ann, ben], [(0, [5])] * 7)  # Ann wins 0 to 35
    play(app, [ann, ben], [(1, [4])] * 7)  # Ben wins 0 to 28
    play(app, [ann, ben], [(1, [3])] * 7)  # Ben wins 0 to 21
    play(app, [ann, ben], [(0, [9])] * 3)  # unfinished: not counted
    rows = app.get("/api/v1/leaderboard/").json()["results"]
    assert [r["player"]["name"] for r in rows] == ["Ben", "Ann"]
    ben_row, ann_row = rows
    assert (ben_row["games"], ben_row["wins"], ben_row["rounds"], ben_row["went_out"]) == (3, 2, 21, 14)
    assert ben_row["win_rate"] == pytest.approx(2 / 3) and ben_row["average_total"] == pytest.approx(35 / 3)
    assert (ann_row["wins"], ann_row["average_total"]) == (1, pytest.approx(49 / 3))


def test_the_leaderboard_counts_penalties(app):
    ann, ben = make_players(app, "Ann", "Ben")
    game = app.post("/api/v1/games/", {"players": [ann, ben], "tile_set": 6}).json()
    url = f"/api/v1/games/{game['id']}/rounds/"
    for double in range(6, -1, -1):
        body = round_body(game, double, 5)
        body["entries"][0]["ended_on_double"] = double == 6
        body["entries"][1]["double_blank"] = double in (6, 5)
        assert app.post(url, body).status_code == 201
    rows = {r["player"]["name"]: r for r in app.get("/api/v1/leaderboard/").json()["results"]}
    assert rows["Ann"]["end_on_double_penalties"] == 1 and rows["Ben"]["double_blank_penalties"] == 2


def test_the_leaderboard_filters_by_tile_set_and_lists_players_without_games(app):
    ann, ben = make_players(app, "Ann", "Ben")
    make_players(app, "Cy")
    play(app, [ann, ben], [(0, [5])] * 7)
    rows = app.get("/api/v1/leaderboard/?tile_set=12").json()["results"]
    assert {r["player"]["name"]: r["games"] for r in rows} == {"Ann": 0, "Ben": 0, "Cy": 0}
    assert app.get("/api/v1/leaderboard/?tile_set=7").status_code == 400
    assert app.get("/api/v1/leaderboard/?period=decade").status_code == 400


def test_player_stats_give_the_leaderboard_figures_and_more(app):
    ann, ben = make_players(app, "Ann", "Ben")
    play(app, [ann, ben], [(0, [5])] * 7)
    play(app, [ann, ben], [(1, [4])] * 7)
    stats = app.get(f"/api/v1/players/{ben}/stats/").json()
    assert (stats["games"], stats["wins"], stats["best_total"], stats["worst_total"]) == (2, 1, 0, 35)
    assert stats["average_round_score"] == pytest.approx(35 / 14)
    assert stats["went_out_rate"] == pytest.approx(0.5)
    by_double = {row["starting_double"]: row for row in stats["by_starting_double"]}
    assert set(by_double) == set(range(7)) and by_double[6]["rounds"] == 2
    assert by_double[6]["average_pips"] == pytest.approx(2.5)
