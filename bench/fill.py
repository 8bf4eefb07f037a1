"""How long a round's checks take, check 11 (hands dealt at once) above all, and how often check 11
runs out of its 5 ms (rules.fill.TIME_BUDGET) and leaves check 9's totals to decide.

    python bench/fill.py [ROUNDS_PER_ROW]    (default 2,000)

Each row is one set, one number of players and one kind of round:
- real: a real deal, each hand's tile count given half the time;
- typo: a real deal with one hand's pips off by 1 to 4;
- edge: hands whose pips sit at the bounds of their tile counts (near the fewest or the most pips
  that many free tiles hold), where the search has the most to do.
Prints median and 99th-percentile milliseconds per round, rounds refused, and rounds left
undecided by check 11 (and that rate per 100,000)."""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.rules import fill
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput, InvalidRound, Seat, score_round, together
from scorekeeper.rules.tiles import DOUBLE_BLANK, all_tiles, double

undecided = 0


def counting_can_fill(*args, **kwargs):
    """rules.fill.can_fill, counting the searches that ran out of time."""
    global undecided
    try:
        return fill.can_fill(*args, **kwargs)
    except fill.Undecided:
        undecided += 1
        raise


together.can_fill = counting_can_fill


def a_round(rng, highest, players, kind):
    d = rng.randrange(highest + 1)
    tiles = [t for t in all_tiles(highest) if t not in (double(d), DOUBLE_BLANK)]
    rng.shuffle(tiles)
    entries = [EntryInput(player=0, pips=0, went_out=True)]
    most = max(1, min(8, (len(tiles) - 1) // max(1, players - 1)))
    for player in range(1, players):
        hand, tiles = tiles[: rng.randint(1, most)], tiles[most:]
        pips = sum(t.pips for t in hand)
        count = len(hand)
        if kind == "typo" and player == 1:
            pips = max(0, pips + rng.choice([-4, -3, -2, -1, 1, 2, 3, 4]))
        if kind == "edge":
            values = sorted(t.pips for t in all_tiles(highest) if t not in (double(d), DOUBLE_BLANK))
            low, high = sum(values[:count]), sum(values[-count:])
            pips = rng.choice([low, low + 1, low + 2, high - 2, high - 1, high])
        known = count if kind == "edge" or rng.random() < 0.5 else None
        entries.append(EntryInput(player=player, pips=pips, tiles_left=known))
    return d, entries


def main():
    per_row = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rng = random.Random(24)
    global undecided
    print(f"check 11 budget {fill.TIME_BUDGET * 1000:.0f} ms, {per_row:,} rounds per row")
    print(
        f"{'set':>4} {'players':>7} {'kind':>5} {'median ms':>9} {'p99 ms':>7} {'refused':>7} {'undecided':>9} {'per 100k':>8}"
    )
    total = total_undecided = 0
    for highest, players_range in [
        (6, (2, 3, 4)),
        (9, (2, 4, 6)),
        (12, (2, 4, 6, 8)),
        (15, (4, 6, 8)),
        (18, (6, 8, 10)),
    ]:
        rules = GameRules(tile_set=highest)
        for players in players_range:
            seats = [Seat(i, f"P{i}") for i in range(players)]
            for kind in ("real", "typo", "edge"):
                times, refused, undecided = [], 0, 0
                for _ in range(per_row):
                    d, entries = a_round(rng, highest, players, kind)
                    start = time.perf_counter()
                    try:
                        score_round(rules, d, seats, entries)
                    except InvalidRound:
                        refused += 1
                    times.append((time.perf_counter() - start) * 1000)
                times.sort()
                total, total_undecided = total + per_row, total_undecided + undecided
                print(
                    f"{highest:>4} {players:>7} {kind:>5} {statistics.median(times):>9.3f}"
                    f" {times[int(0.99 * len(times))]:>7.3f} {refused:>7} {undecided:>9}"
                    f" {undecided * 100_000 / per_row:>8.0f}"
                )
    print(f"all: {total:,} rounds, {total_undecided} undecided ({total_undecided * 100_000 / total:.0f} per 100,000)")


if __name__ == "__main__":
    main()
