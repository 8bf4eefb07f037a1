"""Reading a found tile: its face straightened, the pips of each half read by the learned reader
(`halves.py`), and its spots looked at, for what is no tile face and for sets above double-12.

A pip is any spot that differs from the face's ivory: darker (black pips) or more coloured (the
colours of double-12 sets, yellow as well as dark blue), so a glare, which is only paler, is never
one. Pips that touch (10 to 12 on a double-12 face) are counted by their area against a single
pip's, learned from the separate pips of the same tile, or by their shape when all of them touch.
"""

from dataclasses import dataclass

import cv2
import numpy as np

from .find import Found
from .halves import VALUES, read_halves

# The straightened face: a half is SIDE x SIDE pixels.
SIDE = 64
# A pixel belongs to a pip beyond this distance from the ivory (darkness plus colour).
PIP_DISTANCE = 34.0
MARGIN = 5  # pixels of a half's rim left out (the tile's bevel and edge)
BAR_BAND = 4  # pixels either side of the dividing line left out
EDGE_BAND = 0.1  # a spot centred this near a half's rim (share of its side) is no pip of it


@dataclass(frozen=True)
class Reading:
    counts: tuple[int, int]  # the first half's pips (along the tile's axis), then the second's
    confidence: float
    pips_like: bool  # every spot is round, or a row of round ones: False for letters, a logo, a pattern
    ivory: tuple[float, float, float] = (255.0, 128.0, 128.0)  # the face's colour (Lab, 0-255 scales)


def straighten(image: np.ndarray, found: Found) -> np.ndarray:
    corners = found.corners()  # first-half end's two corners, then the second-half end's
    target = np.array([[0, 0], [SIDE, 0], [SIDE, 2 * SIDE], [0, 2 * SIDE]], np.float32)
    # corners: (-axis,-normal), (-axis,+normal), (+axis,+normal), (+axis,-normal)
    matrix = cv2.getPerspectiveTransform(corners, target)
    return cv2.warpPerspective(image, matrix, (SIDE, 2 * SIDE), flags=cv2.INTER_AREA)


def read_tile(image: np.ndarray, found: Found, *, highest: int = 12) -> Reading:
    """The tile's halves, none above `highest` (the set's largest half): by the learned reader
    (`halves.py`) up to 12, by counting spots above it (no set with more pips was shown to it)."""
    face = straighten(image, found)
    lab = cv2.cvtColor(face, cv2.COLOR_RGB2LAB).astype(np.float32)
    lightness = lab[..., 0]
    bright = lab[lightness >= np.percentile(lightness, 50)]
    ivory = np.median(bright, axis=0)
    darker = np.maximum(0, ivory[0] - lightness)
    colour = np.hypot(lab[..., 1] - ivory[1], lab[..., 2] - ivory[2])
    distance = darker + 1.5 * colour
    mask = (distance > PIP_DISTANCE).astype(np.uint8)
    mask[:MARGIN], mask[-MARGIN:], mask[:, :MARGIN], mask[:, -MARGIN:] = 0, 0, 0, 0
    mask[SIDE - BAR_BAND : SIDE + BAR_BAND] = 0
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    blobs = [_blobs(mask[:SIDE]), _blobs(mask[SIDE:])]
    single = _single_area([blob for half in blobs for blob in half])
    counts, doubt = [], 0.0
    for half in blobs:
        total = 0
        for area, elongation, _ in half:
            if single:
                estimate = area / single
                n = max(1, round(estimate))
                doubt = max(doubt, abs(estimate - n) if n > 1 else 0.0)
            else:
                n = max(1, round(elongation))
            total += n
        counts.append(total)
    pips_like = all(solid for half in blobs for _, _, solid in half)
    if not pips_like:
        # pips close together, blurred into one outline (an 8's ring of pips), part at their
        # darkest: a printed ring or letters stay one stroke there
        strict = mask & (distance > 2 * PIP_DISTANCE)
        pips_like = all(solid for half in (strict[:SIDE], strict[SIDE:]) for _, _, solid in _blobs(half))
    if highest > VALUES - 1 and max(counts) > VALUES - 1:
        ambiguous = float(np.mean(np.abs(distance - PIP_DISTANCE) < 8))
        confidence = max(0.0, min(1.0, found.score * (1 - doubt) * (1 - 2 * ambiguous)))
        return Reading((counts[0], counts[1]), confidence, pips_like, tuple(map(float, ivory)))
    learned, certainty = read_halves(face, highest)
    return Reading(learned, max(0.0, min(1.0, found.score * certainty)), pips_like, tuple(map(float, ivory)))


def _blobs(mask: np.ndarray) -> list[tuple[float, float, bool]]:
    """Each spot's area, its length over its width, and whether it is solid (a pip, or pips in a
    row, fill their outline; a letter or a ring does not), the specks left out."""
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    blobs = []
    for index in range(1, count):
        area = float(stats[index, cv2.CC_STAT_AREA])
        if area < 12:
            continue
        x, y = centres[index]
        if not (EDGE_BAND * SIDE < x < (1 - EDGE_BAND) * SIDE and EDGE_BAND * SIDE < y < (1 - EDGE_BAND) * SIDE):
            continue  # no pip is printed that near the rim: a neighbour's, seen past a face taken too wide
        points = np.column_stack(np.nonzero(labels == index)).astype(np.float32)
        (_, _), (w, h), _ = cv2.minAreaRect(points)
        long, short = max(w, h, 1.0), max(min(w, h), 1.0)
        hull = cv2.contourArea(cv2.convexHull(points))
        # pips, even touching in a row, fill their outline and are at most a pip or two thick
        solid = (area >= 0.8 * hull or area < 40) and short < 0.4 * SIDE
        blobs.append((area, long / short, solid))
    if blobs:
        largest = max(area for area, _, _ in blobs)
        blobs = [blob for blob in blobs if blob[0] >= 0.2 * largest or blob[0] >= 25]
    return blobs


def _single_area(blobs: list[tuple[float, float, bool]]) -> float | None:
    """A single pip's area: the median of the round spots, if the tile has any."""
    round_ones = [area for area, elongation, _ in blobs if elongation < 1.35]
    if not round_ones:
        return None
    return float(np.median(round_ones))
