"""Check 11 is exact: with time enough, every decision agrees with an independent search, and a\nsearch out of time lets check 9 decide."""

import functools
import itertools
import math
import random
import time
from collections import Counter

import pytest

from scorekeeper.rules import fill
from scorekeeper.rules.fill import Need, Undecided, can_fill, pool_counts
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput, InvalidRound, Seat, score_round
from scorekeeper.rules.tiles import DOUBLE_BLANK, all_tiles, double


def brute_force(highest, starting_double, needs) -> bool:
    """Try every way to give each hand distinct tiles of the set."""
    pool = [tile for tile in all_tiles(highest) if tile not in (double(starting_double), DOUBLE_BLANK)]

    def deal(index, used):
        if index == len(needs):
            return True
        need = needs[index]
        free = [tile for tile in pool if tile not in used]
        for count in [need.tiles] if need.tiles is not None else range(6):
            for hand in itertools.combinations(free, count):
                if sum(tile.pips for tile in hand) == need.pips and deal(index + 1, used | set(hand)):
                    return True
        return False

    return deal(0, frozenset())


def plain_search(highest, starting_double, needs) -> bool:
    """An independent oracle over pip values: each hand in turn (fewest tiles first) takes a
    multiset of the free pip values, as many as it says (or any number), that sums to its pips."""
    pool = Counter(tile.pips for tile in all_tiles(highest) if tile not in (double(starting_double), DOUBLE_BLANK))
    order = sorted(needs, key=lambda need: (need.tiles is None, need.tiles or 0))

    def hands(pips, count, free, below):
        """Multisets of `count` free values, each at most `below`, summing to `pips` (largest first)."""
        if count == 0:
            if pips == 0:
                yield ()
            return
        for value in range(min(below, pips), 0, -1):
            if free[value]:
                free[value] -= 1
                for rest in hands(pips - value, count - 1, free, value):
                    yield (value, *rest)
                free[value] += 1

    @functools.cache
    def deal(index, free_items):
        if index == len(order):
            return True
        need, free = order[index], Counter(dict(free_items))
        for count in [need.tiles] if need.tiles is not None else range(need.pips + 1):
            for hand in list(hands(need.pips, count, free, 2 * highest)):
                if deal(index + 1, tuple(sorted((free - Counter(hand)).items()))):
                    return True
        return False

    return deal(0, tuple(sorted(pool.items())))


def random_needs(rng, highest, hands):
    needs = []
    for _ in range(hands):
        tiles = rng.choice([1, 2, 3, 4, None])
        pips = (
            rng.randint(1, highest + 3) if tiles is None else rng.randint(tiles, min(2 * highest * tiles, 3 * highest))
        )
        needs.append(Need(pips, tiles))
    return needs


@pytest.mark.parametrize(("highest", "cases"), [(6, 600), (9, 250)])
def test_every_small_split_is_decided_as_a_plain_search_decides_it(highest, cases):
    """Up to 4 hands of up to 4 tiles (or any number): with time enough, never undecided, and the
    same answer as the oracle."""
    rng = random.Random(20261124 + highest)
    possible = 0
    for _ in range(cases):
        starting_double = rng.randrange(highest + 1)
        needs = random_needs(rng, highest, rng.randint(2, 4))
        answer = can_fill(needs, pool_counts(highest, starting_double, []), deadline=math.inf)
        assert answer == plain_search(highest, starting_double, needs), (starting_double, needs)
        possible += answer
    assert possible > cases // 10 and cases - possible > cases // 10  # both answers were exercised


def test_every_decision_on_double_6_agrees_with_dealing_actual_tiles():
    rng = random.Random(20261122)
    possible = 0
    for _ in range(300):
        starting_double = rng.randrange(7)
        needs = []
        for _ in range(rng.randint(2, 3)):
            tiles = rng.choice([1, 1, 2, 2, 3, None])
            pips = rng.randint(1, 9) if tiles is None else rng.randint(tiles, 11 * tiles)
            needs.append(Need(pips, tiles))
        answer = can_fill(needs, pool_counts(6, starting_double, []), deadline=math.inf)
        assert answer == brute_force(6, starting_double, needs), (starting_double, needs)
        possible += answer
    assert 100 < possible < 280  # both answers were exercised


def test_the_crafted_rounds_a_plain_search_refuses_at_once_are_refused_naming_the_players():
    # 0-0 on the table: only 2-0 and 1-1 hold 2 pips, so three one-tile hands of 2 cannot all be dealt.
    seats = [Seat(n, name) for n, name in enumerate(["Ana", "Bea", "Cy", "Dan", "Eve"])]
    entries = [EntryInput(player=0, pips=0, went_out=True)]
    entries += [EntryInput(player=n, pips=2, tiles_left=1) for n in (1, 2, 3)]
    entries += [EntryInput(player=4, pips=80, tiles_left=4)]
    with pytest.raises(InvalidRound) as refused:
        score_round(GameRules(tile_set=12), 0, seats, entries)
    assert [error.rule for error in refused.value.errors] == [11]
    assert all(name in str(refused.value.errors[0].message) for name in ("Bea", "Cy", "Dan"))
    # Double-9 with 8-8 down: the ten lowest free tiles hold 26 pips, two 5-tile hands have 25.
    entries = [EntryInput(player=0, pips=0, went_out=True)]
    entries += [EntryInput(player=1, pips=12, tiles_left=5), EntryInput(player=2, pips=13, tiles_left=5)]
    with pytest.raises(InvalidRound) as refused:
        score_round(GameRules(tile_set=9), 8, seats[:3], entries)
    assert [error.rule for error in refused.value.errors] == [9]  # the totals of the counts settle it
    assert all(name in str(refused.value.errors[0].message) for name in ("Bea", "Cy"))


def test_a_search_out_of_time_is_undecided_and_check_9s_totals_stand(monkeypatch):
    """A round the search cannot settle in its budget is let through (check 9 passed it): the
    budget is spent at once here, and the clock read at every node."""
    monkeypatch.setattr(fill, "CLOCK_EVERY", 1)
    rng = random.Random(11)
    for _ in range(2000):
        starting_double = rng.randrange(10)
        needs = random_needs(rng, 9, 3)
        pool = pool_counts(9, starting_double, [])
        try:
            can_fill(needs, pool, deadline=time.perf_counter() - 1)
        except Undecided:
            if not plain_search(9, starting_double, needs):
                break
    else:
        raise AssertionError("no impossible split needed a search")
    seats = [Seat(n, f"P{n}") for n in range(4)]
    entries = [EntryInput(player=0, pips=0, went_out=True)]
    entries += [EntryInput(player=n + 1, pips=need.pips, tiles_left=need.tiles) for n, need in enumerate(needs)]
    monkeypatch.setattr(fill, "TIME_BUDGET", 1.0)
    with pytest.raises(InvalidRound) as refused:
        score_round(GameRules(tile_set=9), starting_double, seats, entries)
    assert 11 in [error.rule for error in refused.value.errors]
    monkeypatch.setattr(fill, "TIME_BUDGET", -1.0)
    try:
        score_round(GameRules(tile_set=9), starting_double, seats, entries)
    except InvalidRound as invalid:  # check 11 gave up: anything refused is another check's
        assert 11 not in [error.rule for error in invalid.errors]


def test_a_real_deal_of_every_set_is_found_at_once():
    rng = random.Random(7)
    for highest, players in [(6, 3), (9, 4), (12, 6), (15, 8), (18, 10)]:
        starting_double = rng.randrange(highest + 1)
        tiles = [tile for tile in all_tiles(highest) if tile not in (double(starting_double), DOUBLE_BLANK)]
        rng.shuffle(tiles)
        needs = []
        for _ in range(players):
            hand, tiles = tiles[: rng.randint(1, 9)], tiles[9:]
            needs.append(Need(sum(tile.pips for tile in hand), len(hand) if rng.random() < 0.5 else None))
        assert can_fill(needs, pool_counts(highest, starting_double, [])), highest
