"""The seat command (change_seat) beside the round command: a player joins, leaves or takes over a
seat between two rounds, and undo_seat_change takes the last change away.

Like submit_round, each runs under the game's row lock, derives the game's state once
(rules.scoring.derive replays the rounds and the seat changes together) and saves it with the
game's version, history and announcement (services.state.save_state). Before the first round a
change is an edit of the table, not a change made during the game: a joiner takes an ordinary seat,
a player who leaves is taken off it, a take-over puts the newcomer in the seat."""

from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils.translation import gettext as _

from ..errors import Conflict, InvalidInput
from ..models import Game, HistoryAction, Player, PlayerRecord, Seat, SeatChange
from ..rules import seating, snapshot
from ..rules.seating import Change
from .common import lock_game, save_with_history
from .state import derive_state, save_state, saved_state

MADE = {Change.JOIN: HistoryAction.PLAYER_JOINED, Change.LEAVE: HistoryAction.PLAYER_LEFT,
        Change.TAKE_OVER: HistoryAction.SEAT_TAKEN_OVER}  # fmt: skip
UNDONE = {Change.JOIN: HistoryAction.PLAYER_JOINED_UNDONE, Change.LEAVE: HistoryAction.PLAYER_LEFT_UNDONE,
          Change.TAKE_OVER: HistoryAction.SEAT_TAKEN_OVER_UNDONE}  # fmt: skip


@transaction.atomic
def change_seat(
    *,
    game: Game,
    kind: str,
    player: int | None = None,
    name: str = "",
    replaces: int | None = None,
    sits_after: int | None = None,
    join_total: str | None = None,
    expected_version: int | None = None,
    by=None,
) -> Game:
    """`player` (an id of the game's scorebook) joins (after the seated player `sits_after`, None:
        last), leaves, or takes over the seat of `replaces`, after the last recorded round. Instead of
        `player`, a joiner or a newcomer taking over may be given by `name`: the scorebook's player of
        that name, made when there is none. `join_total` overrides the game's option for this join only
    (highest, average or zero: what the table decides at the door). Returns the game as it is now; raises InvalidInput (a rule
        forbids it: the field and the rule) or Conflict (stale; too_few_players)."""
    locked = lock_game(game, expected_version)
    if player is None and kind != Change.LEAVE:
        player = _named(locked, name).pk
    seats = list(locked.seats.in_order())
    saved = saved_state(locked, seats)
    state = snapshot.load(saved, {seat.player_id: seat.player.name for seat in seats})
    results, changes = snapshot.results(saved), list(snapshot.changes(saved))
    newcomer = _player_of(locked, player, "player") if kind != Change.LEAVE else None
    if kind == Change.TAKE_OVER and replaces is None:
        raise InvalidInput({"replaces": [_("Say whose seat the newcomer takes over.")]})
    names = {seat.player_id: seat.player.name for seat in seats} | ({player: newcomer.name} if newcomer else {})
    if join_total == locked.join_total:  # the game's own option: nothing to remember
        join_total = None
    change = seating.SeatChange(
        kind, player, len(results), replaces if kind == Change.TAKE_OVER else None, join_total or None
    )
    seated = [seat.player for seat in state.seats if seat.seated]
    refused = seating.refusal(change, seated=seated, sat=[seat.player_id for seat in seats], names=names,
                              finished=state.finished, sits_after=sits_after)  # fmt: skip
    if refused is not None:
        if refused.code == "too_few_players":
            raise Conflict(str(refused.message), refused.code)
        raise InvalidInput({refused.field: [str(refused.message)]})
    order = seating.place_in_order([seat.player_id for seat in seats], change, sits_after)
    if not results:
        seats = _edit_table(locked, seats, change, order, newcomer)
    else:
        if newcomer is not None:
            seats = _seat(locked, seats, order, newcomer)
        changes.append(change)
        row = SeatChange(game=locked, number=len(changes), after=change.after, kind=kind, player_id=player,
                         replaces_id=change.replaces, join_total=change.join_total or "", made_by=by)  # fmt: skip
        save_with_history(row, by, MADE[kind])
    if newcomer is not None and not getattr(newcomer, "has_record", False):  # what finished games add to
        PlayerRecord.objects.bulk_create([PlayerRecord(player=newcomer, tile_set=locked.tile_set)],
                                         ignore_conflicts=True)  # fmt: skip
    locked.undone_round = None  # an undone round was entered for the table as it sat then
    save_state(locked, seats, derive_state(locked.rules, seats, results, changes), results)
    return locked.hold("seats", seats)


@transaction.atomic
def undo_seat_change(*, game: Game, expected_version: int | None = None, by=None) -> Game:
    """Take away the last seat change, while no round was recorded after it (undo works backwards
    through rounds and seat changes alike). Raises Conflict: no_seat_change, round_after, stale."""
    locked = lock_game(game, expected_version)
    last = locked.seat_changes.order_by("-number").first()
    if last is None:
        raise Conflict(_("There is no seat change to undo."), "no_seat_change")
    seats = list(locked.seats.in_order())
    saved = saved_state(locked, seats)
    results, changes = snapshot.results(saved), list(snapshot.changes(saved))
    if last.after != len(results):
        raise Conflict(
            _("Round {number} was recorded after the last seat change: undo that round first.").format(
                number=len(results)
            ),
            "round_after",
        )
    changes.pop()
    last._history_user, last._change_reason = by, UNDONE[last.kind]  # read by django-simple-history
    last.delete()
    if last.kind != Change.LEAVE:  # the newcomer never played: their seat goes
        Seat.objects.filter(game=locked, player_id=last.player_id).delete()
        seats = [seat for seat in seats if seat.player_id != last.player_id]
    # A game the table stopped stays stopped (services.games.finish_game).
    state = derive_state(locked.rules, seats, results, changes, stopped_after=locked.stopped_after)
    save_state(locked, seats, state, results)
    return locked.hold("seats", seats)


def _named(game: Game, name: str) -> Player:
    """The scorebook's player called `name`, made if there is none (as the players page makes one)."""
    name = (name or "").strip()
    if not name:
        raise InvalidInput({"player": [_("Choose who it is, or type a new player's name.")]})
    if len(name) > Player._meta.get_field("name").max_length:
        raise InvalidInput({"name": [_("A name has at most 40 characters.")]})
    found = Player.objects.filter(scorebook_id=game.scorebook_id).named(name).first()
    if found is not None:
        return found
    player = Player(scorebook_id=game.scorebook_id, name=name)
    player.save()
    return player


def _player_of(game: Game, pk, field: str) -> Player:
    """The scorebook's player `pk`, with whether they have a record of this game's set already."""
    records = PlayerRecord.objects.filter(player=OuterRef("pk"), tile_set=game.tile_set)
    players = Player.objects.filter(pk=pk, scorebook_id=game.scorebook_id).annotate(has_record=Exists(records))
    found = players.first() if isinstance(pk, int) else None
    if found is None:
        raise InvalidInput({field: [_("There is no such player in this game's scorebook.")]})
    return found


def _seat(game: Game, seats: list[Seat], order: list, player: Player) -> list[Seat]:
    """Give `player` a seat where `order` (the seat order with them in it) places them; the seats
    after it move one along when there is no gap. Returns every seat in the new order."""
    index = order.index(player.pk)
    position = seats[index - 1].position + 1 if index else 0
    if any(seat.position >= position for seat in seats[index:]):
        # Two steps, so the positions are unique at every moment (on SQLite and PostgreSQL alike).
        Seat.objects.filter(game=game, position__gte=position).update(position=F("position") + 1000)
        Seat.objects.filter(game=game, position__gte=1000).update(position=F("position") - 999)
        for seat in seats[index:]:
            seat.position += 1
    seat = Seat(game=game, player=player, position=position)  # saved with its figures (save_state)
    return [*seats[:index], seat, *seats[index:]]


def _edit_table(game: Game, seats: list[Seat], change: seating.SeatChange, order: list, newcomer) -> list[Seat]:
    """Before the first round, the change is an edit of the table."""
    if change.kind == Change.JOIN:
        return _seat(game, seats, order, newcomer)
    gone = change.player if change.kind == Change.LEAVE else change.replaces
    seat = next(seat for seat in seats if seat.player_id == gone)
    if change.kind == Change.TAKE_OVER:
        seat.player = newcomer
        seat.save(update_fields=["player"])
        return seats
    seat.delete()
    return [each for each in seats if each.player_id != gone]
