"""Synthetic hand photos with exact labels, for tests and `bench/vision.py` (never the request path).

`hand(seed, tile_set=12)` draws one photo from a seed alone: the same seed gives the same pixels
and labels on any machine with the same OpenCV and numpy. A photo is a table (wood, marble, felt,
a dark or a light cloth), a hand of distinct tiles of a double-6, -9 or -12 set laid in rows
(touching side by side, a few overlapping at their rims), end to end in a train (touching, a few
overlapping at their ends) or scattered at any angle, with what else lies on a table beside it
(face-down tiles, a pen, a coin, a playing card: never labelled, never to be counted), each tile
drawn with its thickness and shadow, its pips where real sets print them (`faces.py`: black, or a
colour per value as double-12 sets do), a dividing line (with a spinner or not); then the camera: a perspective,
uneven light, a glare, blur, sensor noise and a JPEG round trip.

Each label is a tile's halves in reading order (`order.py`), its four corners and its box in the
photo's pixels.
"""

import math
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from .faces import PIP_COLOURS, PIP_LAYOUTS
from .order import reading_order

SETS = (6, 9, 12)
# Tiles in a hand, by set (a Chicken Foot hand, after some drawing).
HAND_SIZES = {6: (1, 8), 9: (1, 12), 12: (1, 15)}
BACKGROUNDS = ("wood", "marble", "felt", "dark", "light")
# Shares of photos with their tiles laid end to end in a train; with face-down tiles beside the hand;
# with a pen, a coin or a playing card on the table.
TRAINS, BACKS, THINGS = 0.2, 0.25, 0.35


@dataclass(frozen=True)
class LabelledTile:
    halves: tuple[int, int]
    corners: tuple[tuple[float, float], ...]  # the face's four corners in the photo
    box: tuple[int, int, int, int]  # x, y, w, h

    @property
    def centre(self) -> tuple[float, float]:
        xs, ys = zip(*self.corners, strict=True)
        return sum(xs) / 4, sum(ys) / 4


@dataclass(frozen=True)
class LabelledHand:
    seed: int
    tile_set: int
    background: str
    image: np.ndarray  # H x W x 3 uint8 RGB
    tiles: tuple[LabelledTile, ...]
    # what else lies on the table, never labelled and never to be counted: "back" (a face-down
    # tile), "pen", "coin", "card" (a playing card)
    others: tuple[str, ...] = ()

    @property
    def pips(self) -> int:
        return sum(sum(tile.halves) for tile in self.tiles)


def hands(seed: int, count: int, sets: tuple[int, ...] = SETS, *, table: bool = True) -> Iterator[LabelledHand]:
    """`count` photos, the sets taken in turn, photo i drawn from seed `seed * 100_003 + i`."""
    for i in range(count):
        yield hand(seed * 100_003 + i, tile_set=sets[i % len(sets)], table=table)


def hand(seed: int, *, tile_set: int, table: bool = True) -> LabelledHand:
    """With `table` False, no train, face-down tile or thing is drawn: the photos `train.py` made
    the committed weights from, before they were (the rest of each photo is drawn alike)."""
    rng = np.random.default_rng(seed)
    long_side = int(rng.integers(900, 1401))
    ratio = rng.choice([0.75, 1.0, 4 / 3])
    width, height = (long_side, int(long_side * 0.75)) if ratio < 1 else (int(long_side * 0.75), long_side)
    if ratio == 1.0:
        width = height = int(long_side * 0.85)
    background = str(rng.choice(BACKGROUNDS))
    canvas = cv2.resize(_background(rng, background, height // 2, width // 2), (width, height))
    faces = _tiles(rng, tile_set)
    # what real hands add (a train of tiles end to end, face-down tiles, a pen, a coin, a card) is
    # drawn from a second generator of the same seed, so the rest of each photo is drawn as before
    things = np.random.default_rng([seed, 41])
    placed = (
        _train(things, len(faces), width, height) if table and len(faces) >= 2 and things.random() < TRAINS else None
    ) or _place(rng, len(faces), width, height)
    others = _others(things, canvas, [quad for quad, _ in placed], placed[0][1], faces[0][1]) if table else []
    _draw(rng, canvas, faces, placed, [back for kind, back in others if kind == "back"])
    image, corners = _camera(rng, canvas, [corners for corners, _ in placed])
    tiles = []
    for (halves, _), quad in zip(faces, corners, strict=True):
        tiles.append(_label(halves, quad, image.shape))
    return LabelledHand(seed, tile_set, background, image, tuple(tiles), tuple(kind for kind, _ in others))


# --- the table -------------------------------------------------------------------------------


def _smooth_noise(rng, height, width, cells, amplitude):
    small = rng.normal(0, 1, (max(2, height // cells), max(2, width // cells))).astype(np.float32)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC) * amplitude


def _background(rng, kind, height, width) -> np.ndarray:
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    if kind == "wood":
        base = np.array([rng.uniform(120, 200), rng.uniform(80, 140), rng.uniform(40, 90)], np.float32)
        angle = rng.uniform(0, math.pi)
        along = xs * math.cos(angle) + ys * math.sin(angle)
        warp = _smooth_noise(rng, height, width, 60, 25)
        grain = np.sin((along + warp) / rng.uniform(4, 12)) * 0.5 + 0.5
        shade = 1 - 0.25 * grain[..., None] + _smooth_noise(rng, height, width, 120, 0.06)[..., None]
        image = base * shade
    elif kind == "marble":
        base = np.full(3, rng.uniform(185, 235), np.float32) + rng.uniform(-6, 6, 3).astype(np.float32)
        turbulence = _smooth_noise(rng, height, width, 40, 30) + _smooth_noise(rng, height, width, 12, 6)
        veins = np.abs(np.sin((xs * rng.uniform(0.5, 1) + ys + turbulence) / rng.uniform(25, 60))) ** 8
        image = base - veins[..., None] * rng.uniform(40, 110)
    elif kind == "felt":
        colours = [(30, 110, 60), (25, 70, 130), (130, 30, 40), (40, 90, 90)]
        base = np.array(colours[rng.integers(len(colours))], np.float32) * rng.uniform(0.7, 1.2)
        image = base + _smooth_noise(rng, height, width, 3, 6)[..., None]
    elif kind == "dark":
        base = np.full(3, rng.uniform(15, 70), np.float32) + rng.uniform(-8, 8, 3).astype(np.float32)
        image = base + _smooth_noise(rng, height, width, 4, 5)[..., None]
    else:  # light: a pale cloth or table
        base = np.array([rng.uniform(160, 215), rng.uniform(155, 210), rng.uniform(145, 205)], np.float32)
        image = base + _smooth_noise(rng, height, width, 4, 4)[..., None]
    return np.clip(image, 0, 255).astype(np.float32)


# --- the tiles -------------------------------------------------------------------------------


def _tiles(rng, tile_set):
    """The hand's tiles (distinct, as a set has each once) and how each is printed."""
    every = [(a, b) for a in range(tile_set + 1) for b in range(a, tile_set + 1)]
    low, high = HAND_SIZES[tile_set]
    count = int(rng.integers(low, high + 1))
    picks = rng.choice(len(every), size=count, replace=False)
    coloured = tile_set == 12 or rng.random() < 0.35
    style = {
        "ivory": rng.uniform(225, 250) * np.array([1, rng.uniform(0.96, 1), rng.uniform(0.8, 0.95)], np.float32),
        "coloured": coloured,
        "black": np.array([rng.uniform(10, 45)] * 3, np.float32),
        "pip_ratio": rng.uniform(0.075, 0.09) if tile_set == 12 else rng.uniform(0.08, 0.11),
        "line_span": rng.uniform(0.66, 0.9),
        "line_thickness": rng.uniform(0.03, 0.055),
        "spinner": rng.random() < 0.4,
        "sides_turned": rng.random() < 0.2,  # a 6 printed as rows, not columns
    }
    faces = []
    for index in picks:
        a, b = every[index]
        if rng.random() < 0.5:
            a, b = b, a
        faces.append(((a, b), style))
    return faces


def _place(rng, count, width, height):
    """Each tile's face corners (top-left, top-right, bottom-right, bottom-left of an upright face,
    whose first half is the top one) and its size."""
    mode = "scatter" if count <= 3 or rng.random() < 0.3 else "rows"
    for _ in range(200):
        short = min(width, height)
        tile_w = rng.uniform(0.06, 0.13) * short if count > 6 else rng.uniform(0.08, 0.2) * short
        placed = (
            _rows(rng, count, width, height, tile_w) if mode == "rows" else _scatter(rng, count, width, height, tile_w)
        )
        if placed is not None:
            return placed
    raise RuntimeError("no room for the tiles")  # pragma: no cover (sizes shrink until they fit)


def _corners(cx, cy, tile_w, angle):
    cos, sin = math.cos(angle), math.sin(angle)
    local = [(-tile_w / 2, -tile_w), (tile_w / 2, -tile_w), (tile_w / 2, tile_w), (-tile_w / 2, tile_w)]
    return np.array([(cx + x * cos - y * sin, cy + x * sin + y * cos) for x, y in local], np.float32)


def _inside(quads, width, height, margin):
    points = np.concatenate(quads)
    return (
        points[:, 0].min() > margin
        and points[:, 1].min() > margin
        and points[:, 0].max() < width - margin
        and points[:, 1].max() < height - margin
    )


def _rows(rng, count, width, height, tile_w):
    rows = 1 if count <= 8 or rng.random() < 0.3 else 2
    per_row = math.ceil(count / rows)
    gap = tile_w * (rng.uniform(-0.04, 0.02) if rng.random() < 0.5 else rng.uniform(0.02, 0.3))
    row_gap = tile_w * rng.uniform(0.1, 0.6)
    angle = (
        rng.uniform(-0.45, 0.45) + (math.pi / 2 if rng.random() < 0.25 else 0) + (math.pi if rng.random() < 0.5 else 0)
    )
    cx, cy = width / 2 + rng.uniform(-0.1, 0.1) * width, height / 2 + rng.uniform(-0.1, 0.1) * height
    cos, sin = math.cos(angle), math.sin(angle)
    placed = []
    for i in range(count):
        row, col = divmod(i, per_row)
        in_row = min(per_row, count - row * per_row)
        x = (col - (in_row - 1) / 2) * (tile_w + gap) + rng.normal(0, tile_w * 0.02)
        y = (row - (rows - 1) / 2) * (2 * tile_w + row_gap) + rng.normal(0, tile_w * 0.03)
        px, py = cx + x * cos - y * sin, cy + x * sin + y * cos
        tilt = angle + rng.normal(0, 0.03) + (math.pi if rng.random() < 0.5 else 0)
        placed.append((_corners(px, py, tile_w, tilt), tile_w))
    if not _inside([quad for quad, _ in placed], width, height, tile_w * 0.3):
        return None
    return placed


def _scatter(rng, count, width, height, tile_w):
    placed, centres = [], []
    for _ in range(count):
        for _attempt in range(60):
            px, py = rng.uniform(tile_w * 1.3, width - tile_w * 1.3), rng.uniform(tile_w * 1.3, height - tile_w * 1.3)
            if all(math.hypot(px - qx, py - qy) > tile_w * 2.3 for qx, qy in centres):
                break
        else:
            return None
        centres.append((px, py))
        placed.append((_corners(px, py, tile_w, rng.uniform(0, 2 * math.pi)), tile_w))
    if not _inside([quad for quad, _ in placed], width, height, tile_w * 0.2):
        return None
    return placed


def _face(rng, halves, style, tile_w) -> tuple[np.ndarray, np.ndarray]:
    """The upright face, 2x oversampled: its colours and its alpha (rounded corners)."""
    scale = 2
    w = max(8, round(tile_w * scale))
    h = 2 * w
    alpha = np.zeros((h, w), np.uint8)
    radius = max(2, round(w * rng.uniform(0.06, 0.14)))
    cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for x, y in (
        (radius, radius),
        (w - 1 - radius, radius),
        (radius, h - 1 - radius),
        (w - 1 - radius, h - 1 - radius),
    ):
        cv2.circle(alpha, (x, y), radius, 255, -1, cv2.LINE_AA)
    ivory = style["ivory"] + rng.normal(0, 2, 3).astype(np.float32)
    face = np.empty((h, w, 3), np.float32)
    face[:] = ivory
    # the rounded rim: darker towards the edge, so touching tiles meet at a seam
    rim = cv2.GaussianBlur((alpha > 0).astype(np.float32), (0, 0), w * rng.uniform(0.015, 0.03))
    face *= (rng.uniform(0.55, 0.75) + 0.4 * np.clip((rim - 0.5) * 2.5, 0, 1))[..., None].clip(0, 1)
    line_t = max(2, round(w * style["line_thickness"]))
    span = style["line_span"] * w
    line_colour = tuple(float(v) for v in style["black"])
    cv2.rectangle(
        face,
        (round((w - span) / 2), h // 2 - line_t // 2),
        (round((w + span) / 2), h // 2 + line_t // 2),
        line_colour,
        -1,
        cv2.LINE_AA,
    )
    if style["spinner"]:
        cv2.circle(face, (w // 2, h // 2), max(2, round(w * 0.06)), (190.0, 160.0, 80.0), -1, cv2.LINE_AA)
    pip_r = style["pip_ratio"] * w
    for half, value in enumerate(halves):
        colour = np.array(PIP_COLOURS[value], np.float32) if style["coloured"] and value else style["black"]
        colour = colour * rng.uniform(0.85, 1.05)
        for x, y in PIP_LAYOUTS[value]:
            if style["sides_turned"] and value in (6, 7):
                x, y = y, x
            if half == 1:  # the lower half is the same print turned round
                x, y = 1 - x, 1 - y
            cx, cy = x * w, (y + half) * w
            centre = (round(cx * 16), round(cy * 16))
            cv2.circle(face, centre, round(pip_r * 16), tuple(float(v) * 0.7 for v in colour), -1, cv2.LINE_AA, 4)
            cv2.circle(face, centre, round(pip_r * 0.82 * 16), tuple(float(v) for v in colour), -1, cv2.LINE_AA, 4)
    return face, alpha


def _paste(canvas, layer, alpha, matrix, opacity=1.0):
    """Blend `layer` (with `alpha`) onto `canvas` through the affine `matrix`, in its bounding box."""
    height, width = canvas.shape[:2]
    h, w = alpha.shape
    ends = cv2.transform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32), matrix)[0]
    x0, y0 = (max(0, int(v) - 2) for v in ends.min(axis=0))
    x1, y1 = (min(limit, int(v) + 3) for v, limit in zip(ends.max(axis=0), (width, height), strict=True))
    if x1 <= x0 or y1 <= y0:
        return
    shifted = matrix.copy()
    shifted[:, 2] -= (x0, y0)
    size = (x1 - x0, y1 - y0)
    a = cv2.warpAffine(alpha.astype(np.float32) / 255, shifted, size, flags=cv2.INTER_AREA)[..., None] * opacity
    region = canvas[y0:y1, x0:x1]
    if layer.ndim == 1:
        region[:] = region * (1 - a) + layer * a
    else:
        top = cv2.warpAffine(layer, shifted, size, flags=cv2.INTER_AREA)
        region[:] = region * (1 - a) + top * a


def _draw(rng, canvas, faces, placed, backs=()):
    light = rng.uniform(0, 2 * math.pi)
    thickness = rng.uniform(0.1, 0.22)
    offset = np.array([math.cos(light), math.sin(light)], np.float32)
    shadow_strength = rng.uniform(0.25, 0.6)
    drawn = []
    for back, alpha, quad, tile_w in backs:  # face-down tiles: drawn as the others, their backs up
        h, w = alpha.shape
        matrix = cv2.getAffineTransform(np.array([[0, 0], [w, 0], [w, h]], np.float32), quad[:3])
        drawn.append((back, alpha, matrix, tile_w, faces[0][1]))
    for (halves, style), (quad, tile_w) in zip(faces, placed, strict=True):
        face, alpha = _face(rng, halves, style, tile_w)
        h, w = alpha.shape
        source = np.array([[0, 0], [w, 0], [w, h]], np.float32)
        matrix = cv2.getAffineTransform(source, quad[:3])
        drawn.append((face, alpha, matrix, tile_w, style))
    for _, alpha, matrix, tile_w, _ in drawn:  # shadows under every tile first
        small = cv2.resize(alpha, (alpha.shape[1] // 4 + 1, alpha.shape[0] // 4 + 1), interpolation=cv2.INTER_AREA)
        shadow = cv2.resize(cv2.GaussianBlur(small, (0, 0), max(1.0, small.shape[1] * 0.06)), alpha.shape[::-1])
        moved = matrix.copy()
        moved[:, 2] += offset * tile_w * (thickness + 0.12)
        _paste(canvas, np.zeros(3, np.float32), shadow, moved, shadow_strength)
    for _, alpha, matrix, tile_w, style in drawn:  # the tiles' sides, seen past their faces
        moved = matrix.copy()
        moved[:, 2] += offset * tile_w * thickness
        _paste(canvas, style["ivory"] * 0.72, alpha, moved)
    for face, alpha, matrix, _, _ in drawn:
        _paste(canvas, face, alpha, matrix)


def _train(rng, count, width, height):
    """Tiles laid end to end in one or two lines (a train, as players lay their hand out), touching
    or nearly, a few overlapping at their ends; None when they do not fit."""
    lines = 1 if count <= 4 else math.ceil(count / 6)
    per_line = math.ceil(count / lines)
    for _ in range(30):
        tile_w = rng.uniform(0.06, 0.09) if count > 4 else rng.uniform(0.08, 0.14)
        tile_w *= min(width, height)
        gap = tile_w * rng.uniform(-0.05, 0.04)
        line_gap = tile_w * rng.uniform(-0.02, 0.5)  # the lines side by side, touching or apart
        angle = rng.uniform(-0.4, 0.4) + (math.pi / 2 if rng.random() < 0.3 else 0)
        cx, cy = width / 2 + rng.uniform(-0.08, 0.08) * width, height / 2 + rng.uniform(-0.08, 0.08) * height
        cos, sin = math.cos(angle), math.sin(angle)
        placed = []
        for i in range(count):
            line, along = divmod(i, per_line)
            in_line = min(per_line, count - line * per_line)
            x = (along - (in_line - 1) / 2) * (2 * tile_w + gap) + rng.normal(0, tile_w * 0.02)
            y = (line - (lines - 1) / 2) * (tile_w + line_gap) + rng.normal(0, tile_w * 0.02)
            px, py = cx + x * cos - y * sin, cy + x * sin + y * cos
            # lying along the line: the face's long axis turned a quarter from upright
            tilt = angle + math.pi / 2 + rng.normal(0, 0.03) + (math.pi if rng.random() < 0.5 else 0)
            placed.append((_corners(px, py, tile_w, tilt), tile_w))
        if _inside([quad for quad, _ in placed], width, height, tile_w * 0.3):
            return placed
    return None


def _others(rng, canvas, quads, tile_w, style):
    """Face-down tiles and things (a pen, a coin, a playing card) on the table, clear of the hand;
    the things are drawn here, the tiles' backs returned for `_draw` (with sides and shadows). Each
    as (kind, what): a back is (its image, its alpha, its corners, its width)."""
    height, width = canvas.shape[:2]
    taken = np.zeros((height, width), np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(taken, np.round(quad).astype(np.int32), 1)
    taken = cv2.dilate(taken, np.ones((3, 3), np.uint8), iterations=max(1, round(tile_w * 0.4)))
    wanted = []
    if rng.random() < BACKS:
        wanted += ["back"] * int(rng.integers(1, 4))
    if rng.random() < THINGS:
        wanted += [str(rng.choice(["pen", "coin", "card"])) for _ in range(int(rng.integers(1, 3)))]
    others = []
    for kind in wanted:
        for _attempt in range(40):
            outline, draw = _thing(rng, kind, tile_w, style, width, height)
            mask = np.zeros_like(taken)
            cv2.fillConvexPoly(mask, np.round(outline).astype(np.int32), 1)
            inside = outline.min() > 2 and (outline[:, 0] < width - 2).all() and (outline[:, 1] < height - 2).all()
            if inside and not (mask & taken).any():
                others.append((kind, draw(canvas)))
                taken |= cv2.dilate(mask, np.ones((3, 3), np.uint8), iterations=max(1, round(tile_w * 0.3)))
                break
    return others


def _thing(rng, kind, tile_w, style, width, height):
    """Where a thing would lie (its outline) and how to draw it there."""
    cx, cy = rng.uniform(0, width), rng.uniform(0, height)
    angle = rng.uniform(0, 2 * math.pi)
    cos, sin = math.cos(angle), math.sin(angle)

    def box(long, short):
        local = [(-short / 2, -long / 2), (short / 2, -long / 2), (short / 2, long / 2), (-short / 2, long / 2)]
        return np.array([(cx + x * cos - y * sin, cy + x * sin + y * cos) for x, y in local], np.float32)

    if kind == "back":
        quad = box(2 * tile_w, tile_w)
        back, alpha = _back(rng, style, tile_w)
        return quad, lambda canvas: (back, alpha, quad, tile_w)
    if kind == "coin":
        radius = tile_w * rng.uniform(0.45, 0.7)
        outline = box(2 * radius, 2 * radius)
        metal = np.array([(185, 185, 190), (200, 150, 70), (170, 100, 60)][rng.integers(3)], np.float32)

        def coin(canvas):
            centre = (round(cx), round(cy))
            cv2.circle(
                canvas,
                (round(cx + radius * 0.12), round(cy + radius * 0.12)),
                round(radius),
                (0, 0, 0),
                -1,
                cv2.LINE_AA,
            )
            cv2.circle(canvas, centre, round(radius), tuple(float(v) * 0.75 for v in metal), -1, cv2.LINE_AA)
            cv2.circle(canvas, centre, round(radius * 0.86), tuple(float(v) for v in metal), -1, cv2.LINE_AA)
            for _ in range(int(rng.integers(3, 8))):  # its relief: a head, letters, a figure
                spot = (round(cx + rng.uniform(-0.5, 0.5) * radius), round(cy + rng.uniform(-0.5, 0.5) * radius))
                cv2.circle(
                    canvas,
                    spot,
                    max(1, round(radius * rng.uniform(0.05, 0.2))),
                    tuple(float(v) * 0.8 for v in metal),
                    -1,
                )
            cv2.ellipse(
                canvas,
                centre,
                (round(radius * 0.6), round(radius * 0.3)),
                math.degrees(angle),
                200,
                320,
                tuple(min(255.0, float(v) * 1.3) for v in metal),
                2,
            )
            return None

        return outline, coin
    if kind == "pen":
        long, short = tile_w * rng.uniform(4, 6.5), tile_w * rng.uniform(0.18, 0.3)
        outline = box(long, short)
        barrel = np.array(
            [(20, 40, 150), (20, 20, 25), (180, 30, 30), (235, 235, 230), (30, 120, 60)][rng.integers(5)], np.float32
        )

        def pen(canvas):
            cv2.fillConvexPoly(canvas, np.round(outline + short * 0.4).astype(np.int32), (0, 0, 0), cv2.LINE_AA)
            cv2.fillConvexPoly(canvas, np.round(outline).astype(np.int32), tuple(float(v) for v in barrel), cv2.LINE_AA)
            # a highlight along the barrel, a metal tip at one end, a clip near the other
            along = np.array([-sin, cos], np.float32)
            across = np.array([cos, sin], np.float32)
            start = np.array([cx, cy], np.float32) - along * long * 0.45 - across * short * 0.15
            end = np.array([cx, cy], np.float32) + along * long * 0.45 - across * short * 0.15
            shine = tuple(min(255.0, float(v) * 0.5 + 120) for v in barrel)
            cv2.line(
                canvas,
                tuple(np.round(start).astype(int)),
                tuple(np.round(end).astype(int)),
                shine,
                max(1, round(short * 0.15)),
                cv2.LINE_AA,
            )
            tip = np.array([cx, cy], np.float32) + along * long / 2
            cv2.circle(
                canvas,
                tuple(np.round(tip).astype(int)),
                max(1, round(short * 0.35)),
                (170.0, 170.0, 165.0),
                -1,
                cv2.LINE_AA,
            )
            clip = np.array([cx, cy], np.float32) - along * long * 0.3
            cv2.line(
                canvas,
                tuple(np.round(clip).astype(int)),
                tuple(np.round(clip - along * long * 0.15).astype(int)),
                (190.0, 190.0, 190.0),
                max(1, round(short * 0.2)),
                cv2.LINE_AA,
            )
            return None

        return outline, pen
    # a playing card, its face up: white, a border, its value in two corners and its suit's marks
    long, short = tile_w * 3.6, tile_w * 2.55
    outline = box(long, short)

    def card(canvas):
        cv2.fillConvexPoly(canvas, np.round(outline + tile_w * 0.1).astype(np.int32), (0, 0, 0), cv2.LINE_AA)
        cv2.fillConvexPoly(canvas, np.round(outline).astype(np.int32), (246.0, 246.0, 242.0), cv2.LINE_AA)
        ink = (200.0, 20.0, 30.0) if rng.random() < 0.5 else (20.0, 20.0, 20.0)
        value = int(rng.integers(2, 11))
        for index in range(value):  # the suit's marks in two columns, as a card prints them
            x = (-0.22 if index % 2 == 0 else 0.22) * short
            y = (index // 2 - (value // 2 - 0.5) / 2) * long * 0.16
            px, py = cx + x * cos - y * sin, cy + x * sin + y * cos
            cv2.circle(canvas, (round(px), round(py)), max(2, round(tile_w * 0.14)), ink, -1, cv2.LINE_AA)
        for corner in (outline[0], outline[2]):
            towards = (np.array([cx, cy], np.float32) - corner) * 0.12
            at = corner + towards
            cv2.putText(
                canvas,
                str(value),
                (round(at[0]), round(at[1])),
                cv2.FONT_HERSHEY_SIMPLEX,
                tile_w / 90,
                ink,
                max(1, round(tile_w / 40)),
                cv2.LINE_AA,
            )
        return None

    return outline, card


def _back(rng, style, tile_w) -> tuple[np.ndarray, np.ndarray]:
    """A face-down tile: the alpha of a face, its back plain (the ivory, or a coloured body) and
    sometimes with a mark printed or pressed in its middle (a maker's logo, a ring, letters)."""
    _, alpha = _face(rng, (0, 0), style, tile_w)
    h, w = alpha.shape
    colour = (
        style["ivory"]
        if rng.random() < 0.5
        else np.array([(20, 60, 130), (120, 20, 30), (25, 25, 25), (20, 90, 60)][rng.integers(4)], np.float32)
    )
    back = np.empty((h, w, 3), np.float32)
    back[:] = colour
    rim = cv2.GaussianBlur((alpha > 0).astype(np.float32), (0, 0), w * 0.02)
    back *= (0.65 + 0.4 * np.clip((rim - 0.5) * 2.5, 0, 1))[..., None].clip(0, 1)
    mark = rng.random()
    ink = tuple(float(v) * 0.6 for v in colour)
    if mark < 0.35:
        cv2.circle(back, (w // 2, h // 2), round(w * 0.3), ink, max(2, round(w * 0.05)), cv2.LINE_AA)
    elif mark < 0.6:
        cv2.putText(
            back,
            "DOM",
            (round(w * 0.12), h // 2 + round(w * 0.1)),
            cv2.FONT_HERSHEY_SIMPLEX,
            w / 90,
            ink,
            max(1, round(w / 30)),
            cv2.LINE_AA,
        )
    return back, alpha


# --- the camera ------------------------------------------------------------------------------


def _camera(rng, canvas, quads):
    height, width = canvas.shape[:2]
    # uneven light and a glare, computed small and stretched
    small_h, small_w = max(2, height // 8), max(2, width // 8)
    ys, xs = np.mgrid[0:small_h, 0:small_w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    light = 1 + rng.uniform(0, 0.35) * ((xs / small_w - 0.5) * gx + (ys / small_h - 0.5) * gy)
    light *= rng.uniform(0.75, 1.1)
    glare = np.zeros_like(light)
    if rng.random() < 0.5:
        cx, cy = rng.uniform(0.1, 0.9) * small_w, rng.uniform(0.1, 0.9) * small_h
        spread = rng.uniform(0.03, 0.12) * min(small_w, small_h)
        glare = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * spread**2)) * rng.uniform(30, 90)
    light = cv2.resize(light, (width, height))[..., None]
    glare = cv2.resize(glare, (width, height))[..., None]
    cast = rng.uniform(0.93, 1.07, 3).astype(np.float32)
    image = canvas * light * cast + glare
    # the camera's angle: the frame's corners pulled outward, so the photo stays filled
    for strength in (0.1, 0.05, 0.0):
        shift = rng.uniform(0, strength, (4, 2)) * (width, height)
        source = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        target = (source + shift * [[-1, -1], [1, -1], [1, 1], [-1, 1]]).astype(np.float32)
        homography = cv2.getPerspectiveTransform(source, target)
        moved = [cv2.perspectiveTransform(quad[None], homography)[0] for quad in quads]
        points = np.concatenate(moved)
        if points.min() > 2 and (points[:, 0] < width - 2).all() and (points[:, 1] < height - 2).all():
            break
    image = cv2.warpPerspective(
        image, homography, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    sigma = rng.uniform(0, 1.4)
    if sigma > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    image += rng.standard_normal(image.shape, dtype=np.float32) * rng.uniform(1, 6)
    image = np.clip(image, 0, 255).astype(np.uint8)
    _ok, jpeg = cv2.imencode(".jpg", image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 96))])
    image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)[..., ::-1].copy()
    return image, moved


def _label(halves, quad, shape) -> LabelledTile:
    top = (quad[0] + quad[1] + quad[2] + quad[3]) / 4 + ((quad[0] + quad[1]) / 2 - (quad[3] + quad[2]) / 2) / 4
    bottom = (quad[0] + quad[1] + quad[2] + quad[3]) / 4 - ((quad[0] + quad[1]) / 2 - (quad[3] + quad[2]) / 2) / 4
    if not reading_order(tuple(top), tuple(bottom)):
        halves = (halves[1], halves[0])
    height, width = shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    corners = tuple((float(x), float(y)) for x, y in quad)
    return LabelledTile(halves, corners, (int(x0), int(y0), int(x1 - x0), int(y1 - y0)))


# --- scoring a reading against the labels ------------------------------------------------------


@dataclass(frozen=True)
class Score:
    labelled: int  # tiles in the photo
    found: int  # labelled tiles with a tile found on them
    read: int  # of those, read with both halves right (in either order)
    extra: int  # tiles found where no labelled tile is
    hand_right: bool  # the hand's pips summed exactly


def score(label: LabelledHand, tiles, pips: int) -> Score:
    """Each found tile (anything with `halves` and `box`) is matched to the labelled tile its box's
    centre falls on, one to one."""
    taken, found, read = set(), 0, 0
    for tile in label.tiles:
        quad = np.array(tile.corners, np.float32)
        for index, guess in enumerate(tiles):
            if index in taken:
                continue
            x, y, w, h = guess.box
            if cv2.pointPolygonTest(quad, (x + w / 2, y + h / 2), False) >= 0:
                taken.add(index)
                found += 1
                read += sorted(guess.halves) == sorted(tile.halves)
                break
    return Score(len(label.tiles), found, read, len(tiles) - len(taken), pips == label.pips)
