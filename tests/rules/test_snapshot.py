"""A game's state saved as JSON and read back: the same state, with the names of now."""

import json

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.game import GameRules, skipped_doubles
from scorekeeper.rules.scoring import RoundResult, derive
from scorekeeper.rules.snapshot import dump, load, results

SEATS = [(1, "Ann"), (2, "Ben"), (3, "Cy")]
NAMES = dict(SEATS)


def saved(state, rounds):
    return json.loads(json.dumps(dump(state, rounds)))  # as the database gives it back


def test_a_state_read_back_is_the_state_that_was_saved_counts_and_all():
    rules = GameRules(tile_set=6)
    rounds = [
        RoundResult(0, {1: 50, 2: 12, 3: 7}, went_out=frozenset({1}), ended_on_double=frozenset({1})),
        RoundResult(2, {1: 9, 2: 0, 3: 52}, went_out=frozenset({2}), double_blank=frozenset({3})),
    ]
    state = derive(rules, SEATS, rounds)
    back = load(saved(state, rounds), NAMES)
    assert back == state
    assert [(s.went_out, s.double_blank_penalties, s.end_on_double_penalties) for s in back.seats] == [
        (1, 0, 1), (1, 0, 0), (0, 1, 0)
    ]  # fmt: skip
    assert results(saved(state, rounds)) == rounds


def test_a_finished_target_game_reads_back_with_its_winners_and_how_it_ended():
    rules = GameRules(tile_set=6, target_score=20)
    rounds = [RoundResult(0, {1: 25, 2: 3, 3: 3}, double_blank=frozenset({1}))]
    state = derive(rules, SEATS, rounds)
    back = load(saved(state, rounds), NAMES)
    assert back == state and back.winners == (2, 3) and back.ending(rules) == state.ending(rules)
    assert [seat.to_target for seat in back.seats] == [0, 17, 17]


def test_the_names_are_the_seats_names_of_now_not_those_of_when_it_was_saved():
    state = derive(GameRules(tile_set=6), SEATS, [RoundResult(0, {1: 0, 2: 5, 3: 9})])
    back = load(saved(state, [RoundResult(0, {1: 0, 2: 5, 3: 9})]), {1: "Ann", 2: "Benedict", 3: "Cy"})
    assert [seat.name for seat in back.standings] == ["Ann", "Benedict", "Cy"]


def test_the_next_round_number_follows_the_rounds_played():
    rules = GameRules(tile_set=6)
    assert derive(rules, SEATS, []).next_number == 1
    assert (
        derive(rules, SEATS, [RoundResult(0, {1: 0, 2: 5, 3: 9}), RoundResult(3, {1: 4, 2: 0, 3: 1})]).next_number == 3
    )


def test_skipped_doubles_are_those_between_the_last_round_and_the_new_one():
    rules = GameRules(tile_set=6)
    assert skipped_doubles(rules, None, 0) == []
    assert skipped_doubles(rules, None, 3) == [6, 5, 4]
    assert skipped_doubles(rules, 1, 2) == []
    assert skipped_doubles(GameRules(tile_set=6, target_score=100), 5, 8) == [0, 6]  # into the next pass


@given(
    st.lists(
        st.tuples(
            st.integers(1, 3), st.lists(st.integers(0, 80), min_size=3, max_size=3), st.sets(st.sampled_from([1, 2, 3]))
        ),
        max_size=10,
    ),
    st.booleans(),
)
def test_any_state_derive_makes_reads_back_the_same_and_gives_back_its_rounds(steps, extended):
    rules = GameRules(tile_set=6, extended=extended, target_score=150)
    rounds, position = [], -1
    for step, scores, out in steps:
        position += step
        rounds.append(RoundResult(position, dict(zip((1, 2, 3), scores, strict=True)), went_out=frozenset(out)))
    state = derive(rules, SEATS, rounds)
    assert load(saved(state, rounds), NAMES) == state
    assert results(saved(state, rounds)) == rounds


def test_a_player_merged_into_another_is_named_by_the_other_everywhere_in_the_saved_state():
    from scorekeeper.rules.seating import Change, SeatChange
    from scorekeeper.rules.snapshot import with_player

    rules = GameRules(tile_set=6)
    first = RoundResult(0, {1: 0, 2: 5, 3: 9}, went_out=frozenset({1}))
    second = RoundResult(1, {1: 4, 3: 0, 4: 6}, went_out=frozenset({3}), double_blank=frozenset({4}))
    took_over = [SeatChange(Change.TAKE_OVER, 4, 1, 2)]  # 4 takes over 2's seat after round 1
    rounds = [first, second]
    state = derive(rules, [*SEATS, (4, "Dee")], rounds, took_over)
    # Dee (4) merged into Eve (5), who never sat at this table: as if Eve had played Dee's part.
    moved = with_player(saved(state, rounds), 4, 5)
    expected = derive(rules, [*SEATS, (5, "Eve")], [first, RoundResult(1, {1: 4, 3: 0, 5: 6}, went_out=frozenset({3}),
                      double_blank=frozenset({5}))], [SeatChange(Change.TAKE_OVER, 5, 1, 2)])  # fmt: skip
    assert load(moved, NAMES | {5: "Eve"}) == expected
    # The one who was taken over (2) merged into another (6): the take-over names 6.
    assert load(with_player(saved(state, rounds), 2, 6), NAMES | {4: "Dee", 6: "Bo"}).changes == (
        SeatChange(Change.TAKE_OVER, 4, 1, 6),
    )
