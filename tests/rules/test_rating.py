"""The rating the leaderboard ranks by, worked out in one place."""

import pytest

from scorekeeper.rules.rating import START, Rating, ordinal, rate_game


def test_the_ordinal_is_the_skill_less_three_times_the_doubt_and_starts_at_zero():
    assert ordinal(30.0, 2.0) == 24.0
    assert START.ordinal == pytest.approx(0.0)
    assert Rating(30.0, 2.0).ordinal == ordinal(30.0, 2.0)


def test_a_first_win_raises_the_winners_ordinal_above_the_losers():
    after = rate_game({}, {1: 1, 2: 2})
    assert after[1].ordinal > START.ordinal and after[1].ordinal > after[2].ordinal
