"""How real sets print a half: where its pips sit and, in coloured sets, what colour each value is.

Positions are in a unit square (the half seen with the dividing line below it), x to the right and
y down. Up to 9 the pips sit on a 3 x 3 grid (the 2 and 3 on a diagonal, the 6 as two columns of
three, the 7 that six and the centre, the 8 the grid without its centre); 10 to 12 sit on a grid of
three columns and four rows (4-2-4, 4-3-4, 4-4-4), where pips of real double-12 sets nearly touch.
The synthetic generator draws these; the pipeline itself counts pips and never needs a layout.
"""

_EDGE, _MID, _FAR = 0.22, 0.5, 0.78
_ROWS4 = (0.17, 0.39, 0.61, 0.83)
_ROWS3 = (0.28, 0.5, 0.72)
_GRID = {(c, r) for c in (_EDGE, _MID, _FAR) for r in (_EDGE, _MID, _FAR)}
_CENTRE = (_MID, _MID)
_CORNERS = [(_EDGE, _EDGE), (_FAR, _EDGE), (_EDGE, _FAR), (_FAR, _FAR)]
_SIDES = [(x, y) for x in (_EDGE, _FAR) for y in (_EDGE, _MID, _FAR)]
_OUTER4 = [(x, y) for x in (_EDGE, _FAR) for y in _ROWS4]

PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: (_CENTRE,),
    2: ((_EDGE, _EDGE), (_FAR, _FAR)),
    3: ((_EDGE, _EDGE), _CENTRE, (_FAR, _FAR)),
    4: tuple(_CORNERS),
    5: (*_CORNERS, _CENTRE),
    6: tuple(_SIDES),
    7: (*_SIDES, _CENTRE),
    8: tuple(sorted(_GRID - {_CENTRE})),
    9: tuple(sorted(_GRID)),
    10: (*_OUTER4, (_MID, _ROWS4[1]), (_MID, _ROWS4[2])),
    11: (*_OUTER4, *((_MID, y) for y in _ROWS3)),
    12: (*_OUTER4, *((_MID, y) for y in _ROWS4)),
}

# The colours (RGB) double-12 sets commonly give each value; double-6 and double-9 sets come in
# black pips or in these same colours.
PIP_COLOURS: dict[int, tuple[int, int, int]] = {
    1: (70, 170, 225),  # light blue
    2: (30, 140, 60),  # green
    3: (205, 35, 40),  # red
    4: (140, 110, 40),  # brown
    5: (25, 45, 150),  # dark blue
    6: (235, 175, 20),  # yellow
    7: (215, 70, 160),  # pink
    8: (20, 95, 75),  # dark green
    9: (95, 45, 140),  # purple
    10: (235, 105, 25),  # orange
    11: (25, 25, 25),  # black
    12: (120, 120, 120),  # grey
}
