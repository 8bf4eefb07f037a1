"""Which half of a tile is read first: the top half of an upright tile, else the half nearer the left.

Labels of real photos list halves this way, the synthetic generator writes its labels this way, and
the pipeline answers this way, so a tile read right compares equal as an ordered pair.
"""

import math

# A tile leaning less than this from upright counts as upright (its top half first).
UPRIGHT_DEGREES = 30.0


def reading_order(first: tuple[float, float], second: tuple[float, float]) -> bool:
    """True when the half centred at `first` (x, y in pixels) is read before the one at `second`."""
    dx, dy = second[0] - first[0], second[1] - first[1]
    lean = math.degrees(math.atan2(abs(dx), abs(dy)))  # 0 for an upright tile, 90 for a lying one
    if lean < UPRIGHT_DEGREES:
        return dy > 0
    return dx > 0
