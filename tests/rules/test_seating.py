"""Seats that change during a game: joins, leaves and take-overs replayed with the rounds."""

import math

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import seating
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.places import moves
from scorekeeper.rules.scoring import RoundResult, derive
from scorekeeper.rules.seating import Change, SeatChange
from scorekeeper.rules.snapshot import changes, dump, load, results

RULES = GameRules(tile_set=12)
NAMES = {number: f"P{number}" for number in range(1, 21)}


def game(players, events, rules=RULES):
    """The state of a game of `players` (ids, seat order at the start) after `events`: round score
    dicts and SeatChanges (made after the rounds before them), with the seat order as the services
    keep it (seating.place_in_order)."""
    order, rounds, made = list(players), [], []
    for event in events:
        if isinstance(event, SeatChange):
            event = SeatChange(event.kind, event.player, len(rounds), event.replaces)
            order = seating.place_in_order(order, event)
            made.append(event)
        else:
            rounds.append(RoundResult(len(rounds), event))
    return derive(rules, [(p, NAMES[p]) for p in order], rounds, made), rounds


def seat(state, player):
    return next(each for each in state.seats if each.player == player)


def test_a_late_joiner_starts_with_the_highest_total_at_the_table():
    state, _ = game([1, 2, 3], [{1: 10, 2: 0, 3: 25}, SeatChange(Change.JOIN, 4, 0), {1: 5, 2: 7, 3: 0, 4: 3}])
    joiner = seat(state, 4)
    assert (joiner.opening_total, joiner.joined_after, joiner.total, joiner.rounds) == (25, 1, 28, 1)
    assert state.rounds[0].scores == (10, 0, 25, None)  # not at the table in round 1


def test_the_average_option_rounds_up_and_zero_starts_from_nothing():
    events = [{1: 10, 2: 0, 3: 5}, SeatChange(Change.JOIN, 4, 0)]
    average, _ = game([1, 2, 3], events, GameRules(tile_set=12, join_total="average"))
    zero, _ = game([1, 2, 3], events, GameRules(tile_set=12, join_total="zero"))
    assert seat(average, 4).opening_total == math.ceil(15 / 3) == 5
    assert seat(zero, 4).opening_total == 0


def test_a_join_before_the_first_round_is_an_ordinary_seat_with_nothing():
    state, _ = game([1, 2], [SeatChange(Change.JOIN, 3, 0), {1: 0, 2: 4, 3: 9}])
    assert (seat(state, 3).opening_total, seat(state, 3).joined_after) == (0, None)


def test_a_take_over_continues_the_seat_and_its_total_and_the_replaced_player_leaves_unranked():
    state, _ = game(
        [1, 2, 3], [{1: 10, 2: 30, 3: 0}, SeatChange(Change.TAKE_OVER, 4, 0, replaces=2), {1: 0, 4: 5, 3: 8}]
    )
    newcomer, gone = seat(state, 4), seat(state, 2)
    assert (newcomer.opening_total, newcomer.total, newcomer.replaced, newcomer.joined_after) == (30, 35, 2, 1)
    assert (gone.total, gone.left_after, gone.rank, gone.seated) == (30, 1, None, False)
    assert [each.player for each in state.standings] == [3, 1, 4, 2]  # the ranked by total, then who left
    assert state.standings[-1].place == 4


def test_who_left_keeps_their_total_cannot_win_and_follows_the_ranked_players():
    state, _ = game(
        [1, 2, 3],
        [{1: 0, 2: 3, 3: 4}, SeatChange(Change.LEAVE, 2, 0)]
        + [{1: 0, 3: 10}] * 12,  # the game ends after 13 rounds of double-12
    )
    assert state.finished
    assert state.winners == (1,)
    assert (seat(state, 2).total, seat(state, 2).left_after, seat(state, 2).is_winner) == (3, 1, False)
    assert [each.player for each in state.standings] == [1, 3, 2]


def test_who_shuffles_follows_the_seated_players_in_seat_order():
    # Seat order 1, 2, 3; 4 joins after 1 and before 2; 2 leaves.
    rounds = [{1: 1, 2: 2, 3: 3}, {1: 1, 2: 2, 3: 3}]
    state, _ = game([1, 2, 3], rounds)
    assert state.shuffles_next == 3  # 1 shuffled round 1, 2 round 2
    order = seating.place_in_order([1, 2, 3], SeatChange(Change.JOIN, 4, 2), sits_after=1)
    assert order == [1, 4, 2, 3]
    changes_made = [SeatChange(Change.JOIN, 4, 2), SeatChange(Change.LEAVE, 3, 2)]
    state = derive(
        RULES, [(p, NAMES[p]) for p in order], [RoundResult(i, r) for i, r in enumerate(rounds)], changes_made
    )
    assert state.shuffles_next == 1  # after 2 comes 3, who left: then 1 (4 sits before 2)


def test_a_player_who_left_or_sits_cannot_sit_again_and_two_must_stay():
    names = dict(NAMES)
    kwargs = {"seated": [1, 3], "sat": [1, 2, 3], "names": names, "finished": False}
    assert seating.refusal(SeatChange(Change.JOIN, 2, 3), **kwargs).code == "left_this_game"
    assert seating.refusal(SeatChange(Change.JOIN, 3, 3), **kwargs).code == "already_seated"
    assert seating.refusal(SeatChange(Change.LEAVE, 3, 3), **kwargs).code == "too_few_players"
    assert seating.refusal(SeatChange(Change.TAKE_OVER, 4, 3, replaces=2), **kwargs).field == "replaces"
    assert seating.refusal(SeatChange(Change.JOIN, 4, 3), **kwargs | {"finished": True}).code == "game_finished"
    full = {"seated": list(range(1, 11)), "sat": list(range(1, 11)), "names": names, "finished": False}
    assert seating.refusal(SeatChange(Change.JOIN, 11, 3), **full).code == "table_full"
    assert seating.refusal(SeatChange(Change.TAKE_OVER, 11, 3, replaces=4), **full) is None
    message = str(seating.refusal(SeatChange(Change.JOIN, 2, 3), **kwargs).message)
    assert "P2" in message and "once" in message


def test_a_state_saved_with_seat_changes_loads_and_replays_the_same():
    state, rounds = game([1, 2, 3], [{1: 10, 2: 0, 3: 5}, SeatChange(Change.TAKE_OVER, 4, 0, replaces=2),
                                     SeatChange(Change.JOIN, 5, 0), {1: 0, 3: 1, 4: 2, 5: 3}])  # fmt: skip
    saved = dump(state, rounds)
    assert load(saved, NAMES) == state
    assert results(saved) == rounds
    assert changes(saved) == state.changes


# A random evening: rounds, joins, leaves and take-overs, each checked by seating.refusal first.
@st.composite
def evenings(draw):
    start = draw(st.integers(2, 10))
    seated, sat, events = list(range(1, start + 1)), set(range(1, start + 1)), []
    newcomer = start + 1
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(st.sampled_from(["round", "round", Change.JOIN, Change.LEAVE, Change.TAKE_OVER]))
        if kind == "round":
            events.append({player: draw(st.integers(0, 80)) for player in seated})
            continue
        if kind == Change.LEAVE:
            change = SeatChange(kind, draw(st.sampled_from(seated)), 0)
        elif kind == Change.JOIN:
            change = SeatChange(
                kind, newcomer if newcomer <= 20 and draw(st.booleans()) else draw(st.sampled_from(sorted(sat))), 0
            )
        else:
            change = SeatChange(kind, newcomer if newcomer <= 20 else 1, 0, replaces=draw(st.sampled_from(seated)))
        if seating.refusal(change, seated=seated, sat=sat, names=NAMES, finished=False) is not None:
            continue
        events.append(change)
        seated = seating.apply(seated, sorted(sat | {change.player}), change)
        sat.add(change.player)
        newcomer += change.player == newcomer
    return list(range(1, start + 1)), events


@given(evenings())
def test_any_evening_keeps_totals_equal_to_opening_totals_plus_round_scores(evening):
    players, events = evening
    state, rounds = game(players, events)
    for each in state.seats:
        assert each.total == each.opening_total + sum(r.scores.get(each.player, 0) for r in rounds)
        assert each.rounds == sum(1 for r in rounds if each.player in r.scores)


@given(evenings())
def test_in_any_evening_nobody_sits_twice_and_every_round_seats_two_to_ten(evening):
    players, events = evening
    state, _ = game(players, events)
    assert len({each.player for each in state.seats}) == len(state.seats)
    for line in state.rounds:
        seated_in_round = [score for score in line.scores if score is not None]
        assert 2 <= len(seated_in_round) <= 10
    for each in state.seats:  # seated rounds are one unbroken run: nobody comes back
        sat = [line.scores[each.seat] is not None for line in state.rounds]
        runs = sum(1 for i, here in enumerate(sat) if here and (i == 0 or not sat[i - 1]))
        assert runs <= 1
    ranked = [each for each in state.seats if each.ranked]
    assert 2 <= len(ranked) <= 10 and all(each.seated for each in ranked)


def test_a_newcomer_who_takes_over_the_seat_that_shuffled_passes_the_shuffle_to_the_next_seat():
    order = seating.place_in_order([1, 2, 3], SeatChange(Change.TAKE_OVER, 4, 1, replaces=1))
    assert order == [1, 4, 2, 3]
    state = derive(RULES, [(p, NAMES[p]) for p in order], [RoundResult(0, {1: 0, 2: 5, 3: 6})],
                   [SeatChange(Change.TAKE_OVER, 4, 1, replaces=1)])  # fmt: skip
    assert state.shuffles_next == 2  # 1 shuffled round 1; 4 sits in that seat, so 2 is next


def test_nobody_moves_a_place_because_someone_left_or_sat_down():
    # Cy (20) leaves after this round: Di stays 4th of those who played both rounds, as before.
    assert moves([10, 20, 15, 30], [12, None, 18, 33]) == (0, 0, 0, 0)
    # Eve sits down with the highest total: nobody moves for it, and she has no move of her own.
    assert moves([10, 20, None], [25, 21, 25]) == (-1, 1, 0)


def test_the_table_may_choose_a_joiners_opening_total_at_the_door_whatever_the_game_option():
    rounds = [RoundResult(0, {1: 10, 2: 0, 3: 5})]
    seats = [(p, NAMES[p]) for p in (1, 2, 3, 4)]
    chosen = {
        option: seat(derive(RULES, seats, rounds, [SeatChange(Change.JOIN, 4, 1, join_total=option)]), 4).opening_total
        for option in seating.JoinTotal.CHOICES
    }
    assert chosen == {"highest": 10, "average": 5, "zero": 0}  # (10 + 0 + 5) / 3 = 5
    assert seating.opening_totals([10, 0, 5]) == chosen  # what the join screen shows beside each option
    # The choice is kept with the change: the saved state replays it.
    state = derive(RULES, seats, rounds, [SeatChange(Change.JOIN, 4, 1, join_total="zero")])
    saved = dump(state, rounds)
    assert changes(saved)[0].join_total == "zero"
    assert seat(load(saved, dict(seats)), 4).opening_total == 0


def test_a_join_total_that_is_not_one_of_the_three_or_not_for_a_join_is_refused_naming_join_total():
    refused = seating.refusal(SeatChange(Change.JOIN, 4, 1, join_total="lowest"), seated=[1, 2, 3], sat=[1, 2, 3],
                              names=NAMES, finished=False)  # fmt: skip
    assert (refused.field, refused.code) == ("join_total", "unknown_join_total")
    assert "highest, average, zero" in str(refused.message)
    take_over = SeatChange(Change.TAKE_OVER, 4, 1, replaces=2, join_total="zero")
    refused = seating.refusal(take_over, seated=[1, 2, 3], sat=[1, 2, 3], names=NAMES, finished=False)
    assert (refused.field, refused.code) == ("join_total", "not_a_join")
