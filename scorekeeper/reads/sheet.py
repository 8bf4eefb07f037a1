"""The score sheet as a page shows it: a row per starting double, a column per player.

Everything it shows about the game (running totals, standings, leaders, the next double and the
doubles the table may skip to) is the state the write path derived and saved (selectors.game_state);
the rounds' entries add who went out and the penalties' badges."""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ..models import Game, Round, Seat
from ..rules.deal import DealHint, suggested_deal
from ..rules.game import TieBreak
from ..rules.names import short_names
from ..rules.places import moves
from ..rules.scoring import GameState, SeatState
from ..rules.seating import SeatChange, opening_total, opening_totals, seat_lines, table_full
from ..selectors import game_state

WIDE = 6  # players a sheet shows side by side on a phone held upright
# The longest word (in letters) a head shows whole in a column of a sheet of two to six players on a
# 390 px phone held upright, a word of TIGHT_WORD letters or more set smaller (site.css `.tight`):
# measured with the longest names of the browser tests. A sheet with a longer word turns to a row
# per player there, as a sheet of more than WIDE does, so no name is ever broken mid-word.
WHOLE_WORD = {2: 14, 3: 11, 4: 9, 5: 7, 6: 4}


@dataclass
class Cell:
    score: int | None = None
    total: int | None = None
    went_out: bool = False
    penalty: int = 0
    marks: list[tuple[str, str]] = field(default_factory=list)  # the penalties the score holds: kind, in words
    lead: bool = False  # in the column of a player who leads
    away: bool = False  # nobody of this column sat in this round (not yet joined, or left)
    # Where a column's seat changed: "joined" (the away cell of the round they joined after, holding
    # their opening total), "left" (the first round after they left), "took_over" (the newcomer's
    # first round in a seat taken over, `who` their short name).
    change: str | None = None
    who: str = ""


TIGHT_WORD = 6  # letters


@dataclass
class Column:
    """A seat's column: the short name its head shows (the full one for its title), the total,
    place and how many places it went up (+) or down (-) in the last round. `seat` is who sits in
    it (or sat last); `before` whose seat a take-over continues, earliest first (rules.seating)."""

    seat: SeatState
    short: str
    name: str
    move: int = 0
    lead: bool = False  # leads the game (nobody does before the first round)
    before: tuple[SeatState, ...] = ()
    indexes: tuple[int, ...] = ()  # the seats of the game it shows, in seat order
    before_short: str = ""  # the short name of the player whose seat it continues
    known: str = ""  # the name as the table knows it in a row per player: `short` with its first word whole

    @property
    def moved(self) -> int:
        return abs(self.move)

    @property
    def tight(self) -> bool:
        """Its short name has a word of six letters or more: set smaller on a sheet of up to six
        columns, where each column is as narrow as the screen makes it ("Grandma J.", "Cousin G.")."""
        return max(len(word) for word in self.short.split()) >= TIGHT_WORD

    @property
    def longest_word(self) -> int:
        """The letters of the longest word its head shows: its short name's, or the one of whose seat
        it continues ("for Grandma J.")."""
        return max(len(word) for word in f"{self.short} {self.before_short}".split())

    @property
    def took_over_from(self) -> SeatState | None:
        return self.before[-1] if self.before else None

    @property
    def from_round(self) -> int | None:
        """The first round the occupant played, when they came after the start."""
        return None if self.seat.joined_after is None else self.seat.joined_after + 1

    @property
    def joined_late(self) -> bool:
        return self.seat.joined_after is not None and not self.before

    @property
    def left(self) -> bool:
        return self.seat.left_after is not None

    @property
    def place(self) -> str:
        """The player's place as a table says it: "1st", "2nd" ("1.º", "2.º" in Spanish). A game
        has at most ten players, so no place ends like 21st. A player who left has none."""
        rank = self.seat.rank
        if rank is None:
            return pgettext("the place of a player who left the table", "left")
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
        """Wider than a phone held upright shows whole: more than WIDE columns, or a head with a word
        longer than its column holds (WHOLE_WORD). On a narrow screen it turns to a row per player
        (`lines`), and the paper sheet below it scrolls sideways and says so."""
        whole = WHOLE_WORD.get(len(self.columns), 0)
        return any(column.longest_word > whole for column in self.columns)

    @property
    def latest(self) -> Row | None:
        """The row of the last round played (None before the first)."""
        played = [row for row in self.rows if row.state == "played"]
        return played[-1] if played else None

    @property
    def lines(self) -> list[tuple[Column, Cell | None]]:
        """The sheet turned to a row per player for a narrow screen (a `wide` table): each
        column in seat order with its cell of the last round played (None before the first)."""
        latest = self.latest
        return [(column, latest.cells[i] if latest else None) for i, column in enumerate(self.columns)]

    @property
    def full(self) -> bool:
        """No seat is left for someone joining (ten seated): the page offers no join."""
        return table_full(sum(1 for seat in self.state.seats if seat.seated))

    @property
    def seated(self) -> list[Seat]:
        """The seats of the players seated for the next round, in seat order."""
        return [seat for seat, derived in zip(self.seats, self.state.seats, strict=True) if derived.seated]

    @property
    def joiner_starts_with(self) -> int:
        """What a player joining now would start with (the game's join option)."""
        return opening_total(self.game.join_total, [seat.total for seat in self.state.seats if seat.seated])

    @property
    def joiner_openings(self) -> dict[str, int]:
        """What a player joining now would start with under each join option (the join screen's choice)."""
        return opening_totals([seat.total for seat in self.state.seats if seat.seated])

    def seats_for(self, number: int | None) -> list[Seat]:
        """The seats of the players seated in round `number` (None: the next round)."""
        if number is None or number > len(self.state.rounds):
            return self.seated
        line = self.state.rounds[number - 1]
        return [seat for seat, score in zip(self.seats, line.scores, strict=True) if score is not None]

    @property
    def shuffles_next(self) -> SeatState | None:
        return next((seat for seat in self.state.seats if seat.player == self.state.shuffles_next), None)

    @property
    def seating(self) -> dict:
        """Who sits where, for offline.js to move "… shuffles next" on past the rounds waiting on the
        phone as rules.seating.next_shuffler does: every player in seat order (those who left keep
        their place) with their name, and the ids of those seated for the next round."""
        return {
            "order": [[seat.player, seat.name] for seat in self.state.seats],
            "seated": [seat.player for seat in self.state.seats if seat.seated],
        }

    @property
    def last_seat_change(self) -> SeatChange | None:
        """The seat change undo takes away first: the last one, when no round was recorded after it."""
        changes = self.state.changes
        return changes[-1] if changes and changes[-1].after == len(self.state.rounds) else None

    @property
    def undo_seat_words(self) -> str:
        """The undo button's words for the last seat change ("Undo: Dee joined")."""
        change = self.last_seat_change
        if change is None:
            return ""
        name = next((seat.name for seat in self.state.seats if seat.player == change.player), "")
        words = {
            "join": _("Undo: {name} joined"),
            "leave": _("Undo: {name} left"),
            "take_over": _("Undo: {name} took over"),
        }
        return words[change.kind].format(name=name)

    @property
    def changes_at_table(self) -> bool:
        """Whether anyone joined, left or took over a seat during the game."""
        return bool(self.state.changes)

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
    lines_of = [tuple(line) for line in seat_lines(state.seats)]
    rows = []
    for position in range(state.show_until + 1 if state.show_until is not None and rounds is not None else 0):
        row = Row(position, rules.double_at(position), "upcoming")
        if position in played:
            line, row.round = played[position]
            row.state = "played"
            by_player = {entry.player_id: entry for entry in row.round.entries.all()} if row.round else {}
            for indexes in lines_of:
                at = next((i for i in indexes if line.scores[i] is not None), None)
                if at is None:
                    row.cells.append(Cell(away=True))
                    continue
                entry = by_player.get(seats[at].player_id)
                row.cells.append(
                    Cell(line.scores[at], line.totals[at], entry.went_out, entry.penalty, _penalty_marks(entry, rules))
                    if entry is not None
                    else Cell(line.scores[at], line.totals[at])
                )
        elif state.last_position is not None and position < state.last_position:
            row.state = "skipped"
        elif position == state.next_position:
            row.state = "next"
        if position < state.show_until:
            row.marker = state.marker_after(rules, position)
        rows.append(row)
    lines = state.rounds

    def by_column(values) -> list:
        return [next((values[i] for i in indexes if values[i] is not None), None) for indexes in lines_of]

    before = by_column(lines[-2].totals) if len(lines) > 1 else None
    went_out = [
        None if counts is None else [counts[indexes[-1]] for indexes in lines_of]
        for counts in _went_out_around_last(rules, state, rows)
    ]
    moved = moves(before, by_column(lines[-1].totals), *went_out) if lines else (0,) * len(lines_of)
    started = bool(lines)  # nobody leads before the first round
    occupants = [state.seats[indexes[-1]] for indexes in lines_of]
    players, names = [s.player for s in state.seats], [s.name for s in state.seats]
    shorts = dict(zip(players, short_names(names), strict=True))
    knowns = dict(zip(players, short_names(names, first_word=None), strict=True))
    columns = [
        Column(seat, shorts[seat.player], seat.name, 0 if seat.left_after is not None else move,
               started and seat.rank == 1,
               tuple(state.seats[i] for i in indexes[:-1]), indexes,
               shorts[state.seats[indexes[-2]].player] if len(indexes) > 1 else "", knowns[seat.player])
        for seat, move, indexes in zip(occupants, moved, lines_of, strict=True)
    ]  # fmt: skip
    _mark_seat_changes(rows, columns, shorts)
    for row in rows:
        for cell, column in zip(row.cells, columns, strict=False):
            cell.lead = column.lead
    seated = sum(1 for seat in state.seats if seat.seated)
    return Sheet(game, seats, rows, state, suggested_deal(game.tile_set, seated), columns)


def _mark_seat_changes(rows: list[Row], columns: list[Column], shorts: dict) -> None:
    """Where each column's seat changed, on the rows of the rounds around it (Cell.change)."""
    played = [row for row in rows if row.state == "played"]
    for index, column in enumerate(columns):
        seat = column.seat
        for number, row in enumerate(played, start=1):
            cell = row.cells[index]
            if column.joined_late and number == seat.joined_after and cell.away:
                cell.change, cell.total = "joined", seat.opening_total
            elif column.left and number == seat.left_after + 1 and cell.away:
                cell.change = "left"
            elif column.before and number == seat.joined_after + 1 and not cell.away:
                cell.change, cell.who = "took_over", shorts[seat.player]


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
