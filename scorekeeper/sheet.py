"""The score sheet as a page shows it: a row per starting double, a column per player.

Everything it shows about the game (running totals, standings, leaders, the next double and the
doubles the table may skip to) is the state the write path derived and saved (selectors.game_state);
the rounds' entries add who went out and the penalties' badges."""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from .models import Game, Round, Seat
from .rules.deal import DealHint, suggested_deal
from .rules.scoring import GameState, SeatState
from .selectors import game_state


@dataclass
class Cell:
    score: int | None = None
    total: int | None = None
    went_out: bool = False
    penalty: int = 0
    penalty_note: str = ""  # which penalties the score holds, for the badge's title


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
    def ending(self) -> str | None:
        return self.state.ending(self.game.rules)

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
                    Cell(score, total, entry.went_out, entry.penalty, _penalty_note(entry, rules))
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
    return Sheet(game, seats, rows, state, suggested_deal(game.tile_set, len(seats)))


def _penalty_note(entry, rules) -> str:
    notes = []
    if entry.double_blank and rules.double_blank_penalty:
        notes.append(_("caught with the 0-0: +{points}").format(points=rules.double_blank_penalty))
    if entry.ended_on_double and rules.end_on_double_penalty:
        notes.append(_("went out on a double: +{points}").format(points=rules.end_on_double_penalty))
    return "; ".join(notes)
