"""Finding tiles: each face-up tile is found from its dividing line.

A dividing line is a thin dark bar with the same ivory on both sides of it for about the bar's
length; from it the tile's pose follows (its long axis crosses the bar), and its extent is where
that ivory stops: at the table, at a seam with a touching tile, or at the tile's shaded side. Seen
that way, tiles touching each other, lying at any angle or on a table as pale as they are, are found
alike; a face-down tile, the box, a pattern of the table find no bar with ivory around it.
"""

import math
from dataclasses import dataclass

import cv2
import numpy as np

# The image is searched at most this long (pixels); tiles are read from the full image.
WORK_SIDE = 1000
# A candidate bar shorter than this (pixels) is enlarged to it before its tile is measured.
BAR_PX = 40
BAR_MAX_PX = 72
# A pixel counts as the face's ivory within this colour distance (Lab, 0-255 scale).
FACE_TOLERANCE = 22.0
# A tile's edge: across it, even its most ivory tenth is this far from the face colour.
EDGE_MIN = 14.0
# How much of its tile's width a dividing line spans, when the tile's sides cannot be seen.
TYPICAL_SPAN = 0.8
# Two candidates are of one place when either's centre lies within the other's face enlarged this
# much (1.1: a face read from a seam between two touching tiles has its centre on their edge; a
# touching neighbour's centre is a whole width away, its face's half-width past that edge).
SAME_PLACE = 1.1
# A dividing line is at least this much darker than its face (Lab lightness, 0-255 scale).
BAR_CONTRAST = 60.0
# Strokes are looked for where the image is this much darker than its surroundings (0-255).
DARK_LEVELS = (28, 55)


@dataclass(frozen=True)
class Found:
    centre: tuple[float, float]  # x, y in the image's pixels
    axis: tuple[float, float]  # unit vector along the tile, from its first half to its second
    width: float  # the short side, pixels
    length: float  # the long side, pixels
    score: float  # 0-1: how cleanly the face stood out

    def corners(self) -> np.ndarray:
        ax, ay = self.axis
        nx, ny = -ay, ax
        cx, cy = self.centre
        hl, hw = self.length / 2, self.width / 2
        return np.array(
            [
                (cx - ax * hl - nx * hw, cy - ay * hl - ny * hw),
                (cx - ax * hl + nx * hw, cy - ay * hl + ny * hw),
                (cx + ax * hl + nx * hw, cy + ay * hl + ny * hw),
                (cx + ax * hl - nx * hw, cy + ay * hl - ny * hw),
            ],
            np.float32,
        )


def find_tiles(image: np.ndarray) -> list[Found]:
    """The best candidate of each place, by how cleanly its face stood out."""
    candidates = find_candidates(image)
    return [candidates[index] for index in suppress(candidates, [found.score for found in candidates])]


def find_candidates(image: np.ndarray) -> list[Found]:
    """Every tile a dividing line suggests, overlapping ones included (`suppress` keeps one per place)."""
    height, width = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(height, width))
    work = (
        cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
        if scale < 1
        else image
    )
    lab = cv2.cvtColor(work, cv2.COLOR_RGB2LAB)
    candidates = []
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (15, 15))
    dark = cv2.morphologyEx(lab[..., 0], cv2.MORPH_BLACKHAT, kernel)
    # a dividing line is printed darker than a seam between touching tiles or a pip's rim: where
    # it merges with those into one shape at the first level, it stands alone at the second
    for level in DARK_LEVELS:
        for bar in _bars(dark > level):
            found = _tile_around(lab, bar)
            if found is not None:
                candidates.append(found)
    return [
        Found((f.centre[0] / scale, f.centre[1] / scale), f.axis, f.width / scale, f.length / scale, f.score)
        for f in candidates
    ]


def _bars(dark: np.ndarray):
    """Thin dark strokes: (centre x, y, direction angle, length, thickness)."""
    mask = dark.astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    for index in range(1, count):
        x, y, w, h, area = stats[index]
        if area < 6 or max(w, h) < 8 or max(w, h) > 400:
            continue
        ys, xs = np.nonzero(labels[y : y + h, x : x + w] == index)
        points = np.column_stack([xs + x, ys + y]).astype(np.float32)
        mean = points.mean(axis=0)
        centred = points - mean
        cov = centred.T @ centred / len(points)
        _values, vectors = np.linalg.eigh(cov)
        direction = vectors[:, 1]
        along = centred @ direction
        across = centred @ vectors[:, 0]
        length = float(along.max() - along.min() + 1)
        thickness = float(area / length)
        if length < 8 or length < 4 * thickness or float(np.abs(across).max()) * 2 > 0.35 * length:
            continue
        middle = mean + direction * float(along.max() + along.min()) / 2
        yield float(middle[0]), float(middle[1]), math.atan2(direction[1], direction[0]), length, thickness


def _tile_around(lab: np.ndarray, bar, again: bool = True) -> Found | None:
    cx, cy, angle, bar_len, thickness = bar
    # small bars are enlarged, large ones kept sharp up to BAR_MAX_PX (a seam is a pixel or two)
    zoom = min(max(1.0, BAR_PX / bar_len), BAR_MAX_PX / bar_len)
    unit = round(bar_len * zoom)
    half_w, half_h = 2 * unit, round(unit * 2.5)
    # the patch: the bar horizontal at its centre, `unit` pixels long; first only around the bar,
    # where most candidates (grain, veins, letters) are turned away, then the whole of it
    cos, sin = math.cos(angle), math.sin(angle)
    matrix = np.array([[cos * zoom, sin * zoom, 0.0], [-sin * zoom, cos * zoom, 0.0]], np.float64)
    near_w, near_h = unit, round(unit * 0.5)
    matrix[:, 2] = (near_w, near_h) - matrix[:, :2] @ (cx, cy)
    patch = cv2.warpAffine(lab, matrix, (2 * near_w, 2 * near_h), flags=cv2.INTER_LINEAR, borderValue=(0, 128, 128))
    patch = patch.astype(np.float32)
    if not _looks_like_a_bar(patch, unit, thickness * zoom):
        return None
    matrix[:, 2] += (half_w - near_w, half_h - near_h)
    patch = cv2.warpAffine(lab, matrix, (2 * half_w, 2 * half_h), flags=cv2.INTER_LINEAR, borderValue=(0, 128, 128))
    patch = patch.astype(np.float32)
    # the face colour: the brighter part beside the bar on either side (pips may come close to it)
    near = max(2, round(thickness * zoom / 2 + 2))
    far = near + max(3, round(unit * 0.06))
    left, right = half_w - unit // 2, half_w + unit // 2
    reach = near + max(4, round(unit * 0.3))
    face_above = _ivory(patch[half_h - reach : half_h - near, left:right])
    face_below = _ivory(patch[half_h + near : half_h + reach, left:right])
    if np.linalg.norm(face_above - face_below) > FACE_TOLERANCE:
        return None
    face = (face_above + face_below) / 2
    if face[0] < 90 or math.hypot(face[1] - 128, face[2] - 128) > 45:
        return None
    # a dividing line is printed dark: a grain of wood or a vein of marble is only a little darker
    bar_lightness = _bar_lightness(patch, half_h, half_w, unit)
    if face[0] - bar_lightness < BAR_CONTRAST:
        return None
    if again:
        # the whole line, a spinner in its middle included: a piece of it is measured again whole
        away = np.linalg.norm(patch - face, axis=2)
        line = np.median(away[half_h - 1 : half_h + 2], axis=0) > FACE_TOLERANCE * 1.5
        start, end = _run(line, half_w, round(unit * 0.15))
        # where no ivory lies beside it on either side, the line has run off its face (a line printed
        # to the rim, the rim shaded, and a dark table beyond): its ends are trimmed back to the face
        beside = max(2, round(thickness * zoom / 2 + 2))
        above = away[half_h - beside - 2 : half_h - beside].min(axis=0)
        below = away[half_h + beside : half_h + beside + 2].min(axis=0)
        on_face = np.minimum(above, below) < FACE_TOLERANCE * 1.5
        run = start, end
        while end > start and not on_face[start]:
            start += 1
        while end > start and not on_face[end - 1]:
            end -= 1
        if (start, end) != run and end - start < unit:
            return None  # the bar itself ran off the face: a seam between tiles, not a printed line
        if (start, end) != run:
            # nor is a bar that is the table itself, seen in a gap between tiles: the same colour
            # runs on past the face
            ink = np.median(patch[half_h, start:end], axis=0)
            beyond = np.median(np.concatenate([patch[half_h, run[0] : start], patch[half_h, end : run[1]]]), axis=0)
            if np.linalg.norm(ink - beyond) < FACE_TOLERANCE:
                return None
        if end - start > 1.12 * unit:
            middle = cv2.invertAffineTransform(matrix) @ np.array([(start + end) / 2, half_h, 1.0])
            return _tile_around(lab, (middle[0], middle[1], angle, (end - start) / zoom, thickness), again=False)
    distance = np.linalg.norm(patch - face, axis=2)
    # the sides: where, at the same distance either side of the bar's middle, the ivory stops
    # (in the strips beside the bar again, so a slanted seam still fills its column)
    rows = np.concatenate([distance[half_h - far : half_h - near], distance[half_h + near : half_h + far]])
    columns = np.percentile(rows, 20, axis=0)
    left_edge, right_edge, side_strength = _sides(columns, half_w, unit // 2 + 1, round(unit / 0.55))
    guessed = left_edge is None or not 0.5 < unit / (right_edge - left_edge) < 0.98
    if guessed:
        # no seam shows between tiles touching on both sides: the width a line usually spans
        reach = round(unit / TYPICAL_SPAN / 2)
        left_edge, right_edge, side_strength = half_w - reach, half_w + reach, EDGE_MIN
    tile_w = right_edge - left_edge
    # the ends: likewise in the margins along the sides, where no pip is printed either
    margin_in, margin_out = round(tile_w * 0.06), max(round(tile_w * 0.06) + 2, round(tile_w * 0.13))
    margins = np.concatenate(
        [
            distance[:, left_edge + margin_in : left_edge + margin_out],
            distance[:, right_edge - margin_out : right_edge - margin_in],
        ],
        axis=1,
    )
    lines = np.percentile(margins, 20, axis=1)
    top_edge, bottom_edge, end_strength = _sides(lines, half_h, round(tile_w * 0.75), round(tile_w * 1.3))
    if top_edge is None:
        if guessed:
            return None
        # no end shows (a face as pale as the table beyond it): its halves are square
        top_edge, bottom_edge, end_strength, guessed = half_h - tile_w, half_h + tile_w, EDGE_MIN, True
    weakest = min(side_strength, end_strength)
    if weakest < EDGE_MIN:
        return None
    body = distance[top_edge + 2 : bottom_edge - 1, left_edge + 2 : right_edge - 1] < FACE_TOLERANCE
    share = float(body.mean())
    if share < 0.5:
        return None
    # back to the image
    # the bar is the tile's middle and its halves are square: of the two ends and the width, the
    # middle value gives the half's length (one end misjudged at a seam or a row of pips is outvoted)
    half_length = float(np.median([half_h - top_edge, bottom_edge - half_h, tile_w]))
    top_edge, bottom_edge = round(half_h - half_length), round(half_h + half_length)
    centre_patch = np.array([(left_edge + right_edge) / 2, half_h, 1.0])
    centre = cv2.invertAffineTransform(matrix) @ centre_patch
    axis = (-sin, cos)  # the patch's downward direction, in the image
    score = min(1.0, share * 1.25) * min(1.0, weakest / (2 * EDGE_MIN)) * (0.6 if guessed else 1.0)
    return Found((float(centre[0]), float(centre[1])), axis, tile_w / zoom, (bottom_edge - top_edge) / zoom, score)


def _sides(profile: np.ndarray, middle: int, nearest: int, farthest: int):
    """The face's two edges either side of `middle`: the first place going outward, between
    `nearest` and `farthest`, where the profile rises past EDGE_MIN, then its highest point close
    by. The bar sits in the middle of its tile, so edges found far from symmetric are mirrored from
    the nearer one (a faint seam on one side, a clear one on the other), and an edge not found at
    all from the one that is. Answers both edges and the weaker rise of those found (not
    mirrored); (None, None, 0) when neither side rises."""
    farthest = min(farthest, middle - 1, len(profile) - middle - 1)
    if farthest <= nearest:
        return None, None, 0.0
    reaches = np.arange(nearest, farthest + 1)
    before = np.nonzero(profile[middle - reaches] >= EDGE_MIN)[0]
    after = np.nonzero(profile[middle + reaches] >= EDGE_MIN)[0]
    if not len(before) and not len(after):
        return None, None, 0.0
    low = reaches[before[0]] if len(before) else farthest + 1
    high = reaches[after[0]] if len(after) else farthest + 1
    first, second = _refine(profile, middle - low, 2), _refine(profile, middle + high, 2)
    if not len(before) or not len(after) or abs(low - high) > 0.12 * (low + high):
        if len(before) and (low < high or not len(after)):
            return first, middle + (middle - first), float(profile[first])
        return middle - (second - middle), second, float(profile[second])
    return first, second, float(min(profile[first], profile[second]))


def _looks_like_a_bar(patch: np.ndarray, unit: int, thickness: float) -> bool:
    """The cheap checks of `_tile_around` on a patch of the bar alone (bar centred, 2 units wide)."""
    middle_h, middle_w = patch.shape[0] // 2, patch.shape[1] // 2
    near = max(2, round(thickness / 2 + 2))
    reach = near + max(4, round(unit * 0.3))
    left, right = middle_w - unit // 2, middle_w + unit // 2
    above = _ivory(patch[max(0, middle_h - reach) : middle_h - near, left:right])
    below = _ivory(patch[middle_h + near : middle_h + reach, left:right])
    face = (above + below) / 2
    bar = _bar_lightness(patch, middle_h, middle_w, unit)
    return (
        np.linalg.norm(above - below) <= FACE_TOLERANCE
        and face[0] >= 90
        and math.hypot(face[1] - 128, face[2] - 128) <= 45
        and face[0] - bar >= BAR_CONTRAST
    )


def _bar_lightness(patch: np.ndarray, middle_h: int, middle_w: int, unit: int) -> float:
    """How light the bar is along its middle third: the darkest of the rows about its centre, each
    row's median (a thin line, blurred, is darkest in one row, a pixel off its centre or on it)."""
    rows = patch[middle_h - 2 : middle_h + 3, middle_w - unit // 3 : middle_w + unit // 3, 0]
    return float(np.median(rows, axis=1).min())


def _ivory(region: np.ndarray) -> np.ndarray:
    """The face colour in a region of it: the median of its brighter half."""
    pixels = region.reshape(-1, 3)
    return np.median(pixels[pixels[:, 0] >= np.median(pixels[:, 0])], axis=0)


def _run(line: np.ndarray, middle: int, skip: int) -> tuple[int, int]:
    """The stretch of `line` around `middle` that is set, gaps of one pixel bridged, and up to `skip`
    unset pixels at the middle (a pale spinner) crossed."""
    start, end = middle, middle
    while start > middle - skip and start > 0 and not line[start - 1]:
        start -= 1
    while end < middle + skip and end < len(line) - 1 and not line[end + 1]:
        end += 1
    while start > 0 and line[max(0, start - 2) : start].any():
        start -= 1
    while end < len(line) - 1 and line[end + 1 : end + 3].any():
        end += 1
    return start, end + 1


def _refine(profile: np.ndarray, position: int, slack: int) -> int:
    low, high = max(0, position - slack), min(len(profile), position + slack + 1)
    return low + int(np.argmax(profile[low:high]))


def suppress(candidates: list[Found], scores: list[float]) -> list[int]:
    """The best candidate of each place, by `scores`, as indices: one whose centre lies inside a
    kept tile, enlarged by SAME_PLACE (or that holds a kept one's centre), is dropped."""
    kept: list[int] = []
    for index in sorted(range(len(candidates)), key=lambda i: -scores[i]):
        found = candidates[index]
        if any(
            _inside(found.centre, candidates[other], SAME_PLACE) or _inside(candidates[other].centre, found, SAME_PLACE)
            for other in kept
        ):
            continue
        kept.append(index)
    return kept


def _inside(point, found: Found, shrink: float) -> bool:
    dx, dy = point[0] - found.centre[0], point[1] - found.centre[1]
    ax, ay = found.axis
    along = abs(dx * ax + dy * ay)
    across = abs(-dx * ay + dy * ax)
    return along < found.length / 2 * shrink and across < found.width / 2 * shrink
