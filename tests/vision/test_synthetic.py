"""The synthetic generator's labels (scorekeeper/vision/synthetic.py): exact, in the photo, repeatable."""

import cv2
import numpy as np
import pytest

from scorekeeper.vision import synthetic
from scorekeeper.vision.faces import PIP_LAYOUTS
from scorekeeper.vision.order import reading_order


def test_the_same_seed_draws_the_same_photo_and_the_same_labels():
    first, again = synthetic.hand(41, tile_set=12), synthetic.hand(41, tile_set=12)
    assert np.array_equal(first.image, again.image)
    assert first.tiles == again.tiles
    assert not np.array_equal(first.image, synthetic.hand(42, tile_set=12).image)


@pytest.mark.parametrize("tile_set", synthetic.SETS)
def test_every_label_is_a_distinct_tile_of_the_set_lying_inside_the_photo(tile_set):
    for hand in synthetic.hands(tile_set, 2, sets=(tile_set,)):
        height, width = hand.image.shape[:2]
        assert hand.image.dtype == np.uint8 and hand.image.shape[2] == 3
        pairs = [tuple(sorted(tile.halves)) for tile in hand.tiles]
        assert len(pairs) == len(set(pairs)) >= 1
        assert all(0 <= half <= tile_set for pair in pairs for half in pair)
        assert hand.pips == sum(sum(pair) for pair in pairs)
        for tile in hand.tiles:
            x, y, w, h = tile.box
            assert x >= 0 and y >= 0 and x + w <= width and y + h <= height and w > 10 and h > 10
            assert all(0 <= cx <= width and 0 <= cy <= height for cx, cy in tile.corners)


def test_an_upright_tile_is_read_top_half_first_and_a_lying_or_leaning_one_left_half_first():
    assert reading_order((50, 10), (52, 60)) and not reading_order((52, 60), (50, 10))
    assert reading_order((10, 50), (60, 48)) and not reading_order((60, 48), (10, 50))
    assert reading_order((30, 60), (60, 20))  # leaning 37 degrees: the left half first, though lower


@pytest.mark.parametrize("value", range(13))
def test_a_drawn_half_shows_as_many_pips_as_its_value(value):
    rng = np.random.default_rng(value)
    style = {
        "ivory": np.array([240, 232, 205], np.float32),
        "coloured": True,
        "black": np.array([20, 20, 20], np.float32),
        "pip_ratio": 0.075,
        "line_span": 0.8,
        "line_thickness": 0.04,
        "spinner": False,
        "sides_turned": False,
    }
    face, _ = synthetic._face(rng, (value, value), style, 60)
    side = face.shape[1]
    for half in (face[: side - 4], face[side + 4 :]):
        spots = (np.linalg.norm(half - style["ivory"], axis=2) > 60).astype(np.uint8)
        spots[:, :6] = spots[:, -6:] = 0  # the rim's shading
        spots[:6] = spots[-6:] = 0
        _count, _, stats, _ = cv2.connectedComponentsWithStats(spots)
        assert sum(1 for area in stats[1:, cv2.CC_STAT_AREA] if area > 20) == value == len(PIP_LAYOUTS[value])


def test_face_down_tiles_and_things_on_the_table_are_drawn_but_never_labelled():
    drawn = [synthetic.hand(seed, tile_set=12) for seed in (500_028, 500_036, 500_053)]
    others = {kind for hand in drawn for kind in hand.others}
    assert others == {"back", "pen", "coin", "card"}
    for hand in drawn:
        quads = [np.array(tile.corners, np.float32) for tile in hand.tiles]
        # no labelled face lies under another thing: every label's centre is inside its own face only
        for tile in hand.tiles:
            assert sum(cv2.pointPolygonTest(quad, tile.centre, False) >= 0 for quad in quads) == 1


def test_some_hands_are_laid_end_to_end_in_a_train():
    trained = 0
    for hand in synthetic.hands(3, 8, sets=(6,)):  # photos 3 and 7 are trains
        axes = [np.subtract(tile.corners[3], tile.corners[0]) for tile in hand.tiles]
        centres = [np.array(tile.centre) for tile in hand.tiles]
        # two tiles end to end: their centres a tile's length apart along their own long axes
        trained += any(
            abs(np.linalg.norm(centres[i] - centres[j]) - np.linalg.norm(axes[i])) < 0.1 * np.linalg.norm(axes[i])
            and abs(
                np.dot(
                    (centres[i] - centres[j]) / np.linalg.norm(centres[i] - centres[j]),
                    axes[i] / np.linalg.norm(axes[i]),
                )
            )
            > 0.95
            for i in range(len(hand.tiles))
            for j in range(i)
        )
    assert trained >= 2
