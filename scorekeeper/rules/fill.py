"""Check 11: can the hands be dealt at the same time, from one set, each a distinct tile?

Check 9 compares totals only; two hands of one tile and 1 pip each pass it, yet a set has
a single 1-0. Which tiles a hand holds never matters here, only their pips, so the pool is
a count of tiles per pip value, and the search hands those counts out, highest value first,
to hands that still need pips (and, when their tile count is known, tiles). A one-tile hand
is no search at all (it holds a tile of exactly its pips), equal hand states are searched once
(memo), and bounds on each hand and on the known-count hands together cut branches early. The
search has a time budget (TIME_BUDGET, 5 ms), so a round is decided exactly
whenever that is quick, and otherwise check 9's totals stand; bench/fill.py measures how often.
"""

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import islice
from time import perf_counter

from .tiles import DOUBLE_BLANK, Tile, all_tiles, double

TIME_BUDGET = 0.005  # seconds, for all of one round's check 11
CLOCK_EVERY = 32  # search nodes between two looks at the clock


@dataclass(frozen=True)
class Need:
    """What one hand must draw from the pool: `pips` in exactly `tiles` tiles (None: any number)."""

    pips: int
    tiles: int | None


class Undecided(Exception):
    """The search ran out of budget: neither possible nor impossible was shown."""


def pool_counts(highest: int, starting_double: int, taken: Iterable[Tile]) -> dict[int, int]:
    """How many tiles of each pip value are free: not the starting double, not the 0-0 (a hand
    holds it only when it says so), not a tile some hand listed."""
    tiles, counts = _whole_set(highest)
    pool = Counter(counts)
    for tile in {double(starting_double), DOUBLE_BLANK, *taken}:
        if tile in tiles:
            pool[tile.pips] -= 1
    return {value: count for value, count in pool.items() if count > 0}


@cache
def _whole_set(highest: int) -> tuple[frozenset[Tile], dict[int, int]]:
    """The set's tiles, and how many of them hold each pip value (worked out once per set: an
    import checks thousands of rounds)."""
    tiles = all_tiles(highest)
    return frozenset(tiles), dict(Counter(tile.pips for tile in tiles))


def can_fill(needs: Sequence[Need], pool: dict[int, int], deadline: float | None = None) -> bool:
    """Whether every need can be met at once by distinct tiles of the pool; raises Undecided
    when the search reaches `deadline` (a time.perf_counter() value; TIME_BUDGET from now when
    not given) without settling it.

    A real deal is almost always rebuilt at once by a greedy pass; only when that fails does
    the exhaustive search run."""
    deadline = perf_counter() + TIME_BUDGET if deadline is None else deadline
    forced = _take_single_tiles(needs, pool)
    if forced is None:
        return False
    needs, pool = forced
    return _greedy(needs, pool) or _search(needs, pool, deadline)


def _take_single_tiles(needs: Sequence[Need], pool: dict[int, int]) -> tuple[list[Need], dict[int, int]] | None:
    """A hand of one tile holds a tile of exactly its pips, and a hand of none holds 0 pips: hand
    those out first (None when the pool cannot), and leave the rest to the search."""
    pool = dict(pool)
    rest = []
    for need in needs:
        if need.tiles == 0:
            if need.pips:
                return None
        elif need.tiles == 1:
            if not pool.get(need.pips):
                return None
            pool[need.pips] -= 1
        elif need.tiles is not None or need.pips:
            rest.append(need)
    return rest, {value: count for value, count in pool.items() if count}


def _greedy(needs: Sequence[Need], pool: dict[int, int]) -> bool:
    """Fill the most unusual hands first, each from the free tiles nearest its average pip value.
    True means a deal was found; False proves nothing."""
    top = max(pool, default=0)
    free = [pool.get(value, 0) for value in range(top + 1)]
    mean = sum(v * c for v, c in enumerate(free)) / max(1, sum(free))

    def oddness(need: Need) -> tuple:
        if need.tiles is None:
            return (1, 0.0, 0)
        return (0, -abs(need.pips / max(1, need.tiles) - mean), need.tiles)

    for need in sorted(needs, key=oddness):
        if need.tiles is not None:
            counts = [need.tiles]
        else:
            likely = round(need.pips / mean) if mean else 0
            nearby = sorted(range(max(0, likely - 3), likely + 4), key=lambda k: abs(k - likely))
            counts = list(islice((k for k in nearby if _fits(free, need.pips, k)), 3))
        if not any(_take(free, need.pips, count) for count in counts):
            return False
    return True


def _fits(free: list[int], pips: int, count: int) -> bool:
    """Whether `pips` lies between the fewest and the most pips `count` free tiles hold."""
    if count == 0:
        return pips == 0
    low = high = 0
    need = count
    for value, available in enumerate(free):
        take = min(available, need)
        low, need = low + take * value, need - take
        if not need:
            break
    if need:
        return False
    need = count
    for value in range(len(free) - 1, -1, -1):
        take = min(free[value], need)
        high, need = high + take * value, need - take
        if not need:
            break
    return low <= pips <= high


def _take(free: list[int], pips: int, count: int, steps: list | None = None) -> bool:
    """Take `count` free tiles holding `pips` out of `free` (a short search of this hand alone),
    or leave `free` as it was and say False."""
    steps = steps if steps is not None else [200]
    if count == 0:
        return pips == 0
    steps[0] -= 1
    if steps[0] < 0:
        return False
    for value in _nearest_first(len(free), pips, count):
        if not free[value]:  # `free` is as it was at the start whenever the loop comes back here
            continue
        free[value] -= 1
        if _fits(free, pips - value, count - 1) and _take(free, pips - value, count - 1, steps):
            return True
        free[value] += 1
    return False


@cache
def _nearest_first(size: int, pips: int, count: int) -> tuple[int, ...]:
    """The pip values 0..size-1, nearest to a tile's share of `pips` first (ties: the smaller)."""
    target = pips / count
    return tuple(sorted(range(size), key=lambda v: abs(v - target)))


def _search(needs: Sequence[Need], pool: dict[int, int], deadline: float) -> bool:
    """Exhaustive: hand out each pip value's tiles, highest value first; raises Undecided."""
    values = sorted((value for value, count in pool.items() if count), reverse=True)
    counts = [pool[value] for value in values]
    # What is left from index i on: tiles, pips, and each value's count (for the k-largest bound).
    tiles_from = [sum(counts[i:]) for i in range(len(values) + 1)]
    pips_from = [sum(v * c for v, c in zip(values[i:], counts[i:], strict=True)) for i in range(len(values) + 1)]
    seen: set = set()
    nodes = 0

    def largest(i: int, k: int) -> int:
        """The most pips k free tiles of value <= values[i] can hold."""
        total = 0
        for value, count in zip(values[i:], counts[i:], strict=True):
            take = min(count, k)
            total, k = total + take * value, k - take
            if not k:
                break
        return total if not k else -1

    def smallest(i: int, k: int) -> int:
        """The fewest pips k free tiles of value <= values[i] can hold (-1: fewer than k left)."""
        total = 0
        for value, count in zip(reversed(values[i:]), reversed(counts[i:]), strict=True):
            take = min(count, k)
            total, k = total + take * value, k - take
            if not k:
                break
        return total if not k else -1

    def hopeless(i: int, state: tuple) -> bool:
        if sum(pips for pips, _ in state) > pips_from[i]:
            return True
        known_tiles = sum(tiles or 0 for _, tiles in state)
        if known_tiles > tiles_from[i]:
            return True
        top = values[i] if i < len(values) else 0
        known_pips = 0
        for pips, tiles in state:
            if tiles is None:
                continue
            if pips < tiles or pips > tiles * top:  # every free tile is worth 1 to `top` pips
                return True
            if not smallest(i, tiles) <= pips <= largest(i, tiles):
                return True
            known_pips += pips
        # The hands whose tile count is known draw known_tiles distinct tiles between them.
        return known_tiles > 0 and not smallest(i, known_tiles) <= known_pips <= largest(i, known_tiles)

    def search(i: int, state: tuple) -> bool:
        nonlocal nodes
        if all(pips == 0 and not tiles for pips, tiles in state):
            return True
        if i == len(values) or hopeless(i, state):
            return False
        key = (i, tuple(sorted(state, key=lambda need: (need[0], -1 if need[1] is None else need[1]))))
        if key in seen:
            return False
        nodes += 1
        if nodes % CLOCK_EVERY == 0 and perf_counter() > deadline:
            raise Undecided
        value = values[i]
        for shares in _shares(state, value, counts[i]):
            after = tuple(
                (pips - take * value, None if tiles is None else tiles - take)
                for (pips, tiles), take in zip(state, shares, strict=True)
            )
            if search(i + 1, after):
                return True
        seen.add(key)
        return False

    return search(0, tuple((need.pips, need.tiles) for need in needs))


def _shares(state: tuple, value: int, available: int):
    """Every way to give up to `available` tiles of one value to the hands, larger shares first."""

    def give(index: int, left: int):
        if index == len(state):
            yield ()
            return
        pips, tiles = state[index]
        most = min(left, pips // value, tiles if tiles is not None else left)
        for take in range(most, -1, -1):
            for rest in give(index + 1, left - take):
                yield (take, *rest)

    yield from give(0, available)
