"""The story a player's games tell: how far behind they were (a win's comeback), their nemesis and
favourite victim, and the chance each player at a new table has to win it.

What counts, and how ties are settled, is decided here; the figures themselves are read from the
database (scorekeeper.reads.story): deficits saved with the seats, the pairs of ranked seats counted
by one grouped query, the winning streaks by window functions.
"""

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from .rating import MODEL, START, Rating
from .scoring import GameState

# Two players need this many ranked games together before one can be the other's nemesis or victim:
# one or two games say more about the tiles than about the players.
RIVAL_GAMES = 3


@dataclass(frozen=True)
class Deficit:
    """How far behind the leader a seat was at its worst, after a round it sat in (lower is better
    in Chicken Foot, so behind is its total less the lowest total of that round), and after which
    round. `behind` 0 and `after` None: never behind."""

    behind: int = 0
    after: int | None = None


def deficits(state: GameState) -> list[Deficit]:
    """Each seat's worst deficit, in seat order. After each round the leader is whoever of the players
    seated in it has the lowest total; a player not seated in a round (not yet joined, or gone) is
    neither leader nor behind in it. When a seat was equally far behind after several rounds the
    latest counts: the later a deficit, the fewer rounds were left to make it up."""
    worst = [Deficit() for _ in state.seats]
    for line in state.rounds:
        present = [total for total in line.totals if total is not None]
        leader = min(present, default=0)
        for seat, total in enumerate(line.totals):
            if total is not None and total > leader and total - leader >= worst[seat].behind:
                worst[seat] = Deficit(total - leader, line.number)
    return worst


@dataclass(frozen=True)
class Rival:
    """An opponent and the ranked games a player had with them: `games` together, `ahead` (the
    opponent finished ahead of the player: a lower rank), `behind` (the opponent finished behind)."""

    player: Hashable
    name: str
    games: int
    ahead: int
    behind: int


def _most(rivals: Sequence[Rival], count) -> Rival | None:
    """The rival with the highest count (at least one, over at least RIVAL_GAMES games); equal counts:
    the larger share of their games together (3 of 4 beats 3 of 6), then the lower id (the one of the
    scorebook longer), so the answer never hangs on the order the database gave."""
    eligible = [rival for rival in rivals if rival.games >= RIVAL_GAMES and count(rival) > 0]
    if not eligible:
        return None
    return min(eligible, key=lambda rival: (-count(rival), -count(rival) / rival.games, rival.player))


def nemesis(rivals: Sequence[Rival]) -> Rival | None:
    """The opponent who most often finished ahead of the player (a shared rank is neither ahead nor
    behind)."""
    return _most(rivals, lambda rival: rival.ahead)


def victim(rivals: Sequence[Rival]) -> Rival | None:
    """The opponent who most often finished behind the player. It can be the nemesis too, when
    one opponent is the only one met often enough and each beat the other."""
    return _most(rivals, lambda rival: rival.behind)


def win_chances[K: Hashable](ratings: Mapping[K, Rating | None]) -> dict[K, float]:
    """Each player's chance to win a game of them all, from their current ratings (START for a
    player not rated yet): OpenSkill's predict_win, which averages the chances of beating each other
    player, so the chances add up to 1."""
    players = list(ratings)
    if len(players) < 2:
        return dict.fromkeys(players, 1.0)
    teams = [[MODEL.rating(mu=(r or START).mu, sigma=(r or START).sigma)] for r in ratings.values()]
    return dict(zip(players, MODEL.predict_win(teams), strict=True))


def rating_move(before: float, after: float) -> float:
    """How far a rating (an ordinal) moved, as the game-over card shows it after "Rating 26.1 → 27.4":
    between the two ratings as shown (one decimal), so "+1.3" is what the two shown differ by; never
    -0.0."""
    return round(round(after, 1) - round(before, 1), 1) + 0.0


def sign(move: float) -> str:
    """A move's sign, always shown: "+" for a rise and for no move at all, "-" (minus) for a fall."""
    return "-" if move < 0 else "+"
