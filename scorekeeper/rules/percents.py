"""Shares of a whole shown as whole percents that add up to 100% as shown (six equal chances are
17% 17% 17% 17% 16% 16%, never 17% six times, 102%)."""

from collections.abc import Sequence
from math import floor


def whole_percents(shares: Sequence[float]) -> list[int]:
    """`shares` (each 0 or more) as whole percents of their sum, adding up to exactly 100: the
    largest remainder method (Hamilton's): each is rounded down, then the points left go one each
    to the largest remainders, an earlier share first on a tie. All zero (or none): all 0."""
    total = sum(shares)
    if not shares or total <= 0:
        return [0] * len(shares)
    exact = [share * 100 / total for share in shares]
    whole = [floor(value) for value in exact]
    left = 100 - sum(whole)
    by_remainder = sorted(range(len(exact)), key=lambda index: (-(exact[index] - whole[index]), index))
    for index in by_remainder[:left]:
        whole[index] += 1
    return whole
