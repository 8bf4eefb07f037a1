"""Charts a person reads at a glance: labels evenly spaced under the points, and a colour per player
that no other player's colour can be taken for, each standing out on the white plot."""

import datetime
import itertools
import math
import re

from django.utils import translation

from scorekeeper.reads import charts


def test_a_whole_double_twelve_game_is_labelled_every_third_round_from_the_first_to_the_last():
    doubles = [f"{d}-{d}" for d in range(12, -1, -1)]
    assert charts.thinned(doubles) == ["12-12", "9-9", "6-6", "3-3", "0-0"]  # was 12, 10, 7, 5, 2, 0: uneven


def test_thinned_labels_are_evenly_spaced_at_most_six_and_always_end_with_the_last():
    for count in range(2, 60):
        labels = [str(n) for n in range(count)]
        shown = [int(label) for label in charts.thinned(labels)]
        assert len(shown) <= charts.LABELS and shown[-1] == count - 1
        gaps = {b - a for a, b in itertools.pairwise(shown)}
        assert len(gaps) <= 1, (count, shown)  # the same number of points between any two labels
        if (count - 1) % max(gaps or {1}) == 0:
            assert shown[0] == 0, (count, shown)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(colour: str) -> tuple[float, float, float]:
    r, g, b = (_linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(one: str, two: str) -> float:
    """The CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation): about 2 is just told
    apart side by side, 10 and more is plainly another colour."""
    (l1, a1, b1), (l2, a2, b2) = _lab(one), _lab(two)
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_big_h = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))  # fmt: skip
    rotation = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(c_mean**7 / (c_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_t = -math.sin(math.radians(2 * rotation)) * r_c
    dl, dc, dh_ = (l2 - l1) / s_l, (c2 - c1) / s_c, d_big_h / s_h
    return math.sqrt(dl**2 + dc**2 + dh_**2 + r_t * dc * dh_)


def contrast_on_white(colour: str) -> float:
    r, g, b = (_linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def test_the_colour_difference_measures_black_and_white_a_hundred_apart_and_a_colour_nothing_from_itself():
    # Greys differ in lightness alone, which runs from 0 (black) to 100 (white).
    assert ciede2000("#000000", "#000000") == 0 == ciede2000("#e11d48", "#e11d48")
    assert 99 < ciede2000("#000000", "#ffffff") < 101


def test_every_two_players_colours_are_told_apart_at_a_glance_and_each_stands_out_on_white():
    colours = charts.STYLE.colors
    assert len(set(colours)) == 10  # a table seats ten
    closest = min(itertools.combinations(colours, 2), key=lambda pair: ciede2000(*pair))
    assert ciede2000(*closest) >= 20, closest  # the old red and pink (#b91c1c, #be185d) were 18.6 apart
    assert ciede2000("#b91c1c", "#be185d") < 20  # ... which this bar refuses
    assert [colour for colour in colours if contrast_on_white(colour) < 3] == []


def _y_labels(svg: str) -> list[str]:
    axis = re.search(r'class="axis y[^"]*">(.*?)</g></g>', svg, re.S)[1]
    return re.findall(r"<text[^>]*>([^<]*)</text>", axis)


def test_a_rating_chart_has_a_few_figures_up_its_side_written_as_the_language_writes_numbers():
    steps = [
        (datetime.date(2026, 11, day), value)
        for day, value in zip(range(1, 9), (0.2, 0.9, 1.4, 1.7, 2.1, 2.5, 2.6, 2.8), strict=True)
    ]
    with translation.override("es"):
        labels = _y_labels(charts.ratings("Ana", steps))
    assert 2 <= len(labels) <= 6, labels  # was 13 ticks 0.2 apart
    assert all("," in label and "." not in label for label in labels), labels
    with translation.override("en"):
        assert all("." in label for label in _y_labels(charts.ratings("Ann", steps)))
