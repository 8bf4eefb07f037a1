from scorekeeper.rules.game import GameRules
from scorekeeper.rules.scoring import (
    OUTCOMES,
    PlayedRound,
    leaderboard_order,
    outcome,
    penalty,
    progress,
    standings,
    winners,
)

SEATS = [(1, "Ann"), (2, "Ben"), (3, "Cy"), (4, "Di")]


def test_penalties_add_up_and_zero_turns_one_off():
    rules = GameRules(double_blank_penalty=25, end_on_double_penalty=0)
    assert penalty(rules, double_blank=True, ended_on_double=True) == 25
    assert penalty(GameRules(), double_blank=True, ended_on_double=False) == 50
    assert penalty(GameRules(), double_blank=False, ended_on_double=False) == 0


def test_lowest_total_ranks_first_and_equal_totals_share_the_rank():
    ranked = standings(SEATS, {1: 40, 2: 10, 3: 40, 4: 55})
    assert [(s.name, s.total, s.rank) for s in ranked] == [("Ben", 10, 1), ("Ann", 40, 2), ("Cy", 40, 2), ("Di", 55, 4)]


def test_a_tie_at_the_top_gives_several_winners():
    assert winners(standings(SEATS, {1: 5, 2: 5, 3: 9, 4: 12})) == [1, 2]


def test_a_plain_game_ends_after_the_last_double_of_the_sequence():
    rules = GameRules(tile_set=6)
    rounds = [PlayedRound(position, {1: 1, 2: 2}) for position in range(6)]
    assert not progress(rules, [1, 2], rounds).finished
    assert progress(rules, [1, 2], rounds).next_position == 6
    done = progress(rules, [1, 2], [*rounds, PlayedRound(6, {1: 0, 2: 3})])
    assert done.finished and done.ended_after == 7 and done.totals == {1: 6, 2: 15}


def test_a_target_game_ends_after_the_round_someone_reaches_the_target():
    rules = GameRules(tile_set=6, target_score=100)
    first = PlayedRound(0, {1: 60, 2: 10})
    assert not progress(rules, [1, 2], [first]).finished
    state = progress(rules, [1, 2], [first, PlayedRound(1, {1: 40, 2: 0})])
    assert state.finished and state.ended_after == 2 and state.next_position is None


def test_a_target_game_goes_on_past_the_end_of_the_sequence():
    rules = GameRules(tile_set=6, target_score=1000)
    rounds = [PlayedRound(position, {1: 1, 2: 1}) for position in range(7)]
    state = progress(rules, [1, 2], rounds)
    assert not state.finished and rules.double_at(state.next_position) == 6


def test_progress_reports_the_first_round_that_ended_the_game():
    rules = GameRules(tile_set=6, target_score=50)
    state = progress(rules, [1, 2], [PlayedRound(0, {1: 60, 2: 0}), PlayedRound(1, {1: 1, 2: 1})])
    assert state.ended_after == 1


def test_against_an_opponent_a_lower_total_finishes_ahead_a_higher_behind_an_equal_level():
    assert (outcome(10, 40), outcome(40, 10), outcome(25, 25)) == ("ahead", "behind", "level")
    assert list(OUTCOMES) == ["ahead", "behind", "level"]


def test_the_leaderboard_puts_most_wins_first_then_win_rate_then_the_lower_average_and_no_games_last():
    figures = {
        "no game": (0, 0.0, None),
        "one win, high average": (1, 0.5, 60.0),
        "two wins in five": (2, 0.4, 80.0),
        "no win": (0, 0.0, 50.0),
        "one win, low average": (1, 0.5, 40.0),
        "two wins in four": (2, 0.5, 95.0),
    }
    assert sorted(figures, key=lambda name: leaderboard_order(*figures[name])) == [
        "two wins in four", "two wins in five", "one win, low average", "one win, high average", "no win", "no game"
    ]  # fmt: skip
