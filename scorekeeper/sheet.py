"""The score sheet as a page shows it: a row per starting double, a column per player.

Everything it shows about the game (running totals, standings, leaders, the next double and the
doubles the table may skip to) is the state the write path derived and saved (selectors.game_state);
the rounds' entries add who went out and the penalties' badges."""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from .models import Game, Round, Seat
from .rules.deal import DealHint, suggested_deal
from .rules.game import TieBreak
from .rules.names import short_names
from .rules.places import moves
from .rules.scoring import GameState, SeatState
from .selectors import game_state

WIDE = 6  # players a sheet shows side by side on a phone held upright


@dataclass
class Cell:
    score: int | None = None
    total: int | None = None
    went_out: bool = False
    penalty: int = 0
    marks: list[tuple[str, str]] = field(default_factory=list)  # the penalties the score holds: kind, in words
    lead: bool = False  # in the column of a player who leads


@dataclass
class Column:
    """A player's column: the short name its head shows (the full one for its title), the player's
    total, place and how many places they went up (+) or down (-) in the last round."""

    seat: SeatState
    short: str
    name: str
    move: int = 0
    lead: bool = False  # leads the game (nobody does before the first round)

    @property
    def moved(self) -> int:
        return abs(self.move)

    @property
    def place(self) -> str:
        """The player's place as a table says it: "1st", "2nd" ("1.º", "2.º" in Spanish). A game
        has at most ten players, so no place ends like 21st."""
        rank = self.seat.rank
        if rank == 1:
            return pgettext("a player's place 1", "{n}st").format(n=rank)
        if rank == 2:
            return pgettext("a player's place 2", "{n}nd").format(n=rank)
        if rank == 3:
            return pgettext("a player's place 3", "{n}rd").format(n=rank)
        return pgettext("a player's place 4 to 10", "{n}th").format(n=rank)


@dataclass
class Row:
    position: int
    starting_double: int
    state: str  # played, skipped, next, upcoming
    round: Round | None = None
    cells: list[Cell] = field(default_factory=list)
    marker: str | None = None  # a line drawn after this row (ladder turn, end of a pass)


@dataclass
class Sheet:
    game: Game
    seats: list[Seat]
    rows: list[Row]
    state: GameState
    deal: DealHint
    columns: list[Column] = field(default_factory=list)

    @property
    def ranked_columns(self) -> list[Column]:
        """The columns in the order of the standings (the leaders first)."""
        return sorted(self.columns, key=lambda column: column.seat.place)

    @property
    def wide(self) -> bool:
        """More columns than a phone held upright shows at once: the sheet says there are more."""
        return len(self.seats) > WIDE

    @property
    def next_double(self) -> int | None:
        return self.state.next_double

    @property
    def choosable_doubles(self) -> tuple[int, ...]:
        """The expected next double first, then the later ones (skipping)."""
        return self.state.open_doubles

    @property
    def standings(self) -> tuple[SeatState, ...]:
        return self.state.standings

    @property
    def leaders(self) -> tuple[SeatState, ...]:
        return self.state.leaders

    @property
    def lead(self) -> int | None:
        return self.state.lead

    @property
    def ending(self) -> str | None:
        return self.state.ending(self.game.rules)

    @property
    def broken_tie(self) -> tuple[SeatState, ...]:
        return self.state.broken_tie

    @property
    def next_number(self) -> int:
        return self.state.next_number

    @property
    def last_round(self) -> Round | None:
        played = [row.round for row in self.rows if row.round]
        return played[-1] if played else None


def build_sheet(game: Game, seats: list[Seat], rounds: list[Round] | None = None) -> Sheet:
    """`seats` in seat order; `rounds` in play order with their entries prefetched (None: a page that
    shows no rows, such as the round form). The rows follow the saved state: a round written after
    the game was read is left out, one undone since shows the state's scores without its badges."""
    rules, state = game.rules, game_state(game).state
    found = {(round_.number, round_.position): round_ for round_ in rounds or ()}
    played = {line.position: (line, found.get((line.number, line.position))) for line in state.rounds}
    rows = []
    for position in range(state.show_until + 1 if state.show_until is not None and rounds is not None else 0):
        row = Row(position, rules.double_at(position), "upcoming")
        if position in played:
            line, row.round = played[position]
            row.state = "played"
            by_player = {entry.player_id: entry for entry in row.round.entries.all()} if row.round else {}
            for seat, score, total in zip(seats, line.scores, line.totals, strict=True):
                entry = by_player.get(seat.player_id)
                row.cells.append(
                    Cell(score, total, entry.went_out, entry.penalty, _penalty_marks(entry, rules))
                    if entry is not None
                    else Cell(score, total)
                )
        elif state.last_position is not None and position < state.last_position:
            row.state = "skipped"
        elif position == state.next_position:
            row.state = "next"
        if position < state.show_until:
            row.marker = state.marker_after(rules, position)
        rows.append(row)
    lines = state.rounds
    before = lines[-2].totals if len(lines) > 1 else None
    moved = moves(before, lines[-1].totals, *_went_out_around_last(rules, state, rows)) if lines else (0,) * len(seats)
    started = bool(lines)  # nobody leads before the first round
    names = [seat.name for seat in state.seats]
    columns = [
        Column(seat, short, seat.name, move, started and seat.rank == 1)
        for seat, short, move in zip(state.seats, short_names(names), moved, strict=True)
    ]
    for row in rows:
        for cell, column in zip(row.cells, columns, strict=False):
            cell.lead = column.lead
    return Sheet(game, seats, rows, state, suggested_deal(game.tile_set, len(seats)), columns)


def _went_out_around_last(rules, state: GameState, rows: list[Row]) -> tuple[list[int] | None, list[int] | None]:
    """Under the "most went out" tie-break, the rounds each seat went out before the last round and
    after it (what places are ranked by when totals are level); (None, None) otherwise."""
    last = next((row.round for row in rows if row.round and row.round.position == state.last_position), None)
    if rules.tie_break != TieBreak.MOST_WENT_OUT or last is None:  # a sheet drawn without its rounds
        return None, None
    after = [seat.went_out for seat in state.seats]
    out = {entry.player_id for entry in last.entries.all() if entry.went_out}
    return [count - (seat.player in out) for count, seat in zip(after, state.seats, strict=True)], after


def _penalty_marks(entry, rules) -> list[tuple[str, str]]:
    """The marks beside a score that holds penalties: "blank" (caught with the 0-0) and "double"
    (went out on a double), each with what it cost in words."""
    marks = []
    if entry.double_blank and rules.double_blank_penalty:
        marks.append(("blank", _("caught with the 0-0: +{points}").format(points=rules.double_blank_penalty)))
    if entry.ended_on_double and rules.end_on_double_penalty:
        marks.append(("double", _("went out on a double: +{points}").format(points=rules.end_on_double_penalty)))
    return marks
