"""A season's table (docs/architecture.md, "Seasons"): counted points, qualification, order, shared
ranks and champions. Points are in tenths (rules.places.place_points); the sums come from the
database, this module only orders them."""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace


def counted_points(points: Sequence[int], drop_worst: int) -> int:
    """The sum of a player's place points less their `drop_worst` lowest games, always keeping at
    least one game (nothing to count without one)."""
    kept = sorted(points, reverse=True)[: max(len(points) - drop_worst, 1)]
    return sum(kept)


def counted_from_tally(tally: Sequence[tuple[int, int]], drop_worst: int) -> int:
    """counted_points from a player's tally: (place points, how many games gave them) pairs, in any
    order, as the database keeps them: the same sum without a list as long as their games."""
    games = sum(count for _points, count in tally)
    dropping = min(drop_worst, games - 1) if games else 0
    counted = 0
    for points, count in sorted(tally):
        dropped = min(count, dropping)
        dropping -= dropped
        counted += points * (count - dropped)
    return counted


@dataclass(frozen=True)
class SeasonRow:
    """One player's line of a season's table; `points` and `counted_points` in tenths, `total_sum`
    the sum of their game totals, `place_sum` the sum of their places (for the averages)."""

    player: Hashable
    name: str
    games: int
    wins: int
    points: int
    counted_points: int
    total_sum: int
    place_sum: int
    qualified: bool = False
    rank: int = 0

    @property
    def average_total(self) -> float | None:
        return self.total_sum / self.games if self.games else None

    @property
    def average_place(self) -> float | None:
        return self.place_sum / self.games if self.games else None

    def standing(self) -> tuple:
        """Where the row stands (smaller first): qualified players before the others, then the most
        counted points, the most wins, the lower average game total. Rows level on all of it share
        a rank."""
        average = self.average_total
        return (not self.qualified, -self.counted_points, -self.wins, average is None, average or 0)


def season_table(rows: Sequence[SeasonRow], min_games: int) -> list[SeasonRow]:
    """The rows qualified (at least `min_games` games) and in order, each with its rank: equal
    standings share one (1, 1, 3), counted on through the players who have not qualified yet.
    Players level keep a steady order by name, then id."""
    marked = [replace(row, qualified=row.games >= min_games) for row in rows]
    marked.sort(key=lambda row: (*row.standing(), row.name.casefold(), str(row.player)))
    table = []
    for index, row in enumerate(marked):
        level = table and table[-1].standing() == row.standing()
        table.append(replace(row, rank=table[-1].rank if level else index + 1))
    return table


def champions(table: Sequence[SeasonRow], *, ended: bool) -> list[Hashable]:
    """Once the season has ended, its first-ranked qualified players (several if level); none
    before, nor when nobody qualified."""
    if not ended:
        return []
    return [row.player for row in table if row.qualified and row.rank == 1]
