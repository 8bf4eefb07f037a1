"""A game's changes as people talk about them ("Ann corrected round 4: Bob 30 -> 3"), read from the
versions django-simple-history keeps of the game and its rounds. The services name each version's
action (its change reason) and who made it."""

from dataclasses import dataclass
from datetime import datetime

from .models import Game, Round

GAME_ACTIONS = ("game_created", "game_renamed", "game_deleted", "game_restored")
ROUND_ACTIONS = ("round_recorded", "round_corrected", "round_undone", "round_restored")


@dataclass
class Change:
    at: datetime
    by: object | None  # the user, or None when nobody is known (a deleted account, a seeded game)
    action: str
    round: int | None
    before: dict | None
    after: dict | None
    order: tuple = ()

    @property
    def differences(self) -> list[str]:
        """What a correction changed, per player: "Bob 30 → 3" (scores, penalties included)."""
        if self.action != "round_corrected" or not self.before or not self.after:
            return []
        was = {entry["player"]: entry for entry in self.before["entries"]}
        return [
            f"{entry['player']} {was[entry['player']]['score']} → {entry['score']}"
            for entry in self.after["entries"]
            if entry["player"] in was and was[entry["player"]]["score"] != entry["score"]
        ]


def _round(version) -> dict:
    return {"number": version.number, "starting_double": version.starting_double, "entries": version.entries_as_saved}


def of_game(game: Game) -> list[Change]:
    """Every change to the game, newest first (two queries)."""
    changes, name = [], None
    for version in (
        Game.history.filter(id=game.pk).select_related("history_user").order_by("history_date", "history_id")
    ):
        action = version.history_change_reason
        if action in GAME_ACTIONS:
            before = None if action == "game_created" else {"name": name}
            order = (version.history_date, 0, version.history_id)
            changes.append(Change(version.history_date, version.history_user, action, None, before,
                                  {"name": version.name}, order))  # fmt: skip
        name = version.name
    last: dict[int, dict] = {}
    rounds = Round.history.filter(game_id=game.pk).select_related("history_user").order_by("history_date", "history_id")
    for version in rounds:
        action, now = version.history_change_reason, _round(version)
        if action in ROUND_ACTIONS:
            before = last.get(version.id) if action == "round_corrected" else now if action == "round_undone" else None
            after = None if action == "round_undone" else now
            order = (version.history_date, 1, version.history_id)
            changes.append(Change(version.history_date, version.history_user, action, version.number, before, after,
                                  order))  # fmt: skip
        last[version.id] = now
    return sorted(changes, key=lambda change: change.order, reverse=True)


def last_corrections(changes: list[Change]) -> dict[int, Change]:
    """The latest correction of each round number still on the sheet, for its note."""
    found: dict[int, Change] = {}
    for change in changes:  # newest first
        if change.round is None or change.round in found:
            continue
        if change.action == "round_corrected":
            found[change.round] = change
        elif change.action in ("round_recorded", "round_restored", "round_undone"):
            found[change.round] = None  # recorded again since: no correction to show
    return {number: change for number, change in found.items() if change is not None}
