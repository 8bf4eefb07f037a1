"""Whole percents that add up to 100% as shown (the largest remainder method)."""

import random

import pytest

from scorekeeper.rules.percents import whole_percents


@pytest.mark.parametrize(("shares", "shown"), [
    ([1 / 6] * 6, [17, 17, 17, 17, 16, 16]),  # not 17% six times: 102%
    ([1 / 3] * 3, [34, 33, 33]),
    ([0.5, 0.5], [50, 50]),
    ([0.387, 0.300, 0.314], [39, 30, 31]),  # shares that add up to a little more than 1
    ([0.985, 0.008, 0.007], [98, 1, 1]),
    ([0, 0, 0], [0, 0, 0]),
    ([], []),
])  # fmt: skip
def test_it_shows_shares_as_whole_percents_adding_up_to_100(shares, shown):
    assert whole_percents(shares) == shown


def test_any_shares_add_up_to_100_each_within_one_point_of_its_exact_percent():
    rng = random.Random(40)
    for _ in range(500):
        shares = [rng.random() for _ in range(rng.randint(1, 10))]
        shown = whole_percents(shares)
        assert sum(shown) == 100
        exact = [share * 100 / sum(shares) for share in shares]
        assert all(abs(percent - value) < 1 for percent, value in zip(shown, exact, strict=True))
