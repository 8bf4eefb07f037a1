"""Checking one round's entries against the tile-set model, then scoring them.

Every check here is one a real deal must pass; an entry that fails it could not have
come from the tiles on the table. The errors name the player and say what to change."""

from .checks import (
    SETTLED_BY,
    check_1_one_entry_each,
    check_2_one_player_out,
    check_3_out_holds_nothing,
    check_4_double_only_going_out,
    check_5_starting_double_in_set,
    check_6_no_double_blank_in_its_round,
    check_6_one_double_blank,
    check_7_pips_in_set,
    check_8_tiles_can_hold_pips,
)
from .entries import (
    EntryInput,
    InvalidRound,
    RoundError,
    ScoredEntry,
    ScoredRound,
    Seat,
)
from .score import score_round
from .together import (
    check_9_hands_fit_together,
    check_10_listed_tiles,
    check_10_tiles_in_one_hand,
    check_11_hands_fill_at_once,
)

__all__ = [
    "SETTLED_BY",
    "EntryInput",
    "InvalidRound",
    "RoundError",
    "ScoredEntry",
    "ScoredRound",
    "Seat",
    "check_1_one_entry_each",
    "check_2_one_player_out",
    "check_3_out_holds_nothing",
    "check_4_double_only_going_out",
    "check_5_starting_double_in_set",
    "check_6_no_double_blank_in_its_round",
    "check_6_one_double_blank",
    "check_7_pips_in_set",
    "check_8_tiles_can_hold_pips",
    "check_9_hands_fit_together",
    "check_10_listed_tiles",
    "check_10_tiles_in_one_hand",
    "check_11_hands_fill_at_once",
    "score_round",
]
