"""Places at the table from totals (the lowest total leads), and how they moved in a round."""

from collections.abc import Sequence


def ranks(totals: Sequence[int | None], went_out: Sequence[int] | None = None) -> tuple[int | None, ...]:
    """Each total's place, 1 for the lowest; equal totals share a place (1, 1, 3), unless
    `went_out` (the rounds each went out, under the "most went out" tie-break) orders them. A
    total of None (nobody in that seat then) has no place and takes none."""
    keys = [None if total is None else (total, -(went_out[i] if went_out else 0)) for i, total in enumerate(totals)]
    present = [key for key in keys if key is not None]
    return tuple(None if key is None else 1 + sum(other < key for other in present) for key in keys)


def moves(
    before: Sequence[int] | None,
    after: Sequence[int],
    went_out_before: Sequence[int] | None = None,
    went_out_after: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """How many places each player went up (positive) or down (negative) from the totals `before`
    a round to those `after` it; nothing moves in the first round (`before` is None). With the
    tie-break, the rounds each went out before and after it. Places are compared among the players
    at the table both times (a total of None: not there): nobody moves because someone left or
    sat down, and who left or sat down has not moved."""
    if before is None:
        return (0,) * len(after)
    both = [a is not None and b is not None for a, b in zip(before, after, strict=True)]
    before = [total if there else None for total, there in zip(before, both, strict=True)]
    after = [total if there else None for total, there in zip(after, both, strict=True)]
    old, new = ranks(before, went_out_before), ranks(after, went_out_after)
    return tuple(0 if a is None or b is None else a - b for a, b in zip(old, new, strict=True))


def place_points(ranks: Sequence[int | None]) -> tuple[int | None, ...]:
    """Each player's place points (docs/architecture.md, "Seasons"), in tenths of a point: among the
    n ranked players, 10 x (opponents finished behind + half of those level) / (n - 1), to one
    decimal (a half tenth rounds up). The winner of any table earns 10 (100 tenths), the last 0,
    whatever the table's size; a rank of None (a player who left) earns nothing and is not counted
    in n. A lone ranked player (everyone else left) is the table's winner: 10."""
    present = [rank for rank in ranks if rank is not None]
    others = len(present) - 1
    points = []
    for rank in ranks:
        if rank is None:
            points.append(None)
        elif others == 0:
            points.append(100)
        else:
            behind = sum(other > rank for other in present)
            level = sum(other == rank for other in present) - 1
            # 100 x (behind + level / 2) / others, rounded half up, in whole numbers only.
            points.append((100 * (2 * behind + level) + others) // (2 * others))
    return tuple(points)
