"""Skill ratings: OpenSkill's Plackett-Luce model, one finished game after another.

A rating is a belief about a player's skill: `mu` the best guess, `sigma` how unsure it is.
The leaderboard ranks by the ordinal, mu - 3 * sigma, a skill the player is almost surely
above: it starts at 0 and rises as games show more, so a lucky first win does not top the table.
Only the finishing order counts (the lower total ranks better; equal totals are a tie), so a win
over a strong table is worth more than one over a weak table, whatever the margin.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

# The library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (a little doubt comes back
# with every game, so a rating can still move after years of play).
MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


START = Rating(MODEL.mu, MODEL.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The skill a player is almost surely above: what the leaderboard ranks by."""
    return mu - 3 * sigma


def rate_game(before: Mapping[int, Rating], ranks: Mapping[int, int]) -> dict[int, Rating]:
    """The players' ratings after one game. `ranks`: each player's rank in it (1 is the lowest
    total; equal totals share a rank); `before`: their ratings going in (START when missing)."""
    players = list(ranks)
    teams = [[MODEL.rating(mu=before.get(p, START).mu, sigma=before.get(p, START).sigma)] for p in players]
    rated = MODEL.rate(teams, ranks=[ranks[p] for p in players])
    return {p: Rating(team[0].mu, team[0].sigma) for p, team in zip(players, rated, strict=True)}


def replay(games: Iterable[Mapping[int, int]], start: Mapping[int, Rating] | None = None) -> list[dict[int, Rating]]:
    """Rate games in order (each as `ranks` for rate_game); the ratings after each one."""
    current = dict(start or {})
    after = []
    for ranks in games:
        rated = rate_game(current, ranks)
        current.update(rated)
        after.append(rated)
    return after
