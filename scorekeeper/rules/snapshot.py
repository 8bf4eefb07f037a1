"""A game's state as it is saved beside the game (plain JSON), and back.

The write path derives a game's state once per change (scoring.derive) and saves it with `dump`;
every read rebuilds it with `load`, with no rule applied again. Names are not saved: a player's
name can change without any round changing, so `load` takes the seats' names as they are now.
The saved rounds keep who went out, held the 0-0 or ended on a double, so the next change derives
the state from them (`results`) without reading the entries back.
"""

from collections.abc import Hashable, Mapping

from .scoring import GameState, RoundLine, RoundResult, SeatState
from .seating import SeatChange

FORMAT = 2  # 2: seat changes (format 1, saved before them, loads as a game without any)
_SEAT_FIGURES = ("total", "rank", "place", "is_winner", "rounds", "went_out", "double_blank_penalties",
                 "end_on_double_penalties", "to_target")  # fmt: skip
# What a seat says of its time at the table, with its value in a state saved before seat changes.
_SEATING = {"opening_total": 0, "joined_after": None, "left_after": None, "replaced": None, "seated": True}
_FLAGS = ("went_out", "double_blank", "ended_on_double")


def dump(state: GameState, rounds: list[RoundResult]) -> dict:
    """The state as JSON can hold it; `rounds` are the results it was derived from, in play order.
    Players must be JSON values (the app's are ids)."""
    return {
        "format": FORMAT,
        "seats": [
            {"player": seat.player, **{name: getattr(seat, name) for name in (*_SEAT_FIGURES, *_SEATING)}}
            for seat in state.seats
        ],
        "changes": [
            {"kind": change.kind, "player": change.player, "after": change.after, "replaces": change.replaces}
            | ({"join_total": change.join_total} if change.join_total else {})
            for change in state.changes
        ],
        "shuffles_next": state.shuffles_next,
        "finished": state.finished,
        "ended_because": state.ended_because,
        "ended_after": state.ended_after,
        "rounds": [
            {
                "number": line.number,
                "position": line.position,
                "starting_double": line.starting_double,
                "scores": list(line.scores),
                "totals": list(line.totals),
                **{flag: sorted(getattr(result, flag)) for flag in _FLAGS},
            }
            for line, result in zip(state.rounds, rounds, strict=True)
        ],
        "next_position": state.next_position,
        "next_double": state.next_double,
        "open_doubles": list(state.open_doubles),
        "last_position": state.last_position,
        "show_until": state.show_until,
    }


def load(data: dict, names: Mapping[Hashable, str]) -> GameState:
    """The state `dump` saved, its players named by `names` (player: name)."""
    seats = tuple(
        SeatState(player=seat["player"], name=names[seat["player"]], seat=index,
                  **{name: seat[name] for name in _SEAT_FIGURES},
                  **{name: seat.get(name, default) for name, default in _SEATING.items()})
        for index, seat in enumerate(data["seats"])
    )  # fmt: skip
    return GameState(
        seats=seats,
        standings=tuple(sorted(seats, key=lambda seat: seat.place)),
        winners=tuple(seat.player for seat in seats if seat.is_winner),
        finished=data["finished"],
        ended_because=data["ended_because"],
        ended_after=data["ended_after"],
        rounds=tuple(
            RoundLine(
                line["number"], line["position"], line["starting_double"], tuple(line["scores"]), tuple(line["totals"])
            )
            for line in data["rounds"]
        ),
        next_position=data["next_position"],
        next_double=data["next_double"],
        open_doubles=tuple(data["open_doubles"]),
        last_position=data["last_position"],
        show_until=data["show_until"],
        changes=changes(data),
        shuffles_next=data["shuffles_next"] if "shuffles_next" in data else _shuffler_of_format_1(data, seats),
    )


def _shuffler_of_format_1(data: dict, seats: tuple[SeatState, ...]) -> Hashable | None:
    """Who shuffles next in a state saved before seat changes: everyone seated throughout, each
    round shuffled by the next seat."""
    return None if data["finished"] or not seats else seats[len(data["rounds"]) % len(seats)].player


def changes(data: dict) -> tuple[SeatChange, ...]:
    """The seat changes the saved state was derived with, in the order they were made."""
    return tuple(SeatChange(**change) for change in data.get("changes", ()))


def results(data: dict) -> list[RoundResult]:
    """The rounds the saved state was derived from, in play order: what derive needs, with the
    next round added (or one replaced, or the last taken away), for the next state."""
    players = [seat["player"] for seat in data["seats"]]
    return [
        RoundResult(line["position"],
                    {player: score for player, score in zip(players, line["scores"], strict=True) if score is not None},
                    *(frozenset(line[flag]) for flag in _FLAGS))
        for line in data["rounds"]
    ]  # fmt: skip


def with_player(data: dict, old: Hashable, new: Hashable) -> dict:
    """The saved state with player `old` called `new` wherever it names them (a merge of two
    players who never sat at one table: `new` is nowhere in it). Nothing else changes."""

    def swap(player):
        return new if player == old else player

    return data | {
        "seats": [seat | {"player": swap(seat["player"]), "replaced": swap(seat.get("replaced"))}
                  for seat in data["seats"]],
        "changes": [change | {"player": swap(change["player"]), "replaces": swap(change["replaces"])}
                    for change in data.get("changes", ())],
        **({"shuffles_next": swap(data["shuffles_next"])} if "shuffles_next" in data else {}),
        "rounds": [line | {flag: sorted(swap(player) for player in line[flag]) for flag in _FLAGS}
                   for line in data["rounds"]],
    }  # fmt: skip
