"""Round scores, running totals, standings, the end of a game and its winners."""

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .game import GameRules


def penalty(rules: GameRules, *, double_blank: bool, ended_on_double: bool) -> int:
    return (rules.double_blank_penalty if double_blank else 0) + (rules.end_on_double_penalty if ended_on_double else 0)


@dataclass(frozen=True)
class Standing:
    player: Hashable
    name: str
    total: int
    rank: int


def standings(seats: Sequence[tuple[Hashable, str]], totals: Mapping[Hashable, int]) -> list[Standing]:
    """Lowest total first; equal totals share a rank (1, 1, 3); seat order breaks display ties."""
    ordered = sorted(enumerate(seats), key=lambda item: (totals.get(item[1][0], 0), item[0]))
    result: list[Standing] = []
    for place, (_, (player, name)) in enumerate(ordered, start=1):
        total = totals.get(player, 0)
        rank = result[-1].rank if result and result[-1].total == total else place
        result.append(Standing(player, name, total, rank))
    return result


@dataclass(frozen=True)
class PlayedRound:
    """What the end of a game depends on: where a round sits in the sequence and its scores."""

    position: int
    scores: Mapping[Hashable, int]


@dataclass(frozen=True)
class Progress:
    totals: dict[Hashable, int]
    finished: bool
    # Number of rounds after which the game ended; None while it goes on.
    ended_after: int | None
    next_position: int | None


def progress(rules: GameRules, players: Iterable[Hashable], rounds: Sequence[PlayedRound]) -> Progress:
    """Replay the rounds in order: running totals, whether and when the game ended."""
    totals = dict.fromkeys(players, 0)
    ended_after = None
    for number, played in enumerate(rounds, start=1):
        for player, score in played.scores.items():
            totals[player] = totals.get(player, 0) + score
        if ended_after is None and _ends_game(rules, played.position, totals):
            ended_after = number
    finished = ended_after is not None
    next_position = None if finished else (rounds[-1].position + 1 if rounds else 0)
    return Progress(totals, finished, ended_after, next_position)


def _ends_game(rules: GameRules, position: int, totals: Mapping[Hashable, int]) -> bool:
    if rules.target_score is not None:
        return any(total >= rules.target_score for total in totals.values())
    return position + 1 >= len(rules.one_pass)


def winners(ranked: Sequence[Standing]) -> list[Hashable]:
    return [standing.player for standing in ranked if standing.rank == 1]
