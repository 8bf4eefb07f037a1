"""A paper game entered afterwards: the whole game (its day, players, rounds and seat changes) in one
write, all or nothing.

Every round and seat change passes the checks one recorded at the table passes (check_import runs
rules.rounds.score_round and rules.game.place_round for each round, as submit_round does, and
rules.seating.refusal for each seat change, as change_seat does); the first refusal names
`rounds[i]` (or `seat_changes[i]`) and, through the rules' own message, the player. The game is then
saved as an import is (save_imports: a fixed number of statements whatever its rounds), stopped by
agreement after its last round when its rounds do not end it and the page says the evening is over
(`finish`) or the API says so (`stopped_after`, as export version 2 writes it), and dated by its
day: its finished_at is a moment of that day (rules.paper.counted_at), so the seasons, boards,
streaks and the ratings' order count it where its day says. The ratings are replayed once from that
point (ratings.deferred): inside the request for a recent day, by the task in one pass when more
than ratings.REPLAY_IN_REQUEST games came after it."""

import dataclasses
from collections.abc import Sequence
from datetime import date

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import InvalidInput
from ..models import Game, IdempotencyKey, Scorebook
from ..rules import paper
from ..rules.game import GameRules
from ..rules.rounds import EntryInput
from ..rules.seating import SeatChange
from . import nights, ratings
from .games import table_of
from .imports import check_import, save_imports
from .rounds import NeedsConfirmation, surprise_question


@transaction.atomic
def enter_paper_game(
    *,
    by,
    scorebook: Scorebook,
    players: Sequence[int],
    rules: GameRules,
    played_on: date,
    rounds: Sequence[tuple[int, Sequence[EntryInput]]],
    changes: Sequence[SeatChange] = (),
    name: str = "",
    number: int | None = None,
    night: int | None = None,
    casual: bool = False,
    stopped_after: int | None = None,
    finish: bool = False,
    confirm: bool | str = True,
    sheet: str = "",
) -> Game | NeedsConfirmation:
    """Save a game played on `played_on` (a day where `scorebook` plays, not after today) with its
    `rounds` ((starting double, entries) in play order) and seat `changes`; `players`: everyone who
    sat at its table, in seat order. Finished when its rounds end it; otherwise stopped as agreed
    after `stopped_after` (its last round), or after its last round whatever it is with `finish` (the
    page: a sheet is typed in once its evening is over). Raises InvalidInput: the fields first
    (players, played_on, night, rounds), then the first round or seat change refused. Returns, saving
    nothing, the question the round form would ask of a hand (NeedsConfirmation) unless `confirm`
    answers it (True: asked beforehand). A `sheet` key (the page's) saves its sheet once: saved
    again, the game the first save made comes back (`Game.seen_before` set), nothing new made."""
    if sheet and (first := _saved_sheet(by, sheet)) is not None:
        return first
    player_ids = list(players)
    found, errors = table_of(scorebook, rules, player_ids)
    if (problem := paper.day_problem(played_on, scorebook.today())) is not None:
        errors["played_on"] = [str(problem)]
    try:
        chosen = nights.night_of(scorebook.pk, night)
    except InvalidInput as invalid:
        errors |= invalid.errors
    else:
        if chosen is not None and chosen.date != played_on:
            errors["night"] = [
                _("{night} was on {date}: a game of that night was played that day.").format(
                    night=chosen.name, date=chosen.date.isoformat()
                )
            ]
    if len(rounds) > paper.MAX_PAPER_ROUNDS:
        errors["rounds"] = [
            _("A game entered afterwards has at most {most} rounds.").format(most=paper.MAX_PAPER_ROUNDS)
        ]
    elif not rounds:
        errors["rounds"] = [_("Enter the game's rounds: at least one.")]
    if errors:
        raise InvalidInput(errors)
    moment = paper.counted_at(played_on, scorebook.zone, timezone.now())
    checked = check_import(
        seats=[(pk, found[pk].name) for pk in player_ids],
        rules=rules,
        rounds=rounds,
        name=name,
        played_at=moment,
        finished_at=moment,
        changes=changes,
        stopped_after=stopped_after,
        stop_at_end=finish,
        casual=casual,
    )
    # What the round form would have asked of a round, asked of the sheet (the page: a typo, 777 for
    # 77, is as legal here as at the table); the API's callers answer it beforehand (`confirm`).
    asked = paper.sheet_surprises(rules.tile_set, rounds, {pk: found[pk].name for pk in player_ids})
    if (question := surprise_question(asked, confirm)) is not None:
        return question
    checked = dataclasses.replace(checked, night=night, number=number, played_on=played_on, entered_afterwards=True)
    # One replay from the game's point on, in this request or handed to the task (not one per game).
    again = False
    with ratings.deferred(limit=ratings.REPLAY_IN_REQUEST), transaction.atomic():
        (game,) = save_imports(by=by, scorebook=scorebook, games=[checked])
        if sheet:  # two saves at once: the second waits on the key's unique row, then is undone whole
            try:
                with transaction.atomic():
                    IdempotencyKey.objects.create(
                        owner=by, key=SHEET_KEY + sheet, request_hash="", status_code=201, location=str(game.pk)
                    )
            except IntegrityError:
                transaction.set_rollback(True)
                again = True
    return (_saved_sheet(by, sheet) or game) if again else game


SHEET_KEY = "paper-sheet:"  # the page's sheets among a user's kept keys (the API's are its clients' own)


def _saved_sheet(by, sheet: str) -> Game | None:
    """The game a sheet's first save made (its key kept as the API keeps an Idempotency-Key)."""
    kept = IdempotencyKey.objects.filter(owner=by, key=SHEET_KEY + sheet).values_list("location", flat=True).first()
    game = Game.objects.filter(pk=int(kept)).first() if kept and kept.isdigit() else None
    if game is not None:
        game.seen_before = True
    return game
