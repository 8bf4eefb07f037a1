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

# How a typed list of tiles is read ("12-3 5-5, 0 - 4"). The text is normalised first (NFKC turns
# full-width digits, dashes and commas, and the wide and narrow spaces, into plain ones). Then:
# any dash a phone keyboard makes: hyphen-minus, hyphen, non-breaking hyphen, figure dash,
# en dash, em dash, minus sign; and the star of a phone's keypad, for the pips boxes' keypad
# (inputmode "tel") on an iPhone has no dash and no space, but a star and, behind its "+*#" key,
# "," (pause) and ";" (wait): "8*6,3*2" is typed there, "8-6 3-2" everywhere else;
DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212*"
# the spaces left after NFKC (Python's str.isspace() of those; tests/rules/test_tiles.py checks);
SPACES = "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\u1680\u2028\u2029"
# tiles are parted by runs of these; spaces around a dash are not a parting;
SEPARATORS = ",;" + SPACES
# each end of a tile is one or two decimal digits of any script (\d; int() reads their value).
DIGITS_PER_END = 2

# A pips box takes a count as the table says it: a whole number, or whole numbers joined by plus
# signs ("12+9+4", the hands counted one by one), spaces anywhere; NFKC turns a full-width plus into
# this one. Each number has at most SUM_DIGITS digits of any script, and a sum at most SUM_TERMS.
PLUS = "+"
SUM_DIGITS = 6
SUM_TERMS = 40

_SPACE, _DASH = f"[{re.escape(SPACES)}]", f"[{re.escape(DASHES)}]"
_AROUND_DASH = re.compile(rf"{_SPACE}*({_DASH}){_SPACE}*")
_PARTING = re.compile(f"[{re.escape(SEPARATORS)}]+")
_END = rf"(\d{{1,{DIGITS_PER_END}}})"
_TILE_TEXT = re.compile(rf"{_SPACE}*{_END}{_SPACE}*{_DASH}{_SPACE}*{_END}{_SPACE}*")


def _normal(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


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


def split_tiles(text: str) -> list[str] | None:
    """The tiles typed in one box ("12-3 5-5, 0 - 4"), each still to parse, or None when it is empty."""
    joined = _AROUND_DASH.sub(r"\1", _normal(text))
    return [item for item in _PARTING.split(joined) if item] or None


_TERM = rf"{_SPACE}*\d{{1,{SUM_DIGITS}}}{_SPACE}*"
_SUM = re.compile(rf"{_TERM}(?:{re.escape(PLUS)}{_TERM}){{0,{SUM_TERMS - 1}}}")


def read_pips(text: str) -> int | None:
    """The pips typed in a box, as a number ("25") or a sum ("12+9+4" is 25); None when it is
    neither (empty, a letter, a plus with nothing after it)."""
    normal = _normal(text)
    if not _SUM.fullmatch(normal):
        return None
    return sum(int(term) for term in normal.split(PLUS))


def read_tile_list(text: str) -> list[str] | None:
    """A pips box's text read as a list of tiles ("8-6 3-2"), as the tiles box reads one
    (split_tiles, then parse_tile's shape), each still to check against the set in play; None when
    it is not a list of tiles."""
    items = split_tiles(text)
    if not items:
        return None
    try:
        for item in items:
            parse_tile(item, 10**DIGITS_PER_END - 1)  # the shape only: the rules check the set (check 10)
    except TileError:
        return None
    return items


def parse_tile(text: str, highest: int) -> Tile:
    """Read "a-b" (either order) as a tile of the double-`highest` set."""
    match = _TILE_TEXT.fullmatch(_normal(text)) if isinstance(text, str) else None
    if match is None:
        shown = text if len(str(text)) <= 12 else f"{str(text)[:12]}…"
        raise TileError(_('"{text}" is not a tile: write two numbers joined by a dash, like "3-4"', text=shown))
    tile = Tile.of(int(match[1]), int(match[2]))
    if tile.high > highest:
        raise TileError(_('"{text}" is not in a double-{n} set (its ends go from 0 to {n})', text=text, n=highest))
    return tile


@cache
def digit_zeros() -> tuple[int, ...]:
    """The code point of each script's digit zero that NFKC leaves as it is; its digits one to nine
    follow it (Unicode encodes every script's decimal digits so)."""
    return tuple(
        code
        for code in range(0x20000)  # every decimal digit is in the first two planes
        if unicodedata.decimal(chr(code), None) == 0 and _normal(chr(code)) == chr(code)
    )


def grammar(highest: int) -> dict:
    """How a typed list of tiles is read, as data, for the page scripts that read one as it is typed
    (the tile picker): they follow this and hold no rule of their own. Normalise the text
    (`normalize`), drop the `spaces` around a dash (`dashes`), part it at runs of `separators`;
    a part is a tile when it is 1 to `digits_per_end` digits, a dash, 1 to `digits_per_end` digits,
    nothing else, and neither end is above `highest`. A digit is a code point from one of
    `digit_zeros` to nine above it, worth the difference. A pips box (read_pips) holds whole
    numbers of 1 to `sum_digits` digits, at most `sum_terms` of them joined by `plus`, `spaces`
    anywhere."""
    return {
        "normalize": "NFKC",
        "dashes": DASHES,
        "spaces": SPACES,
        "separators": SEPARATORS,
        "digits_per_end": DIGITS_PER_END,
        "digit_zeros": list(digit_zeros()),
        "highest": highest,
        "plus": PLUS,
        "sum_digits": SUM_DIGITS,
        "sum_terms": SUM_TERMS,
    }


def picker(highest: int) -> dict:
    """The tiles of the double-`highest` set as the tile picker shows them, as data for the page
    scripts, which add up no pips and know no tile of their own: `tiles`, each tile's name and pips,
    highest first; `double_blank`, the tile whose holder gets the 0-0 penalty (holding it ticks
    that box); `on_table`, the tile each starting double puts on the table, which no hand holds
    (check 5)."""
    return {
        "tiles": [[str(tile), tile.pips] for tile in sorted(all_tiles(highest), reverse=True)],
        "double_blank": str(DOUBLE_BLANK),
        "on_table": {str(value): str(double(value)) for value in range(highest + 1)},
    }


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
