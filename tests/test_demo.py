"""The demo games the benchmarks seed are games the rules accept, round after round."""

import random

from scorekeeper.demo import play_game
from scorekeeper.rules.game import GameRules, place_round


def test_every_seeded_sequence_of_starting_doubles_is_one_the_rules_accept():
    tables = [GameRules(extended=True), GameRules(target_score=300), GameRules(extended=True, target_score=300),
              GameRules(tile_set=6, extended=True)]  # fmt: skip
    for seed in range(150):  # seed 1000 once skipped 0-0 onto the 1-1 just played
        rng = random.Random(seed)
        for rules in tables:
            last = None
            for double, _entries in play_game(rules, [1, 2, 3, 4], rng):
                last = place_round(rules, last, double)  # raises SequenceConflict on a bad sequence
