"""Checking one round's entries against the tile-set model, then scoring them.

Every check here is one a real deal must pass; an entry that fails it could not have
come from the tiles on the table. The errors name the player and say what to change.
"""

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from .game import GameRules
from .scoring import penalty
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
    message: str
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


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def score_round(
    rules: GameRules, starting_double: int, seats: Sequence[Seat], entries: Sequence[EntryInput]
) -> ScoredRound:
    """Validate a whole round and score it, or raise InvalidRound listing every problem."""
    if not isinstance(starting_double, int) or not 0 <= starting_double <= rules.tile_set:
        raise InvalidRound(
            [
                RoundError(
                    "starting_double_not_in_set",
                    f"A double-{rules.tile_set} set has doubles 0-0 to {rules.tile_set}-{rules.tile_set}.",
                    rule=5,
                    field="starting_double",
                )
            ]
        )
    by_player = _one_entry_per_seat(seats, entries)
    hands = []
    errors: list[RoundError] = []
    for seat in seats:
        hand, hand_errors = _read_hand(rules, starting_double, by_player[seat.player], seat.name)
        errors += hand_errors
        if hand is not None:
            errors += _check_hand(rules, starting_double, hand)
            hands.append(hand)
    if not errors:
        errors += _check_table(rules, starting_double, hands)
    if errors:
        raise InvalidRound(errors)
    return ScoredRound(
        starting_double=starting_double,
        blocked=not any(hand.entry.went_out for hand in hands),
        entries=tuple(_score(rules, hand) for hand in hands),
    )


def _one_entry_per_seat(seats: Sequence[Seat], entries: Sequence[EntryInput]) -> dict:
    """Check 1: every seated player has exactly one entry, and nobody else has one."""
    seated = {seat.player for seat in seats}
    counts = Counter(entry.player for entry in entries)
    errors = [
        RoundError("not_seated", f"Player {player} is not seated in this game.", rule=1, player=player, field="player")
        for player in counts
        if player not in seated
    ]
    for seat in seats:
        if counts[seat.player] == 0:
            errors.append(
                RoundError("missing_entry", f"{seat.name}: enter this player's round.", rule=1, player=seat.player)
            )
        elif counts[seat.player] > 1:
            errors.append(
                RoundError(
                    "duplicate_entry",
                    f"{seat.name}: entered {counts[seat.player]} times; enter each player once.",
                    rule=1,
                    player=seat.player,
                )
            )
    if errors:
        raise InvalidRound(errors)
    return {entry.player: entry for entry in entries}


def _read_hand(
    rules: GameRules, starting_double: int, entry: EntryInput, name: str
) -> tuple[_Hand | None, list[RoundError]]:
    """Check 10 for a listed hand (and that pips are given when no tiles are)."""

    def error(code: str, message: str, field: str, rule: int = 10) -> RoundError:
        return RoundError(code, f"{name}: {message}", rule=rule, player=entry.player, field=field)

    if entry.tiles is None:
        if entry.pips is None:
            return None, [error("pips_required", "enter the pips left in hand (or list the tiles).", "pips", rule=7)]
        return _Hand(entry, name, entry.pips, entry.tiles_left, None, bool(entry.double_blank)), []

    errors = []
    tiles: list[Tile] = []
    for text in entry.tiles:
        try:
            tiles.append(parse_tile(text, rules.tile_set))
        except TileError as problem:
            errors.append(error("not_a_tile", str(problem), "tiles"))
    for tile, count in Counter(tiles).items():
        if count > 1:
            errors.append(
                error("duplicate_tile", f"{tile} is listed {count} times; a set has one of each tile.", "tiles")
            )
    if double(starting_double) in tiles:
        errors.append(
            error(
                "holds_starting_double",
                f"{double(starting_double)} started this round and is on the table, not in a hand.",
                "tiles",
                rule=5,
            )
        )
    if errors:
        return None, errors

    pips = sum(tile.pips for tile in tiles)
    holds = DOUBLE_BLANK in tiles
    listed = ", ".join(str(tile) for tile in sorted(tiles, reverse=True)) or "no tiles"
    if entry.pips is not None and entry.pips != pips:
        errors.append(
            error(
                "pips_disagree_with_tiles",
                f"the tiles listed ({listed}) add up to {pips} pips, not {entry.pips}.",
                "pips",
            )
        )
    if entry.tiles_left is not None and entry.tiles_left != len(tiles):
        errors.append(
            error(
                "tiles_left_disagree_with_tiles",
                f"the list has {_plural(len(tiles), 'tile')} but tiles left says {entry.tiles_left}.",
                "tiles_left",
            )
        )
    if entry.double_blank is not None and entry.double_blank != holds:
        said = "holds" if entry.double_blank else "does not hold"
        errors.append(
            error(
                "double_blank_disagrees_with_tiles",
                f"the entry says the player {said} the 0-0 but the tiles listed say otherwise.",
                "double_blank",
            )
        )
    return _Hand(entry, name, pips, len(tiles), tuple(tiles), holds), errors


def _check_hand(rules: GameRules, starting_double: int, hand: _Hand) -> list[RoundError]:
    """Checks 3 to 8 on one hand."""
    entry, n, d = hand.entry, rules.tile_set, starting_double
    on_table = f"in a double-{n} set while {d}-{d} is on the table"

    def error(code: str, message: str, field: str, rule: int) -> RoundError:
        return RoundError(code, f"{hand.name}: {message}", rule=rule, player=entry.player, field=field)

    errors = []
    if entry.ended_on_double and not entry.went_out:
        errors.append(
            error(
                "ended_on_double_without_going_out",
                "only the player who went out can have ended on a double.",
                "ended_on_double",
                4,
            )
        )
    if hand.double_blank and d == 0:
        errors.append(
            error(
                "holds_starting_double",
                "0-0 started this round and is on the table, so nobody holds it.",
                "double_blank",
                6,
            )
        )
    if entry.went_out:
        if hand.pips != 0:
            errors.append(error("went_out_with_pips", f"went out, so has no pips left (not {hand.pips}).", "pips", 3))
        if hand.tiles_left:
            errors.append(
                error(
                    "went_out_with_tiles", f"went out, so has no tiles left (not {hand.tiles_left}).", "tiles_left", 3
                )
            )
        if hand.double_blank and d != 0:
            errors.append(
                error("went_out_with_double_blank", "went out, so cannot be holding the 0-0.", "double_blank", 3)
            )
        return errors

    most = max_hand_pips(n, d)
    if not 0 <= hand.pips <= most:
        errors.append(
            error(
                "pips_out_of_range",
                f"{hand.pips} pips is impossible: a hand holds 0 to {most} pips {on_table}.",
                "pips",
                7,
            )
        )
        return errors
    if errors or hand.tiles is not None:
        return errors
    if hand.tiles_left == 0:
        errors.append(
            error(
                "no_tiles_without_going_out",
                "has no tiles left, so went out: mark them as gone out or enter the tiles left.",
                "tiles_left",
                8,
            )
        )
        return errors
    if hand.tiles_left is None:
        if fewest_tiles_for(n, d, hand.pips, hand.double_blank, at_least=1) is None:
            errors.append(
                error(
                    "empty_hand",
                    "did not go out, so holds at least one tile, and the only tile worth 0 pips is the 0-0:"
                    " mark the 0-0, or mark the player as gone out.",
                    "pips",
                    8,
                )
            )
        return errors
    reach = hand_range(n, d, hand.tiles_left, hand.double_blank)
    counting = " counting the 0-0" if hand.double_blank else ""
    if reach is None:
        most_held = most_tiles(n, d, hand.double_blank)
        errors.append(
            error(
                "too_many_tiles",
                f"{_plural(hand.tiles_left, 'tile')} is more than a hand can hold {on_table} (at most {most_held}).",
                "tiles_left",
                8,
            )
        )
    elif hand.pips not in reach:
        tiles = f"{_plural(hand.tiles_left, 'tile')}{counting}"
        bound = (
            f"the most {tiles} can hold is {reach.high}"
            if hand.pips > reach.high
            else f"the least {tiles} can hold is {reach.low}"
        )
        errors.append(
            error(
                "pips_unreachable",
                f"{_plural(hand.tiles_left, 'tile')} cannot hold {hand.pips} pips {on_table} ({bound}).",
                "pips",
                8,
            )
        )
    return errors


def _check_table(rules: GameRules, starting_double: int, hands: list[_Hand]) -> list[RoundError]:
    """Checks 2, 6, 9 and 10 across hands: they come from one set, so they cannot overlap."""
    n, d = rules.tile_set, starting_double
    errors = []
    went_out = [hand for hand in hands if hand.entry.went_out]
    errors += _only_one(
        went_out, "several_went_out", 2, "went_out", "only one player can go out in a round ({names} are marked)."
    )
    holders = [hand for hand in hands if hand.double_blank]
    errors += _only_one(
        holders,
        "several_double_blanks",
        6,
        "double_blank",
        "a set has one 0-0, but {names} are all marked as holding it.",
    )
    seen: dict[Tile, _Hand] = {}
    for hand in hands:
        for tile in hand.tiles or ():
            if tile in seen:
                errors.append(
                    RoundError(
                        "tile_in_two_hands",
                        f"{hand.name}: {tile} is also listed for {seen[tile].name}; a set has one of each tile.",
                        rule=10,
                        player=hand.entry.player,
                        field="tiles",
                    )
                )
            seen[tile] = hand
    if errors:
        return errors

    holding = [hand for hand in hands if not hand.entry.went_out]
    pips = sum(hand.pips for hand in holding)
    known = sum(hand.tiles_left for hand in holding if hand.tiles_left is not None)
    unknown = sum(1 for hand in holding if hand.tiles_left is None)
    holds = bool(holders)
    on_table = f"in a double-{n} set while {d}-{d} is on the table"
    if unknown == 0:
        reach = hand_range(n, d, known, holds)
        possible = reach is not None and pips in reach
        detail = (
            f"{_plural(known, 'tile')} in all"
            if reach is None
            else f"{_plural(known, 'tile')} in all hold {reach.low} to {reach.high}"
        )
    else:
        possible = fewest_tiles_for(n, d, pips, holds, at_least=known + unknown) is not None
        detail = f"at least {_plural(known + unknown, 'tile')} in all"
    if not possible:
        errors.append(
            RoundError(
                "hands_unreachable",
                f"Together the hands hold {pips} pips, which no deal allows {on_table} ({detail}). Check the entries.",
                rule=9,
                field="entries",
            )
        )
    return errors


def _only_one(hands: list[_Hand], code: str, rule: int, field: str, message: str) -> list[RoundError]:
    """An error for each hand past the first one marked with something only one hand can have."""
    names = ", ".join(hand.name for hand in hands)
    return [
        RoundError(
            code, f"{hand.name}: {message.format(names=names)}", rule=rule, player=hand.entry.player, field=field
        )
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
