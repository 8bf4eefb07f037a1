"""The rating the leaderboard ranks by, worked out in one place."""

import pytest

from scorekeeper.rules.rating import START, Rating, Standing, better_than, ordinal, rate_game, replay, standings


def test_the_ordinal_is_the_skill_less_three_times_the_doubt_and_starts_at_zero():
    assert ordinal(30.0, 2.0) == 24.0
    assert START.ordinal == pytest.approx(0.0)
    assert Rating(30.0, 2.0).ordinal == ordinal(30.0, 2.0)


def test_a_first_win_raises_the_winners_ordinal_above_the_losers():
    after = rate_game({}, {1: 1, 2: 2})
    assert after[1].ordinal > START.ordinal and after[1].ordinal > after[2].ordinal


# Ratings in words, relative to the others at the table.


def play(n_games: int, order: list[str], start: dict | None = None) -> dict:
    """Ratings after `n_games` games finished in the same order (the first name wins each)."""
    ranks = {name: place for place, name in enumerate(order, start=1)}
    return replay([ranks] * n_games, start)[-1]


def test_a_player_with_fewer_than_three_games_is_new_whatever_they_won():
    rated = play(2, ["Ana", "Ben", "Cy", "Dot"])
    table = {name: (rating, 2) for name, rating in rated.items()} | {"Eve": (START, 0)}
    assert set(standings(table).values()) == {Standing.NEW}


def test_the_player_who_keeps_winning_is_likely_top_and_the_one_who_keeps_losing_is_behind():
    rated = play(10, ["Ana", "Ben", "Cy", "Dot"])
    words = standings({name: (rating, 10) for name, rating in rated.items()})
    assert words["Ana"] == Standing.TOP and words["Dot"] == Standing.LOW
    assert words["Ben"] in (Standing.HIGH, Standing.LEVEL) and words["Cy"] in (Standing.LEVEL, Standing.LOW)


def test_no_one_is_top_when_two_players_share_the_wins():
    rated = play(5, ["Ben", "Ana", "Cy"], start=play(5, ["Ana", "Ben", "Cy"]))
    words = standings({name: (rating, 10) for name, rating in rated.items()})
    assert Standing.TOP not in words.values()
    assert words["Cy"] == Standing.LOW


def test_a_player_level_with_everyone_reads_level_and_one_alone_has_no_one_to_be_above():
    even = Rating(25.0, 6.0)
    assert set(standings({"Ana": (even, 5), "Ben": (even, 5)}).values()) == {Standing.LEVEL}
    assert standings({"Ana": (Rating(40.0, 5.0), 5), "Ben": (START, 0)}) == {"Ana": Standing.LEVEL, "Ben": Standing.NEW}


def test_a_newcomer_counts_once_they_have_played_but_a_player_without_games_does_not():
    strong, fresh = Rating(45.0, 7.0), Rating(24.0, 8.2)
    assert standings({"Ana": (strong, 8), "Ben": (fresh, 1)})["Ana"] == Standing.TOP
    assert standings({"Ana": (strong, 8), "Ben": (fresh, 1), "Cy": (Rating(60.0, 8.3), 0)})["Ana"] == Standing.TOP


def test_the_chance_of_being_better_is_symmetric_and_a_half_between_equals():
    a, b = Rating(30.0, 5.0), Rating(25.0, 4.0)
    assert better_than(a, b) + better_than(b, a) == pytest.approx(1.0)
    assert better_than(a, a) == pytest.approx(0.5) and better_than(a, b) > 0.5
    assert better_than(Rating(25.0, 0.0), Rating(25.0, 0.0)) == 0.5
