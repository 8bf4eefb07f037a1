"""Property tests: the tile-set model accepts exactly what a real deal can produce."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput, InvalidRound, Seat, score_round
from scorekeeper.rules.scoring import PlayedRound, progress
from scorekeeper.rules.tiles import DOUBLE_BLANK, SUPPORTED_SETS, all_tiles, double, hand_range

SEATS = [Seat(1, "Ann"), Seat(2, "Ben")]


@st.composite
def hands(draw):
    """A set, a starting double, a hand size, the 0-0 or not, and a pip total (any, reachable or not)."""
    highest = draw(st.sampled_from(SUPPORTED_SETS))
    starting = draw(st.integers(0, highest))
    holds = draw(st.booleans()) if starting else False
    count = draw(st.integers(1, 12))
    pips = draw(st.integers(0, 30 * count))
    return highest, starting, holds, count, pips


def _round(highest, starting, holds, count, pips):
    hand = EntryInput(player=2, pips=pips, tiles_left=count, double_blank=holds)
    return score_round(
        GameRules(tile_set=highest), starting, SEATS, [EntryInput(player=1, pips=0, went_out=True), hand]
    )


@given(hands())
@settings(max_examples=400)
def test_a_hand_is_accepted_exactly_when_some_tiles_of_the_set_make_it(case):
    highest, starting, holds, count, pips = case
    # Independent oracle: the k smallest and k largest tiles, picked by hand from the set.
    pool = sorted(t.pips for t in all_tiles(highest) if t not in (double(starting), DOUBLE_BLANK))
    others = count - 1 if holds else count
    possible = others <= len(pool) and sum(pool[:others]) <= pips <= sum(pool[len(pool) - others :])
    try:
        _round(*case)
        accepted = True
    except InvalidRound:
        accepted = False
    assert accepted == possible


@given(st.sampled_from(SUPPORTED_SETS), st.data())
def test_every_total_of_real_tiles_is_accepted(highest, data):
    starting = data.draw(st.integers(0, highest))
    pool = [t for t in all_tiles(highest) if t != double(starting)]
    hand = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=15, unique=True))
    entry = EntryInput(player=2, tiles=[f"{t.low}-{t.high}" for t in hand])
    scored = score_round(
        GameRules(tile_set=highest), starting, SEATS, [EntryInput(player=1, pips=0, went_out=True), entry]
    )
    ben = scored.entries[1]
    assert ben.pips == sum(t.pips for t in hand)
    assert ben.double_blank == (DOUBLE_BLANK in hand)
    # The same hand given as numbers only is accepted too.
    assert hand_range(highest, starting, len(hand), DOUBLE_BLANK in hand) is not None
    _round(highest, starting, DOUBLE_BLANK in hand, len(hand), ben.pips)


@st.composite
def rounds_of_a_game(draw):
    players = draw(st.integers(2, 6))
    seats = [Seat(i, f"P{i}") for i in range(players)]
    rules = GameRules(tile_set=6, double_blank_penalty=draw(st.sampled_from([0, 25, 50])))
    played = []
    for starting in range(6, -1, -1)[: draw(st.integers(1, 7))]:
        winner = draw(st.integers(0, players - 1))
        # Deal real tiles, so the hands never overlap; enter them as numbers.
        deck = draw(st.permutations([t for t in all_tiles(6) if t != double(starting)]))
        entries = []
        for i in range(players):
            hand = deck[3 * i : 3 * i + 3]
            if i == winner:
                entries.append(EntryInput(player=i, pips=0, went_out=True))
            else:
                pips = sum(t.pips for t in hand)
                entries.append(EntryInput(player=i, pips=pips, tiles_left=3, double_blank=DOUBLE_BLANK in hand))
        played.append((starting, entries))
    return rules, seats, played


@given(rounds_of_a_game(), st.randoms())
def test_totals_are_the_sum_of_the_rounds_and_entry_order_never_matters(game, random):
    rules, seats, played = game
    expected = {seat.player: 0 for seat in seats}
    results = []
    for position, (starting, entries) in enumerate(played):
        scored = score_round(rules, starting, seats, entries)
        shuffled = list(entries)
        random.shuffle(shuffled)
        assert score_round(rules, starting, seats, shuffled) == scored
        for e in scored.entries:
            expected[e.player] += e.pips + e.penalty
        results.append(PlayedRound(position, {e.player: e.score for e in scored.entries}))
    assert progress(rules, [s.player for s in seats], results).totals == expected
