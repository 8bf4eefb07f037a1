import json
import sys
import unicodedata

import pytest

from scorekeeper.rules.tiles import (
    DASHES,
    DOUBLE_BLANK,
    SPACES,
    SUPPORTED_SETS,
    Tile,
    TileError,
    all_tiles,
    digit_zeros,
    grammar,
    hand_range,
    max_hand_pips,
    parse_tile,
    picker,
    read_pips,
    read_tile_list,
    set_pips,
    split_tiles,
    tile_count,
)


@pytest.mark.parametrize(
    ("highest", "tiles", "pips"),
    [(6, 28, 168), (9, 55, 495), (12, 91, 1092), (15, 136, 2040), (18, 190, 3420)],
)
def test_each_set_has_the_tiles_and_pips_of_the_rules_table(highest, tiles, pips):
    assert tile_count(highest) == len(all_tiles(highest)) == tiles
    assert set_pips(highest) == sum(tile.pips for tile in all_tiles(highest)) == pips


def test_a_set_holds_each_tile_once():
    tiles = all_tiles(12)
    assert len(set(tiles)) == len(tiles)
    assert DOUBLE_BLANK in tiles and Tile(12, 12) in tiles and Tile(13, 0) not in tiles


@pytest.mark.parametrize("text", ["3-4", "4-3", " 4 - 3 "])
def test_it_reads_a_tile_in_either_order(text):
    assert parse_tile(text, 12) == Tile(4, 3)
    assert str(parse_tile(text, 12)) == "4-3"


@pytest.mark.parametrize("text", ["13-1", "1-19", "3", "3-4-5", "a-b", "", "-1-3", None, 34])
def test_it_refuses_text_that_is_not_a_tile_of_the_set(text):
    with pytest.raises(TileError):
        parse_tile(text, 12)


def test_the_worked_example_of_the_rules_holds():
    # Double-12, round starting 12-12: one tile holds at most 23 (12-11), two at most 45.
    assert hand_range(12, 12, 1, holds_double_blank=False).high == 23
    assert hand_range(12, 12, 2, holds_double_blank=False).high == 45
    assert max_hand_pips(12, 12) == 1092 - 24


def test_the_double_blank_counts_as_a_tile_worth_nothing():
    assert hand_range(12, 12, 1, holds_double_blank=True) == hand_range(12, 12, 0, holds_double_blank=False)
    assert hand_range(12, 12, 2, holds_double_blank=True).high == 23
    assert hand_range(12, 0, 1, holds_double_blank=True) is None


def test_a_hand_cannot_hold_more_tiles_than_the_pool():
    pool = tile_count(6) - 2  # less the starting double and the 0-0
    assert hand_range(6, 6, pool, holds_double_blank=False) is not None
    assert hand_range(6, 6, pool + 1, holds_double_blank=False) is None
    assert hand_range(6, 6, pool + 1, holds_double_blank=True) is not None


def _reachable_by_brute_force(highest, starting_double, count, holds):
    """Every total of `count` distinct pool tiles, by dynamic programming over the tiles."""
    pool = [t.pips for t in all_tiles(highest) if t != Tile(starting_double, starting_double) and t != DOUBLE_BLANK]
    others = count - 1 if holds else count
    sums = [set() for _ in range(others + 1)]
    sums[0].add(0)
    for value in pool:
        for k in range(others, 0, -1):
            sums[k] |= {s + value for s in sums[k - 1]}
    return sums[others]


@pytest.mark.parametrize("highest", [6, 9])
def test_every_total_between_the_bounds_is_reachable(highest):
    # The rules promise there are no gaps; check it exhaustively for the smaller sets.
    for starting_double in range(highest + 1):
        for count in range(1, 8):
            for holds in (False, True) if starting_double else (False,):
                reach = hand_range(highest, starting_double, count, holds)
                exact = _reachable_by_brute_force(highest, starting_double, count, holds)
                assert exact == set(range(reach.low, reach.high + 1)), (starting_double, count, holds)


def test_supported_sets_are_the_five_of_the_rules():
    assert SUPPORTED_SETS == (6, 9, 12, 15, 18)


def test_the_spaces_of_the_grammar_are_every_space_that_normalisation_leaves():
    left = {c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace() and unicodedata.normalize("NFKC", c) == c}
    assert set(SPACES) == left


def test_each_digit_zero_starts_a_run_of_ten_digits_worth_their_distance_from_it():
    zeros = digit_zeros()
    assert 0x30 in zeros and 0x660 in zeros  # ASCII and Arabic-Indic
    readable = [
        c for c in map(chr, range(sys.maxunicode + 1)) if c.isdecimal() and unicodedata.normalize("NFKC", c) == c
    ]
    for c in readable:
        (zero,) = [zero for zero in zeros if zero <= ord(c) <= zero + 9]
        assert ord(c) - zero == unicodedata.decimal(c)


@pytest.mark.parametrize(
    ("text", "tiles"),
    [("12-3 5-5, 0 - 4", ["12-3", "5-5", "0-4"]), ("3 \u2013 4;5\uff0d6\uff0c1-1", ["3\u20134", "5-6", "1-1"]),
     ("  ", None), ("3―4", ["3―4"]), ("1 2-3", ["1", "2-3"])],
)  # fmt: skip
def test_a_list_parts_at_spaces_commas_and_semicolons_but_not_around_a_dash(text, tiles):
    assert split_tiles(text) == tiles


def test_the_grammar_the_page_scripts_read_is_the_one_the_server_parses_with():
    data = grammar(9)
    assert data["dashes"] == DASHES and data["spaces"] == SPACES and data["separators"] == ",;" + SPACES
    assert data["highest"] == 9 and data["digits_per_end"] == 2 and data["normalize"] == "NFKC"
    assert data["digit_zeros"] == list(digit_zeros())
    assert json.loads(json.dumps(data)) == data  # plain data, as a page's JSON block carries it
    for dash in DASHES:
        assert parse_tile(f"3{dash}4", 9) == Tile(4, 3)
    with pytest.raises(TileError):
        parse_tile("3\u20154", 9)  # a horizontal bar is not among the dashes


@pytest.mark.parametrize("highest", SUPPORTED_SETS)
def test_the_picker_hands_the_scripts_each_tile_with_its_pips_the_double_blank_and_the_tile_on_the_table(highest):
    data = picker(highest)
    assert json.loads(json.dumps(data)) == data  # plain data, as a page's JSON block carries it
    tiles = sorted(all_tiles(highest), reverse=True)  # highest first, as the picker lays them out
    assert data["tiles"] == [[str(tile), tile.pips] for tile in tiles]
    assert [parse_tile(name, highest).pips for name, _pips in data["tiles"]] == [pips for _name, pips in data["tiles"]]
    assert data["tiles"][0] == [f"{highest}-{highest}", 2 * highest] and data["tiles"][-1] == ["0-0", 0]
    assert data["double_blank"] == str(DOUBLE_BLANK)
    assert data["on_table"] == {str(d): f"{d}-{d}" for d in range(highest + 1)}


@pytest.mark.parametrize(("typed", "tiles"), [
    ("8-6 3-2", ["8-6", "3-2"]),
    ("8 - 6, 3-2", ["8-6", "3-2"]),
    ("8-6 3", None),  # "3" is no tile
    ("12+5", None),  # a sum: the pips box reads it as one
    ("", None),
])  # fmt: skip
def test_a_pips_box_reads_a_tile_list_as_the_tiles_box_does(typed, tiles):
    assert read_tile_list(typed) == tiles


def test_an_iphones_phone_keypad_types_tiles_with_its_star_and_comma_and_a_star_is_never_a_product():
    """The pips boxes' keypad (inputmode "tel") on an iPhone has no dash and no space: "8*6,3*2"."""
    assert split_tiles("8*6,3*2") == ["8*6", "3*2"] == read_tile_list("8*6,3*2")
    assert split_tiles("12 * 3;5*5") == ["12*3", "5*5"]
    assert [parse_tile(text, 12) for text in ("8*6", "3*2")] == [Tile(8, 6), Tile(3, 2)]
    assert read_pips("8*6") is None  # not 48: a star is read as a tile's dash only
