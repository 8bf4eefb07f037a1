"""The house options of the rules page (/rules/): a first double below the top, a number of rounds, a tie-break."""

import pytest

from scorekeeper.rules.game import (
    GameRules,
    SequenceConflict,
    TieBreak,
    doubles_ahead,
    ends_early,
    open_positions,
    place_round,
)
from scorekeeper.rules.scoring import EndReason, RoundResult, derive, standings

SEATS = [(1, "Ann"), (2, "Ben"), (3, "Cy")]


def played(rules, doubles, scores=None, went_out=None):
    """Rounds placed as the table plays them: each starting double in turn, with its scores."""
    rounds, last = [], None
    for index, double in enumerate(doubles):
        last = place_round(rules, last, double)
        score = (scores or {})[index] if scores and index in scores else {1: 0, 2: 5, 3: 9}
        out = frozenset({(went_out or {}).get(index, 1)})
        rounds.append(RoundResult(last, score, went_out=out))
    return rounds


@pytest.mark.parametrize(
    ("rules", "sequence"),
    [
        (GameRules(tile_set=12, first_double=9), (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)),
        (GameRules(tile_set=6, first_double=0), (0,)),
        (GameRules(tile_set=9, first_double=3, extended=True), (3, 2, 1, 0, 1, 2, 3)),
        (GameRules(tile_set=6, first_double=6), (6, 5, 4, 3, 2, 1, 0)),
    ],
)
def test_a_first_double_starts_the_sequence_there_and_counts_down(rules, sequence):
    assert rules.one_pass == sequence
    assert rules.rounds_planned == len(sequence)


def test_without_a_first_double_the_sequence_starts_at_the_top_of_the_set():
    assert GameRules(tile_set=15).first_double == 15
    assert GameRules(tile_set=15).one_pass[0] == 15


def test_a_target_game_from_a_first_double_cycles_from_that_double():
    rules = GameRules(tile_set=12, first_double=2, target_score=100)
    assert [rules.double_at(p) for p in range(7)] == [2, 1, 0, 2, 1, 0, 2]
    ladder = GameRules(tile_set=12, first_double=2, extended=True, target_score=100)
    assert [ladder.double_at(p) for p in range(9)] == [2, 1, 0, 1, 2, 1, 0, 1, 2]


def test_a_double_above_the_first_double_never_starts_a_round():
    rules = GameRules(tile_set=12, first_double=9)
    with pytest.raises(SequenceConflict) as refused:
        place_round(rules, None, 10)
    assert str(refused.value).startswith("10-10 cannot start this round: this game's sequence starts at 9-9.")
    assert max(rules.double_at(p) for p in open_positions(rules, None)) == 9
    assert doubles_ahead(rules, None)["open"]["start"][0] == [9, "0"]  # [double, the place after it]


def test_a_short_game_ends_after_its_0_0_round_with_the_sequence():
    rules = GameRules(tile_set=12, first_double=3)
    state = derive(rules, SEATS, played(rules, [3, 2, 1, 0]))
    assert state.finished and state.ended_because == EndReason.SEQUENCE and state.ended_after == 4
    assert [line.starting_double for line in state.rounds] == [3, 2, 1, 0]
    assert open_positions(rules, state.last_position) == ()


def test_a_short_game_shows_only_its_own_doubles_ahead():
    rules = GameRules(tile_set=12, first_double=9)
    state = derive(rules, SEATS, [])
    assert state.next_double == 9 and state.open_doubles == tuple(range(9, -1, -1))
    assert state.show_until == 9  # positions 0..9: the doubles 9-9 down to 0-0


def test_a_game_of_a_number_of_rounds_ends_after_them_with_doubles_left():
    rules = GameRules(tile_set=12, rounds=3)
    two = derive(rules, SEATS, played(rules, [12, 11]))
    assert not two.finished and two.show_until == 2  # one round left: 10-10
    three = derive(rules, SEATS, played(rules, [12, 11, 10]))
    assert three.finished and three.ended_because == EndReason.ROUNDS and three.ended_after == 3
    assert three.ending(rules) == "Ended after round 3: the 3 rounds agreed were played."
    assert three.open_doubles == () and three.next_double is None


def test_rounds_count_played_rounds_not_doubles_so_a_skipped_double_does_not_shorten_the_game():
    rules = GameRules(tile_set=12, rounds=3)
    state = derive(rules, SEATS, played(rules, [12, 9]))  # 11-11 and 10-10 skipped
    assert not state.finished and state.next_double == 8 and state.show_until == 4
    assert derive(rules, SEATS, played(rules, [12, 9, 8])).ended_because == EndReason.ROUNDS


def test_the_end_of_the_sequence_comes_first_when_the_rounds_outnumber_the_doubles():
    rules = GameRules(tile_set=6, rounds=20)
    assert rules.rounds_planned == 7
    state = derive(rules, SEATS, played(rules, [6, 5, 4, 3, 2, 1, 0]))
    assert state.ended_because == EndReason.SEQUENCE and state.ended_after == 7


def test_with_a_target_and_a_number_of_rounds_whichever_comes_first_ends_the_game():
    rules = GameRules(tile_set=6, target_score=50, rounds=4)
    assert rules.rounds_planned == 4 and rules.round_limit is None
    by_rounds = derive(rules, SEATS, played(rules, [6, 5, 4, 3]))
    assert by_rounds.ended_because == EndReason.ROUNDS and by_rounds.ended_after == 4
    high = {0: {1: 0, 2: 30, 3: 9}, 1: {1: 0, 2: 30, 3: 9}}
    by_target = derive(rules, SEATS, played(rules, [6, 5], high))
    assert by_target.ended_because == EndReason.TARGET and by_target.ended_after == 2


def test_the_last_of_the_agreed_rounds_is_a_normal_end_and_asks_nothing():
    rules = GameRules(tile_set=12, rounds=2)
    assert not ends_early(rules, 0, 1)


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        (GameRules(tile_set=12, first_double=13), "first_double"),
        (GameRules(tile_set=6, first_double=7), "first_double"),
        (GameRules(tile_set=6, first_double=-1), "first_double"),
        (GameRules(tile_set=6, first_double=0, target_score=100), "first_double"),
        (GameRules(rounds=0), "rounds"),
        (GameRules(rounds=1001), "rounds"),
        (GameRules(tie_break="coin"), "tie_break"),
        (GameRules(tie_break=""), "tie_break"),
    ],
)
def test_each_house_option_out_of_range_is_named_with_a_message(rules, field):
    problems = rules.problems()
    assert list(problems) == [field]
    assert str(problems[field])


@pytest.mark.parametrize(
    "rules",
    [
        GameRules(tile_set=6, first_double=0),
        GameRules(tile_set=18, first_double=18),
        GameRules(tile_set=9, first_double=1, target_score=100),
        GameRules(rounds=1),
        GameRules(rounds=1000, target_score=500),
        GameRules(tie_break=TieBreak.MOST_WENT_OUT),
    ],
)
def test_each_house_option_in_range_is_accepted(rules):
    assert rules.problems() == {}


def test_the_first_double_message_names_the_set_and_what_was_sent():
    message = str(GameRules(tile_set=9, first_double=12).problems()["first_double"])
    assert message == "The first double is between 0-0 and 9-9 on a double-9 set (got 12)."


def test_shared_ties_share_the_rank_whoever_went_out_more():
    ranked = standings(SEATS, {1: 20, 2: 20, 3: 30})
    assert [(s.name, s.rank) for s in ranked] == [("Ann", 1), ("Ben", 1), ("Cy", 3)]


def test_most_went_out_ranks_equal_totals_by_rounds_gone_out_then_shares():
    ranked = standings(SEATS, {1: 20, 2: 20, 3: 20}, {1: 1, 2: 3, 3: 1})
    assert [(s.name, s.rank) for s in ranked] == [("Ben", 1), ("Ann", 2), ("Cy", 2)]


def test_most_went_out_never_ranks_a_higher_total_ahead():
    ranked = standings(SEATS, {1: 20, 2: 25, 3: 20}, {1: 0, 2: 9, 3: 1})
    assert [(s.name, s.total, s.rank) for s in ranked] == [("Cy", 20, 1), ("Ann", 20, 2), ("Ben", 25, 3)]


def two_rounds_level_on_totals(rules):
    """Ann and Ben end level on 5; Ben went out twice, Ann once."""
    return derive(rules, SEATS, [
        RoundResult(0, {1: 0, 2: 5, 3: 9}, went_out=frozenset({1})),
        RoundResult(1, {1: 5, 2: 0, 3: 9}, went_out=frozenset({2})),
        RoundResult(2, {1: 0, 2: 0, 3: 9}, went_out=frozenset({2})),
    ])  # fmt: skip


def test_under_shared_a_level_finish_has_two_winners_and_no_broken_tie():
    state = two_rounds_level_on_totals(GameRules(tile_set=6, rounds=3))
    assert state.finished and set(state.winners) == {1, 2} and state.broken_tie == ()


def test_under_most_went_out_a_level_finish_goes_to_who_went_out_more_and_says_so():
    state = two_rounds_level_on_totals(GameRules(tile_set=6, rounds=3, tie_break=TieBreak.MOST_WENT_OUT))
    assert state.winners == (2,)
    assert [(s.name, s.rank, s.is_winner) for s in state.standings] == [
        ("Ben", 1, True), ("Ann", 2, False), ("Cy", 3, False)
    ]  # fmt: skip
    assert [(s.name, s.went_out) for s in state.broken_tie] == [("Ben", 2), ("Ann", 1)]


def test_under_most_went_out_a_tie_still_level_on_rounds_gone_out_is_shared():
    rules = GameRules(tile_set=6, rounds=2, tie_break=TieBreak.MOST_WENT_OUT)
    state = derive(rules, SEATS, [
        RoundResult(0, {1: 0, 2: 5, 3: 9}, went_out=frozenset({1})),
        RoundResult(1, {1: 5, 2: 0, 3: 9}, went_out=frozenset({2})),
    ])  # fmt: skip
    assert set(state.winners) == {1, 2} and state.broken_tie == ()


def test_the_tie_break_also_orders_the_standings_while_the_game_goes_on():
    rules = GameRules(tile_set=6, tie_break=TieBreak.MOST_WENT_OUT)
    state = derive(rules, SEATS, [
        RoundResult(0, {1: 5, 2: 0, 3: 5}, went_out=frozenset({2})),
        RoundResult(1, {1: 0, 2: 5, 3: 9}, went_out=frozenset({1})),
    ])  # fmt: skip
    assert not state.finished and state.winners == () and state.broken_tie == ()
    assert [(s.name, s.rank) for s in state.standings] == [("Ann", 1), ("Ben", 1), ("Cy", 3)]


def test_a_leader_ahead_only_on_rounds_gone_out_is_no_points_clear():
    rules = GameRules(tile_set=6, tie_break=TieBreak.MOST_WENT_OUT)
    state = derive(rules, SEATS, [
        RoundResult(0, {1: 0, 2: 15, 3: 40}, went_out=frozenset({1})),
        RoundResult(1, {1: 15, 2: 0, 3: 0}, went_out=frozenset({2})),
        RoundResult(2, {1: 0, 2: 0, 3: 9}, went_out=frozenset({2})),
    ])  # fmt: skip
    assert [seat.name for seat in state.leaders] == ["Ben"] and state.lead == 0
    shared = derive(GameRules(tile_set=6), SEATS, [RoundResult(0, {1: 0, 2: 0, 3: 25}, went_out=frozenset({1}))])
    assert [seat.name for seat in shared.leaders] == ["Ann", "Ben"] and shared.lead == 25


def test_places_move_by_the_tie_break_when_it_ranks_level_totals():
    from scorekeeper.rules.places import moves, ranks

    assert ranks([15, 15, 40]) == (1, 1, 3)
    assert ranks([15, 15, 40], [1, 2, 0]) == (2, 1, 3)
    # Bea was 2nd on level totals before the round and is 2nd after it: no move.
    assert moves([15, 15, 40], [15, 15, 49], [2, 1, 0], [2, 1, 0]) == (0, 0, 0)
    assert moves([15, 15, 40], [15, 15, 49]) == (0, 0, 0)
    assert moves([10, 15, 40], [15, 15, 40], [1, 1, 0], [1, 2, 0]) == (-1, 1, 0)
