"""Seats that change during a game: who joins, leaves or takes over a seat between two rounds.

A game's seat order lists everyone who ever sat at its table. Between rounds a player may join
(sitting after a seat the scorer names, by default last), leave, or take over a seated player's
seat (sitting right after them); each change is made "after" a number of recorded rounds. From the
seat order and the changes follow who is seated in each round, each player's opening total, who
left when, and who shuffles next (scoring.derive replays them with the rounds).
"""

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from .game import JOIN_TOTALS, MAX_PLAYERS, MIN_PLAYERS
from .text import Text, _


class JoinTotal:
    """The opening total of a player who joins after the first round (the game option "join_total")."""

    HIGHEST = "highest"  # the highest total at the table: arriving late is never an advantage
    AVERAGE = "average"  # the seated players' average, rounded up
    ZERO = "zero"

    CHOICES = JOIN_TOTALS


class Change:
    """The kinds of seat change, as the API and the history name them."""

    JOIN = "join"
    LEAVE = "leave"
    TAKE_OVER = "take_over"

    CHOICES = (JOIN, LEAVE, TAKE_OVER)


@dataclass(frozen=True)
class SeatChange:
    """One change at the table, made after `after` rounds were recorded. `player` joins, leaves or
    takes over; `replaces` is whose seat a take-over continues (that player leaves); `join_total` is
    the opening total the table chose for a joiner at the door (None: the game's option)."""

    kind: str
    player: Hashable
    after: int
    replaces: Hashable | None = None
    join_total: str | None = None


def table_full(seated: int) -> bool:
    """Whether a table of `seated` players has no seat left for a joiner (a take-over still has one)."""
    return seated >= MAX_PLAYERS


def opening_total(option: str, seated_totals: Sequence[int]) -> int:
    """What a player joining now starts with, given the seated players' totals."""
    if option == JoinTotal.ZERO or not seated_totals:
        return 0
    if option == JoinTotal.AVERAGE:
        return math.ceil(sum(seated_totals) / len(seated_totals))
    return max(seated_totals)


def opening_totals(seated_totals: Sequence[int]) -> dict[str, int]:
    """What a player joining now would start with under each option, in the options' order."""
    return {option: opening_total(option, seated_totals) for option in JoinTotal.CHOICES}


def join_total_refusal(change: SeatChange) -> "Refusal | None":
    """A join total that is not one of the three, or one given to anything but a join."""
    if change.join_total is None:
        return None
    if change.join_total not in JoinTotal.CHOICES:
        return Refusal(
            "join_total",
            "unknown_join_total",
            _("A joiner starts with one of: {choices} (got {got}).", choices=", ".join(JoinTotal.CHOICES),
              got=str(change.join_total)[:20]),
        )  # fmt: skip
    if change.kind != Change.JOIN:
        return Refusal(
            "join_total",
            "not_a_join",
            _("Only a player who joins starts from a chosen total: a take-over continues the seat's total."),
        )
    return None


def newcomers(changes: Iterable[SeatChange]) -> set:
    """The players who came to the table through a change (not seated at the start)."""
    return {change.player for change in changes if change.kind in (Change.JOIN, Change.TAKE_OVER)}


def seated_at_start(order: Sequence[Hashable], changes: Iterable[SeatChange]) -> list:
    """The players seated for the first round's deal before any change, in seat order."""
    came = newcomers(changes)
    return [player for player in order if player not in came]


def apply(seated: list, order: Sequence[Hashable], change: SeatChange) -> list:
    """The seated players after `change`, in seat order."""
    now = set(seated)
    if change.kind == Change.JOIN:
        now.add(change.player)
    elif change.kind == Change.LEAVE:
        now.discard(change.player)
    else:
        now.discard(change.replaces)
        now.add(change.player)
    return [player for player in order if player in now]


def place_in_order(order: Sequence[Hashable], change: SeatChange, sits_after: Hashable | None = None) -> list:
    """The seat order with a newcomer placed: a take-over right after the seat it continues, a joiner
    after `sits_after` (None: last). A player who leaves keeps their place in it."""
    order = list(order)
    if change.kind == Change.LEAVE:
        return order
    anchor = change.replaces if change.kind == Change.TAKE_OVER else sits_after
    index = order.index(anchor) + 1 if anchor is not None else len(order)
    return [*order[:index], change.player, *order[index:]]


@dataclass(frozen=True)
class Refusal:
    """Why a seat change cannot be made: the field it concerns, a code and a message."""

    field: str
    code: str
    message: Text


def refusal(
    change: SeatChange,
    *,
    seated: Sequence[Hashable],
    sat: Iterable[Hashable],
    names: dict,
    finished: bool,
    sits_after: Hashable | None = None,
) -> Refusal | None:
    """What forbids `change` at a table where `seated` are seated and `sat` are everyone who ever
    sat (names: player -> name), or None when it may be made."""
    name = names.get(change.player, str(change.player))
    if finished:
        return Refusal("game", "game_finished", _("The game is over: nobody can join, leave or take over a seat."))
    if (wrong := join_total_refusal(change)) is not None:
        return wrong
    sat = set(sat)
    if change.kind == Change.LEAVE:
        if change.player not in seated:
            return Refusal("player", "not_seated", _("{name} is not seated at this table.", name=name))
        if len(seated) - 1 < MIN_PLAYERS:
            return Refusal(
                "player",
                "too_few_players",
                _("{name} cannot leave: at least {least} players stay seated (end the game instead).", name=name,
                  least=MIN_PLAYERS),
            )  # fmt: skip
        return None
    if change.player in seated:
        return Refusal("player", "already_seated", _("{name} is already seated at this table.", name=name))
    if change.player in sat:
        return Refusal(
            "player", "left_this_game", _("{name} left this game: a player sits at most once in a game.", name=name)
        )
    if change.kind == Change.TAKE_OVER:
        if change.replaces not in seated:
            replaced = names.get(change.replaces, str(change.replaces))
            return Refusal("replaces", "not_seated", _("{name} is not seated at this table.", name=replaced))
        return None
    if table_full(len(seated)):
        return Refusal(
            "player", "table_full", _("A table seats at most {most} players: {name} cannot join.", most=MAX_PLAYERS,
                                      name=name)
        )  # fmt: skip
    if sits_after is not None and sits_after not in seated:
        after = names.get(sits_after, str(sits_after))
        return Refusal("after", "not_seated", _("{name} is not seated at this table.", name=after))
    return None


def next_shuffler(order: Sequence[Hashable], seated: Sequence[Hashable], last: Hashable | None) -> Hashable | None:
    """Who shuffles for a round of `seated` players: the first seat when nobody has yet (`last` is
    None), else the next seated player after the last one who shuffled, in seat order."""
    if not seated:
        return None
    if last is None:
        return seated[0]
    now = set(seated)
    start = order.index(last)
    for step in range(1, len(order) + 1):
        player = order[(start + step) % len(order)]
        if player in now:
            return player
    return None


def seat_lines(seats: Sequence) -> list[list[int]]:
    """The columns a sheet draws: the indexes of `seats` (SeatStates, in seat order) grouped by the
    seat they sat in, a take-over continuing the column of the player it replaced (who comes first)."""
    lines: list[list[int]] = []
    line_of: dict = {}
    for index, seat in enumerate(seats):
        if seat.replaced is not None and seat.replaced in line_of:
            line = line_of[seat.replaced]
            line.append(index)
        else:
            line = [index]
            lines.append(line)
        line_of[seat.player] = line
    return lines
