"""A game's changes as people talk about them ("Ann corrected round 4: Bob 30 -> 3"), read from the
versions django-simple-history keeps of the game and its rounds. The services name each version's
action (its change reason) and who made it."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Value

from ..models import Game, Round, SeatChange, title_of
from ..models import HistoryAction as Action

GAME_ACTIONS = (
    Action.GAME_CREATED,
    Action.GAME_RENAMED,
    Action.GAME_DELETED,
    Action.GAME_RESTORED,
    Action.GAME_FINISHED,
    Action.GAME_MADE_CASUAL,
    Action.GAME_COUNTED,
    Action.PLAYER_MERGED,
    Action.GAME_ENTERED,
)
ROUND_ACTIONS = (Action.ROUND_RECORDED, Action.ROUND_CORRECTED, Action.ROUND_UNDONE, Action.ROUND_RESTORED)
SEAT_ACTIONS = (Action.PLAYER_JOINED, Action.PLAYER_LEFT, Action.SEAT_TAKEN_OVER, Action.PLAYER_JOINED_UNDONE,
                Action.PLAYER_LEFT_UNDONE, Action.SEAT_TAKEN_OVER_UNDONE)  # fmt: skip
UNDOING = (Action.PLAYER_JOINED_UNDONE, Action.PLAYER_LEFT_UNDONE, Action.SEAT_TAKEN_OVER_UNDONE)


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
    def key(self) -> str:
        """Which version of the history this is ("g12": of the game, "r40": of a round, "s3": of a
        seat change), for a page
        that follows the game to know the changes it has not shown yet."""
        return _key(self.order[1], self.order[2])

    @property
    def differences(self) -> list[str]:
        """What a correction changed, per player: "Bob 30 → 3" (scores, penalties included)."""
        if self.action != Action.ROUND_CORRECTED or not self.before or not self.after:
            return []
        was = {entry["player"]: entry for entry in self.before["entries"]}
        return [
            f"{entry['player']} {was[entry['player']]['score']} → {entry['score']}"
            for entry in self.after["entries"]
            if entry["player"] in was and was[entry["player"]]["score"] != entry["score"]
        ]


def _round(version) -> dict:
    return {"number": version.number, "starting_double": version.starting_double, "entries": version.entries_as_saved}


def _title(version, game: Game) -> str:
    """What the game was called in this version, as Game.title calls it (title_of)."""
    table = version.table if version.night_id is not None else None
    return title_of(name=version.name, table=table, number=version.number, day=game.title_day)


def of_game(game: Game) -> list[Change]:
    """Every change to the game, newest first (two queries)."""
    changes, name = [], None
    for version in (
        Game.history.filter(id=game.pk).select_related("history_user").order_by("history_date", "history_id")
    ):
        action = version.history_change_reason
        if action in GAME_ACTIONS:
            before = None if action in (Action.GAME_CREATED, Action.GAME_ENTERED) else {"name": name}
            # A game stopped early names the round it stopped after.
            stopped = version.stopped_after if action == Action.GAME_FINISHED else None
            order = (version.history_date, 0, version.history_id)
            after = {"name": _title(version, game)}
            if action == Action.GAME_ENTERED:  # a paper game entered afterwards: the day it was played
                after["played_on"] = version.played_on.isoformat() if version.played_on else None
            changes.append(Change(version.history_date, version.history_user, action, stopped, before, after, order))
        name = _title(version, game)
    last: dict[int, dict] = {}
    rounds = Round.history.filter(game_id=game.pk).select_related("history_user").order_by("history_date", "history_id")
    for version in rounds:
        action, now = version.history_change_reason, _round(version)
        if action in ROUND_ACTIONS:
            # A correction changed the round as it was kept last; an undo took away the round as it is.
            before = {Action.ROUND_CORRECTED: last.get(version.id), Action.ROUND_UNDONE: now}.get(action)
            after = None if action == Action.ROUND_UNDONE else now
            order = (version.history_date, 1, version.history_id)
            changes.append(Change(version.history_date, version.history_user, action, version.number, before, after,
                                  order))  # fmt: skip
        last[version.id] = now
    seat_changes = (
        SeatChange.history.filter(game_id=game.pk, history_change_reason__in=SEAT_ACTIONS)
        .select_related("history_user", "player", "replaces")
        .order_by("history_date", "history_id")
    )
    for version in seat_changes:
        action = version.history_change_reason
        seat = {"player": version.player.name, "replaces": version.replaces.name if version.replaces_id else None,
                "after_round": version.after}  # fmt: skip
        before, after = (seat, None) if action in UNDOING else (None, seat)
        order = (version.history_date, 2, version.history_id)
        changes.append(Change(version.history_date, version.history_user, action, None, before, after, order))
    return sorted(changes, key=lambda change: change.order, reverse=True)


def recent_keys(game: Game, limit: int) -> list[str]:
    """The keys of the game's `limit` latest changes, newest first, as of_game orders them (one
    query: the ids only, for a page that needs to know what it has seen, not what it was)."""
    versions = [
        model.history.filter(history_change_reason__in=actions, **{field: game.pk})
        .annotate(source=Value(kind))
        .values_list("history_date", "source", "history_id")
        .order_by()
        for model, field, kind, actions in (
            (Game, "id", 0, GAME_ACTIONS),
            (Round, "game_id", 1, ROUND_ACTIONS),
            (SeatChange, "game_id", 2, SEAT_ACTIONS),
        )
    ]
    newest = versions[0].union(*versions[1:], all=True).order_by("-history_date", "-source", "-history_id")[:limit]
    return [_key(kind, history_id) for _date, kind, history_id in newest]


def _key(kind: int, history_id: int) -> str:
    return f"{'grs'[kind]}{history_id}"


def last_corrections(changes: list[Change]) -> dict[int, Change]:
    """The latest correction of each round number still on the sheet, for its note."""
    found: dict[int, Change] = {}
    for change in changes:  # newest first
        if change.round is None or change.round in found:
            continue
        if change.action == Action.ROUND_CORRECTED:
            found[change.round] = change
        elif change.action in (Action.ROUND_RECORDED, Action.ROUND_RESTORED, Action.ROUND_UNDONE):
            found[change.round] = None  # recorded again since: no correction to show
    return {number: change for number, change in found.items() if change is not None}
