import itertools
import random

import pytest

from scorekeeper.rules.deal import suggested_deal
from scorekeeper.rules.game import (
    GameRules,
    SequenceConflict,
    doubles_ahead,
    ends_early,
    open_positions,
    place_round,
    seating_problems,
)


def test_the_default_sequence_runs_from_the_set_down_to_zero():
    assert GameRules(tile_set=12).one_pass == tuple(range(12, -1, -1))
    assert GameRules(tile_set=12).round_limit == 13


def test_the_extended_sequence_goes_back_up_after_zero():
    rules = GameRules(tile_set=6, extended=True)
    assert rules.one_pass == (6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6)
    assert rules.round_limit == 2 * 6 + 1


def test_the_next_round_takes_the_next_double():
    rules = GameRules(tile_set=12)
    assert place_round(rules, None, 12) == 0
    assert place_round(rules, 0, 11) == 1


def test_a_round_may_skip_to_a_later_double_nobody_held_the_expected_one():
    assert place_round(GameRules(tile_set=12), 0, 9) == 3


def test_a_double_already_played_or_skipped_cannot_start_a_round():
    rules = GameRules(tile_set=12)
    with pytest.raises(SequenceConflict, match="already played or skipped"):
        place_round(rules, 3, 12)
    with pytest.raises(SequenceConflict):
        place_round(rules, 3, 10)  # skipped when 9-9 came after 12-12


def test_no_round_comes_after_the_last_double_of_a_plain_game():
    with pytest.raises(SequenceConflict, match="over"):
        place_round(GameRules(tile_set=6), 6, 6)


def test_an_extended_game_plays_a_double_again_on_the_way_up():
    rules = GameRules(tile_set=6, extended=True)
    assert place_round(rules, 6, 1) == 7  # 0-0 was position 6
    assert place_round(rules, 7, 6) == 12  # skipping 2..5 on the way up


def test_a_target_score_game_cycles_the_doubles_again():
    rules = GameRules(tile_set=6, target_score=200)
    assert rules.round_limit is None
    assert place_round(rules, 6, 6) == 7
    assert rules.double_at(7) == 6
    with pytest.raises(SequenceConflict, match="just played"):
        place_round(rules, 9, 4)  # 4-4 was position 9


def test_a_target_game_may_skip_past_0_0_into_the_next_pass():
    rules = GameRules(tile_set=6, target_score=200)
    assert place_round(rules, 5, 6) == 7  # nobody held the 0-0: on to 6-6 of the second pass
    assert place_round(rules, 9, 5) == 15  # 2, 1, 0 and 6 skipped: 5-5 of the third pass


def test_a_target_game_never_skips_further_than_one_pass_ahead():
    rules = GameRules(tile_set=6, target_score=200)
    positions = list(open_positions(rules, 9))
    assert len(positions) == 6 and sorted(rules.double_at(p) for p in positions) == [0, 1, 2, 3, 5, 6]


def test_an_extended_target_ladder_turns_without_playing_the_end_double_twice():
    rules = GameRules(tile_set=3, extended=True, target_score=500)
    ladder = [rules.double_at(position) for position in range(14)]
    assert ladder == [3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2]
    assert all(a != b for a, b in itertools.pairwise(ladder))


def test_in_an_extended_game_the_double_just_played_cannot_start_the_next_round():
    rules = GameRules(tile_set=6, extended=True)
    with pytest.raises(SequenceConflict, match="started the round just played"):
        place_round(rules, 0, 6)  # before, this jumped to the last 6-6 and ended the game
    assert place_round(rules, 0, 5) == 1 and place_round(rules, 1, 1) == 5  # the first place it can take


@pytest.mark.parametrize("extended", [False, True])
@pytest.mark.parametrize("target", [None, 300])
def test_the_open_doubles_are_distinct_and_never_the_one_just_played(extended, target):
    rules = GameRules(tile_set=6, extended=extended, target_score=target)
    for last in range(30 if target else len(rules.one_pass)):
        doubles = [rules.double_at(p) for p in open_positions(rules, last)]
        assert rules.double_at(last) not in doubles
        if not extended:
            assert len(doubles) == len(set(doubles))


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        (GameRules(tile_set=10), "tile_set"),
        (GameRules(double_blank_penalty=-1), "double_blank_penalty"),
        (GameRules(end_on_double_penalty=5000), "end_on_double_penalty"),
        (GameRules(target_score=0), "target_score"),
    ],
)
def test_it_names_each_option_out_of_range(rules, field):
    assert field in rules.problems()


def test_default_options_are_valid():
    assert GameRules().problems() == {}


@pytest.mark.parametrize(
    ("tile_set", "players", "shown"),
    [(9, 2, "20 or 21"), (9, 8, "5 or 6"), (12, 4, "12"), (12, 2, "20 or 24"), (12, 3, "15 or 16")],
)
def test_the_deal_hint_follows_the_rules_tables(tile_set, players, shown):
    assert str(suggested_deal(tile_set, players)) == shown


@pytest.mark.parametrize("tile_set", [6, 9, 12, 15, 18])
@pytest.mark.parametrize("players", range(2, 11))
def test_the_deal_hint_never_deals_out_the_whole_set(tile_set, players):
    hint = suggested_deal(tile_set, players)
    assert hint.tiles >= 1 and hint.tiles * players < (tile_set + 1) * (tile_set + 2) // 2 - 1


def test_the_open_positions_are_the_rest_of_the_pass_and_none_after_the_last_round():
    rules = GameRules(tile_set=6)
    assert [rules.double_at(p) for p in open_positions(rules, 2)] == [3, 2, 1, 0]
    assert list(open_positions(rules, 6)) == []
    target = GameRules(tile_set=6, target_score=100)
    assert [target.double_at(p) for p in open_positions(target, 6)] == [6, 5, 4, 3, 2, 1]


@pytest.mark.parametrize(
    ("players", "problems"),
    [([1], 1), ([1, 1], 1), (list(range(11)), 1), ([1, 2], 0), ([1, 1, 2], 1), (list(range(10)), 0)],
)
def test_a_table_needs_2_to_10_distinct_players(players, problems):
    assert len(seating_problems(players)) == problems


@pytest.mark.parametrize(
    "rules",
    [GameRules(tile_set=6), GameRules(tile_set=6, extended=True), GameRules(tile_set=9, target_score=100),
     GameRules(tile_set=6, extended=True, target_score=100)],
)  # fmt: skip
@pytest.mark.parametrize("seed", range(20))
def test_the_doubles_ahead_a_script_follows_are_the_doubles_the_rules_open_after_any_rounds(rules, seed):
    rng = random.Random(seed)
    last = rng.choice([None, 2, 5])
    ahead = doubles_ahead(rules, last)
    place = ahead["start"]
    for _ in range(3 * rules.period):
        offered = ahead["open"][place]
        open_doubles = [rules.double_at(p) for p in open_positions(rules, last)]
        assert [double for double, _ in offered] == list(dict.fromkeys(open_doubles))  # each once, in order
        if not offered:
            break
        double, place = rng.choice(offered)  # a round waiting on the phone, skipping or not
        last = place_round(rules, last, double)


def test_the_doubles_ahead_of_a_new_plain_game_start_at_the_top_and_end_with_the_sequence():
    ahead = doubles_ahead(GameRules(tile_set=6), None)
    assert ahead["open"]["start"] == [[6, "0"], [5, "1"], [4, "2"], [3, "3"], [2, "4"], [1, "5"], [0, "6"]]
    assert ahead["open"]["4"] == [[1, "5"], [0, "6"]] and ahead["open"]["6"] == []


def test_the_last_double_of_a_game_played_in_order_is_its_normal_end_and_reached_early_it_is_not():
    plain = GameRules(tile_set=6)
    assert not ends_early(plain, 5, 6)  # 1-1 then 0-0: the sequence played in order
    assert not ends_early(plain, 4, 5)  # 2-2 then 1-1: the game goes on
    assert ends_early(plain, 4, 6) and ends_early(plain, None, 6)  # 0-0 after 2-2, or first
    extended = GameRules(tile_set=6, extended=True)
    assert not ends_early(extended, 6, 7) and not ends_early(extended, 11, 12)  # 0-0 then 1-1; 5-5 then 6-6
    assert ends_early(extended, 10, 12)  # 6-6 after 4-4, skipping 5-5
    assert not ends_early(GameRules(tile_set=6, target_score=100), 4, 6)  # a target ends it, not the sequence
