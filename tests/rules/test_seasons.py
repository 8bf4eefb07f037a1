"""Place points and a season's table (docs/architecture.md, "Seasons"), worked out by hand."""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.places import place_points
from scorekeeper.rules.seasons import SeasonRow, champions, counted_from_tally, counted_points, season_table


def points(ranks):
    """Place points as the season's table shows them (one decimal), from tenths."""
    return [None if tenths is None else tenths / 10 for tenths in place_points(ranks)]


# ranks in seat order -> place points, worked out by hand from 10 x (behind + level / 2) / (n - 1).
HAND_WORKED = [
    ([1, 2], [10.0, 0.0]),
    ([1, 1], [5.0, 5.0]),
    ([2, 1, 3], [5.0, 10.0, 0.0]),
    ([1, 1, 3], [7.5, 7.5, 0.0]),  # each: 1 behind + half of 1 level = 1.5 of 2
    ([1, 2, 2], [10.0, 2.5, 2.5]),
    ([1, 1, 1], [5.0, 5.0, 5.0]),
    ([1, 2, 3, 4], [10.0, 6.7, 3.3, 0.0]),  # 2/3 of 10 is 6.67, 1/3 is 3.33
    ([1, 2, 2, 4], [10.0, 5.0, 5.0, 0.0]),  # 1 behind + half of 1 level = 1.5 of 3
    ([1, 1, 1, 4], [6.7, 6.7, 6.7, 0.0]),  # 1 behind + 2 level / 2 = 2 of 3
    ([3, 1, 5, 2, 4], [5.0, 10.0, 0.0, 7.5, 2.5]),
    ([1, 2, 2, 2, 5], [10.0, 5.0, 5.0, 5.0, 0.0]),  # 1 behind + 1 = 2 of 4
    ([1, 2, 3, 4, 5, 6], [10.0, 8.0, 6.0, 4.0, 2.0, 0.0]),
    ([1, 1, 3, 3, 5, 5], [9.0, 9.0, 5.0, 5.0, 1.0, 1.0]),  # 4.5 of 5, 2.5 of 5, 0.5 of 5
    ([1, 2, 3, 4, 5, 6, 7], [10.0, 8.3, 6.7, 5.0, 3.3, 1.7, 0.0]),
    ([1, 2, 3, 4, 5, 6, 7, 8], [10.0, 8.6, 7.1, 5.7, 4.3, 2.9, 1.4, 0.0]),
    ([1, 2, 3, 4, 5, 6, 7, 8, 9], [10.0, 8.8, 7.5, 6.3, 5.0, 3.8, 2.5, 1.3, 0.0]),  # 8.75 -> 8.8, 1.25 -> 1.3
    ([1, 1, 3, 4, 5, 6, 7, 8, 9], [9.4, 9.4, 7.5, 6.3, 5.0, 3.8, 2.5, 1.3, 0.0]),  # 7.5 of 8 = 9.375
    ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [10.0, 8.9, 7.8, 6.7, 5.6, 4.4, 3.3, 2.2, 1.1, 0.0]),
    ([1, 1, 1, 1, 1, 1, 1, 1, 1, 10], [5.6, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6, 0.0]),  # 1 + 8 / 2 = 5 of 9
]


@pytest.mark.parametrize(("ranks", "expected"), HAND_WORKED)
def test_place_points_match_the_hand_worked_tables(ranks, expected):
    assert points(ranks) == expected


def test_players_who_left_earn_nothing_and_are_not_counted_among_the_players():
    # Four sat down, one left: the other three are a table of three (10, 5, 0).
    assert points([2, None, 1, 3]) == [5.0, None, 10.0, 0.0]
    assert points([None, 1, None, 2, 2]) == [None, 10.0, None, 2.5, 2.5]


def test_the_last_player_left_at_the_table_wins_it():
    assert points([None, 1, None]) == [None, 10.0, None]


@given(st.lists(st.one_of(st.none(), st.integers(1, 10)), min_size=2, max_size=10))
def test_a_lone_winner_earns_10_a_lone_last_0_and_points_never_rise_down_the_table(ranks):
    shown = place_points(ranks)
    ranked = sorted((rank, tenths) for rank, tenths in zip(ranks, shown, strict=True) if rank is not None)
    places = [rank for rank, _ in ranked]
    if len(places) > 1 and places.count(places[0]) == 1:
        assert ranked[0][1] == 100
    if len(places) > 1 and places.count(places[-1]) == 1:
        assert ranked[-1][1] == 0
    assert all(better[1] >= worse[1] for better, worse in pairwise(ranked))
    assert all(tenths is None for rank, tenths in zip(ranks, shown, strict=True) if rank is None)


def test_counted_points_drop_the_worst_games_but_keep_one():
    assert counted_points([100, 0, 50, 25], 0) == 175
    assert counted_points([100, 0, 50, 25], 2) == 150
    assert counted_points([100, 0, 50, 25], 9) == 100  # the best game stays
    assert counted_points([30], 1) == 30
    assert counted_points([], 2) == 0


@given(st.lists(st.integers(0, 100), max_size=30), st.integers(0, 35))
def test_counted_points_from_a_tally_are_those_of_the_games_it_counts(points, drop_worst):
    tally = {}
    for each in points:
        tally[each] = tally.get(each, 0) + 1
    assert counted_from_tally(list(tally.items()), drop_worst) == counted_points(points, drop_worst)


def row(player, games, wins, counted, total_sum, name=None):
    return SeasonRow(player, name or f"P{player}", games, wins, counted, counted, total_sum, games)


def test_qualified_players_rank_first_by_counted_points_then_wins_then_lower_average_total():
    table = season_table(
        [
            row(1, 2, 2, 200, 20),  # the most points, but 2 games of the 3 needed
            row(2, 3, 1, 150, 90),
            row(3, 3, 2, 150, 120),  # level on points with 2: more wins
            row(4, 4, 1, 150, 80),  # level on points and wins with 2: lower average (20 < 30)
            row(5, 5, 0, 90, 100),
        ],
        min_games=3,
    )
    assert [(r.player, r.rank, r.qualified) for r in table] == [
        (3, 1, True), (4, 2, True), (2, 3, True), (5, 4, True), (1, 5, False),
    ]  # fmt: skip


def test_players_level_on_everything_share_a_rank_and_the_next_rank_skips():
    table = season_table(
        [row(1, 2, 1, 100, 40, "Bo"), row(2, 2, 1, 100, 40, "al"), row(3, 2, 0, 50, 40), row(4, 1, 1, 100, 10)],
        min_games=2,
    )
    assert [(r.name, r.rank) for r in table] == [("al", 1), ("Bo", 1), ("P3", 3), ("P4", 4)]
    assert champions(table, ended=True) == [2, 1]
    assert champions(table, ended=False) == []


def test_players_not_yet_qualified_follow_in_the_same_order():
    table = season_table([row(1, 1, 0, 0, 50), row(2, 1, 1, 100, 10), row(3, 1, 1, 100, 30)], min_games=2)
    assert [(r.player, r.rank, r.qualified) for r in table] == [(2, 1, False), (3, 2, False), (1, 3, False)]
    assert champions(table, ended=True) == []  # nobody qualified: no champion


def test_the_averages_are_over_the_games_ranked():
    line = SeasonRow(1, "Ann", 4, 1, 200, 200, 130, 9)
    assert (line.average_total, line.average_place) == (32.5, 2.25)
    assert SeasonRow(1, "Ann", 0, 0, 0, 0, 0, 0).average_total is None
