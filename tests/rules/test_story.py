"""The story's rules, worked out by hand: deficits behind the leader, nemesis and victim and their ties,
the chances of a new table, and how a rating move is written."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rating import START, Rating
from scorekeeper.rules.scoring import RoundResult, derive
from scorekeeper.rules.seating import Change, SeatChange
from scorekeeper.rules.story import Deficit, Rival, deficits, nemesis, rating_move, sign, victim, win_chances

SEATS = [("a", "Ann"), ("b", "Ben"), ("c", "Cy")]


def state_of(rounds, changes=(), seats=SEATS):
    """A double-six game of `seats` with these rounds' scores ({player: score}), played 6-6 down."""
    results = [RoundResult(6 - number, scores) for number, scores in enumerate(rounds)]
    return derive(GameRules(tile_set=6), seats, results, changes)


def test_a_seat_is_as_far_behind_as_its_total_is_above_the_lowest_after_a_round():
    # Totals: a 12 b 0 c 3; a 12 b 10 c 5; a 12 b 18 c 14.
    state = state_of([{"a": 12, "b": 0, "c": 3}, {"a": 0, "b": 10, "c": 2}, {"a": 0, "b": 8, "c": 9}])
    assert deficits(state) == [Deficit(12, 1), Deficit(6, 3), Deficit(3, 1)]


def test_a_seat_never_behind_has_no_deficit_and_a_shared_lead_is_not_behind():
    state = state_of([{"a": 0, "b": 0, "c": 3}, {"a": 0, "b": 5, "c": 1}])  # a and b level, then a ahead
    assert deficits(state)[0] == Deficit(0, None)
    assert deficits(state_of([])) == [Deficit(), Deficit(), Deficit()]


def test_equally_far_behind_twice_counts_the_later_round():
    # a 5 behind after round 1 (a 5, b 0, c 2) and after round 2 (a 7, b 8, c 2).
    state = state_of([{"a": 5, "b": 0, "c": 2}, {"a": 2, "b": 8, "c": 0}])
    assert deficits(state)[0] == Deficit(5, 2)


def test_a_player_not_seated_in_a_round_is_neither_leader_nor_behind_in_it():
    # c leaves after round 1, then d joins on the highest total of those seated: b's 4.
    seats = [*SEATS, ("d", "Dot")]
    changes = [SeatChange(Change.LEAVE, "c", 1), SeatChange(Change.JOIN, "d", 1)]
    state = state_of([{"a": 0, "b": 4, "c": 9}, {"a": 3, "b": 0, "d": 2}], changes, seats)
    # Round 1: a 0, b 4, c 9 (d not yet there). Round 2: a 3, b 4, d 4 + 2 = 6 (c gone).
    assert deficits(state) == [Deficit(0, None), Deficit(4, 1), Deficit(9, 1), Deficit(3, 2)]


def rival(player, games, ahead, behind):
    return Rival(player, str(player).upper(), games, ahead, behind)


def test_the_nemesis_is_the_rival_most_often_ahead_and_the_victim_most_often_behind():
    rivals = [rival("b", 4, 2, 1), rival("c", 5, 1, 4)]
    assert nemesis(rivals).player == "b" and victim(rivals).player == "c"


def test_fewer_than_three_games_together_or_never_ahead_makes_no_nemesis():
    assert nemesis([rival("b", 2, 2, 0)]) is None
    assert nemesis([rival("b", 3, 0, 3)]) is None and victim([rival("b", 3, 0, 3)]).player == "b"
    assert nemesis([]) is None and victim([]) is None


def test_equal_counts_go_to_the_larger_share_of_games_together_then_the_lower_id():
    assert nemesis([rival("b", 6, 3, 0), rival("c", 4, 3, 0)]).player == "c"  # 3 of 4 beats 3 of 6
    assert nemesis([rival("c", 4, 3, 0), rival("b", 4, 3, 0)]).player == "b"  # level: the lower id
    assert victim([rival(3, 4, 0, 2), rival(2, 4, 0, 2)]).player == 2


def test_one_rival_can_be_both_nemesis_and_victim():
    only = [rival("b", 5, 2, 3)]
    assert nemesis(only) == victim(only) == only[0]


def test_the_chances_add_up_to_one_and_the_higher_rating_has_the_better_one():
    chances = win_chances({"a": Rating(30, 3), "b": None, "c": Rating(20, 5)})
    assert sum(chances.values()) == pytest.approx(1.0)
    assert chances["a"] > chances["b"] > chances["c"]
    assert win_chances({"a": START, "b": None}) == {"a": pytest.approx(0.5), "b": pytest.approx(0.5)}


@given(st.lists(st.tuples(st.floats(0, 50), st.floats(0.5, 10)), min_size=2, max_size=10))
def test_the_chances_of_any_table_add_up_to_one(ratings):
    chances = win_chances({index: Rating(mu, sigma) for index, (mu, sigma) in enumerate(ratings)})
    assert sum(chances.values()) == pytest.approx(1.0)
    assert all(0 <= chance <= 1 for chance in chances.values())


@pytest.mark.parametrize(
    ("before", "after", "words"),
    [(26.1, 27.4, "+1.3"), (27.4, 26.1, "-1.3"), (0.0, 0.0, "+0.0"), (3.04, 3.01, "+0.0"), (-0.04, 0.04, "+0.0"),
     (1.26, 2.54, "+1.2")],  # 1.3 to 2.5 as shown
)  # fmt: skip
def test_a_rating_move_always_shows_its_sign_and_adds_up_to_the_ratings_shown(before, after, words):
    move = rating_move(before, after)
    assert f"{sign(move)}{abs(move):.1f}" == words
