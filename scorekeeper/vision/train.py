"""Makes `halves.npz`, the weights of the learned half reader (`halves.py`), from synthetic photos.

    python -m scorekeeper.vision.train [--photos N] [--epochs N]

Photos are drawn by `synthetic.hands` (without the trains, face-down tiles and things it now adds
to the table, as when these weights were made: the reader sees a face alone) from TRAINING_SEEDS only: photo i of seed s is drawn from
s * 100_003 + i, so with fewer than 100_003 photos a seed none of the tests or `bench/vision.py`
uses (seed 1, 2026) nor the seed used to choose this design (5) ever draws the same photo.
Each photo's tiles are found by the pipeline itself (`find.py`), so the network learns halves as
the pipeline straightens them (a little too long or short, a little askew), and matched to the
labelled tile their centre falls on; tiles the pipeline does not find are not learned from.

Training is plain numpy (Adam, a fixed seed, each map also seen mirrored), under a minute on one
core (drawing and finding the photos takes some twenty on the shared 2-core box, both seeds at once); the same numpy and OpenCV give the same weights. Weights are stored as float16.
"""

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import pairwise

import cv2
import numpy as np

from . import synthetic
from .find import find_tiles
from .halves import MAP_SIDE, VALUES, WEIGHTS, half_maps, logits
from .order import reading_order
from .read import straighten

TRAINING_SEEDS = (11, 12)
HIDDEN = 128


def harvest(seed: int, photos: int) -> tuple[np.ndarray, np.ndarray]:
    """The half maps of every tile the pipeline finds in `photos` photos of `seed`, and their pips."""
    cv2.setNumThreads(1)
    maps, values = [], []
    for hand in synthetic.hands(seed, photos, table=False):
        found = find_tiles(hand.image)
        taken = set()
        for tile in hand.tiles:
            quad = np.array(tile.corners, np.float32)
            # the label's halves are in reading order: which of them lies at its corners' top end
            centre, towards_top = quad.mean(axis=0), ((quad[0] + quad[1]) - (quad[2] + quad[3])) / 8
            top, bottom = centre + towards_top, centre - towards_top
            at_top, at_bottom = tile.halves if reading_order(tuple(top), tuple(bottom)) else tile.halves[::-1]
            for index, guess in enumerate(found):
                if index in taken or cv2.pointPolygonTest(quad, guess.centre, False) < 0:
                    continue
                taken.add(index)
                first_end = np.array(guess.centre) - np.array(guess.axis) * guess.length / 4
                near_top = np.linalg.norm(first_end - top) < np.linalg.norm(first_end - bottom)
                maps.extend(half_maps(straighten(hand.image, guess)))
                values.extend((at_top, at_bottom) if near_top else (at_bottom, at_top))
                break
    return np.array(maps, np.float32), np.array(values, np.int64)


def fit(maps: np.ndarray, values: np.ndarray, *, epochs: int, seed: int = 0, rate: float = 2e-3, decay: float = 1e-4):
    """A network of one hidden layer fitted by Adam on the maps and their mirror images."""
    mirrored = maps.reshape(-1, MAP_SIDE, MAP_SIDE)[:, :, ::-1].reshape(len(maps), -1)
    inputs, targets = np.concatenate([maps, mirrored]), np.concatenate([values, values])
    rng = np.random.default_rng(seed)
    sizes = (inputs.shape[1], HIDDEN, VALUES)
    layers = [
        [rng.normal(0, np.sqrt(2 / fan_in), (fan_in, fan_out)).astype(np.float32), np.zeros(fan_out, np.float32)]
        for fan_in, fan_out in pairwise(sizes)
    ]
    first = [[np.zeros_like(p) for p in layer] for layer in layers]
    second = [[np.zeros_like(p) for p in layer] for layer in layers]
    step = 0
    for _epoch in range(epochs):
        order = rng.permutation(len(inputs))
        for start in range(0, len(inputs), 128):
            batch = order[start : start + 128]
            outs = [inputs[batch]]
            for index, (weight, bias) in enumerate(layers):
                out = outs[-1] @ weight + bias
                outs.append(np.maximum(out, 0) if index < len(layers) - 1 else out)
            scores = outs[-1] - outs[-1].max(axis=1, keepdims=True)
            grad = np.exp(scores)
            grad /= grad.sum(axis=1, keepdims=True)
            grad[np.arange(len(batch)), targets[batch]] -= 1
            grad /= len(batch)
            step += 1
            for index in range(len(layers) - 1, -1, -1):
                weight, bias = layers[index]
                grads = (outs[index].T @ grad + decay * weight, grad.sum(axis=0))
                if index:
                    grad = (grad @ weight.T) * (outs[index] > 0)
                for param, g, m, v in zip(layers[index], grads, first[index], second[index], strict=True):
                    m *= 0.9
                    m += 0.1 * g
                    v *= 0.999
                    v += 0.001 * g * g
                    param -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return [tuple(layer) for layer in layers]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=900, help="photos per training seed")
    parser.add_argument("--jobs", type=int, default=len(TRAINING_SEEDS), help="seeds drawn at once")
    parser.add_argument("--epochs", type=int, default=20)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        harvested = list(pool.map(harvest, TRAINING_SEEDS, [args.photos] * len(TRAINING_SEEDS)))
    maps = np.concatenate([m for m, _ in harvested])
    values = np.concatenate([v for _, v in harvested])
    print(f"{len(maps)} halves from {args.photos * len(TRAINING_SEEDS)} photos, {time.perf_counter() - started:.0f} s")
    layers = fit(maps, values, epochs=args.epochs)
    right = float(np.mean(logits(maps, layers).argmax(axis=1) == values))
    saved = {f"w{i}": w.astype(np.float16) for i, (w, _) in enumerate(layers)}
    saved |= {f"b{i}": b.astype(np.float16) for i, (_, b) in enumerate(layers)}
    np.savez(WEIGHTS, **saved)
    print(f"{WEIGHTS.name}: {WEIGHTS.stat().st_size} bytes; {100 * right:.2f}% of the training halves read right")


if __name__ == "__main__":
    main()
