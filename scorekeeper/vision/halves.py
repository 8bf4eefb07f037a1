"""A learned reader of halves: a small network that says how many pips a straightened half shows.

Counting spots (`read.py`) misreads a half when pips touch (10 to 12 on a double-12 face), when a
face taken a little too long or short pushes a pip row across the dividing line, or when a glare or
a shadow breaks a spot. This reader looks at the whole half at once: its map of how far each pixel
is from the face's ivory (darker or more coloured, as `read.py` measures it), shrunk to 32 x 32,
the dividing line below it, into a network of one hidden layer (1024 -> 128 -> 13 values, 0 to 12).

Its weights (`halves.npz`, about 270 KB) are made here, by `python -m scorekeeper.vision.train`,
from synthetic photos (`synthetic.py`) drawn with seeds that no test or benchmark draws; nothing is
downloaded. They are read once, at the first tile.
"""

from functools import cache
from pathlib import Path

import cv2
import numpy as np

WEIGHTS = Path(__file__).with_name("halves.npz")
MAP_SIDE = 32
VALUES = 13  # 0 to 12 pips: the largest set printed with pips a network was shown


def half_maps(face: np.ndarray) -> np.ndarray:
    """The two halves of a straightened face (2S x S x 3 RGB uint8, first half on top) as two flat
    maps of distance from the ivory, each turned so that its dividing line is below it."""
    side = face.shape[1]
    lab = cv2.cvtColor(face, cv2.COLOR_RGB2LAB).astype(np.float32)
    lightness = lab[..., 0]
    ivory = np.median(lab[lightness >= np.percentile(lightness, 50)], axis=0)
    darker = np.maximum(0, ivory[0] - lightness)
    colour = np.hypot(lab[..., 1] - ivory[1], lab[..., 2] - ivory[2])
    distance = np.clip((darker + 1.5 * colour) / 100, 0, 1.5)
    first = cv2.resize(distance[:side], (MAP_SIDE, MAP_SIDE), interpolation=cv2.INTER_AREA)
    second = cv2.resize(distance[side:][::-1, ::-1], (MAP_SIDE, MAP_SIDE), interpolation=cv2.INTER_AREA)
    return np.stack([first.reshape(-1), second.reshape(-1)])


@cache
def _weights() -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    with np.load(WEIGHTS) as saved:
        layers = len([name for name in saved.files if name.startswith("w")])
        return tuple((saved[f"w{i}"].astype(np.float32), saved[f"b{i}"].astype(np.float32)) for i in range(layers))


def logits(maps: np.ndarray, layers=None) -> np.ndarray:
    """The network's raw answer for each map (N x MAP_SIDE² in, N x VALUES out)."""
    out = maps.astype(np.float32)
    layers = layers if layers is not None else _weights()
    for index, (weight, bias) in enumerate(layers):
        out = out @ weight + bias
        if index < len(layers) - 1:
            out = np.maximum(out, 0)
    return out


def read_halves(face: np.ndarray, highest: int) -> tuple[tuple[int, int], float]:
    """Each half's pips, at most `highest` (the set's largest half, up to 12), and how sure the
    network is of both (the product of their probabilities)."""
    scores = logits(half_maps(face))
    scores[:, min(highest, VALUES - 1) + 1 :] = -np.inf
    scores -= scores.max(axis=1, keepdims=True)
    chances = np.exp(scores)
    chances /= chances.sum(axis=1, keepdims=True)
    first, second = (int(v) for v in chances.argmax(axis=1))
    return (first, second), float(chances[0, first] * chances[1, second])
