"""Skill ratings: OpenSkill's Plackett-Luce model, one finished game after another.

A rating is a belief about a player's skill: `mu` the best guess, `sigma` how unsure it is.
The leaderboard ranks by the ordinal, mu - 3 * sigma, a skill the player is almost surely
above: it starts at 0 and rises as games show more, so a lucky first win does not top the table.
Only the finishing order counts (the lower total ranks better; equal totals are a tie), so a win
over a strong table is worth more than one over a weak table, whatever the margin.
"""

import itertools
import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from statistics import NormalDist

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


def rate_game(
    before: Mapping[int, Rating], ranks: Mapping[int, int], shares: Mapping[int, float] | None = None
) -> dict[int, Rating]:
    """The players' ratings after one game. `ranks`: each rated player's rank in it (1 is the lowest
    total; equal totals share a rank); `before`: their ratings going in (START when missing);
    `shares`: the share of the game's rounds each played (missing: 1, the whole game).

    A player who sat in part of the game moves that share of the way from their rating going in to
    the one the whole game would give them (a joiner at round 7 of 13 moves 6/13 as far, winning or
    losing). OpenSkill's own `weights` cannot say this: they weigh a player's part in a team's win
    (a small weight makes a loss cost more), and the default model scales a one-player team's weight
    to 2 whatever it is."""
    players = list(ranks)
    if len(players) < 2:  # nobody to be measured against
        return {}
    teams = [[MODEL.rating(mu=before.get(p, START).mu, sigma=before.get(p, START).sigma)] for p in players]
    runs = [MODEL.rate(teams, ranks=order) for order in untied(players, ranks)]
    after = {}
    for index, player in enumerate(players):
        if len(runs) == 1:  # no tie: OpenSkill's rating as it is (no arithmetic to round it)
            whole = Rating(runs[0][index][0].mu, runs[0][index][0].sigma)
        else:
            whole = Rating(*(sum(getattr(run[index][0], part) for run in runs) / len(runs) for part in ("mu", "sigma")))
        share = 1.0 if shares is None else shares.get(player, 1.0)
        if share >= 1:
            after[player] = whole
        else:
            was = before.get(player, START)
            after[player] = Rating(was.mu + share * (whole.mu - was.mu), was.sigma + share * (whole.sigma - was.sigma))
    return after


def untied(players: list, ranks: Mapping) -> list[list[int]]:
    """The finishing orders a game with ties is rated as, each without a tie (ranks in `players`'
    order), their ratings then averaged: every tied group in each of its rotations, with every other
    group's (at most 36 orders: ten players in groups of 3, 3 and 4). OpenSkill's Plackett-Luce
    model mishandles tied ranks (openskill.py issues 155 and 173: two players tied for 2nd of five
    came out below the 4th); so tied players of equal ratings move alike, each as if they had
    finished in each of their places in turn, and whoever finished below them below all of them."""
    groups: dict[int, list] = {}
    for player in players:
        groups.setdefault(ranks[player], []).append(player)
    ordered = [groups[rank] for rank in sorted(groups)]
    orders = []
    for turns in itertools.product(*(range(len(group)) for group in ordered)):
        place, strict = 1, {}
        for group, turn in zip(ordered, turns, strict=True):
            for player in group[turn:] + group[:turn]:
                strict[player], place = place, place + 1
        orders.append([strict[player] for player in players])
    return orders


def replay(
    games: Iterable[Mapping[int, int]],
    start: Mapping[int, Rating] | None = None,
    shares: Iterable[Mapping[int, float] | None] | None = None,
) -> list[dict[int, Rating]]:
    """Rate games in order (each as `ranks` for rate_game, with its `shares` when given); the
    ratings after each one."""
    current = dict(start or {})
    after = []
    games = list(games)
    for ranks, played in zip(games, [None] * len(games) if shares is None else shares, strict=True):
        rated = rate_game(current, ranks, played)
        current.update(rated)
        after.append(rated)
    return after


# Words for a rating, relative to the others at the same table (one scorebook's players).
# A number such as "-3.3" means nothing at a table; "likely top of this table" does. The words come
# from each player's belief (mu and sigma, the ordinal's two parts) compared with everyone else's.

NEW_GAMES = 3  # fewer finished games than this, and the table cannot tell yet (sigma barely moves
# in a big game: after five wins at a table of six it is still 8.2 of the starting 8.3, so the
# count of games, not sigma alone, says when a player is new)
LIKELY = 0.75  # "likely" above: the chance of being more skilled than each other player
HIGH_SHARE = 0.65  # the share of the table a player is probably better than, to be among the strongest
LOW_SHARE = 0.35  # ... and at most this share to be behind


class Standing(StrEnum):
    TOP = "top"  # likely more skilled than every other player of the table
    HIGH = "high"  # probably better than most of them
    LEVEL = "level"  # about level with the table
    LOW = "low"  # behind most of them, for now
    NEW = "new"  # too few games to tell


def better_than(a: Rating, b: Rating) -> float:
    """The chance that `a`'s skill is above `b`'s: both beliefs are normal, so their difference is."""
    spread = math.sqrt(a.sigma**2 + b.sigma**2)
    return NormalDist().cdf((a.mu - b.mu) / spread) if spread else 0.5


def standings[K: Hashable](table: Mapping[K, tuple[Rating, int]]) -> dict[K, Standing]:
    """Each player's standing at the table: `table` maps a player to (rating, finished games).

    Players with fewer than NEW_GAMES games are NEW. The others are compared with everyone who
    has played at least one game (a newcomer's belief is wide, so it barely pulls): TOP when
    likely (LIKELY) more skilled than each of them; otherwise by the average chance of being
    more skilled than them: HIGH, LEVEL or LOW."""
    played = {key: rating for key, (rating, games) in table.items() if games > 0}
    result = {}
    for key, (rating, games) in table.items():
        others = [other for other_key, other in played.items() if other_key != key]
        if games < NEW_GAMES:
            result[key] = Standing.NEW
        elif not others:
            result[key] = Standing.LEVEL
        else:
            chances = [better_than(rating, other) for other in others]
            share = sum(chances) / len(chances)
            if min(chances) >= LIKELY:
                result[key] = Standing.TOP
            elif share >= HIGH_SHARE:
                result[key] = Standing.HIGH
            elif share <= LOW_SHARE:
                result[key] = Standing.LOW
            else:
                result[key] = Standing.LEVEL
    return result
