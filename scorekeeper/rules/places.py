"""Places at the table from totals (the lowest total leads), and how they moved in a round."""

from collections.abc import Sequence


def ranks(totals: Sequence[int]) -> tuple[int, ...]:
    """Each total's place, 1 for the lowest; equal totals share a place (1, 1, 3)."""
    return tuple(1 + sum(other < total for other in totals) for total in totals)


def moves(before: Sequence[int] | None, after: Sequence[int]) -> tuple[int, ...]:
    """How many places each player went up (positive) or down (negative) from the totals `before`
    a round to those `after` it; nothing moves in the first round (`before` is None)."""
    if before is None:
        return (0,) * len(after)
    return tuple(old - new for old, new in zip(ranks(before), ranks(after), strict=True))
