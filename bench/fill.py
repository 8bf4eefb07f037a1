"""How long check 11 (hands dealt at once) takes per round: real deals of each set, some with a typo.

    python bench/fill.py

Prints median, 95th percentile and worst milliseconds per round, and how many rounds were
left undecided (their budget ran out, so check 9's totals stood)."""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.rules import fill, rounds
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput, InvalidRound, Seat, score_round
from scorekeeper.rules.tiles import all_tiles, double

ROUNDS = 300
undecided = 0


def counting_can_fill(*args, **kwargs):
    """rules.fill.can_fill, counting the searches that ran out of budget."""
    global undecided
    try:
        return fill.can_fill(*args, **kwargs)
    except fill.Undecided:
        undecided += 1
        raise


rounds.can_fill = counting_can_fill


def main():
    rng = random.Random(5)
    global undecided
    print(f"{'set':>4} {'players':>7} {'median ms':>9} {'p95 ms':>7} {'worst ms':>8} {'refused':>7} {'undecided':>9}")
    for highest, players in [(6, 3), (9, 4), (12, 4), (12, 8), (15, 6), (18, 10)]:
        seats = [Seat(i, f"P{i}") for i in range(players)]
        rules = GameRules(tile_set=highest)
        times, refused, undecided = [], 0, 0
        for _ in range(ROUNDS):
            d = rng.randrange(highest + 1)
            tiles = [t for t in all_tiles(highest) if t != double(d)]
            rng.shuffle(tiles)
            entries = [EntryInput(player=0, pips=0, went_out=True)]
            for player in range(1, players):
                hand, tiles = tiles[: rng.randint(1, 8)], tiles[8:]
                pips = sum(t.pips for t in hand) + (rng.randint(-4, 4) if rng.random() < 0.3 else 0)
                known = len(hand) if rng.random() < 0.5 else None
                holds = any(t.pips == 0 for t in hand)
                entries.append(EntryInput(player=player, pips=max(0, pips), tiles_left=known, double_blank=holds))
            start = time.perf_counter()
            try:
                score_round(rules, d, seats, entries)
            except InvalidRound:
                refused += 1
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        print(
            f"{highest:>4} {players:>7} {statistics.median(times):>9.2f} {times[int(0.95 * len(times))]:>7.2f}"
            f" {times[-1]:>8.2f} {refused:>7} {undecided:>9}"
        )


if __name__ == "__main__":
    main()
