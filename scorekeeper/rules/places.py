"""Places at the table from totals (the lowest total leads), and how they moved in a round."""

from collections.abc import Sequence


def ranks(totals: Sequence[int], went_out: Sequence[int] | None = None) -> tuple[int, ...]:
    """Each total's place, 1 for the lowest; equal totals share a place (1, 1, 3), unless
    `went_out` (the rounds each went out, under the "most went out" tie-break) orders them."""
    keys = [(total, -(went_out[i] if went_out else 0)) for i, total in enumerate(totals)]
    return tuple(1 + sum(other < key for other in keys) for key in keys)


def moves(
    before: Sequence[int] | None,
    after: Sequence[int],
    went_out_before: Sequence[int] | None = None,
    went_out_after: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """How many places each player went up (positive) or down (negative) from the totals `before`
    a round to those `after` it; nothing moves in the first round (`before` is None). With the
    tie-break, the rounds each went out before and after it."""
    if before is None:
        return (0,) * len(after)
    old, new = ranks(before, went_out_before), ranks(after, went_out_after)
    return tuple(a - b for a, b in zip(old, new, strict=True))
