"""A club night's standings (docs/architecture.md, "Nights"): place points summed over the night's
games, then the lower summed total, then shared. Points are in tenths (rules.places.place_points);
the sums come from the database, this module only orders them."""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class NightRow:
    """One player's line of a night: the games ranked in, place points summed (tenths) and game totals summed."""

    player: Hashable
    name: str
    games: int
    points: int
    total: int
    rank: int = 0

    def standing(self) -> tuple:
        """Where the row stands (smaller first): the most points, then the lower summed total."""
        return (-self.points, self.total)


def night_standings(rows: Sequence[NightRow]) -> list[NightRow]:
    """The rows in order, each with its rank: rows level on points and total share one (1, 1, 3).
    Players level keep a steady order by name, then id."""
    ordered = sorted(rows, key=lambda row: (*row.standing(), row.name.casefold(), str(row.player)))
    standings: list[NightRow] = []
    for index, row in enumerate(ordered):
        level = standings and standings[-1].standing() == row.standing()
        standings.append(replace(row, rank=standings[-1].rank if level else index + 1))
    return standings
