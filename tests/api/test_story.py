"""Ratings that tell a story through the API (docs/api.md, "Standings, leaderboards and ratings"): a finished game's rating moves,
the odds of a new table, and a player's nemesis, victim, streaks and best comeback, each worked out
by hand from the games played here."""

import pytest
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Game, Player, RatingStep, Scorebook, Season
from scorekeeper.rules.rating import START
from scorekeeper.services import scorebooks
from tests.factories import UserFactory
from tests.roles import make_club
from tests.seasons import at, finished_game
from tests.story import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    club = make_club()
    Game.objects.all().delete()  # the club's open game plays no part here
    Season.objects.all().delete()
    return club


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def game_of(client, game) -> dict:
    response = client.get(f"/api/v1/games/{game.pk}/")
    assert response.status_code == 200, response.content
    return response.json()


def stats_of(client, player, query="") -> dict:
    response = client.get(f"/api/v1/players/{player.pk}/stats/{query}")
    assert response.status_code == 200, response.content
    return response.json()


# A finished game's rating moves


def test_a_finished_game_carries_each_players_rating_before_and_after_it_from_the_saved_steps(club):
    ann, ben, cy, _dot = club.players
    owner, viewer = club.users["owner"], signed_in(club.users["viewer"])
    first = finished_game(club.book, owner, [ann, ben, cy], (3, 4), finished_at=at(2025, 1, 1))
    second = finished_game(club.book, owner, [cy, ben, ann], (3, 4), finished_at=at(2025, 1, 2))
    moves = game_of(viewer, first)["rating_changes"]
    # In standings order: Ann went out, Ben held 3, Cy 4. Everyone's first game starts from START.
    assert [move["player"] for move in moves] == [ann.pk, ben.pk, cy.pk]
    start = {"mu": START.mu, "sigma": START.sigma, "ordinal": pytest.approx(START.ordinal)}
    assert all(move["before"] == start for move in moves)
    assert moves[0]["after"]["mu"] > START.mu > moves[2]["after"]["mu"]
    step = RatingStep.objects.get(game=first, player=ann)
    assert moves[0]["after"] == {"mu": step.mu, "sigma": step.sigma, "ordinal": pytest.approx(step.ordinal)}
    # The second game starts where the first left each player, and ends where they are now.
    later = {move["player"]: move for move in game_of(viewer, second)["rating_changes"]}
    assert later[ann.pk]["before"] == moves[0]["after"]
    ann.refresh_from_db()
    assert later[ann.pk]["after"]["mu"] == ann.rating_mu and later[ann.pk]["after"]["sigma"] == ann.rating_sigma


def test_a_game_not_finished_or_not_rated_has_no_rating_moves_and_one_being_updated_has_null(club):
    ann, ben, cy, dot = club.players
    owner, scorer = club.users["owner"], signed_in(club.users["scorer"])
    going_on = play(club.book, owner, [ann, ben], [{ann: 0, ben: 5}], finish=False)
    assert game_of(scorer, going_on)["rating_changes"] == []
    # Cy leaves after the round: unranked, so not rated; Dot and Ann are.
    left = play(club.book, owner, [dot, ann, cy], [{dot: 0, ann: 5, cy: 2}], leaves=cy)
    assert [move["player"] for move in game_of(scorer, left)["rating_changes"]] == [dot.pk, ann.pk]
    # While a task replays the scorebook's ratings the moves are not known: null, not stale figures.
    Scorebook.objects.filter(pk=club.book.pk).update(ratings_pending_at=at(2025, 1, 1), ratings_pending_game=left.pk)
    Game.objects.filter(pk=left.pk).update(version=left.version + 5)  # a version no answer was kept for
    assert game_of(scorer, left)["rating_changes"] is None


def test_a_replay_of_an_older_game_moves_the_later_games_versions_so_their_answers_show_the_new_moves(club):
    ann, ben, cy, _dot = club.players
    owner, viewer = club.users["owner"], signed_in(club.users["viewer"])
    older = finished_game(club.book, owner, [ann, ben, cy], (3, 4), finished_at=at(2025, 1, 1))
    later = finished_game(club.book, owner, [ben, ann, cy], (3, 4), finished_at=at(2025, 1, 2))
    seen = viewer.get(f"/api/v1/games/{later.pk}/")
    services.delete_game(game=Game.objects.get(pk=older.pk), by=owner)  # to the trash: no longer rated
    again = viewer.get(f"/api/v1/games/{later.pk}/", headers={"If-None-Match": seen["ETag"]})
    assert again.status_code == 200 and again["ETag"] != seen["ETag"]
    ann_before = {m["player"]: m for m in again.json()["rating_changes"]}[ann.pk]["before"]
    assert ann_before["mu"] == START.mu  # the trashed game no longer leads into this one


def test_a_finished_games_read_costs_one_query_more_than_an_open_ones(club, django_assert_num_queries):
    ann, ben, cy, _dot = club.players
    game = finished_game(club.book, club.users["owner"], [ann, ben, cy], (3, 4))
    viewer = signed_in(club.users["viewer"])
    viewer.get("/api/v1/me/")  # the session read once
    # 1 the session, 2 its user with the game's version, 3 the game (whether its scorebook's
    # ratings are being updated read with it), 4 seats + players, 5 rounds, 6 entries, 7 its rating
    # steps (the moves)
    with django_assert_num_queries(7):
        assert len(viewer.get(f"/api/v1/games/{game.pk}/").json()["rating_changes"]) == 3


# The odds of a new table


def odds(client, book, players) -> object:
    ids = ",".join(str(p if isinstance(p, int) else p.pk) for p in players)
    return client.get(f"/api/v1/odds/?players={ids}&scorebook={book.pk}")


def test_the_odds_add_up_to_one_and_follow_the_ratings_in_the_order_asked(club):
    ann, ben, cy, dot = club.players
    owner = club.users["owner"]
    for day in (1, 2, 3):  # Ann first every time, Cy last: Dot has not played (the starting rating)
        finished_game(club.book, owner, [ann, ben, cy], (3, 4), finished_at=at(2025, 1, day))
    response = odds(signed_in(club.users["viewer"]), club.book, [cy, dot, ann, ben])
    assert response.status_code == 200, response.content
    rows = response.json()["players"]
    assert [(row["player"], row["name"]) for row in rows] == [(cy.pk, "Cy"), (dot.pk, "Dot"), (ann.pk, "Ann"),
                                                              (ben.pk, "Ben")]  # fmt: skip
    chance = {row["name"]: row["win_chance"] for row in rows}
    assert sum(chance.values()) == pytest.approx(1.0)
    assert chance["Ann"] > chance["Ben"] > chance["Cy"] and chance["Ann"] > chance["Dot"] > chance["Cy"]
    even = odds(signed_in(club.users["viewer"]), club.book, [dot, Player.objects.create(scorebook=club.book,
                                                                                          name="Eve")]).json()  # fmt: skip
    assert [row["win_chance"] for row in even["players"]] == [pytest.approx(0.5), pytest.approx(0.5)]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("players={ann}&scorebook={book}", "players"),  # fewer than two
        ("players={ann},{ann}&scorebook={book}", "players"),  # one player twice
        ("players={ann},x&scorebook={book}", "players"),
        ("players={ann},999999&scorebook={book}", "players"),  # no such player
        ("players={ann},{foreign}&scorebook={book}", "players"),  # another scorebook's
        ("players={ann},{ben}", "scorebook"),  # no scorebook
        ("players={ann},{ben}&scorebook=999999", "scorebook"),
        ("players={ann},{ben}&scorebook={other}", "scorebook"),  # a scorebook of someone else's
        ("scorebook={book}", "players"),
    ],
)
def test_bad_odds_questions_are_a_400_naming_the_field(club, query, field):
    ann, ben, _cy, _dot = club.players
    stranger = club.users["stranger"]
    other = scorebooks.create(by=stranger, name="Theirs")
    foreign = Player.objects.create(scorebook=other, name="Zed")
    url = "/api/v1/odds/?" + query.format(ann=ann.pk, ben=ben.pk, foreign=foreign.pk, other=other.pk, book=club.book.pk)
    response = signed_in(club.users["scorer"]).get(url)
    assert response.status_code == 400, response.content
    assert list(response.json()) == [field]


def test_an_outsider_learns_nothing_from_the_odds(club):
    ann, ben, _cy, _dot = club.players
    stranger = signed_in(club.users["stranger"])
    theirs = odds(stranger, club.book, [ann, ben])
    made_up = stranger.get(f"/api/v1/odds/?players={ann.pk},{ben.pk}&scorebook=999999")
    assert theirs.status_code == made_up.status_code == 400
    assert theirs.json() == made_up.json()  # the same words for a scorebook that is not there
    assert Client().get(f"/api/v1/odds/?players={ann.pk},{ben.pk}&scorebook={club.book.pk}").status_code in (401, 403)


def test_the_odds_cost_four_queries(club, django_assert_num_queries):
    ann, ben, cy, _dot = club.players
    viewer = signed_in(club.users["viewer"])
    viewer.get("/api/v1/me/")
    # 1 the session, 2 its user, 3 the scorebook among the user's, 4 the players with their ratings
    with django_assert_num_queries(4):
        assert odds(viewer, club.book, [ann, ben, cy]).status_code == 200


# Nemesis and victim


def test_the_nemesis_and_victim_are_the_opponents_most_often_ahead_and_behind_in_three_games_or_more(club):
    ann, ben, cy, dot = club.players
    owner = club.users["owner"]
    # Seat order, then the pips of all but the first (who goes out): equal pips share a rank.
    finished_game(club.book, owner, [ben, ann, cy], (3, 5))  # Ben, Ann, Cy
    finished_game(club.book, owner, [ben, ann, cy], (3, 5))  # Ben, Ann, Cy
    finished_game(club.book, owner, [ann, ben, cy], (3, 5))  # Ann, Ben, Cy
    finished_game(club.book, owner, [cy, ann, ben], (4, 4))  # Cy, then Ann and Ben level
    finished_game(club.book, owner, [dot, ann], (5,))  # Dot ahead of Ann, twice: too few games together
    finished_game(club.book, owner, [dot, ann], (5,))
    # Ann left this one: she was not ranked, so it is no game together for her and Ben or Dot.
    finished_game(club.book, owner, [ben, dot, ann], (3, 5), leaves=ann)
    viewer = signed_in(club.users["viewer"])
    figures = stats_of(viewer, ann)
    # Ben and Ann: 4 games ranked together, Ben ahead twice, Ann once, once level.
    assert figures["nemesis"] == {"player": ben.pk, "name": "Ben", "games": 4, "behind": 2}
    # Cy: 4 games, Cy behind Ann three times (ahead once).
    assert figures["victim"] == {"player": cy.pk, "name": "Cy", "games": 4, "behind": 3}
    # Cy finished behind Ann and Ben three times each in 4 games: equal counts and shares, so the
    # player of the scorebook longer (the lower id), Ann.
    assert stats_of(viewer, cy)["nemesis"] == {"player": ann.pk, "name": "Ann", "games": 4, "behind": 3}
    # Dot met Ann only twice as ranked players and Ben once: neither.
    assert stats_of(viewer, dot)["nemesis"] is None and stats_of(viewer, dot)["victim"] is None


# Streaks


def test_streaks_count_wins_in_a_row_in_finishing_order_a_shared_win_counts_and_a_game_left_does_not(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    won = [ann, ben, cy]
    lost = [ben, ann, cy]

    def game(day, players=None, rounds=None, **options):
        if rounds is not None:
            return play(club.book, owner, players, rounds, finished_at=at(2025, 3, day), **options)
        return finished_game(club.book, owner, players, (3, 5), finished_at=at(2025, 3, day), **options)

    # Finished out of the order they were made in: the streaks follow the finishing order.
    game(4, lost)  # L
    game(1, won)  # W
    game(2, won)  # W
    game(3, won)  # W: three in a row, then the L of day 4
    game(5, won)  # W
    game(6, lost, leaves=ann)  # Ann left: not ranked, neither a win nor a loss for her
    # A shared win: Ann and Ben both end on 5.
    game(7, [ann, ben, cy], [{ann: 0, ben: 5, cy: 3}, {ben: 0, ann: 5, cy: 3}])
    game(8, won)  # W
    figures = stats_of(signed_in(club.users["viewer"]), ann)
    assert figures["streak"] == {"current": 3, "longest": 3}
    game(9, lost)
    game(10, won)
    assert stats_of(signed_in(club.users["viewer"]), ann)["streak"] == {"current": 1, "longest": 3}
    assert stats_of(signed_in(club.users["viewer"]), club.players[3])["streak"] == {"current": 0, "longest": 0}


def test_streaks_follow_the_stats_filters(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    for day in (1, 2):
        finished_game(club.book, owner, [ann, ben, cy], (3, 5), finished_at=at(2025, 3, day))
    viewer = signed_in(club.users["viewer"])
    assert stats_of(viewer, ann, "?tile_set=6")["streak"] == {"current": 2, "longest": 2}
    assert stats_of(viewer, ann, "?tile_set=9")["streak"] == {"current": 0, "longest": 0}
    assert stats_of(viewer, ann, "?period=month")["streak"] == {"current": 0, "longest": 0}  # long ago


# Comebacks


def test_the_best_comeback_is_the_win_from_furthest_behind_the_leader_after_a_round(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    # Totals after each round: Ann 12, Ben 0, Cy 3 (Ann 12 behind); Ann 12, Ben 10, Cy 5 (7 behind);
    # Ann 12, Ben 18, Cy 14: Ann wins from 12 behind after round 1.
    comeback = play(club.book, owner, [ann, ben, cy], [{ben: 0, ann: 12, cy: 3}, {ann: 0, ben: 10, cy: 2},
                                                       {ann: 0, ben: 8, cy: 9}])  # fmt: skip
    # A bigger deficit in a game she lost is no comeback: Ann 20 behind after round 1, Ben wins.
    play(club.book, owner, [ann, ben], [{ben: 0, ann: 20}, {ann: 0, ben: 1}])
    viewer = signed_in(club.users["viewer"])
    assert stats_of(viewer, ann)["comeback"] == {"game": comeback.pk, "behind": 12, "after_round": 1}
    assert stats_of(viewer, ben)["comeback"] is None  # his win was from the front
    assert stats_of(viewer, cy)["comeback"] is None  # no win


def test_equal_comebacks_go_to_the_later_round_then_the_later_game(club):
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    # Totals: Ann 5, Ben 0, Cy 2 (Ann 5 behind); Ann 7, Ben 8, Cy 2 (5 behind again); Ann 7, Ben 18,
    # Cy 12: Ann wins, 5 behind at worst, after round 2 (the later of the two: fewer rounds were left).
    late = play(club.book, owner, [ann, ben, cy], [{ben: 0, ann: 5, cy: 2}, {cy: 0, ann: 2, ben: 8},
                                                   {ann: 0, ben: 10, cy: 10}], finished_at=at(2025, 1, 1))  # fmt: skip
    assert late.seats.get(player=ann).deficit_after == 2
    assert stats_of(signed_in(club.users["viewer"]), ann)["comeback"] == {
        "game": late.pk,
        "behind": 5,
        "after_round": 2,
    }
    # Two wins from 10 behind after round 1 beat it: the later game of the two.
    play(club.book, owner, [ann, ben], [{ben: 0, ann: 10}, {ann: 0, ben: 20}], finished_at=at(2025, 1, 2))
    latest = play(club.book, owner, [ann, ben], [{ben: 0, ann: 10}, {ann: 0, ben: 20}], finished_at=at(2025, 1, 3))
    assert stats_of(signed_in(club.users["viewer"]), ann)["comeback"] == {
        "game": latest.pk, "behind": 10, "after_round": 1
    }  # fmt: skip


def test_an_outsider_cannot_read_a_players_story(club):
    response = signed_in(UserFactory()).get(f"/api/v1/players/{club.players[0].pk}/stats/")
    assert response.status_code == 404
