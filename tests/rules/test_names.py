"""The short names a sheet's columns show: made from the players' names, unique at the table."""

import pytest

from scorekeeper.rules.names import graphemes, short_names
from scorekeeper.rules.places import moves, ranks


def test_a_long_name_becomes_its_first_word_and_the_next_word_s_initial():
    assert short_names(["Maria Guadalupe Fernandez", "José"]) == ["Maria G.", "José"]


def test_two_marias_are_told_apart_by_their_initials():
    assert short_names(["Maria Guadalupe Fernandez", "Maria Fernandez"]) == ["Maria G.", "Maria F."]


def test_initials_that_clash_grow_until_the_names_differ():
    assert short_names(["Maria Gomez", "Maria Garcia", "Ann"]) == ["Maria Go.", "Maria Ga.", "Ann"]


def test_the_same_second_word_is_told_apart_by_a_later_word():
    names = ["Maria Guadalupe Fernandez", "Maria Guadalupe Lopez"]
    assert short_names(names) == ["Maria G. F.", "Maria G. L."]


def test_only_the_names_that_clash_grow():
    assert short_names(["Ann Lee", "Ann Lane", "Ben Ode"]) == ["Ann Le.", "Ann La.", "Ben O."]


def test_a_one_word_name_and_a_longer_one_with_the_same_start_keep_their_short_forms():
    assert short_names(["Maria", "Maria Fernandez"]) == ["Maria", "Maria F."]


def test_the_first_word_stays_whole_and_the_others_give_their_initials():
    """Never "Grand J.": a first word is never cut short of FIRST_WORD letters, and two names that
    start alike ("María José", "María Luisa") stay apart by their initials."""
    names = ["Grandma Josefina", "María José", "María Luisa", "Uncle Bartholomew", "Ólafur Þórðarson"]
    assert short_names(names) == ["Grandma J.", "María J.", "María L.", "Uncle B.", "Ólafur Þ."]


def test_maria_jose_and_maria_luisa_at_one_table_with_a_maria_jimenez():
    assert short_names(["María José", "María Luisa", "María Jiménez"]) == ["María Jo.", "María L.", "María Ji."]


def test_a_long_first_word_is_cut_with_an_ellipsis():
    assert short_names(["Bartholomew-Alexander", "Wolfeschlegelsteinhausen Berger"]) == [
        "Bartholome…",
        "Wolfeschle… B.",
    ]


def test_long_first_words_that_start_alike_fall_back_to_the_whole_name():
    assert short_names(["Bartholomew-Alexander", "Bartholomew-Augustus"]) == [
        "Bartholomew-Alexander",
        "Bartholomew-Augustus",
    ]


def test_a_first_word_one_letter_over_the_limit_is_not_cut():
    assert short_names(["Maximilianus"[:11]]) == ["Maximilianu"]


def test_the_same_full_name_twice_is_numbered():
    assert short_names(["José", "José", "Ann"]) == ["José", "José 2", "Ann"]


def test_accents_are_kept_whole_whether_composed_or_not():
    decomposed = "E\u0301lodie Ölund"  # É written as E and a combining accent
    assert short_names([decomposed, "Ángel Ñúñez"]) == ["Élodie Ö.", "Ángel Ñ."]


def test_arabic_and_hebrew_names_take_their_own_initials():
    assert short_names(["محمد عبد الله", "דוד כהן", "محمد علي"]) == ["محمد ع. ا.", "דוד כ.", "محمد عل."]  # noqa: RUF001


def test_an_emoji_stays_whole_and_takes_no_full_stop():
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467"  # one emoji of five code points
    assert short_names([f"Ann {family}{family}", "🐔 Chicken Joe", "🇲🇽"]) == [f"Ann {family}", "🐔 C.", "🇲🇽"]


@pytest.mark.parametrize(
    "text, clusters",
    [
        ("José", ["J", "o", "s", "é"]),
        ("e\u0301", ["é"]),
        ("👍🏽x", ["👍🏽", "x"]),
        ("🇲🇽🇦🇷", ["🇲🇽", "🇦🇷"]),
        ("❤️a", ["❤️", "a"]),
    ],
)
def test_letters_are_counted_as_a_reader_sees_them(text, clusters):
    assert graphemes(text) == clusters


def test_every_table_gets_names_that_differ():
    names = ["Ann Lee", "Ann Lee", "Ann Leigh", "Ann", "ann", "Ann L", "  ", "Ann Lee Smith"]
    shown = short_names(names)
    assert len(set(shown)) == len(names)


def test_equal_totals_share_a_place_and_the_lowest_leads():
    assert ranks([40, 12, 40, 7]) == (3, 2, 3, 1)


def test_a_round_moves_players_up_and_down_by_the_places_they_change():
    assert moves([10, 20, 30], [35, 25, 30]) == (-2, 1, 1)


def test_nothing_moves_in_the_first_round():
    assert moves(None, [0, 5, 9]) == (0, 0, 0)


def test_a_row_per_player_keeps_every_first_word_whole_however_long():
    """The rows of a big table on a phone (first_word=None): "Great-Grandmother A." where a column
    shows "Great-Gran… A."; the screen wraps the name or cuts it only where a word cannot fit."""
    names = ["Great-Grandmother Ana", "Great-Grandfather Bo", "Ólafur_Þórðarson_Wolfeschlegelsteinhause"]
    assert short_names(names) == ["Great-Gran… A.", "Great-Gran… B.", "Ólafur_Þór…"]
    assert short_names(names, first_word=None) == [
        "Great-Grandmother A.",
        "Great-Grandfather B.",
        "Ólafur_Þórðarson_Wolfeschlegelsteinhause",
    ]
