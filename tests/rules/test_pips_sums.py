"""A pips box takes a count as the table says it: "25", or "12+9+4" (rules.tiles.read_pips)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.tiles import SUM_TERMS, grammar, read_pips


@pytest.mark.parametrize(
    ("typed", "pips"),
    [
        ("25", 25),
        ("0", 0),
        ("12+9+4", 25),
        (" 12 + 9 ", 21),
        ("\uff11\uff12\uff0b\uff19", 21),
        ("\u0663+\u0664", 7),
        ("007", 7),
    ],
)
def test_it_reads_a_number_or_a_sum_as_people_count_it(typed, pips):
    assert read_pips(typed) == pips


@pytest.mark.parametrize("typed", ["", " ", "12+", "+3", "12++3", "1-2", "a", "12 9", "3.5", "1234567", "-4"])
def test_it_reads_nothing_else(typed):
    assert read_pips(typed) is None


@given(st.lists(st.integers(min_value=0, max_value=999_999), min_size=1, max_size=SUM_TERMS))
def test_a_sum_reads_as_the_total_of_its_terms(terms):
    assert read_pips("+".join(map(str, terms))) == sum(terms)


def test_a_sum_has_a_bounded_number_of_terms():
    assert read_pips("+".join(["1"] * (SUM_TERMS + 1))) is None


def test_the_page_scripts_get_the_sum_grammar_as_data():
    assert {"plus": "+", "sum_digits": 6, "sum_terms": SUM_TERMS}.items() <= grammar(12).items()
