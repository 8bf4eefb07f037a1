"""One round checked against the tile-set model and scored."""

from collections.abc import Sequence

from ..game import GameRules
from .checks import (
    _check_held,
    check_1_one_entry_each,
    check_2_one_player_out,
    check_3_out_holds_nothing,
    check_4_double_only_going_out,
    check_5_starting_double_in_set,
    check_6_no_double_blank_in_its_round,
    check_6_one_double_blank,
)
from .entries import EntryInput, InvalidRound, RoundError, ScoredRound, Seat, _Hand, _score, _Table
from .together import (
    check_9_hands_fit_together,
    check_10_listed_tiles,
    check_10_tiles_in_one_hand,
    check_11_hands_fill_at_once,
)


def score_round(
    rules: GameRules,
    starting_double: int,
    seats: Sequence[Seat],
    entries: Sequence[EntryInput],
    away: Sequence[Seat] = (),
) -> ScoredRound:
    """Validate a whole round of the players seated in it (`seats`) and score it, or raise
    InvalidRound listing every problem. `away`: the game's players not seated in this round, named
    when an entry is for one of them.

    Each numbered check of the rules page is one function below, named after it."""
    if not isinstance(starting_double, int) or not 0 <= starting_double <= rules.top:
        raise InvalidRound([check_5_starting_double_in_set(rules, starting_double)])
    by_player = check_1_one_entry_each(seats, entries, away)
    table = _Table(rules.tile_set, starting_double)
    hands: list[_Hand] = []
    errors: list[RoundError] = []
    for seat in seats:
        hand, hand_errors = check_10_listed_tiles(table, by_player[seat.player], seat.name)
        errors += hand_errors
        if hand is not None:
            hand_errors = check_4_double_only_going_out(hand) + check_6_no_double_blank_in_its_round(table, hand)
            hand_errors += check_3_out_holds_nothing(table, hand) if hand.entry.went_out else _check_held(table, hand)
            errors += hand_errors
            hands.append(hand)
    if not errors:
        errors = check_2_one_player_out(hands) + check_6_one_double_blank(hands) + check_10_tiles_in_one_hand(hands)
    if not errors:
        errors = check_9_hands_fit_together(table, hands)
    if not errors:
        errors = check_11_hands_fill_at_once(table, hands)
    if errors:
        raise InvalidRound(errors)
    return ScoredRound(
        starting_double=starting_double,
        blocked=not any(hand.entry.went_out for hand in hands),
        entries=tuple(_score(rules, hand) for hand in hands),
    )
