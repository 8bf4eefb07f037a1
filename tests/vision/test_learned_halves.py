"""The learned half reader (scorekeeper/vision/halves.py) and how its weights are made (train.py)."""

import numpy as np
import pytest

from scorekeeper.vision import halves, synthetic, train
from scorekeeper.vision.faces import PIP_LAYOUTS
from tests.vision import test_counting

# Seeds the tests and bench/vision.py draw photos from (bench/vision.py SEED, test_counting's
# set), and the seed the design was chosen on.
EVALUATED_SEEDS = (1, test_counting.SYNTHETIC_SEED, 5)
STYLE = {
    "ivory": np.array([238, 230, 200], np.float32),
    "coloured": False,
    "black": np.array([25, 25, 25], np.float32),
    "pip_ratio": 0.08,
    "line_span": 0.8,
    "line_thickness": 0.04,
    "spinner": False,
    "sides_turned": False,
}


def photo_seeds(seed: int, count: int) -> set[int]:
    return {seed * 100_003 + i for i in range(count)}


def test_no_photo_it_learns_from_is_a_photo_it_is_measured_on():
    learned = set().union(*(photo_seeds(seed, 100_000) for seed in train.TRAINING_SEEDS))
    measured = set().union(*(photo_seeds(seed, 1_000) for seed in EVALUATED_SEEDS))
    assert not learned & measured


def test_its_weights_are_a_small_committed_file_of_the_shape_it_reads():
    assert halves.WEIGHTS.stat().st_size < 400_000
    (first, first_bias), (second, second_bias) = halves._weights()
    assert first.shape == (halves.MAP_SIDE**2, train.HIDDEN) and first_bias.shape == (train.HIDDEN,)
    assert second.shape == (train.HIDDEN, halves.VALUES) and second_bias.shape == (halves.VALUES,)


@pytest.mark.parametrize("value", range(13))
def test_it_reads_a_cleanly_drawn_half_of_every_value(value):
    face, _alpha = synthetic._face(np.random.default_rng(value), (value, 12 - value), STYLE, 64)
    face = np.clip(face, 0, 255).astype(np.uint8)[::2, ::2]  # drawn twice as large
    (first, second), certainty = halves.read_halves(face, highest=12)
    assert (first, second) == (value, 12 - value) and len(PIP_LAYOUTS[value]) == value
    assert 0 < certainty <= 1


def test_it_never_reads_a_half_above_the_sets_highest():
    face, _alpha = synthetic._face(np.random.default_rng(3), (9, 8), STYLE, 64)
    (first, second), _certainty = halves.read_halves(np.clip(face, 0, 255).astype(np.uint8)[::2, ::2], highest=6)
    assert first <= 6 and second <= 6


def test_training_fits_maps_it_is_given():
    rng = np.random.default_rng(0)
    maps = rng.random((260, halves.MAP_SIDE**2), dtype=np.float32) * 0.1
    values = np.arange(260) % halves.VALUES
    maps[np.arange(260), values * 40] = 1.0  # each value lights a pixel of its own
    layers = train.fit(maps, values, epochs=15)
    assert np.mean(halves.logits(maps, layers).argmax(axis=1) == values) > 0.95
