"""Each check of the rules page ("What a correct round entry must satisfy"), accepted and rejected."""

import pytest

from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput, InvalidRound, Seat, score_round

SEATS = [Seat(1, "Ann"), Seat(2, "Ben"), Seat(3, "Cy")]
D12 = GameRules(tile_set=12)


def entry(player, pips=None, **fields):
    return EntryInput(player=player, pips=pips, **fields)


def out(player, **fields):
    return EntryInput(player=player, pips=0, went_out=True, **fields)


def rejected(entries, *, rules=D12, starting_double=12, seats=SEATS):
    with pytest.raises(InvalidRound) as caught:
        score_round(rules, starting_double, seats, entries)
    return caught.value.errors


def codes(errors):
    return {error.code for error in errors}


def test_a_plain_round_is_scored_pips_plus_penalties():
    scored = score_round(D12, 12, SEATS, [out(1, ended_on_double=True), entry(2, 37, double_blank=True), entry(3, 12)])
    assert [e.score for e in scored.entries] == [50, 87, 12]
    assert [e.penalty for e in scored.entries] == [50, 50, 0]
    assert not scored.blocked


def test_penalties_of_zero_are_off():
    rules = GameRules(tile_set=12, double_blank_penalty=0, end_on_double_penalty=0)
    scored = score_round(
        rules, 12, SEATS, [out(1, ended_on_double=True), entry(2, 37, double_blank=True), entry(3, 12)]
    )
    assert [e.score for e in scored.entries] == [0, 37, 12]


def test_entries_come_back_in_seat_order_whatever_order_they_were_sent():
    scored = score_round(D12, 12, SEATS, [entry(3, 12), out(1), entry(2, 5)])
    assert [e.player for e in scored.entries] == [1, 2, 3]


# 1. Every seated player has exactly one entry.
def test_1_it_rejects_a_missing_player():
    errors = rejected([out(1), entry(2, 5)])
    assert codes(errors) == {"missing_entry"} and errors[0].player == 3
    assert "Cy" in errors[0].message


def test_1_it_rejects_a_player_entered_twice():
    assert codes(rejected([out(1), entry(2, 5), entry(2, 6), entry(3, 4)])) == {"duplicate_entry"}


def test_1_it_rejects_a_player_not_seated():
    assert "not_seated" in codes(rejected([out(1), entry(2, 5), entry(3, 4), entry(9, 4)]))


# 2. At most one player went out; zero means blocked.
def test_2_it_rejects_a_second_player_going_out():
    errors = rejected([out(1), out(2), entry(3, 4)])
    assert codes(errors) == {"several_went_out"} and errors[0].player == 2


def test_2_a_round_nobody_went_out_of_is_blocked():
    assert score_round(D12, 12, SEATS, [entry(1, 3), entry(2, 5), entry(3, 4)]).blocked


# 3. The player who went out has 0 pips, no tiles and not the 0-0.
@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"pips": 5}, "went_out_with_pips"),
        ({"tiles_left": 2}, "went_out_with_tiles"),
        ({"double_blank": True}, "went_out_with_double_blank"),
    ],
)
def test_3_it_rejects_a_player_who_went_out_still_holding_something(fields, code):
    went_out = EntryInput(player=1, **({"pips": 0} | fields), went_out=True)
    errors = rejected([went_out, entry(2, 5), entry(3, 4)])
    assert code in codes(errors) and errors[0].player == 1


def test_3_a_player_who_went_out_may_say_zero_tiles_left():
    scored = score_round(D12, 12, SEATS, [out(1, tiles_left=0), entry(2, 5), entry(3, 4)])
    assert scored.entries[0].tiles_left == 0


# 4. Only the player who went out can have ended on a double.
def test_4_it_rejects_ending_on_a_double_without_going_out():
    errors = rejected([out(1), entry(2, 5, ended_on_double=True), entry(3, 4)])
    assert codes(errors) == {"ended_on_double_without_going_out"} and errors[0].player == 2


# 5. The starting double is on the table, so no hand holds it.
def test_5_it_rejects_a_hand_listing_the_starting_double():
    errors = rejected([out(1), entry(2, tiles=["12-12", "3-4"]), entry(3, 4)])
    assert codes(errors) == {"holds_starting_double"}


def test_5_a_hand_may_list_another_double():
    scored = score_round(D12, 12, SEATS, [out(1), entry(2, tiles=["11-11", "3-4"]), entry(3, 4)])
    assert scored.entries[1].pips == 29


def test_5_the_starting_double_must_be_in_the_set():
    assert codes(rejected([out(1), entry(2, 5), entry(3, 4)], starting_double=13)) == {"starting_double_not_in_set"}


# 6. At most one 0-0; none in the round that starts with 0-0.
def test_6_it_rejects_two_players_holding_the_double_blank():
    errors = rejected([out(1), entry(2, 5, double_blank=True), entry(3, 4, double_blank=True)])
    assert codes(errors) == {"several_double_blanks"} and errors[0].player == 3


def test_6_it_rejects_the_double_blank_in_the_double_blank_round():
    errors = rejected([out(1), entry(2, 5, double_blank=True), entry(3, 4)], starting_double=0)
    assert "holds_starting_double" in codes(errors)


def test_6_one_player_may_hold_the_double_blank():
    scored = score_round(D12, 11, SEATS, [out(1), entry(2, 5, double_blank=True), entry(3, 4)])
    assert scored.entries[1].double_blank and scored.entries[1].score == 55


# 7. A hand's pips are between 0 and the set less the starting double.
@pytest.mark.parametrize(("pips", "ok"), [(1068, True), (1069, False), (-1, False)])
def test_7_pips_must_fit_in_the_set_less_the_starting_double(pips, ok):
    entries, seats = [out(1), entry(2, pips)], SEATS[:2]
    if ok:
        assert score_round(D12, 12, seats, entries).entries[1].pips == pips
    else:
        errors = rejected(entries, seats=seats)
        assert codes(errors) == {"pips_out_of_range"} and "0 to 1068" in errors[0].message


def test_7_pips_are_required_unless_tiles_are_listed():
    assert codes(rejected([out(1), entry(2), entry(3, 4)])) == {"pips_required"}


def test_7_the_player_who_went_out_needs_no_pips_they_hold_nothing():
    scored = score_round(D12, 12, SEATS, [entry(1, went_out=True), entry(2, 5), entry(3, 4)])
    assert [(e.pips, e.score) for e in scored.entries] == [(0, 0), (5, 5), (4, 4)]
    ended = score_round(D12, 12, SEATS, [entry(1, went_out=True, ended_on_double=True), entry(2, 5), entry(3, 4)])
    assert (ended.entries[0].pips, ended.entries[0].score) == (0, 50)
    assert codes(rejected([entry(1, went_out=True), entry(2), entry(3, 4)])) == {"pips_required"}  # Ben's


# 8. k tiles must be able to hold the pips.
def test_8_the_worked_example_one_tile_cannot_hold_24_pips():
    errors = rejected([out(1), entry(2, 24, tiles_left=1), entry(3, 4)])
    assert codes(errors) == {"pips_unreachable"}
    assert "Ben: 1 tile cannot hold 24 pips in a double-12 set while 12-12 is on the table" in errors[0].message
    assert errors[0].field == "pips" and errors[0].player == 2


def test_8_one_tile_can_hold_23_pips_and_two_45():
    score_round(D12, 12, SEATS, [out(1), entry(2, 23, tiles_left=1), entry(3, 4)])
    score_round(D12, 12, SEATS, [out(1), entry(2, 45, tiles_left=2), entry(3, 4)])
    assert codes(rejected([out(1), entry(2, 46, tiles_left=2), entry(3, 4)])) == {"pips_unreachable"}


def test_9_the_two_biggest_tiles_cannot_be_in_two_hands_at_once():
    # 23 pips in one tile is 12-11; 45 in two tiles needs 12-11 as well.
    errors = rejected([out(1), entry(2, 23, tiles_left=1), entry(3, 45, tiles_left=2)])
    assert codes(errors) == {"hands_unreachable"}


def test_8_too_few_pips_for_the_tiles_left_is_rejected():
    # Three tiles without the 0-0 hold at least 0-1, 0-2 and 1-1 = 1 + 2 + 2 pips.
    score_round(D12, 12, SEATS, [out(1), entry(2, 5, tiles_left=3), entry(3, 4)])
    errors = rejected([out(1), entry(2, 4, tiles_left=3), entry(3, 4)])
    assert codes(errors) == {"pips_unreachable"} and "the least 3 tiles can hold is 5" in errors[0].message


def test_8_the_double_blank_counts_as_one_of_the_tiles():
    # 0-0 plus 12-11: two tiles, 23 pips; 0-0 plus two tiles cannot be 46.
    score_round(D12, 12, SEATS, [out(1), entry(2, 23, tiles_left=2, double_blank=True), entry(3, 4)])
    score_round(D12, 12, SEATS, [out(1), entry(2, 0, tiles_left=1, double_blank=True), entry(3, 4)])
    assert codes(rejected([out(1), entry(2, 24, tiles_left=2, double_blank=True), entry(3, 4)])) == {"pips_unreachable"}


def test_8_a_hand_that_did_not_go_out_holds_at_least_one_tile():
    assert codes(rejected([out(1), entry(2, 5, tiles_left=0), entry(3, 4)])) == {"no_tiles_without_going_out"}
    assert codes(rejected([out(1), entry(2, 0), entry(3, 4)])) == {"empty_hand"}


def test_8_more_tiles_than_the_set_holds_is_rejected():
    assert codes(rejected([out(1), entry(2, 500, tiles_left=95), entry(3, 4)])) == {"too_many_tiles"}


# 9. The hands together come from one set.
def test_9_hands_that_together_hold_more_than_the_set_are_rejected():
    rules = GameRules(tile_set=6)  # 168 pips; 6-6 on the table leaves 156
    score_round(rules, 6, SEATS, [out(1), entry(2, 80), entry(3, 76)])
    errors = rejected([out(1), entry(2, 80), entry(3, 77)], rules=rules, starting_double=6)
    assert codes(errors) == {"hands_unreachable"} and errors[0].field == "entries"


def test_9_the_tiles_left_across_hands_must_fit_the_pips():
    rules = GameRules(tile_set=6)
    # Each hand alone is possible (one tile of 11 pips: 6-5), but the set has only one 6-5.
    errors = rejected([out(1), entry(2, 11, tiles_left=1), entry(3, 11, tiles_left=1)], rules=rules, starting_double=6)
    assert codes(errors) == {"hands_unreachable"}
    score_round(rules, 6, SEATS, [out(1), entry(2, 11, tiles_left=1), entry(3, 10, tiles_left=1)])


# 10. Listed tiles.
def test_10_pips_count_and_double_blank_come_from_the_list():
    scored = score_round(D12, 12, SEATS, [out(1), entry(2, tiles=["12-3", "5-5", "0-4", "0-0"]), entry(3, 4)])
    ben = scored.entries[1]
    assert (ben.pips, ben.tiles_left, ben.double_blank, ben.score) == (29, 4, True, 79)
    assert ben.tiles == ("12-3", "5-5", "4-0", "0-0")


@pytest.mark.parametrize(
    ("tiles", "code"),
    [(["13-1"], "not_a_tile"), (["3-4", "4-3"], "duplicate_tile"), (["three"], "not_a_tile")],
)
def test_10_it_rejects_a_list_with_a_tile_that_is_not_in_the_set_or_twice(tiles, code):
    errors = rejected([out(1), entry(2, tiles=tiles), entry(3, 4)])
    assert codes(errors) == {code} and errors[0].field == "tiles"


def test_10_a_tile_cannot_be_in_two_hands():
    errors = rejected([out(1), entry(2, tiles=["3-4"]), entry(3, tiles=["4-3", "1-1"])])
    assert codes(errors) == {"tile_in_two_hands"} and errors[0].player == 3


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"pips": 8}, "pips_disagree_with_tiles"),
        ({"tiles_left": 3}, "tiles_left_disagree_with_tiles"),
        ({"double_blank": True}, "double_blank_disagrees_with_tiles"),
    ],
)
def test_10_numbers_sent_beside_a_list_must_agree_with_it(fields, code):
    errors = rejected([out(1), EntryInput(player=2, tiles=["3-4", "1-1"], **fields), entry(3, 4)])
    assert codes(errors) == {code}


def test_10_numbers_that_agree_with_the_list_are_accepted():
    scored = score_round(
        D12,
        12,
        SEATS,
        [out(1), EntryInput(player=2, tiles=["3-4", "1-1"], pips=9, tiles_left=2, double_blank=False), entry(3, 4)],
    )
    assert scored.entries[1].pips == 9


def test_every_problem_in_a_round_is_reported_at_once():
    errors = rejected([out(1), entry(2, 24, tiles_left=1), entry(3, 5, ended_on_double=True)])
    assert {(e.player, e.code) for e in errors} == {(2, "pips_unreachable"), (3, "ended_on_double_without_going_out")}


def test_8_in_the_double_blank_round_a_0_pip_hand_is_not_told_to_mark_the_0_0():
    errors = rejected([out(1), entry(2, 0), entry(3, 4)], starting_double=0)
    assert codes(errors) == {"empty_hand"} and "mark the 0-0" not in errors[0].message
    assert "gone out" in errors[0].message


def test_9_the_message_names_every_player_concerned_and_the_bound():
    rules = GameRules(tile_set=6)
    errors = rejected(
        [out(1), entry(2, 80, tiles_left=12), entry(3, 77, tiles_left=12)], rules=rules, starting_double=6
    )
    assert errors[0].message.startswith("Ben and Cy: ")
    assert "24 tiles in all hold" in errors[0].message and "not 157" in errors[0].message


# 10. Listed tiles: the new wording.
@pytest.mark.parametrize("text", ["3-4", "3–4", "3—4", "3‐4", "3−4", " 3 - 4 ", "４-３", "٣-٤"])  # noqa: RUF001
def test_10_any_dash_a_keyboard_makes_and_any_scripts_digits_are_read(text):
    scored = score_round(D12, 12, SEATS, [out(1), entry(2, tiles=[text]), entry(3, 5)])
    assert scored.entries[1].tiles == ("4-3",) and scored.entries[1].pips == 7


def test_10_an_empty_list_is_only_for_the_player_who_went_out():
    errors = rejected([out(1), entry(2, tiles=[]), entry(3, 5)])
    assert codes(errors) == {"empty_tile_list"} and errors[0].player == 2 and errors[0].message.startswith("Ben: ")
    scored = score_round(D12, 12, SEATS, [out(1, tiles=[]), entry(2, tiles=["1-2"]), entry(3, 5)])
    assert scored.entries[0].pips == 0


def test_10_a_long_or_overlong_list_is_refused_naming_the_player():
    errors = rejected([out(1), entry(2, tiles=["3-4" * 30]), entry(3, 5)])
    assert codes(errors) == {"not_a_tile"} and errors[0].message.startswith("Ben: ") and len(errors[0].message) < 120
    errors = rejected([out(1), entry(2, tiles=["1-2"] * 500), entry(3, 5)])
    assert codes(errors) == {"too_many_tiles_listed"} and errors[0].message.startswith("Ben: 500 tiles listed")


# 11. Hands that must be dealt at the same time.
def test_11_two_hands_that_both_need_the_only_1_0_are_impossible():
    # Ben's one tile of 1 pip is the 1-0; Cy's 3 pips in two tiles need it too (1-0 and 2-0 or 1-1).
    # The totals pass check 9 thanks to Dot's big tile.
    seats = [*SEATS, Seat(4, "Dot")]
    hands = [out(1), entry(2, 1, tiles_left=1), entry(3, 3, tiles_left=2), entry(4, 23, tiles_left=1)]
    errors = rejected(hands, seats=seats)
    assert codes(errors) == {"hands_cannot_be_dealt_together"} and errors[0].rule == 11
    assert errors[0].message.startswith("Ben and Cy: ")


def test_11_hands_that_a_deal_can_give_together_are_accepted():
    # The 1-0 and the 2-0 (or 1-1): one tile each.
    first = score_round(D12, 12, SEATS, [out(1), entry(2, 1, tiles_left=1), entry(3, 2, tiles_left=1)])
    # Ben's 3 in two tiles (1-0 and 2-0, or 1-0 and 1-1) leaves Cy the other 2-pip tile.
    second = score_round(D12, 12, SEATS, [out(1), entry(2, 3, tiles_left=2), entry(3, 2, tiles_left=1)])
    assert [e.score for e in first.entries] == [0, 1, 2]
    assert [e.score for e in second.entries] == [0, 3, 2]


def test_11_names_only_the_players_whose_hands_clash():
    seats = [*SEATS, Seat(4, "Dot")]
    errors = rejected([out(1), entry(2, 40), entry(3, 1, tiles_left=1), entry(4, 1, tiles_left=1)], seats=seats)
    assert errors[0].message.startswith("Cy and Dot: ")


def test_11_a_listed_tile_is_not_free_for_another_hand():
    errors = rejected([out(1), entry(2, tiles=["1-0", "12-11"]), entry(3, 3, tiles_left=2)])
    assert codes(errors) == {"hands_cannot_be_dealt_together"}
