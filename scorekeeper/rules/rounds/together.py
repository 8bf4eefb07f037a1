"""Whether the hands fit together in one real deal (rules 9 to 11): the tiles listed, the counts and the pips
drawn from one set at once."""

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from time import perf_counter

from .. import fill
from ..fill import Need, Undecided, can_fill, pool_counts
from ..text import Text, _
from ..tiles import (
    DOUBLE_BLANK,
    Tile,
    TileError,
    double,
    fewest_tiles_for,
    hand_range,
    max_hand_pips,
    most_tiles,
    parse_tile,
    tile_count,
)
from .checks import OUT_PIPS
from .entries import EntryInput, RoundError, _about, _Hand, _hand_error, _names, _Table, _tiles


def check_9_hands_fit_together(table: _Table, hands: list[_Hand]) -> list[RoundError]:
    """Check 9: the hands come from one set, so their totals must fit in it together."""
    n, d = table.highest, table.starting_double
    holding = [hand for hand in hands if not hand.entry.went_out]
    if not holding:
        return []
    pips = sum(hand.pips for hand in holding)
    known = sum(hand.tiles_left for hand in holding if hand.tiles_left is not None)
    unknown = sum(1 for hand in holding if hand.tiles_left is None)
    holds = any(hand.double_blank for hand in holding)
    if unknown == 0:
        reach = hand_range(n, d, known, holds)
        if reach is None:
            problem = _(
                "{tiles} in all is more than the {most} tiles left {where}",
                tiles=_tiles(known),
                most=most_tiles(n, d, holds),
                where=table.where,
            )
        elif pips not in reach:
            problem = _(
                "{tiles} in all hold {low} to {high} pips {where}, not {pips}",
                tiles=_tiles(known),
                low=reach.low,
                high=reach.high,
                where=table.where,
                pips=pips,
            )
        else:
            return []
    else:
        at_least = known + unknown
        if fewest_tiles_for(n, d, pips, holds, at_least=at_least) is not None:
            return []
        low = hand_range(n, d, at_least, holds)
        most = max_hand_pips(n, d)
        if low is not None and pips < low.low:
            problem = _(
                "{count} or more tiles in all hold at least {low} pips {where}, not {pips}",
                count=at_least,
                low=low.low,
                where=table.where,
                pips=pips,
            )
        else:
            problem = _(
                "all the tiles off the table hold at most {most} pips {where}, not {pips}",
                most=most,
                where=table.where,
                pips=pips,
            )
    return [
        RoundError(
            "hands_unreachable",
            _about(
                _names(holding),
                _("together these hands cannot come from one set: {problem}. Check their entries.", problem=problem),
            ),
            rule=9,
            field="entries",
        )
    ]


def check_10_listed_tiles(table: _Table, entry: EntryInput, name: str) -> tuple[_Hand | None, list[RoundError]]:
    """Check 10 for one hand: a listed hand is real tiles, once each, not the starting double,
    and agrees with any numbers sent beside it.

    Pips are required when no tiles are listed, except from the player who went out: they hold
    nothing, so nothing left to count is their 0 (check 3). One reading for the pages, the API
    and imports alike; the API contract's bodies (pips, or tiles, always sent) read as before."""

    def error(code: str, message: Text, field: str, rule: int = 10) -> RoundError:
        return RoundError(code, _about(name, message), rule=rule, player=entry.player, field=field)

    if entry.tiles is None:
        pips = OUT_PIPS if entry.pips is None and entry.went_out else entry.pips
        if pips is None:
            return None, [error("pips_required", _("enter the pips left in hand (or list the tiles)."), "pips", rule=7)]
        return _Hand(entry, name, pips, entry.tiles_left, None, bool(entry.double_blank)), []
    if not entry.tiles and not entry.went_out:
        message = _(
            "an empty tile list means no tiles, and only the player who went out has none: list the tiles left, or enter the pips instead."
        )
        return None, [error("empty_tile_list", message, "tiles")]
    most = tile_count(table.highest) - 1
    if len(entry.tiles) > most:
        message = _(
            "{count} tiles listed, but a double-{n} set has {most} besides the starting double.",
            count=len(entry.tiles),
            n=table.highest,
            most=most,
        )
        return None, [error("too_many_tiles_listed", message, "tiles")]

    errors = []
    tiles: list[Tile] = []
    for text in entry.tiles:
        try:
            tiles.append(parse_tile(text, table.highest))
        except TileError as problem:
            errors.append(error("not_a_tile", problem.message, "tiles"))
    for tile, count in Counter(tiles).items():
        if count > 1:
            errors.append(
                error(
                    "duplicate_tile",
                    _("{tile} is listed {count} times; a set has one of each tile.", tile=str(tile), count=count),
                    "tiles",
                )
            )
    starting = double(table.starting_double)
    if starting in tiles:
        message = _("{tile} started this round and is on the table, not in a hand.", tile=str(starting))
        errors.append(error("holds_starting_double", message, "tiles", rule=5))
    if errors:
        return None, errors

    pips = sum(tile.pips for tile in tiles)
    holds = DOUBLE_BLANK in tiles
    listed = ", ".join(str(tile) for tile in sorted(tiles, reverse=True)) or _("no tiles")
    if entry.pips is not None and entry.pips != pips:
        message = _(
            "the tiles listed ({tiles}) add up to {pips} pips, not {entered}.",
            tiles=listed,
            pips=pips,
            entered=entry.pips,
        )
        errors.append(error("pips_disagree_with_tiles", message, "pips"))
    if entry.tiles_left is not None and entry.tiles_left != len(tiles):
        message = _(
            "the list has {tiles} but tiles left says {count}.", tiles=_tiles(len(tiles)), count=entry.tiles_left
        )
        errors.append(error("tiles_left_disagree_with_tiles", message, "tiles_left"))
    if entry.double_blank is not None and entry.double_blank != holds:
        message = (
            _("the entry says the player holds the 0-0 but the tiles listed say otherwise.")
            if entry.double_blank
            else _("the entry says the player does not hold the 0-0 but the tiles listed say otherwise.")
        )
        errors.append(error("double_blank_disagrees_with_tiles", message, "double_blank"))
    return _Hand(entry, name, pips, len(tiles), tuple(tiles), holds), errors


def check_10_tiles_in_one_hand(hands: list[_Hand]) -> list[RoundError]:
    """Check 10 across hands: a listed tile is in one hand only."""
    errors = []
    seen: dict[Tile, _Hand] = {}
    for hand in hands:
        for tile in hand.tiles or ():
            if tile in seen:
                message = _(
                    "{tile} is also listed for {name}; a set has one of each tile.",
                    tile=str(tile),
                    name=seen[tile].name,
                )
                errors.append(_hand_error(hand, "tile_in_two_hands", message, "tiles", 10))
            seen[tile] = hand
    return errors


def check_11_hands_fill_at_once(table: _Table, hands: list[_Hand]) -> list[RoundError]:
    """Check 11: the hands can be dealt at the same time from distinct tiles (decided exactly
    when that is quick; see rules.fill). Names the fewest players whose hands clash."""
    listed = [tile for hand in hands for tile in hand.tiles or ()]
    pool = pool_counts(table.highest, table.starting_double, listed)
    open_hands = [hand for hand in hands if hand.tiles is None and not hand.entry.went_out]

    def need(hand: _Hand) -> Need:
        others = None if hand.tiles_left is None else hand.tiles_left - (1 if hand.double_blank else 0)
        return Need(hand.pips, others)

    deadline = perf_counter() + fill.TIME_BUDGET  # for the whole check, every group tried below

    def possible(group: Sequence[_Hand]) -> bool | None:
        try:
            return can_fill([need(hand) for hand in group], pool, deadline)
        except Undecided:
            return None  # too costly to settle

    whole = possible(open_hands) if open_hands else True
    if whole:  # a deal of every hand at once is also one of any few of them
        return []
    # Name the fewest players whose hands clash: small groups are also quick to settle. A hand
    # alone can clash only with tiles that another hand listed.
    singles = [(hand,) for hand in open_hands] if listed else []
    clash = next((group for group in [*singles, *combinations(open_hands, 2)] if possible(group) is False), None)
    if clash is None:
        if whole is None:
            return []  # undecided: check 9's totals stand
        clash = tuple(open_hands)
    if len(clash) == 1:
        clash = (*clash, *(hand for hand in hands if hand.tiles))
    message = _(
        "these hands cannot all be dealt at once {where}: there are not enough different tiles with those pips. Check their entries.",
        where=table.where,
    )
    return [
        RoundError(
            "hands_cannot_be_dealt_together", _about(_names(clash), message), rule=11, player=None, field="entries"
        )
    ]
