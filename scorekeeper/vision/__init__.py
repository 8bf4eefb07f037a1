"""The vision room: a photo of the tiles left in a hand, read as tiles and their pips.

Pure functions of an image (numpy, OpenCV, no Django, nothing of ours but this room): the API's
`POST /api/v1/hands/count/` decodes and bounds the upload (`image.py`) and calls `count_hand`; what
is done with the answer (a player's tiles and pips on the round form) is the caller's.

How a photo is read (classical computer vision to find the tiles, a small learned model to read them):
- `find.py` finds each face-up tile from its dividing line: a thin dark bar with the same ivory
  on both sides; the tile's pose follows from the bar and its extent from where the ivory stops
  (the table, a seam with a touching tile, the tile's shaded side).
  A candidate must have a dark line (not a grain of wood or a vein of marble) with the same ivory
  on both sides; where no seam shows between tiles touching on both sides, the width is the one a
  line usually spans. The halves are taken as square, centred on the line.
- `read.py` straightens each tile; `halves.py`, a network of one hidden layer trained here on
  synthetic photos (`train.py`, weights in `halves.npz`), says how many pips each half shows, never
  more than the set's highest. Spots that are not solid and thin, even where they are darkest (a
  face-down tile's logo, letters; not pips blurred into one outline), mean no tile face: that tile is left out, as is one read with a confidence under NO_TILE_BELOW.
  Sets above double-12 (which the network was never shown) have a half above 12 counted by its spots.
- `count_hand` (here) reads every candidate `find.py` suggests, overlapping ones included (but one
  far larger than most, which would put out the tiles it spans), and
  keeps the one read most surely in each place (a face measured from a seam or across its
  neighbours, too large, is read less surely than the face itself); then leaves out what is far
  larger, smaller or darker than the rest of the hand (or, read unsurely, somewhat larger, or
  somewhat darker and of another hue),
  orders each tile's halves (`order.py`), sums them, and lists what a reader should check (`Doubt`).

`faces.py` holds real sets' pip layouts and colours, and `synthetic.py` draws labelled photos from
them for the tests, `bench/vision.py` and `train.py`; none of the three is on the request path.
"""

from dataclasses import dataclass

import numpy as np

from .find import find_candidates, suppress
from .order import reading_order
from .read import read_tile

# A tile read with less confidence than this is listed as a doubt ("unclear").
UNCLEAR_BELOW = 0.5
# Below this, what was found is taken for no tile at all: a box's lettering, a pattern of the table,
# a face taken twice its size (on synthetic photos drawn for choosing it, no tile read right was
# this unsure, and over half of the things found where no tile lies were).
NO_TILE_BELOW = 0.2
# With this many tiles found, one far larger or smaller than most (a patch of the table taken for a
# face, a speck) is left out: from 1.6 times the middle tile's length, or at most half of it.
SIZED_FROM = 3
# ...and one this much longer than the middle tile and read unsurely (a patch of marble between its
# veins: on synthetic photos drawn for choosing it, no tile was over 1.12 of its hand's middle one,
# and most things found where no tile lies were over 1.3, read under 0.5)
LONGER_UNSURE = 1.2
# ...and one whose face is darker than this share of the middle tile's (a box's lid, a tile's side, a
# patch of the table: on synthetic photos drawn for choosing it, no face was under 0.85 of the middle)
DARKEST_FACE = 0.72
# ...and one read unsurely whose face is both somewhat darker than the middle tile's (under this
# share) and of another hue (this far from the hand's middle colour, Lab's a and b, 0-255 scales): a
# patch of marble between its veins, grey beside ivory (on synthetic photos drawn for choosing it, the
# tiles read right that were this far off in hue were lighter than the middle, under a glare)
DARKER_FACE, OTHER_HUE = 0.95, 6.0
SMALLEST_SET, LARGEST_SET = 6, 18


@dataclass(frozen=True)
class Tile:
    halves: tuple[int, int]  # first the top half of an upright tile, else the half nearer the left
    box: tuple[int, int, int, int]  # x, y, w, h in the given image's pixels
    confidence: float  # 0-1


@dataclass(frozen=True)
class Doubt:
    tile: int  # index into Hand.tiles
    reason: str  # "above_set", "found_twice" or "unclear"


@dataclass(frozen=True)
class Hand:
    tiles: tuple[Tile, ...]
    pips: int
    doubts: tuple[Doubt, ...]


def count_hand(image: np.ndarray, *, tile_set: int) -> Hand:
    """The tiles seen in `image` (H x W x 3 uint8 RGB, EXIF-rotated, long side at most 1600 px).

    `pips` is the sum of the halves of every tile listed, doubted tiles included: a doubt is
    shown to the player to check, never dropped silently. A tile is doubted when a half is above
    `tile_set` ("above_set"), when the same tile was already found in the photo ("found_twice": a
    set holds each tile once; the later one is doubted), or when it was read with a confidence
    under UNCLEAR_BELOW ("unclear"). A photo with no tile gives no tiles and 0 pips.
    """
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("image must be an H x W x 3 uint8 RGB array")
    if not SMALLEST_SET <= tile_set <= LARGEST_SET:
        raise ValueError(f"tile_set must be between {SMALLEST_SET} and {LARGEST_SET}")
    candidates, readings = [], []
    for found in find_candidates(image):
        reading = read_tile(image, found, highest=tile_set)
        if not reading.pips_like or reading.confidence < NO_TILE_BELOW:
            continue  # a face-down tile's logo, a printed pattern, letters: no tile face
        candidates.append(found)
        readings.append(reading)
    if len(candidates) >= SIZED_FROM:
        # a face far larger than most candidates (a row of tiles on a pale table, taken whole from
        # the shade along it) would put out the tiles it spans: it is no tile
        usual = float(np.median([found.length for found in candidates]))
        readings = [reading for found, reading in zip(candidates, readings, strict=True) if found.length < 1.6 * usual]
        candidates = [found for found in candidates if found.length < 1.6 * usual]
    # of the candidates in one place (a face measured whole and from a piece of its line, or too
    # large across its neighbours), the one read most surely
    tiles, lengths, faces = [], [], []
    for index in suppress(candidates, [reading.confidence for reading in readings]):
        found, (first, second) = candidates[index], readings[index].counts
        ax, ay = found.axis
        quarter = found.length / 4
        first_centre = (found.centre[0] - ax * quarter, found.centre[1] - ay * quarter)
        second_centre = (found.centre[0] + ax * quarter, found.centre[1] + ay * quarter)
        halves = (first, second) if reading_order(first_centre, second_centre) else (second, first)
        tiles.append(Tile(halves, _box(found.corners(), image.shape), round(readings[index].confidence, 3)))
        lengths.append(found.length)
        faces.append(readings[index].ivory)
    if len(tiles) >= SIZED_FROM:
        # the tiles of a hand are of one set, seen from one place in one light: far larger or
        # smaller, or far darker, or darker and of another hue and read unsurely, is no tile
        usual = float(np.median(lengths))
        light, hue = np.median(np.array(faces)[:, 0]), np.median(np.array(faces)[:, 1:], axis=0)
        tiles = [
            tile
            for tile, length, face in zip(tiles, lengths, faces, strict=True)
            if 0.5 < length / usual < 1.6
            and face[0] >= DARKEST_FACE * light
            and not (length / usual > LONGER_UNSURE and tile.confidence < UNCLEAR_BELOW)
            and not (
                face[0] < DARKER_FACE * light
                and np.hypot(face[1] - hue[0], face[2] - hue[1]) > OTHER_HUE
                and tile.confidence < UNCLEAR_BELOW
            )
        ]
    tiles.sort(key=lambda tile: (tile.box[1] + tile.box[3] / 2, tile.box[0]))
    return hand_of(tiles, tile_set=tile_set)


def hand_of(tiles: list[Tile], *, tile_set: int) -> Hand:
    """The hand these tiles make: their sum, and the doubts the rules of a set raise."""
    doubts, seen = [], set()
    for index, tile in enumerate(tiles):
        if max(tile.halves) > tile_set:
            doubts.append(Doubt(index, "above_set"))
        elif tuple(sorted(tile.halves)) in seen:
            doubts.append(Doubt(index, "found_twice"))
        elif tile.confidence < UNCLEAR_BELOW:
            doubts.append(Doubt(index, "unclear"))
        seen.add(tuple(sorted(tile.halves)))
    return Hand(tuple(tiles), sum(sum(tile.halves) for tile in tiles), tuple(doubts))


def _box(corners: np.ndarray, shape) -> tuple[int, int, int, int]:
    height, width = shape[:2]
    x0, y0 = (max(0, int(np.floor(v))) for v in corners.min(axis=0))
    x1 = min(width, int(np.ceil(corners[:, 0].max())))
    y1 = min(height, int(np.ceil(corners[:, 1].max())))
    return x0, y0, max(0, x1 - x0), max(0, y1 - y0)
