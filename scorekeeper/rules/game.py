"""A game's options and the order of its starting doubles."""

from dataclasses import asdict, dataclass, fields

from .text import Text, _
from .tiles import DEFAULT_SET, SUPPORTED_SETS, grammar, picker

MIN_PLAYERS = 2
MAX_PLAYERS = 10
DEFAULT_PENALTY = 50
MAX_PENALTY = 1000
MAX_TARGET_SCORE = 100_000
MAX_ROUNDS = 1000  # a house limit on rounds; round numbers are small integers


JOIN_TOTALS = ("highest", "average", "zero")  # seating.JoinTotal.CHOICES (seating imports this module)


class TieBreak:
    """How equal totals are ranked (the house option "tie_break")."""

    SHARED = "shared"  # equal totals share the rank
    MOST_WENT_OUT = "most_went_out"  # then more rounds gone out first; still equal: shared

    CHOICES = (SHARED, MOST_WENT_OUT)


@dataclass(frozen=True)
class GameRules:
    """The options a game is created with; they never change afterwards."""

    tile_set: int = DEFAULT_SET
    double_blank_penalty: int = DEFAULT_PENALTY
    end_on_double_penalty: int = DEFAULT_PENALTY
    extended: bool = False
    target_score: int | None = None
    # House options: the sequence starts at first_double (None: the set's top double), the game
    # ends after `rounds` rounds at most (None: no limit of its own), and how ties are ranked.
    first_double: int | None = None
    rounds: int | None = None
    tie_break: str = TieBreak.SHARED
    # What a player joining after the first round starts with (seating.JoinTotal).
    join_total: str = "highest"

    def __post_init__(self):
        if self.first_double is None:
            object.__setattr__(self, "first_double", self.tile_set)

    def as_dict(self) -> dict:
        """The options by name: the model's columns and the API's fields carry the same names."""
        return asdict(self)

    def problems(self) -> dict[str, Text]:
        """Each option that is out of range, with a message a person can act on."""
        problems = {}
        if self.tile_set not in SUPPORTED_SETS:
            sets = ", ".join(str(n) for n in SUPPORTED_SETS)
            problems["tile_set"] = _("Choose a double-{sets} set (got {got}).", sets=sets, got=self.tile_set)
        for field in ("double_blank_penalty", "end_on_double_penalty"):
            value = getattr(self, field)
            if not 0 <= value <= MAX_PENALTY:
                problems[field] = _("A penalty is between 0 (off) and {most} points.", most=MAX_PENALTY)
        if self.target_score is not None and not 1 <= self.target_score <= MAX_TARGET_SCORE:
            problems["target_score"] = _(
                "A target score is between 1 and {most}, or empty to play the sequence once.", most=MAX_TARGET_SCORE
            )
        if not isinstance(self.first_double, int) or not 0 <= self.first_double <= self.tile_set:
            problems["first_double"] = _(
                "The first double is between 0-0 and {n}-{n} on a double-{n} set (got {got}).",
                n=self.tile_set,
                got=self.first_double,
            )
        elif self.first_double == 0 and self.target_score is not None:
            problems["first_double"] = _(
                "A game that starts at 0-0 has one double only, so it cannot play to a target score: start at 1-1 or higher."
            )
        if self.rounds is not None and not 1 <= self.rounds <= MAX_ROUNDS:
            problems["rounds"] = _(
                "A game of a set number of rounds has 1 to {most} rounds, or empty to play the whole sequence.",
                most=MAX_ROUNDS,
            )
        if self.tie_break not in TieBreak.CHOICES:
            problems["tie_break"] = _(
                'Equal totals are either "shared" or broken by "most_went_out" (got {got}).',
                got=str(self.tie_break)[:40],
            )
        if self.join_total not in JOIN_TOTALS:
            problems["join_total"] = _(
                'A player who joins late starts with the "highest" total at the table, the "average" or "zero" (got {got}).',
                got=str(self.join_total)[:40],
            )
        return problems

    @property
    def top(self) -> int:
        """The highest double the sequence starts from: the set's own, or the house's first double."""
        return self.first_double

    @property
    def one_pass(self) -> tuple[int, ...]:
        """The starting doubles of the first pass: the top double (N, or the first double) down to 0,
        then back up to it when extended."""
        down = tuple(range(self.top, -1, -1))
        return down + tuple(range(1, self.top + 1)) if self.extended else down

    @property
    def tile_grammar(self) -> dict:
        """How a list of tiles of this game's set is read (tiles.grammar), for the page scripts."""
        return grammar(self.tile_set)

    @property
    def tile_picker(self) -> dict:
        """The tiles of this game's set, their pips and what holding one means (tiles.picker), for
        the page scripts."""
        return picker(self.tile_set)

    @property
    def round_limit(self) -> int | None:
        """How many positions the sequence has; None when a target score repeats it."""
        return None if self.target_score is not None else len(self.one_pass)

    @property
    def rounds_planned(self) -> int | None:
        """How many rounds the game has at most: the sequence, or the house's number of rounds if
        that comes first; None when it plays to a target score with no number of rounds."""
        limits = [limit for limit in (self.round_limit, self.rounds) if limit is not None]
        return min(limits) if limits else None

    @property
    def _ladder(self) -> bool:
        return self.extended and self.top > 0

    @property
    def period(self) -> int:
        """After how many rounds the starting doubles repeat: N+1 going down each time; 2N on an
        extended ladder, which turns at each end without playing the end double twice (N: the
        top double)."""
        return 2 * self.top if self._ladder else self.top + 1

    def double_at(self, position: int) -> int:
        """The starting double of a position in the sequence (it goes on for target-score games)."""
        n = self.top
        if self._ladder:  # N..0, 1..N, N-1..0, 1..N, ...
            return abs(n - position % (2 * n))
        return n - position % (n + 1)

    def pass_end(self, position: int) -> int:
        """The last position of the pass that `position` belongs to (the first pass is one_pass)."""
        first = len(self.one_pass)
        if position < first:
            return first - 1
        return first - 1 + -(-(position - first + 1) // self.period) * self.period


RULE_FIELDS = tuple(field.name for field in fields(GameRules))


class SequenceConflict(Exception):
    """The starting double cannot come next in this game."""


def seating_problems(players: list) -> list[Text]:
    """What is wrong with a table of players in seat order, if anything."""
    problems = []
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        problems.append(_("A game has {least} to {most} players.", least=MIN_PLAYERS, most=MAX_PLAYERS))
    if len(set(players)) != len(players):
        problems.append(_("Each player takes one seat only."))
    return problems


def open_positions(rules: GameRules, last_position: int | None) -> tuple[int, ...]:
    """Where the next round may sit in the sequence: the expected position first, then later ones
    when the table skips doubles nobody held, at most up to one whole pass ahead and never back to
    the double just played; empty once the sequence is done."""
    first = 0 if last_position is None else last_position + 1
    end = first + rules.period - (0 if last_position is None else 1)
    if rules.round_limit is not None:
        end = min(end, rules.round_limit)
    just_played = None if last_position is None else rules.double_at(last_position)
    return tuple(position for position in range(first, end) if rules.double_at(position) != just_played)


def skipped_doubles(rules: GameRules, last_position: int | None, position: int) -> list[int]:
    """The doubles a round placed at `position` leaves out, nobody having held them: those of the
    positions between the last round played and it (never played in this pass)."""
    return [rules.double_at(p) for p in range(0 if last_position is None else last_position + 1, position)]


def ends_early(rules: GameRules, last_position: int | None, position: int) -> bool:
    """Whether a round placed at `position` ends a game before the end of its sequence: the last
    double of a game without a target score, reached by skipping doubles (0-0 entered early). The
    last double reached in order is the game's normal end, and a target score ends a game whenever
    it is reached."""
    ends = rules.round_limit is not None and position + 1 >= rules.round_limit
    return ends and bool(skipped_doubles(rules, last_position, position))


def place_round(rules: GameRules, last_position: int | None, starting_double: int) -> int:
    """The sequence position a round starting with `starting_double` takes after `last_position`:
    its first place among the open positions. The doubles skipped on the way are never played."""
    positions = open_positions(rules, last_position)
    if not positions:
        raise SequenceConflict(_("The game is over: every starting double has been played."))
    for position in positions:
        if rules.double_at(position) == starting_double:
            return position
    expected = rules.double_at(positions[0])
    if starting_double > rules.top:
        reason = _("this game's sequence starts at {first}", first=f"{rules.top}-{rules.top}")
    elif last_position is not None and rules.double_at(last_position) == starting_double:
        reason = _("it started the round just played")
    else:
        reason = _("it was already played or skipped in this pass")
    raise SequenceConflict(
        _(
            "{double} cannot start this round: {reason}. The next round starts with {expected} or a later double of the sequence.",
            double=f"{starting_double}-{starting_double}",
            reason=reason,
            expected=f"{expected}-{expected}",
        )
    )


def doubles_ahead(rules: GameRules, last_position: int | None) -> dict:
    """The doubles open after each round that may come next, as data for a page script that holds no
    rule of its own (the round form of a phone with rounds waiting to be sent): {"start": place,
    "open": {place: [[double, place after a round starting with it], ...]}}, each double once, the
    expected one first. A place stands for a position in the sequence (in a target-score game,
    positions whole passes apart share one: the doubles open after them are the same)."""

    def place(position: int | None) -> str:
        if position is None:
            return "start"
        return str(position if rules.round_limit is not None else position % rules.period)

    table: dict[str, list[list]] = {}
    todo = [last_position]
    while todo:
        position = todo.pop()
        if place(position) in table:
            continue
        # Each double once, at the first place it can take (as place_round places it).
        later = {rules.double_at(p): p for p in reversed(open_positions(rules, position))}
        table[place(position)] = [[double, place(p)] for double, p in sorted(later.items(), key=lambda item: item[1])]
        todo += later.values()
    return {"start": place(last_position), "open": table}
