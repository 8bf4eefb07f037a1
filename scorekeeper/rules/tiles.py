"""The double-N tile set: which tiles exist, their pips, and what a hand can hold.

A hand that does not hold the 0-0 draws only from the tiles other than the starting
double and the 0-0; a hand that holds it has the 0-0 plus tiles from that same pool.
The pool's pip values are sorted with no gap wider than one pip, so every total between
the k smallest and the k largest tiles is reachable by exactly k of them.
"""

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from itertools import accumulate

from .text import Text, _

SUPPORTED_SETS = (6, 9, 12, 15, 18)
DEFAULT_SET = 12

# Any dash a phone keyboard makes: hyphen-minus, hyphen, non-breaking hyphen, figure dash,
# en dash, em dash, minus sign. \d is any script's decimal digit, read by int() as its value.
DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212"
_TILE_TEXT = re.compile(rf"^\s*(\d{{1,2}})\s*[{DASHES}]\s*(\d{{1,2}})\s*$")


@dataclass(frozen=True, order=True)
class Tile:
    high: int
    low: int

    @classmethod
    def of(cls, a: int, b: int) -> "Tile":
        return cls(max(a, b), min(a, b))

    @property
    def pips(self) -> int:
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"


DOUBLE_BLANK = Tile(0, 0)


class TileError(ValueError):
    """A piece of text that is not a tile of the set in play."""

    def __init__(self, message: Text):
        super().__init__(message)
        self.message = message


def double(value: int) -> Tile:
    return Tile(value, value)


def parse_tile(text: str, highest: int) -> Tile:
    """Read "a-b" (either order) as a tile of the double-`highest` set."""
    # NFKC turns full-width digits and dashes into plain ones.
    match = _TILE_TEXT.match(unicodedata.normalize("NFKC", text)) if isinstance(text, str) else None
    if match is None:
        shown = text if len(str(text)) <= 12 else f"{str(text)[:12]}…"
        raise TileError(_('"{text}" is not a tile: write two numbers joined by a dash, like "3-4"', text=shown))
    tile = Tile.of(int(match[1]), int(match[2]))
    if tile.high > highest:
        raise TileError(_('"{text}" is not in a double-{n} set (its ends go from 0 to {n})', text=text, n=highest))
    return tile


def tile_count(highest: int) -> int:
    return (highest + 1) * (highest + 2) // 2


def set_pips(highest: int) -> int:
    return highest * (highest + 1) * (highest + 2) // 2


def all_tiles(highest: int) -> tuple[Tile, ...]:
    return tuple(Tile(high, low) for high in range(highest + 1) for low in range(high + 1))


def max_hand_pips(highest: int, starting_double: int) -> int:
    """The most pips any hand, or all hands together, can hold: the set less the starting double."""
    return set_pips(highest) - 2 * starting_double


@dataclass(frozen=True)
class PipRange:
    low: int
    high: int

    def __contains__(self, pips: int) -> bool:
        return self.low <= pips <= self.high


@cache
def _pool(highest: int, starting_double: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Prefix sums of the pool's pip values, smallest first and largest first."""
    values = sorted(
        tile.pips for tile in all_tiles(highest) if tile != double(starting_double) and tile != DOUBLE_BLANK
    )
    smallest = (0, *accumulate(values))
    largest = (0, *accumulate(reversed(values)))
    return smallest, largest


def hand_range(highest: int, starting_double: int, tiles: int, holds_double_blank: bool) -> PipRange | None:
    """The pip totals that exactly `tiles` tiles can make, or None if no hand has that many."""
    smallest, largest = _pool(highest, starting_double)
    others = tiles - 1 if holds_double_blank else tiles
    if others < 0 or others >= len(smallest):
        return None
    if holds_double_blank and starting_double == 0:
        return None
    return PipRange(smallest[others], largest[others])


def fewest_tiles_for(
    highest: int, starting_double: int, pips: int, holds_double_blank: bool, at_least: int
) -> int | None:
    """The smallest count >= at_least whose hands can total `pips`, or None if none can."""
    for tiles in range(max(at_least, 0), most_tiles(highest, starting_double, holds_double_blank) + 1):
        reach = hand_range(highest, starting_double, tiles, holds_double_blank)
        if reach is not None and pips in reach:
            return tiles
    return None


def most_tiles(highest: int, starting_double: int, holds_double_blank: bool) -> int:
    """How many tiles a hand (or all hands together) can hold while d-d is on the table."""
    smallest, _ = _pool(highest, starting_double)
    return len(smallest) if holds_double_blank and starting_double != 0 else len(smallest) - 1
