"""The round command (submit_round) and the other writes to rounds: undo and bring back."""

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import Conflict, InvalidInput
from ..models import (
    ENTRY_GIVEN,
    Game,
    HistoryAction,
    Round,
    Seat,
    entry_values,
)
from ..rules import snapshot
from ..rules.deal import Hand, surprises
from ..rules.game import SequenceConflict, ends_early, place_round, skipped_doubles
from ..rules.rounds import EntryInput, RoundError, ScoredRound
from ..rules.scoring import GameState, RoundResult
from ..rules.text import English, Text
from .common import as_saved, lock_game, save_entries, save_with_history, score_entries, seated
from .state import derive_state, played_rows, save_state, saved_state


@dataclass(frozen=True)
class Saved:
    """The round is in: as saved (entries in seat order, `game` the game as it is now), the game's
    new state and version."""

    round: Round
    state: GameState
    version: int


@dataclass(frozen=True)
class NeedsConfirmation:
    """Nothing saved: the round is legal but unusual (rules.deal.surprises). Sent again with
    `confirm` set to `key`, the same round is saved (while it surprises in the same ways)."""

    surprises: tuple[str, ...]
    key: str


@dataclass(frozen=True)
class Clash:
    """Nothing saved: the round clashes with the game as it is now (`code`: stale, game_finished,
    starting_double_unavailable, round_exists, round_taken, starting_double_fixed, no_such_round,
    correction_ends_game_early). `theirs`: the round saved meanwhile that holds this double or this
    number (or the round being corrected, as it is now), with its entries and who saved it;
    `version`: the game's version now (to replace theirs with)."""

    code: str
    message: str
    theirs: Round | None = None
    version: int | None = None


@dataclass(frozen=True)
class Invalid:
    """Nothing saved: the round breaks a rule whatever the game's state (fields and round errors)."""

    errors: dict[str, list[str]]
    round_errors: tuple[RoundError, ...] = ()

    def as_error(self) -> InvalidInput:
        return InvalidInput(self.errors, list(self.round_errors))


Submitted = Saved | NeedsConfirmation | Clash | Invalid


def submit_round(
    *,
    game: Game,
    starting_double: int | None,
    entries: Sequence[EntryInput],
    confirm: bool | str = True,
    expected_version: int | None = None,
    by=None,
    number: int | None = None,
    expected_number: int | None = None,
) -> Submitted:
    """Record the next round, or correct round `number` (its starting double stays: None keeps it).

    Under the game's row lock the round is scored once and the game's state derived once, then saved
    or answered as it is. `confirm`: True saves a surprising round as it is; False asks
    (NeedsConfirmation); a key saves it when it is the key of the surprises the round has.
    `expected_version`: the game's version the request was made from (None: whatever it is now).
    `expected_number`: the number the new round was entered as (None: the next, whatever it is): a
    round recorded already clashes ("round_taken", `theirs` that round), before a stale version
    does; one beyond the next is Invalid, naming `number`.
    Two requests for the same round at once: one is saved, the other clashes."""
    try:
        return _submit(game, starting_double, entries, confirm, expected_version, by, number, expected_number)
    except _RoundTaken:  # inserted by another request at the same instant, past the lock (SQLite)
        now = Game.objects.filter(pk=game.pk).values_list("version", flat=True).first()
        if expected_number is not None:
            return _clash(now, "round_taken", _taken(expected_number), _numbered(game, expected_number))
        return _clash(now, "round_exists", _("That round was just recorded by someone else: reload the game."),
                      _holding(game, starting_double))  # fmt: skip


class _RoundTaken(Exception):
    pass


@transaction.atomic
def _submit(
    game, starting_double, entries, confirm, expected_version, by, number, expected_number=None, action=None
) -> Submitted:
    locked = Game.objects.select_for_update().get(pk=game.pk)
    seats = list(locked.seats.in_order())
    saved = saved_state(locked, seats)
    before = snapshot.load(saved, {seat.player_id: seat.player.name for seat in seats})
    results = snapshot.results(saved)
    stale = expected_version is not None and expected_version != locked.version
    if number is not None:
        return _correct(locked, seats, before, results, starting_double, entries, confirm, stale, by, number)
    if expected_number is not None and expected_number < before.next_number:
        # Entered as a round another phone recorded first: theirs, to keep or replace, never a second one.
        return _clash(locked.version, "round_taken", _taken(expected_number), _numbered(locked, expected_number))
    if stale:
        return _clash(locked.version, "stale", STALE, _holding(locked, starting_double))
    if before.finished:
        return _clash(locked.version, "game_finished", FINISHED)
    if expected_number is not None and expected_number > before.next_number:
        beyond = _("Round {number} cannot be recorded yet: the next round of this game is round {next}.")
        return Invalid({"number": [beyond.format(number=expected_number, next=before.next_number)]})
    try:
        scored = score_entries(locked, seated(seats, before), starting_double, entries, away=seats)
    except InvalidInput as invalid:
        return Invalid(invalid.errors, tuple(invalid.round_errors))
    try:
        position = place_round(locked.rules, before.last_position, starting_double)
    except SequenceConflict as conflict:
        return _clash(locked.version, "starting_double_unavailable", str(conflict), _holding(locked, starting_double))
    results.append(_result(position, scored))
    state = derive_state(locked.rules, seats, results, before.changes, stopped_after=locked.stopped_after)
    skipped = skipped_doubles(locked.rules, before.last_position, position)
    hands = _hands(seated(seats, before), scored)
    early = state.finished and ends_early(locked.rules, before.last_position, position)
    asked = surprises(locked.tile_set, starting_double, hands, skipped=skipped, ends_game=early)
    if (question := _question(asked, confirm)) is not None:
        return question
    try:
        # No savepoint of its own: a clash rolls back this whole transaction anyway.
        with transaction.atomic(savepoint=False):
            round_ = Round(game=locked, number=before.next_number, position=position, starting_double=starting_double,
                           blocked=scored.blocked, recorded_by=by, entries_as_saved=as_saved(scored, seats))  # fmt: skip
            save_with_history(round_, by, action or HistoryAction.ROUND_RECORDED)
            round_.saved_entries = save_entries(round_, seats, scored)
    except IntegrityError:
        raise _RoundTaken() from None
    locked.undone_round = None  # no undone round comes back after another is recorded
    save_state(locked, seats, state, results)
    round_.game = locked
    return Saved(round_, state, locked.version)


def _correct(game, seats, before, results, starting_double, entries, confirm, stale, by, number) -> Submitted:
    """Replace round `number`'s entries in a locked game (see submit_round)."""
    round_ = game.rounds.select_related("recorded_by", "corrected_by").filter(number=number).first()
    if round_ is None:
        gone = _("Round {number} is not in this game any more: reload the game.").format(number=number)
        return _clash(game.version, "no_such_round", gone)
    if stale:
        return _clash(game.version, "stale", STALE, _with_entries(round_))
    if starting_double is not None and starting_double != round_.starting_double:
        return _clash(
            game.version,
            "starting_double_fixed",
            _(
                "Round {number} started with {double}; a recorded round's starting double cannot change (undo it and record it again)."
            ).format(number=round_.number, double=f"{round_.starting_double}-{round_.starting_double}"),
        )
    at_table = seated(seats, before, number)
    try:
        scored = score_entries(game, at_table, round_.starting_double, entries, away=seats)
    except InvalidInput as invalid:
        return Invalid(invalid.errors, tuple(invalid.round_errors))
    results[number - 1] = _result(round_.position, scored)
    state = derive_state(game.rules, seats, results, before.changes, stopped_after=game.stopped_after)
    if state.ended_after is not None and state.ended_after < len(results):
        return _clash(
            game.version,
            "correction_ends_game_early",
            _(
                "With this correction the game ends after round {number}, but later rounds are recorded: undo them first."
            ).format(number=state.ended_after),
        )
    asked = surprises(game.tile_set, round_.starting_double, _hands(at_table, scored), skipped=[], ends_game=False)
    if (question := _question(asked, confirm)) is not None:
        return question
    played_before = played_rows(game) if game.is_finished else None
    round_.entries.all().delete()
    round_.saved_entries = save_entries(round_, seats, scored)
    round_.blocked, round_.corrected_by, round_.entries_as_saved = scored.blocked, by, as_saved(scored, seats)
    save_with_history(round_, by, HistoryAction.ROUND_CORRECTED,
                       update_fields=["blocked", "corrected_by", "entries_as_saved", "updated_at"])  # fmt: skip
    save_state(game, seats, state, results, played_before=played_before)
    round_.game = game
    return Saved(round_, state, game.version)


STALE = gettext_lazy(
    "Someone else changed this game while you were entering this round. Nothing was saved: reload the game to see their change."
)


FINISHED = gettext_lazy("The game is finished: no more rounds can be recorded.")


def _clash(version: int | None, code: str, message, theirs: Round | None = None) -> Clash:
    """What a clash says: who saved first, when a round saved meanwhile holds this double."""
    if theirs is not None:
        who = theirs.corrected_by or theirs.recorded_by
        double = f"{theirs.starting_double}-{theirs.starting_double}"
        message = (
            _("{name}'s phone saved round {number} ({double}) first: this one was not saved.").format(
                name=who.short_name, number=theirs.number, double=double
            )
            if who
            else _("Another phone saved round {number} ({double}) first: this one was not saved.").format(
                number=theirs.number, double=double
            )
        )
    return Clash(code, str(message), theirs, version)


def _holding(game: Game, starting_double: int | None) -> Round | None:
    """The round that holds this double now (the last one, in a game of several passes)."""
    if starting_double is None:
        return None
    rounds = Round.objects.filter(game_id=game.pk, starting_double=starting_double).order_by("-number")
    return _with_entries(rounds.select_related("recorded_by", "corrected_by").first())


def _taken(number: int) -> str:
    return _("Round {number} is recorded already: reload the game.").format(number=number)


def _numbered(game: Game, number: int) -> Round | None:
    """Round `number` of the game as it is now, with its entries and who saved it."""
    rounds = Round.objects.filter(game_id=game.pk, number=number).select_related("recorded_by", "corrected_by")
    return _with_entries(rounds.first())


def _with_entries(round_: Round | None) -> Round | None:
    if round_ is not None:
        round_.saved_entries = list(round_.entries.order_by("position"))
    return round_


def _result(position: int, scored: ScoredRound) -> RoundResult:
    entries = scored.entries
    return RoundResult(position, {e.player: e.score for e in entries}, frozenset(e.player for e in entries if e.went_out),
                       frozenset(e.player for e in entries if e.double_blank),
                       frozenset(e.player for e in entries if e.ended_on_double))  # fmt: skip


def _hands(seats: list[Seat], scored: ScoredRound) -> list[Hand]:
    names = {seat.player_id: seat.player.name for seat in seats}
    return [Hand(names[e.player], e.pips, e.tiles_left, e.went_out) for e in scored.entries]


def surprise_question(asked: list, confirm: bool | str) -> NeedsConfirmation | None:
    """The question the round form asks before saving `asked` (rules.deal.surprises), unless
    `confirm` answers it: the paper page asks its sheet's the same way."""
    return _question(asked, confirm)


def _question(asked: list, confirm: bool | str) -> NeedsConfirmation | None:
    """The question to ask before saving, unless `confirm` answers it. Its key names the surprises
    in the rules' own words (not a language's), so a page in Spanish confirms what it showed."""
    if not asked or confirm is True:
        return None
    words = "\n".join(each.render(English()) if isinstance(each, Text) else each for each in asked)
    key = hashlib.sha256(words.encode()).hexdigest()[:16]
    return None if confirm == key else NeedsConfirmation(tuple(str(each) for each in asked), key)


def _saved_or_raise(submitted: Submitted) -> Saved:
    """For callers that save whatever a round holds (confirm=True): the domain error instead of the answer."""
    if isinstance(submitted, Invalid):
        raise submitted.as_error()
    if isinstance(submitted, Clash):
        raise Conflict(submitted.message, submitted.code)
    return submitted


def record_round(
    *,
    game: Game,
    starting_double: int,
    entries: Sequence[EntryInput],
    expected_version: int | None = None,
    by=None,
) -> Round:
    """Add the next round (submit_round, saved whatever it holds); raises InvalidInput or Conflict."""
    return _saved_or_raise(submit_round(game=game, starting_double=starting_double, entries=entries,
                                        expected_version=expected_version, by=by)).round  # fmt: skip


def correct_round(
    *,
    round: Round,
    entries: Sequence[EntryInput],
    starting_double: int | None = None,
    expected_version: int | None = None,
    by=None,
) -> Round:
    """Replace a recorded round's entries (submit_round); its starting double stays as it was."""
    return _saved_or_raise(submit_round(game=round.game, number=round.number, starting_double=starting_double,
                                        entries=entries, expected_version=expected_version, by=by)).round  # fmt: skip


@transaction.atomic
def undo_last_round(*, game: Game, number: int | None = None, expected_version: int | None = None, by=None) -> None:
    """Delete the last round (`number`, when given, must be it)."""
    game = lock_game(game, expected_version)
    last = game.rounds.order_by("-number").first()
    if last is None:
        raise Conflict(_("There is no round to undo."), "no_rounds")
    if number is not None and number != last.number:
        raise Conflict(
            _("Only the last round (round {number}) can be deleted.").format(number=last.number), "not_last_round"
        )
    game.undone_round = {
        "number": last.number,
        "starting_double": last.starting_double,
        "entries": [
            entry_values(entry, ENTRY_GIVEN) | {"player": entry.player_id, "tiles": entry.tiles or None}
            for entry in last.entries.order_by("position")
        ],
    }
    seats = list(game.seats.in_order())
    saved = saved_state(game, seats)
    changes = snapshot.changes(saved)
    if changes and changes[-1].after == last.number:
        raise Conflict(
            _("A seat change was made after round {number}: undo the seat change first.").format(number=last.number),
            "seat_change_after",
        )
    results = snapshot.results(saved)[:-1]
    # A game the table stopped after this round goes on again without it (the stop went with the round).
    game.stopped_after = None
    played_before = played_rows(game) if game.is_finished else None
    last._history_user, last._change_reason = by, HistoryAction.ROUND_UNDONE  # read by django-simple-history
    last.delete()
    save_state(game, seats, derive_state(game.rules, seats, results, changes), results, played_before=played_before)


@transaction.atomic
def restore_round(*, game: Game, expected_version: int | None = None, by=None) -> Round:
    """Bring back the round undone last, as it was entered, while no round was recorded since."""
    game = lock_game(game, expected_version)
    undone = game.undone_round
    if undone is None:
        raise Conflict(
            _("There is no undone round to bring back (or a round was recorded since)."), "nothing_to_restore"
        )
    entries = [
        EntryInput(**(item | {"tiles": tuple(item["tiles"]) if item["tiles"] else None})) for item in undone["entries"]
    ]
    submitted = _submit(
        game, undone["starting_double"], entries, True, None, by, None, action=HistoryAction.ROUND_RESTORED
    )
    return _saved_or_raise(submitted).round
