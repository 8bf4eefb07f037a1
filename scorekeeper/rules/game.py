"""A game's options and the order of its starting doubles."""

from dataclasses import dataclass

from .tiles import DEFAULT_SET, SUPPORTED_SETS

MIN_PLAYERS = 2
MAX_PLAYERS = 10
DEFAULT_PENALTY = 50
MAX_PENALTY = 1000
MAX_TARGET_SCORE = 100_000


@dataclass(frozen=True)
class GameRules:
    """The options a game is created with; they never change afterwards."""

    tile_set: int = DEFAULT_SET
    double_blank_penalty: int = DEFAULT_PENALTY
    end_on_double_penalty: int = DEFAULT_PENALTY
    extended: bool = False
    target_score: int | None = None

    def problems(self) -> dict[str, str]:
        """Each option that is out of range, with a message a person can act on."""
        problems = {}
        if self.tile_set not in SUPPORTED_SETS:
            sets = ", ".join(str(n) for n in SUPPORTED_SETS)
            problems["tile_set"] = f"Choose a double-{sets} set (got {self.tile_set})."
        for field in ("double_blank_penalty", "end_on_double_penalty"):
            value = getattr(self, field)
            if not 0 <= value <= MAX_PENALTY:
                problems[field] = f"A penalty is between 0 (off) and {MAX_PENALTY} points."
        if self.target_score is not None and not 1 <= self.target_score <= MAX_TARGET_SCORE:
            problems["target_score"] = (
                f"A target score is between 1 and {MAX_TARGET_SCORE}, or empty to play the sequence once."
            )
        return problems

    @property
    def one_pass(self) -> tuple[int, ...]:
        """The starting doubles of one pass: N down to 0, then back up to N when extended."""
        down = tuple(range(self.tile_set, -1, -1))
        return down + tuple(range(1, self.tile_set + 1)) if self.extended else down

    @property
    def round_limit(self) -> int | None:
        """How many rounds the game has at most; None when it plays to a target score."""
        return None if self.target_score is not None else len(self.one_pass)

    def double_at(self, position: int) -> int:
        """The starting double of a position in the sequence (passes repeat for target games)."""
        sequence = self.one_pass
        return sequence[position % len(sequence)]

    def pass_end(self, position: int) -> int:
        """The last position of the pass that `position` belongs to."""
        length = len(self.one_pass)
        return (position // length + 1) * length - 1


class SequenceConflict(Exception):
    """The starting double cannot come next in this game."""


def seating_problems(players: list) -> list[str]:
    """What is wrong with a table of players in seat order, if anything."""
    problems = []
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        problems.append(f"A game has {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    if len(set(players)) != len(players):
        problems.append("Each player takes one seat only.")
    return problems


def open_positions(rules: GameRules, last_position: int | None) -> range:
    """Where the next round may sit in the sequence: the expected position first, then the later
    ones of the same pass (when the table skips doubles nobody held); empty once the sequence is done."""
    first = 0 if last_position is None else last_position + 1
    if rules.round_limit is not None and first >= rules.round_limit:
        return range(0)
    return range(first, rules.pass_end(first) + 1)


def place_round(rules: GameRules, last_position: int | None, starting_double: int) -> int:
    """The sequence position a round starting with `starting_double` takes after `last_position`.

    Skipped doubles are never played in that pass."""
    positions = open_positions(rules, last_position)
    if not positions:
        raise SequenceConflict("The game is over: every starting double has been played.")
    for position in positions:
        if rules.double_at(position) == starting_double:
            return position
    expected = rules.double_at(positions[0])
    raise SequenceConflict(
        f"{starting_double}-{starting_double} cannot start this round: it was already played or "
        f"skipped. The next round starts with {expected}-{expected} or a later double of the sequence."
    )
