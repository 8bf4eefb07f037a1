"""The score sheet as a page shows it: a row per starting double, a column per player."""

from dataclasses import dataclass, field

from .models import Game, Round, Seat
from .rules.deal import DealHint, suggested_deal
from .rules.game import open_positions


@dataclass
class Cell:
    score: int | None = None
    total: int | None = None
    went_out: bool = False
    penalty: int = 0


@dataclass
class Row:
    position: int
    starting_double: int
    state: str  # played, skipped, next, upcoming
    round: Round | None = None
    cells: list[Cell] = field(default_factory=list)


@dataclass
class Sheet:
    game: Game
    seats: list[Seat]
    rows: list[Row]
    next_position: int | None
    deal: DealHint

    @property
    def next_double(self) -> int | None:
        return None if self.next_position is None else self.game.rules.double_at(self.next_position)

    @property
    def choosable_doubles(self) -> list[int]:
        """The expected next double first, then the later ones of the pass (skipping)."""
        if self.next_position is None:
            return []
        rules = self.game.rules
        return [rules.double_at(position) for position in open_positions(rules, self.next_position - 1)]

    @property
    def leaders(self) -> list[Seat]:
        return [seat for seat in self.seats if seat.rank == 1] if any(r.round for r in self.rows) else []

    @property
    def next_number(self) -> int:
        return sum(1 for row in self.rows if row.round) + 1

    @property
    def last_round(self) -> Round | None:
        played = [row.round for row in self.rows if row.round]
        return played[-1] if played else None


def build_sheet(game: Game, seats: list[Seat], rounds: list[Round]) -> Sheet:
    """`rounds` in play order with their entries prefetched."""
    rules = game.rules
    last = rounds[-1].position if rounds else None
    next_position = None if game.is_finished else (0 if last is None else last + 1)
    if game.is_finished:
        end = last
    elif rules.round_limit is not None:
        end = rules.round_limit - 1
    else:
        end = rules.pass_end(next_position)
    by_position = {round_.position: round_ for round_ in rounds}
    running = {seat.player_id: 0 for seat in seats}
    rows = []
    for position in range(end + 1 if end is not None else 0):
        round_ = by_position.get(position)
        row = Row(position, rules.double_at(position), "upcoming", round_)
        if round_ is not None:
            row.state = "played"
            entries = {entry.player_id: entry for entry in round_.entries.all()}
            for seat in seats:
                entry = entries[seat.player_id]
                running[seat.player_id] += entry.score
                row.cells.append(Cell(entry.score, running[seat.player_id], entry.went_out, entry.penalty))
        elif last is not None and position < last:
            row.state = "skipped"
        elif position == next_position:
            row.state = "next"
        rows.append(row)
    return Sheet(game, seats, rows, next_position, suggested_deal(game.tile_set, len(seats)))
