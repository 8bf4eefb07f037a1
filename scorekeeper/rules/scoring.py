"""Round scores, running totals, standings, the end of a game and its winners."""

import operator
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from . import seating
from .game import GameRules, TieBreak, open_positions
from .seating import Change, SeatChange
from .text import Text, _


def penalty(rules: GameRules, *, double_blank: bool, ended_on_double: bool) -> int:
    return (rules.double_blank_penalty if double_blank else 0) + (rules.end_on_double_penalty if ended_on_double else 0)


@dataclass(frozen=True)
class Standing:
    player: Hashable
    name: str
    total: int
    rank: int


def standings(
    seats: Sequence[tuple[Hashable, str]],
    totals: Mapping[Hashable, int],
    went_out: Mapping[Hashable, int] | None = None,
) -> list[Standing]:
    """Lowest total first; equal totals share a rank (1, 1, 3), unless `went_out` (the rounds each
    player went out, given under the "most went out" tie-break) ranks them: more rounds first,
    still equal: shared. Seat order breaks display ties."""
    out = went_out or {}

    def standing(player) -> tuple[int, int]:
        return totals.get(player, 0), -out.get(player, 0)

    ordered = sorted(enumerate(seats), key=lambda item: (standing(item[1][0]), item[0]))
    result: list[Standing] = []
    previous = None
    for place, (_seat, (player, name)) in enumerate(ordered, start=1):
        rank = result[-1].rank if result and standing(player) == previous else place
        previous = standing(player)
        result.append(Standing(player, name, totals.get(player, 0), rank))
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
    running: tuple[dict[Hashable, int], ...] = ()  # the totals after each round
    ended_because: str | None = None  # an EndReason once finished


def progress(
    rules: GameRules, players: Iterable[Hashable], rounds: Sequence[PlayedRound], stopped_after: int | None = None
) -> Progress:
    """Replay the rounds in order: running totals, whether and when the game ended. `stopped_after`:
    the round after which the table agreed to stop, when it did (the rules' own ends come first)."""
    totals = dict.fromkeys(players, 0)
    ended_after = ended_because = None
    running = []
    for number, played in enumerate(rounds, start=1):
        for player, score in played.scores.items():
            totals[player] = totals.get(player, 0) + score
        running.append(dict(totals))
        if ended_after is None:
            ended_because = _ends_game(rules, number, played.position, totals.values())
            if ended_because is None and number == stopped_after:
                ended_because = EndReason.AGREED
            ended_after = number if ended_because else None
    finished = ended_after is not None
    next_position = None if finished else (rounds[-1].position + 1 if rounds else 0)
    return Progress(totals, finished, ended_after, next_position, tuple(running), ended_because)


def _ends_game(rules: GameRules, number: int, position: int, totals: Iterable[int]) -> str | None:
    """Why the game ends with round `number` (at `position`), or None if it goes on. A target
    reached is said first, then the end of the sequence, then the house's number of rounds."""
    if rules.target_score is not None:
        if any(total >= rules.target_score for total in totals):
            return EndReason.TARGET
    elif position + 1 >= len(rules.one_pass):
        return EndReason.SEQUENCE
    if rules.rounds is not None and number >= rules.rounds:
        return EndReason.ROUNDS
    return None


def stop_problem(state: "GameState") -> Text | None:
    """Why the table cannot stop the game here by agreement, if it cannot: it is over already, or
    no round has been played (a game stops after a round, ranked as it stands)."""
    if state.finished:
        return _("The game is already over.")
    if not state.rounds:
        return _("No round has been played yet: record a round before stopping the game.")
    return None


def winners(ranked: Sequence[Standing]) -> list[Hashable]:
    return [standing.player for standing in ranked if standing.rank == 1]


# How a finished game ended for a player against one opponent, by the comparison of their final
# ranks (a lower rank finishes ahead; equal totals share a rank unless the tie-break ranks them).
# The comparisons are named as a database's lookups name them, so the records and the queries over
# seats count the same way.
OUTCOMES = {"ahead": "lt", "behind": "gt", "level": "exact"}
_COMPARE = {"lt": operator.lt, "gt": operator.gt, "exact": operator.eq}


def outcome(rank: int, opponent_rank: int) -> str:
    """How a player who finished at `rank` did against an opponent at `opponent_rank`: a key of OUTCOMES."""
    return next(name for name, comparison in OUTCOMES.items() if _COMPARE[comparison](rank, opponent_rank))


def leaderboard_order(wins: int, win_rate: float, per_round: float | None) -> tuple:
    """Where a player's figures stand on a leaderboard, as a sort key (smaller first): most wins,
    then the better win rate, then the lower average score per round played (a game's total grows
    with its length: per round, a 2-round game and a 13-round one compare fairly); no average (no
    round) goes last."""
    return (-wins, -win_rate, per_round is None, per_round or 0)


def shared_places(keys: Sequence) -> list[int]:
    """The places down a board already in order of `keys` (one sort key a line): a line whose key
    equals the line above it shares its place, and the next different line counts on (1, 1, 3)."""
    places: list[int] = []
    for index, key in enumerate(keys):
        places.append(places[-1] if index and key == keys[index - 1] else index + 1)
    return places


@dataclass(frozen=True)
class RoundResult:
    """One played round as the game's state needs it: where it sat, each player's score, and
    who went out, was caught with the 0-0 or ended on a double (for the per-seat counts)."""

    position: int
    scores: Mapping[Hashable, int]
    went_out: frozenset = frozenset()
    double_blank: frozenset = frozenset()
    ended_on_double: frozenset = frozenset()


@dataclass(frozen=True)
class SeatState:
    player: Hashable
    name: str
    seat: int  # 0-based seat order
    total: int
    rank: int | None  # equal totals share a rank; None for a player who left (unranked)
    place: int  # 1-based display order: rank, then seat; those who left last
    is_winner: bool
    rounds: int
    went_out: int
    double_blank_penalties: int
    end_on_double_penalties: int
    to_target: int | None = None  # points left before the target score, in a target game
    opening_total: int = 0  # what they started with: 0, unless they joined or took over after round 1
    joined_after: int | None = None  # the round they joined (or took over) after; None: from the start
    left_after: int | None = None  # the round they left after (or were taken over after); None: still here
    replaced: Hashable | None = None  # whose seat they took over
    seated: bool = True  # at the table after the last round (for the next one, while the game goes on)

    @property
    def shares_place(self) -> bool:
        return self.rank is not None and self.rank != self.place

    @property
    def ranked(self) -> bool:
        return self.rank is not None


@dataclass(frozen=True)
class RoundLine:
    """A played round on the sheet: scores and running totals in seat order (None for a player not
    seated in that round)."""

    number: int
    position: int
    starting_double: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]


class EndReason:
    SEQUENCE = "sequence"  # every starting double of the game was played
    TARGET = "target"  # someone's total reached the target score
    ROUNDS = "rounds"  # the house's number of rounds was played
    AGREED = "agreed"  # the table agreed to stop early; ranked as it stood


@dataclass(frozen=True)
class GameState:
    """Everything about a game that follows from its rules and rounds, derived in one place:
    the services save it, the pages and the API read it."""

    seats: tuple[SeatState, ...]  # seat order
    standings: tuple[SeatState, ...]  # display order
    winners: tuple[Hashable, ...]  # empty until the game is over
    finished: bool
    ended_because: str | None
    ended_after: int | None  # the round number the game ended with
    rounds: tuple[RoundLine, ...]
    next_position: int | None
    next_double: int | None
    open_doubles: tuple[int, ...]  # what the next round may start with, expected first
    last_position: int | None
    show_until: int | None  # the last position of the sequence worth showing on a sheet
    changes: tuple[SeatChange, ...] = ()  # the seat changes, in the order they were made
    shuffles_next: Hashable | None = None  # who shuffles for the next round; None once the game is over

    def marker_after(self, rules: GameRules, position: int) -> str | None:
        """What a sheet marks after a position: where an extended ladder turns, where a pass ends."""
        if rules.extended and rules.top > 0 and rules.double_at(position) in (0, rules.top) and position > 0:
            return (
                _("the ladder turns: back up") if rules.double_at(position) == 0 else _("the ladder turns: back down")
            )
        if rules.target_score is not None and position == rules.pass_end(position):
            return _("end of a pass: the doubles start again from the top")
        return None

    def ending(self, rules: GameRules) -> Text | None:
        """How the game ended, as a sheet says it; None while it goes on."""
        if self.ended_because == EndReason.TARGET:
            return _("Ended after round {round}: a total reached {target}.", round=self.ended_after,
                     target=rules.target_score)  # fmt: skip
        if self.ended_because == EndReason.SEQUENCE:
            return _("Every starting double has been played.")
        if self.ended_because == EndReason.ROUNDS:
            return _("Ended after round {round}: the {rounds} rounds agreed were played.", round=self.ended_after,
                     rounds=rules.rounds)  # fmt: skip
        if self.ended_because == EndReason.AGREED:
            return _("Stopped after round {round}: the table agreed to end the game here.", round=self.ended_after)
        return None

    @property
    def broken_tie(self) -> tuple[SeatState, ...]:
        """Everyone on the winning total, in standing order, when some of them did not win: a tie the
        "most went out" tie-break settled. Empty otherwise, and while the game goes on."""
        if not self.finished or not self.winners:
            return ()
        best = min(seat.total for seat in self.seats if seat.ranked)
        tied = tuple(seat for seat in self.standings if seat.total == best)
        return tied if any(not seat.is_winner for seat in tied) else ()

    @property
    def leaders(self) -> tuple[SeatState, ...]:
        return tuple(seat for seat in self.standings if seat.rank == 1) if self.rounds else ()

    @property
    def lead(self) -> int | None:
        """By how many points the leaders are clear of the best total of everyone else: 0 when the
        tie-break put them ahead of someone level on points; None before a round is played, or
        while everyone leads."""
        leaders = {seat.player for seat in self.leaders}
        others = [seat.total for seat in self.seats if seat.player not in leaders and seat.ranked]
        return min(others) - self.leaders[0].total if leaders and others else None

    @property
    def next_number(self) -> int:
        """The number the next round gets: rounds are numbered 1, 2, ... in play order, and only
        the last one can be taken away, so the numbers never have a gap."""
        return len(self.rounds) + 1


def derive(
    rules: GameRules,
    seats: Sequence[tuple[Hashable, str]],
    rounds: Sequence[RoundResult],
    changes: Sequence[SeatChange] = (),
    stopped_after: int | None = None,
) -> GameState:
    """The state of a game from its rules, everyone who sat at its table in seat order, its rounds
    in play order and its seat changes (seating: each made after some rounds, in the order made).
    A round's scores name exactly the players seated in it. `stopped_after`: the round the table
    agreed to stop after (stop_problem), if it did."""
    players = [player for player, _ in seats]
    names = dict(seats)
    seated = seating.seated_at_start(players, changes)
    totals = dict.fromkeys(players, 0)
    opening, joined_after, left_after, replaced = dict.fromkeys(players, 0), {}, {}, {}
    waiting = list(changes)

    def change_seats(after: int) -> None:
        nonlocal seated
        while waiting and waiting[0].after <= after:
            change = waiting.pop(0)
            if change.kind == Change.JOIN:
                totals[change.player] = (
                    seating.opening_total(change.join_total or rules.join_total, [totals[p] for p in seated])
                    if after
                    else 0
                )
            elif change.kind == Change.TAKE_OVER:
                totals[change.player] = totals[change.replaces]
                replaced[change.player], left_after[change.replaces] = change.replaces, after
                if shufflers and shufflers[-1] == change.replaces:  # the seat shuffled: it still has
                    shufflers[-1] = change.player
            else:
                left_after[change.player] = after
            if change.kind != Change.LEAVE:
                opening[change.player], joined_after[change.player] = totals[change.player], after or None
            seated = seating.apply(seated, players, change)

    ended_after = ended_because = None
    lines, seated_in, shufflers = [], [], []
    for number, played in enumerate(rounds, start=1):
        change_seats(number - 1)
        seated_in.append(tuple(seated))
        shufflers.append(seating.next_shuffler(players, seated, shufflers[-1] if shufflers else None))
        for player, score in played.scores.items():
            totals[player] += score
        lines.append(
            RoundLine(
                number,
                played.position,
                rules.double_at(played.position),
                tuple(played.scores.get(player) for player in players),
                tuple(totals[player] if player in played.scores else None for player in players),
            )
        )
        if ended_after is None:
            ended_because = _ends_game(rules, number, played.position, [totals[p] for p in seated])
            if ended_because is None and number == stopped_after:
                ended_because = EndReason.AGREED
            ended_after = number if ended_because else None
    change_seats(len(rounds))
    finished = ended_after is not None
    went_out = {player: sum(1 for r in rounds if player in r.went_out) for player in players}
    ranked = standings(
        [(p, names[p]) for p in seated], totals, went_out if rules.tie_break == TieBreak.MOST_WENT_OUT else None
    )
    rank = {row.player: row.rank for row in ranked}
    # Those who left follow the ranked players, unranked: the latest to leave first, then seat order.
    gone = sorted((p for p in players if p not in rank), key=lambda p: (-left_after.get(p, 0), players.index(p)))
    place = {player: index for index, player in enumerate([row.player for row in ranked] + gone, start=1)}
    won = set(winners(ranked)) if finished else set()

    def count(player, attribute: str) -> int:
        return sum(1 for r in rounds if player in getattr(r, attribute))

    seat_states = tuple(
        SeatState(
            player=player,
            name=name,
            seat=index,
            total=totals[player],
            rank=rank.get(player),
            place=place[player],
            is_winner=player in won,
            rounds=sum(1 for r in rounds if player in r.scores),
            went_out=count(player, "went_out"),
            double_blank_penalties=count(player, "double_blank") if rules.double_blank_penalty else 0,
            end_on_double_penalties=count(player, "ended_on_double") if rules.end_on_double_penalty else 0,
            to_target=None
            if rules.target_score is None or player not in rank
            else max(0, rules.target_score - totals[player]),
            opening_total=opening[player],
            joined_after=joined_after.get(player),
            left_after=left_after.get(player),
            replaced=replaced.get(player),
            seated=player in seated,
        )
        for index, (player, name) in enumerate(seats)
    )
    last = rounds[-1].position if rounds else None
    next_position = None if finished else (last + 1 if rounds else 0)
    open_doubles = () if finished else tuple(rules.double_at(p) for p in open_positions(rules, last))
    if finished:
        show_until = last
    else:
        show_until = rules.round_limit - 1 if rules.round_limit is not None else rules.pass_end(next_position)
        if rules.rounds is not None:  # the rounds left, if no double is skipped
            show_until = min(show_until, next_position + rules.rounds - len(rounds) - 1)
    shuffles_next = None if finished else seating.next_shuffler(players, seated, shufflers[-1] if shufflers else None)
    return GameState(
        seats=seat_states,
        standings=tuple(sorted(seat_states, key=lambda seat: seat.place)),
        winners=tuple(seat.player for seat in seat_states if seat.is_winner),
        finished=finished,
        ended_because=ended_because,
        ended_after=ended_after,
        rounds=tuple(lines),
        next_position=next_position,
        next_double=None if next_position is None else rules.double_at(next_position),
        open_doubles=open_doubles,
        last_position=last,
        show_until=show_until,
        changes=tuple(changes),
        shuffles_next=shuffles_next,
    )
