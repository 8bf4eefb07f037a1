"""Checking one round's entries against the tile-set model, then scoring them.

Every check here is one a real deal must pass; an entry that fails it could not have
come from the tiles on the table. The errors name the player and say what to change.
"""

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from .fill import Need, Undecided, can_fill, pool_counts
from .game import GameRules
from .scoring import penalty
from .text import Text, _, listing, ngettext
from .tiles import (
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


@dataclass(frozen=True)
class Seat:
    player: Hashable
    name: str


@dataclass(frozen=True)
class EntryInput:
    """One player's round as entered. None means "not given"."""

    player: Hashable
    pips: int | None = None
    tiles_left: int | None = None
    tiles: Sequence[str] | None = None
    double_blank: bool | None = None
    went_out: bool = False
    ended_on_double: bool = False


@dataclass(frozen=True)
class ScoredEntry:
    player: Hashable
    pips: int
    tiles_left: int | None
    tiles: tuple[str, ...]
    double_blank: bool
    went_out: bool
    ended_on_double: bool
    penalty: int
    score: int


@dataclass(frozen=True)
class ScoredRound:
    starting_double: int
    blocked: bool
    entries: tuple[ScoredEntry, ...]  # seat order


@dataclass(frozen=True)
class RoundError:
    """One broken rule: `rule` is the number of the check in the rules page."""

    code: str
    message: Text  # a string, with its template and parameters for other languages
    rule: int
    player: Hashable | None = None
    field: str | None = None


@dataclass
class InvalidRound(Exception):
    errors: list[RoundError] = field(default_factory=list)

    def __str__(self) -> str:
        return "; ".join(error.message for error in self.errors)


@dataclass(frozen=True)
class _Hand:
    """An entry with what it holds worked out: from its tile list or from its numbers."""

    entry: EntryInput
    name: str
    pips: int
    tiles_left: int | None
    tiles: tuple[Tile, ...] | None
    double_blank: bool


def _tiles(count: int) -> Text:
    return ngettext("{count} tile", "{count} tiles", count, count=count)


def score_round(
    rules: GameRules, starting_double: int, seats: Sequence[Seat], entries: Sequence[EntryInput]
) -> ScoredRound:
    """Validate a whole round and score it, or raise InvalidRound listing every problem.

    Each numbered check of the rules page is one function below, named after it."""
    if not isinstance(starting_double, int) or not 0 <= starting_double <= rules.tile_set:
        raise InvalidRound([check_5_starting_double_in_set(rules)])
    by_player = check_1_one_entry_each(seats, entries)
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


@dataclass(frozen=True)
class _Table:
    """The set in play and the double on the table: what every bound depends on."""

    highest: int
    starting_double: int

    @property
    def where(self) -> Text:
        d = self.starting_double
        return _("in a double-{highest} set while {double} is on the table", highest=self.highest, double=f"{d}-{d}")


def _names(hands: Sequence[_Hand]) -> Text | str:
    return listing([hand.name for hand in hands])


def _about(name, problem: Text) -> Text:
    """A message about one player (or a few): their name first."""
    return _("{name}: {problem}", name=name, problem=problem)


def _hand_error(hand: _Hand, code: str, message: Text, field: str, rule: int) -> RoundError:
    return RoundError(code, _about(hand.name, message), rule=rule, player=hand.entry.player, field=field)


def check_1_one_entry_each(seats: Sequence[Seat], entries: Sequence[EntryInput]) -> dict:
    """Check 1: every seated player has exactly one entry, and nobody else has one."""
    seated = {seat.player for seat in seats}
    counts = Counter(entry.player for entry in entries)
    errors = [
        RoundError(
            "not_seated",
            _("Player {player} is not seated in this game.", player=player),
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


def check_3_out_holds_nothing(table: _Table, hand: _Hand) -> list[RoundError]:
    """Check 3: the player who went out has 0 pips, no tiles and not the 0-0."""
    errors = []
    if hand.pips != 0:
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


def check_5_starting_double_in_set(rules: GameRules) -> RoundError:
    """Check 5 (its first half): the starting double is a tile of the set."""
    n = rules.tile_set
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
    and agrees with any numbers sent beside it (pips are required when no tiles are listed)."""

    def error(code: str, message: Text, field: str, rule: int = 10) -> RoundError:
        return RoundError(code, _about(name, message), rule=rule, player=entry.player, field=field)

    if entry.tiles is None:
        if entry.pips is None:
            return None, [error("pips_required", _("enter the pips left in hand (or list the tiles)."), "pips", rule=7)]
        return _Hand(entry, name, entry.pips, entry.tiles_left, None, bool(entry.double_blank)), []
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

    def possible(group: Sequence[_Hand]) -> bool | None:
        try:
            return can_fill([need(hand) for hand in group], pool)
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


def _only_one(hands: list[_Hand], code: str, rule: int, field: str, message: Text) -> list[RoundError]:
    """An error for each hand past the first one marked with something only one hand can have."""
    return [
        RoundError(code, _about(hand.name, message), rule=rule, player=hand.entry.player, field=field)
        for hand in hands[1:]
    ]


def _score(rules: GameRules, hand: _Hand) -> ScoredEntry:
    entry = hand.entry
    tiles_left = 0 if entry.went_out else hand.tiles_left
    points = penalty(rules, double_blank=hand.double_blank, ended_on_double=entry.ended_on_double)
    return ScoredEntry(
        player=entry.player,
        pips=hand.pips,
        tiles_left=tiles_left,
        tiles=tuple(str(tile) for tile in sorted(hand.tiles, reverse=True)) if hand.tiles else (),
        double_blank=hand.double_blank,
        went_out=entry.went_out,
        ended_on_double=entry.ended_on_double,
        penalty=points,
        score=hand.pips + points,
    )
