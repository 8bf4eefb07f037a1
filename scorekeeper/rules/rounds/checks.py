"""The checks one entry must pass on its own, or with the others at the same table (rules 1 to 8).

Each is named after its number on the rules page."""

from collections import Counter
from collections.abc import Sequence

from ..game import GameRules
from ..text import _
from ..tiles import (
    fewest_tiles_for,
    hand_range,
    max_hand_pips,
    most_tiles,
)
from .entries import (
    EntryInput,
    InvalidRound,
    RoundError,
    Seat,
    _about,
    _Hand,
    _hand_error,
    _names,
    _only_one,
    _Table,
    _tiles,
)


def check_1_one_entry_each(seats: Sequence[Seat], entries: Sequence[EntryInput], away: Sequence[Seat] = ()) -> dict:
    """Check 1: every player seated in this round has exactly one entry, and nobody else has one
    (`away`: the game's players not seated in it, named when an entry is for one of them)."""
    seated = {seat.player for seat in seats}
    names = {seat.player: seat.name for seat in away}
    counts = Counter(entry.player for entry in entries)
    errors = [
        RoundError(
            "not_seated",
            _about(names[player], _("not seated in this round; enter only the players at the table."))
            if player in names
            else _("Player {player} is not seated in this game.", player=player),
            rule=1,
            player=player,
            field="player",
        )
        for player in counts
        if player not in seated
    ]
    for seat in seats:
        if counts[seat.player] == 0:
            errors.append(
                RoundError(
                    "missing_entry", _about(seat.name, _("enter this player's round.")), rule=1, player=seat.player
                )
            )
        elif counts[seat.player] > 1:
            errors.append(
                RoundError(
                    "duplicate_entry",
                    _about(seat.name, _("entered {count} times; enter each player once.", count=counts[seat.player])),
                    rule=1,
                    player=seat.player,
                )
            )
    if errors:
        raise InvalidRound(errors)
    return {entry.player: entry for entry in entries}


def check_2_one_player_out(hands: list[_Hand]) -> list[RoundError]:
    """Check 2: at most one player went out."""
    went_out = [hand for hand in hands if hand.entry.went_out]
    if len(went_out) < 2:  # the usual round: no message to write (an import checks thousands)
        return []
    return _only_one(
        went_out,
        "several_went_out",
        2,
        "went_out",
        _("only one player can go out in a round ({names} are marked).", names=_names(went_out)),
    )


# What ticking one box of an entry settles about its other fields, by checks 3 and 4, as data for
# the round form's script to fill in as the box is ticked: the player who went out has 0 pips left
# (check 3); only the player who went out can have ended on a double, so ending on one is going out
# (check 4), with its 0 pips. Field names as in EntryInput.
OUT_PIPS = 0
SETTLED_BY = {
    "went_out": {"pips": OUT_PIPS},
    "ended_on_double": {"went_out": True, "pips": OUT_PIPS},
}


def check_3_out_holds_nothing(table: _Table, hand: _Hand) -> list[RoundError]:
    """Check 3: the player who went out has 0 pips, no tiles and not the 0-0."""
    errors = []
    if hand.pips != OUT_PIPS:
        errors.append(
            _hand_error(
                hand, "went_out_with_pips", _("went out, so has no pips left (not {pips}).", pips=hand.pips), "pips", 3
            )
        )
    if hand.tiles_left:
        errors.append(
            _hand_error(
                hand,
                "went_out_with_tiles",
                _("went out, so has no tiles left (not {count}).", count=hand.tiles_left),
                "tiles_left",
                3,
            )
        )
    if hand.double_blank and table.starting_double != 0:
        errors.append(
            _hand_error(
                hand, "went_out_with_double_blank", _("went out, so cannot be holding the 0-0."), "double_blank", 3
            )
        )
    return errors


def check_4_double_only_going_out(hand: _Hand) -> list[RoundError]:
    """Check 4: only the player who went out can have ended on a double."""
    if hand.entry.ended_on_double and not hand.entry.went_out:
        return [
            _hand_error(
                hand,
                "ended_on_double_without_going_out",
                _("only the player who went out can have ended on a double."),
                "ended_on_double",
                4,
            )
        ]
    return []


def check_5_starting_double_in_set(rules: GameRules, starting_double=None) -> RoundError:
    """Check 5 (its first half): the starting double is a tile of the set, and one the game's
    sequence has (a first double below the top leaves the higher ones out of every round)."""
    n = rules.tile_set
    if isinstance(starting_double, int) and rules.top < starting_double <= n:
        return RoundError(
            "starting_double_above_first",
            _("This game's rounds start at {first} or lower: {double} never starts one.",
              first=f"{rules.top}-{rules.top}", double=f"{starting_double}-{starting_double}"),
            rule=5,
            field="starting_double",
        )  # fmt: skip
    return RoundError(
        "starting_double_not_in_set",
        _("A double-{n} set has doubles 0-0 to {top}.", n=n, top=f"{n}-{n}"),
        rule=5,
        field="starting_double",
    )


def check_6_no_double_blank_in_its_round(table: _Table, hand: _Hand) -> list[RoundError]:
    """Check 6 (one hand): nobody holds the 0-0 in the round that it starts."""
    if hand.double_blank and table.starting_double == 0:
        return [
            _hand_error(
                hand,
                "holds_starting_double",
                _("0-0 started this round and is on the table, so nobody holds it."),
                "double_blank",
                6,
            )
        ]
    return []


def check_6_one_double_blank(hands: list[_Hand]) -> list[RoundError]:
    """Check 6 (the table): a set has one 0-0, so at most one player holds it."""
    holders = [hand for hand in hands if hand.double_blank]
    if len(holders) < 2:
        return []
    return _only_one(
        holders,
        "several_double_blanks",
        6,
        "double_blank",
        _("a set has one 0-0, but {names} are all marked as holding it.", names=_names(holders)),
    )


def _check_held(table: _Table, hand: _Hand) -> list[RoundError]:
    """Checks 7 and 8 on a hand that did not go out."""
    errors = check_7_pips_in_set(table, hand)
    if not errors and hand.tiles is None:
        errors = check_8_tiles_can_hold_pips(table, hand)
    return errors


def check_7_pips_in_set(table: _Table, hand: _Hand) -> list[RoundError]:
    """Check 7: a hand's pips are between 0 and the set less the starting double."""
    most = max_hand_pips(table.highest, table.starting_double)
    if 0 <= hand.pips <= most:
        return []
    message = _(
        "{pips} pips is impossible: a hand holds 0 to {most} pips {where}.",
        pips=hand.pips,
        most=most,
        where=table.where,
    )
    return [_hand_error(hand, "pips_out_of_range", message, "pips", 7)]


def check_8_tiles_can_hold_pips(table: _Table, hand: _Hand) -> list[RoundError]:
    """Check 8: k tiles left can hold the pips; a player who did not go out holds a tile."""
    n, d = table.highest, table.starting_double
    if hand.tiles_left == 0:
        message = _("has no tiles left, so went out: mark them as gone out or enter the tiles left.")
        return [_hand_error(hand, "no_tiles_without_going_out", message, "tiles_left", 8)]
    if hand.tiles_left is None:
        if fewest_tiles_for(n, d, hand.pips, hand.double_blank, at_least=1) is not None:
            return []
        if d == 0:  # the 0-0 is on the table: no tile left in any hand is worth 0
            message = _(
                "did not go out, so holds at least one tile, and with 0-0 on the table every tile is worth at least 1 pip: enter the pips left, or mark the player as gone out."
            )
        else:
            message = _(
                "did not go out, so holds at least one tile, and the only tile worth 0 pips is the 0-0: mark the 0-0, or mark the player as gone out."
            )
        return [_hand_error(hand, "empty_hand", message, "pips", 8)]
    reach = hand_range(n, d, hand.tiles_left, hand.double_blank)
    if reach is not None and hand.pips in reach:
        return []
    tiles = _tiles(hand.tiles_left)
    if reach is None:
        most_held = most_tiles(n, d, hand.double_blank)
        message = _(
            "{tiles} is more than a hand can hold {where} (at most {most}).",
            tiles=tiles,
            where=table.where,
            most=most_held,
        )
        return [_hand_error(hand, "too_many_tiles", message, "tiles_left", 8)]
    counting = _("{tiles} counting the 0-0", tiles=tiles) if hand.double_blank else tiles
    bound = (
        _("the most {tiles} can hold is {pips}", tiles=counting, pips=reach.high)
        if hand.pips > reach.high
        else _("the least {tiles} can hold is {pips}", tiles=counting, pips=reach.low)
    )
    message = _(
        "{tiles} cannot hold {pips} pips {where} ({bound}).",
        tiles=tiles,
        pips=hand.pips,
        where=table.where,
        bound=bound,
    )
    return [_hand_error(hand, "pips_unreachable", message, "pips", 8)]
