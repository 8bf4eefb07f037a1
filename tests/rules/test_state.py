"""A game's state, derived in one place from its rules, seats and rounds."""

from scorekeeper.rules.game import GameRules
from scorekeeper.rules.scoring import EndReason, RoundResult, derive

SEATS = [(1, "Ann"), (2, "Ben"), (3, "Cy")]


def test_a_new_game_expects_the_top_double_and_everyone_shares_first_place():
    state = derive(GameRules(tile_set=6), SEATS, [])
    assert state.next_double == 6 and state.open_doubles == (6, 5, 4, 3, 2, 1, 0)
    assert [seat.rank for seat in state.standings] == [1, 1, 1] and state.leaders == ()
    assert not state.finished and state.winners == () and state.show_until == 6


def test_standings_are_in_display_order_with_shared_ranks_and_running_totals_per_round():
    rounds = [
        RoundResult(0, {1: 0, 2: 12, 3: 7}, went_out=frozenset({1})),
        RoundResult(2, {1: 9, 2: 0, 3: 2}, went_out=frozenset({2})),
    ]
    state = derive(GameRules(tile_set=6), SEATS, rounds)
    assert [(s.name, s.total, s.rank, s.place) for s in state.standings] == [
        ("Ann", 9, 1, 1), ("Cy", 9, 1, 2), ("Ben", 12, 3, 3)
    ]  # fmt: skip
    assert [line.totals for line in state.rounds] == [(0, 12, 7), (9, 12, 9)]
    assert [line.starting_double for line in state.rounds] == [6, 4]
    assert state.next_double == 3 and state.open_doubles == (3, 2, 1, 0)
    assert [seat.went_out for seat in state.seats] == [1, 1, 0] and [s.rounds for s in state.seats] == [2, 2, 2]


def test_a_finished_game_names_its_winners_and_why_it_ended():
    rules = GameRules(tile_set=6, target_score=20)
    state = derive(rules, SEATS, [RoundResult(0, {1: 25, 2: 3, 3: 3}, double_blank=frozenset({1}))])
    assert state.finished and state.ended_because == EndReason.TARGET and state.ended_after == 1
    assert state.winners == (2, 3) and state.next_double is None and state.open_doubles == ()
    assert state.seats[0].double_blank_penalties == 1
    plain = derive(GameRules(tile_set=6), SEATS, [RoundResult(p, {1: 1, 2: 2, 3: 3}) for p in range(7)])
    assert plain.ended_because == EndReason.SEQUENCE and plain.winners == (1,)


def test_penalty_counts_are_zero_when_the_penalty_is_off():
    rules = GameRules(tile_set=6, double_blank_penalty=0)
    state = derive(rules, SEATS, [RoundResult(0, {1: 0, 2: 5, 3: 5}, double_blank=frozenset({2}))])
    assert state.seats[1].double_blank_penalties == 0


def test_a_finished_game_says_how_it_ended_in_words_and_one_in_play_says_nothing():
    target = GameRules(tile_set=6, target_score=20)
    ended = derive(target, SEATS, [RoundResult(0, {1: 5, 2: 3, 3: 3}), RoundResult(1, {1: 16, 2: 0, 3: 2})])
    assert ended.ending(target) == "Ended after round 2: a total reached 20."
    plain = GameRules(tile_set=6)
    assert derive(plain, SEATS, [RoundResult(p, {1: 1, 2: 2, 3: 3}) for p in range(7)]).ending(plain) == (
        "Every starting double has been played."
    )
    assert derive(plain, SEATS, [RoundResult(0, {1: 1, 2: 2, 3: 3})]).ending(plain) is None


def test_running_totals_are_the_totals_after_each_round_and_end_at_the_standings():
    rounds = [RoundResult(p, {1: p, 2: 2 * p, 3: 1}) for p in range(5)]
    state = derive(GameRules(tile_set=6), SEATS, rounds)
    assert [line.totals for line in state.rounds] == [
        tuple(sum(r.scores[player] for r in rounds[: n + 1]) for player in (1, 2, 3)) for n in range(5)
    ]
    assert state.rounds[-1].totals == tuple(seat.total for seat in state.seats)
