"""Writes that touch several rows. Each is one transaction that locks the game first.

Callers turn InvalidInput into a 400 (or a form error) and Conflict into a 409.
"""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.db.models import F, OuterRef, RestrictedError, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from . import ratings
from .models import (
    SCORING_ROLES,
    TRASH_DAYS,
    DoubleRecord,
    Entry,
    Game,
    LiveLink,
    OpponentRecord,
    Player,
    PlayerRecord,
    Round,
    Scorebook,
    Seat,
)
from .rules.deal import Hand, surprises
from .rules.game import GameRules, SequenceConflict, place_round, seating_problems
from .rules.rounds import EntryInput, InvalidRound, RoundError, ScoredEntry, ScoredRound, score_round
from .rules.scoring import GameState, RoundResult, derive


class ScoreKeepingError(Exception):
    pass


@dataclass
class InvalidInput(ScoreKeepingError):
    """The request is wrong whatever the game's state: `errors` maps a field to messages."""

    errors: dict[str, list[str]] = field(default_factory=dict)
    round_errors: list[RoundError] = field(default_factory=list)

    def __str__(self):
        return "; ".join(message for messages in self.errors.values() for message in messages)


@dataclass
class Conflict(ScoreKeepingError):
    """The request clashes with the game as it is now (finished, already recorded, changed)."""

    message: str
    code: str = "conflict"

    def __str__(self):
        return self.message


@dataclass
class Forbidden(ScoreKeepingError, PermissionDenied):
    """The user is a member, but their role does not allow this (a viewer writing, say): a 403."""

    message: str
    code: str = "forbidden"

    def __str__(self):
        return self.message


def require_scorer(role: str | None) -> None:
    """Players, games and rounds are written by owners and scorers; viewers only read."""
    if role not in SCORING_ROLES:
        raise Forbidden(_("Viewers can read this scorebook but not change it: ask an owner to make you a scorer."))


def create_game(
    *, by, players: Sequence[int], rules: GameRules, name: str = "", scorebook: Scorebook | None = None, uid=None
) -> Game:
    """Seat `players` (ids of the scorebook's players) in the order given; the scorebook is
    `by`'s personal one unless given."""
    scorebook = scorebook or Scorebook.personal_for(by)
    errors = {key: [message] for key, message in rules.problems().items()}
    player_ids = list(players)
    if seating := seating_problems(player_ids):
        errors["players"] = seating
    found = {player.pk: player for player in Player.objects.filter(scorebook=scorebook, pk__in=player_ids)}
    missing = [str(pk) for pk in player_ids if pk not in found]
    if missing:
        errors.setdefault("players", []).append(
            _("No player of this scorebook has id {ids}.").format(ids=", ".join(missing))
        )
    if errors:
        raise InvalidInput(errors)
    state = derive(rules, [(pk, found[pk].name) for pk in player_ids], [])
    with transaction.atomic():
        game = Game(
            scorebook=scorebook,
            created_by=by,
            name=name.strip(),
            next_double=state.next_double,
            **({"uid": uid} if uid is not None else {}),
            **rules.as_dict(),
        )
        _save_with_history(game, by, "game_created")
        Seat.objects.bulk_create(
            Seat(game=game, player=found[pk], position=seat.seat, place=seat.place)
            for pk, seat in zip(player_ids, state.seats, strict=True)
        )
        # The rows the finished-game figures are added to (see _add_to_records).
        PlayerRecord.objects.bulk_create(
            [PlayerRecord(player_id=pk, tile_set=rules.tile_set) for pk in player_ids], ignore_conflicts=True
        )
    return game


@transaction.atomic
def import_game(
    *,
    by,
    players: Sequence[int],
    rules: GameRules,
    rounds: Sequence[tuple[int, Sequence[EntryInput]]],
    name: str = "",
    played_at=None,
    scorebook: Scorebook | None = None,
    finished_at=None,
    uid=None,
) -> Game:
    """A game played elsewhere (or seeded), with all its rounds, in a few bulk inserts. `played_at`
    dates it (and its end, unless `finished_at` says when it ended); `uid` keeps an exported game's.

    Every round passes the same checks as one recorded at the table."""
    game = create_game(by=by, players=players, rules=rules, name=name, scorebook=scorebook, uid=uid)
    seats = list(game.seats.select_related("player").order_by("position"))
    rule_seats = [seat.as_rule() for seat in seats]
    to_create, scored_rounds, last = [], [], None
    for number, (starting_double, entries) in enumerate(rounds, start=1):
        try:
            scored = score_round(rules, starting_double, rule_seats, entries)
            last = place_round(rules, last, starting_double)
        except InvalidRound as invalid:
            raise InvalidInput({f"rounds[{number - 1}]": [str(invalid)]}, invalid.errors) from None
        except SequenceConflict as conflict:
            raise InvalidInput({f"rounds[{number - 1}]": [str(conflict)]}) from None
        to_create.append(
            Round(
                game=game,
                number=number,
                position=last,
                starting_double=starting_double,
                blocked=scored.blocked,
                recorded_by=by,
                entries_as_saved=_as_saved(scored, seats),
            )
        )
        scored_rounds.append(scored)
    created = Round.objects.bulk_create(to_create)
    position = {seat.player_id: seat.position for seat in seats}
    Entry.objects.bulk_create(
        _entry(round_, position[entry.player], entry) for round_, scored in zip(created, scored_rounds, strict=True)
        for entry in scored.entries
    )  # fmt: skip
    played = [
        (round_.position, e.player, e.score, e.went_out, e.double_blank, e.ended_on_double, round_.starting_double,
         e.pips)
        for round_, scored in zip(created, scored_rounds, strict=True)
        for e in scored.entries
    ]  # fmt: skip
    state = _save_state(game, seats, played, finished_at=finished_at or played_at)
    if state.ended_after is not None and state.ended_after < len(created):
        raise InvalidInput(
            {
                "rounds": [
                    _("The game ended after round {number}; no round can follow it.").format(number=state.ended_after)
                ]
            }
        )
    if played_at is not None:
        Game.objects.filter(pk=game.pk).update(created_at=played_at)
    game.refresh_from_db()
    return game


@dataclass
class Preview:
    """A round checked as it would be saved, and what is unusual about it (rules.deal.surprises)."""

    scored: ScoredRound
    surprises: list[str]


def preview_round(
    *, game: Game, starting_double: int, entries: Sequence[EntryInput], round: Round | None = None
) -> Preview:
    """Check a new round (or a correction of `round`) as recording it would, without saving:
    raises InvalidInput or Conflict as record_round does."""
    if game.is_finished and round is None:
        raise Conflict(_("The game is finished: no more rounds can be recorded."), "game_finished")
    seats = list(game.seats.select_related("player").order_by("position"))
    scored = _score(game, seats, starting_double, entries)
    rules, names = game.rules, {seat.player_id: seat.player.name for seat in seats}
    skipped, ends_game = [], False
    if round is None:
        results = _round_results(_played(game))
        last = results[-1].position if results else None
        try:
            position = place_round(rules, last, starting_double)
        except SequenceConflict as conflict:
            raise Conflict(str(conflict), "starting_double_unavailable") from None
        skipped = [rules.double_at(p) for p in range(0 if last is None else last + 1, position)]
        after = [*results, RoundResult(position, {e.player: e.score for e in scored.entries})]
        ends_game = derive(rules, [(seat.player_id, names[seat.player_id]) for seat in seats], after).finished
    hands = [Hand(names[e.player], e.pips, e.tiles_left, e.went_out) for e in scored.entries]
    return Preview(scored, surprises(rules.tile_set, starting_double, hands, skipped=skipped, ends_game=ends_game))


@transaction.atomic
def record_round(
    *,
    game: Game,
    starting_double: int,
    entries: Sequence[EntryInput],
    expected_version: int | None = None,
    by=None,
) -> Round:
    """Add the next round. Two requests for the same round at once: one wins, one gets Conflict."""
    game = _lock(game, expected_version)
    return _record(game, starting_double, entries, by, "round_recorded")


def _record(game: Game, starting_double: int, entries: Sequence[EntryInput], by, action: str) -> Round:
    """Add the next round to a locked game; no undone round can come back after it."""
    if game.is_finished:
        raise Conflict(_("The game is finished: no more rounds can be recorded."), "game_finished")
    seats = list(game.seats.select_related("player"))
    scored = _score(game, seats, starting_double, entries)
    last = game.rounds.order_by("-number").first()
    try:
        position = place_round(game.rules, last.position if last else None, starting_double)
    except SequenceConflict as conflict:
        raise Conflict(str(conflict), "starting_double_unavailable") from None
    try:
        # No savepoint of its own: a clash rolls back the caller's whole transaction anyway.
        with transaction.atomic(savepoint=False):
            round_ = Round(
                game=game,
                number=last.number + 1 if last else 1,
                position=position,
                starting_double=starting_double,
                blocked=scored.blocked,
                recorded_by=by,
                entries_as_saved=_as_saved(scored, seats),
            )
            _save_with_history(round_, by, action)
            round_.saved_entries = _save_entries(round_, seats, scored)
    except IntegrityError:
        raise Conflict(_("That round was just recorded by someone else: reload the game."), "round_exists") from None
    if game.undone_round is not None:
        game.undone_round = None
        Game.objects.filter(pk=game.pk).update(undone_round=None)
    _refresh(game, seats)
    round_.game = game
    return round_


@transaction.atomic
def correct_round(
    *,
    round: Round,
    entries: Sequence[EntryInput],
    starting_double: int | None = None,
    expected_version: int | None = None,
    by=None,
) -> Round:
    """Replace a recorded round's entries; its starting double stays as it was."""
    game = _lock(round.game, expected_version)
    round_ = game.rounds.select_related("recorded_by").get(pk=round.pk)
    if starting_double is not None and starting_double != round_.starting_double:
        raise Conflict(
            _(
                "Round {number} started with {double}; a recorded round's starting double cannot change (undo it and record it again)."
            ).format(number=round_.number, double=f"{round_.starting_double}-{round_.starting_double}"),
            "starting_double_fixed",
        )
    seats = list(game.seats.select_related("player"))
    scored = _score(game, seats, round_.starting_double, entries)
    played_before = _played(game) if game.is_finished else None
    round_.entries.all().delete()
    round_.saved_entries = _save_entries(round_, seats, scored)
    round_.blocked = scored.blocked
    round_.corrected_by = by
    round_.entries_as_saved = _as_saved(scored, seats)
    _save_with_history(round_, by, "round_corrected", update_fields=["blocked", "corrected_by", "entries_as_saved",
                                                                      "updated_at"])  # fmt: skip
    state = _refresh(game, seats, played_before)
    if state.ended_after is not None and state.ended_after < game.rounds.count():
        raise Conflict(  # the transaction rolls the correction back
            _(
                "With this correction the game ends after round {number}, but later rounds are recorded: undo them first."
            ).format(number=state.ended_after),
            "correction_ends_game_early",
        )
    round_.game = game
    return round_


@transaction.atomic
def undo_last_round(*, game: Game, number: int | None = None, expected_version: int | None = None, by=None) -> None:
    """Delete the last round (`number`, when given, must be it)."""
    game = _lock(game, expected_version)
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
            {
                field: getattr(entry, field)
                for field in ("pips", "tiles_left", "double_blank", "went_out", "ended_on_double")
            }
            | {"player": entry.player_id, "tiles": entry.tiles or None}
            for entry in last.entries.order_by("position")
        ],
    }
    Game.objects.filter(pk=game.pk).update(undone_round=game.undone_round)
    played_before = _played(game) if game.is_finished else None
    last._history_user, last._change_reason = by, "round_undone"  # read by django-simple-history
    last.delete()
    _refresh(game, list(game.seats.select_related("player")), played_before)


@transaction.atomic
def restore_round(*, game: Game, expected_version: int | None = None, by=None) -> Round:
    """Bring back the round undone last, as it was entered, while no round was recorded since."""
    game = _lock(game, expected_version)
    undone = game.undone_round
    if undone is None:
        raise Conflict(
            _("There is no undone round to bring back (or a round was recorded since)."), "nothing_to_restore"
        )
    entries = [
        EntryInput(**(item | {"tiles": tuple(item["tiles"]) if item["tiles"] else None})) for item in undone["entries"]
    ]
    return _record(game, undone["starting_double"], entries, by, "round_restored")


@transaction.atomic
def rename_game(*, game: Game, name: str, expected_version: int | None = None, by=None) -> Game:
    game = _lock(game, expected_version)
    game.name = name.strip()
    game.version += 1
    _save_with_history(game, by, "game_renamed", update_fields=["name", "version", "updated_at"])
    return game


@transaction.atomic
def delete_game(*, game: Game, expected_version: int | None = None, by=None) -> None:
    """Into the trash: gone from every list, page, report and live link; its owner may bring it
    back for TRASH_DAYS (restore_game), then purge_trash removes it."""
    game = _lock(game, expected_version)
    LiveLink.objects.filter(game=game).delete()
    game.deleted_at, game.deleted_by = timezone.now(), by
    _save_with_history(game, by, "game_deleted", update_fields=["deleted_at", "deleted_by"])
    if game.is_finished:
        _count_finished(game, sign=-1)


@transaction.atomic
def restore_game(*, game: Game, by=None) -> Game:
    """Out of the trash, as it was (its figures count again)."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.deleted_at is None:
        raise Conflict(_("This game is not in the trash."), "not_in_trash")
    game.deleted_at, game.deleted_by = None, None
    _save_with_history(game, by, "game_restored", update_fields=["deleted_at", "deleted_by"])
    if game.is_finished:
        _count_finished(game, sign=+1)
    return game


def _count_finished(game: Game, sign: int) -> None:
    """A finished game leaves (-1, to the trash) or comes back (+1): records and ratings follow."""
    seats = list(game.seats.all())
    _add_to_records(game.tile_set, [_figures(seat) for seat in seats], sign=sign)
    update_extremes(game.tile_set, [seat.player_id for seat in seats])
    detail = _detail(seats, _played(game))
    _add_detail(game.tile_set, *((detail, None) if sign < 0 else (None, detail)))
    ratings.changed(game.scorebook_id, ratings.Point(game.finished_at, game.pk), [seat.player_id for seat in seats])


def purge_trash(*, now=None) -> int:
    """Remove the games that have been in the trash longer than TRASH_DAYS; how many."""
    limit = (now or timezone.now()) - timedelta(days=TRASH_DAYS)
    removed = 0
    for game in Game.objects.filter(deleted_at__lt=limit).iterator():
        game.delete()
        removed += 1
    return removed


@transaction.atomic
def link_player(*, player: Player, user, role: str | None, me: bool) -> Player:
    """ "This is me": link a player to `user`'s own account (me=True) or unlink it. A player linked to
    another account stays theirs (owners and scorers may unlink it); one player per account per scorebook."""
    locked = Player.objects.select_for_update().get(pk=player.pk)
    theirs = locked.user_id not in (None, user.pk)
    if me:
        if theirs:
            raise Conflict(_("{name} is already linked to another account.").format(name=locked.name), "player_linked")
        if Player.objects.filter(scorebook_id=locked.scorebook_id, user=user).exclude(pk=locked.pk).exists():
            raise Conflict(
                _("You are already linked to another player in this scorebook: unlink that one first."),
                "already_linked",
            )
        locked.user = user
    else:
        if theirs:
            require_scorer(role)
        locked.user = None
    _save_with_history(locked, user, "player_linked" if me else "player_unlinked", update_fields=["user"])
    player.user = locked.user
    return player


def delete_player(*, player: Player) -> None:
    """Refused while the player has a seat in any game, so no game loses a seat."""
    seats = player.seats.all()
    if seats.filter(game__deleted_at__isnull=True).exists():
        raise Conflict(_("{name} has games: delete those games first.").format(name=player.name), "player_has_games")
    if seats.exists():
        raise Conflict(
            _(
                "{name} still has games in the trash: they can be restored for {days} days, so the player stays until they are purged."
            ).format(name=player.name, days=TRASH_DAYS),
            "player_has_games",
        )
    try:
        with transaction.atomic():
            player.delete()
    except RestrictedError:  # seated by a game created since the check
        raise Conflict(
            _("{name} has games: delete those games first.").format(name=player.name), "player_has_games"
        ) from None


def _save_with_history(obj, by, action: str, **kwargs) -> None:
    """Save, and let django-simple-history keep this version with who did it and which action it was."""
    obj._history_user, obj._change_reason = by, action
    obj.save(**kwargs)


def _as_saved(scored: ScoredRound, seats: list[Seat]) -> list[dict]:
    """A round's entries as the history keeps them: by player name, in seat order."""
    names = {seat.player_id: seat.player.name for seat in seats}
    order = {seat.player_id: seat.position for seat in seats}
    fields = ("pips", "tiles_left", "double_blank", "went_out", "ended_on_double", "penalty", "score")
    return [
        {"player": names[entry.player], **{key: getattr(entry, key) for key in fields}, "tiles": list(entry.tiles)}
        for entry in sorted(scored.entries, key=lambda entry: order[entry.player])
    ]


def _lock(game: Game, expected_version: int | None) -> Game:
    """Re-read the game with a row lock, so writes to one game happen one after another."""
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if expected_version is not None and expected_version != locked.version:
        raise Conflict(_("Someone else changed this game since you loaded it. Reload to see their change."), "stale")
    return locked


def _score(game: Game, seats: list[Seat], starting_double: int, entries: Sequence[EntryInput]) -> ScoredRound:
    try:
        return score_round(game.rules, starting_double, [seat.as_rule() for seat in seats], entries)
    except InvalidRound as invalid:
        errors: dict[str, list[str]] = {}
        for error in invalid.errors:
            errors.setdefault(error.field or "entries", []).append(error.message)
        raise InvalidInput(errors, invalid.errors) from None


def _save_entries(round_: Round, seats: list[Seat], scored: ScoredRound) -> list[Entry]:
    """Insert the round's entries; they come back in seat order (what the API answers with)."""
    position = {seat.player_id: seat.position for seat in seats}
    saved = Entry.objects.bulk_create(_entry(round_, position[entry.player], entry) for entry in scored.entries)
    return sorted(saved, key=lambda entry: entry.position)


def _entry(round_: Round, position: int, entry: ScoredEntry) -> Entry:
    return Entry(
        round=round_,
        player_id=entry.player,
        position=position,
        pips=entry.pips,
        tiles_left=entry.tiles_left,
        tiles=list(entry.tiles),
        double_blank=entry.double_blank,
        went_out=entry.went_out,
        ended_on_double=entry.ended_on_double,
        penalty=entry.penalty,
        score=entry.score,
    )


RECORD_FIGURES = ("total", "is_winner", "rounds", "went_out", "double_blank_penalties", "end_on_double_penalties")
SEAT_SUMMARY = ["total", "rank", "place", *RECORD_FIGURES[1:]]


def _figures(seat: Seat) -> dict:
    return {"player": seat.player_id, **{name: int(getattr(seat, name)) for name in RECORD_FIGURES}}


def _add_to_records(tile_set: int, figures: list[dict], sign: int) -> None:
    """Add (+1) or take back (-1) a finished game's seat figures in their players' records."""
    for seat in figures:
        PlayerRecord.objects.filter(player_id=seat["player"], tile_set=tile_set).update(
            games=F("games") + sign,
            wins=F("wins") + sign * seat["is_winner"],
            total_sum=F("total_sum") + sign * seat["total"],
            rounds=F("rounds") + sign * seat["rounds"],
            went_out=F("went_out") + sign * seat["went_out"],
            double_blank_penalties=F("double_blank_penalties") + sign * seat["double_blank_penalties"],
            end_on_double_penalties=F("end_on_double_penalties") + sign * seat["end_on_double_penalties"],
        )


def update_extremes(tile_set: int, player_ids: list[int]) -> None:
    """Work out the players' best and worst totals on this set again, from their finished games'
    seats (one UPDATE; each total is one step along the seat_player_total index). A minimum
    cannot be kept by adding and taking back, as the other figures are."""
    seats = Seat.objects.filter(
        player=OuterRef("player"),
        game__tile_set=tile_set,
        game__status=Game.Status.FINISHED,
        game__deleted_at__isnull=True,
    ).values("total")
    PlayerRecord.objects.filter(player_id__in=player_ids, tile_set=tile_set).update(
        best_total=Subquery(seats.order_by("total")[:1]), worst_total=Subquery(seats.order_by("-total")[:1])
    )


def _detail(seats: list[Seat], played) -> tuple[Counter, Counter]:
    """What a finished game adds to the per-double and head-to-head records, from its seats and its
    entries (rows of _played): {(player, double): (rounds, pips, score)} and
    {(player, opponent): (games, ahead, behind, level)}, as Counters of tuples' parts."""
    doubles: Counter = Counter()
    for _position, player, score, _went_out, _blank, _ended, double, pips in played:
        doubles[(player, double, 0)] += 1
        doubles[(player, double, 1)] += pips
        doubles[(player, double, 2)] += score
    opponents: Counter = Counter()
    for seat in seats:
        for other in seats:
            if other is not seat:
                key = (seat.player_id, other.player_id)
                opponents[(*key, 0)] += 1
                outcome = 1 if seat.total < other.total else 2 if seat.total > other.total else 3
                opponents[(*key, outcome)] += 1
    return doubles, opponents


def _add_detail(tile_set: int, before: tuple[Counter, Counter] | None, after: tuple[Counter, Counter] | None) -> None:
    """Move the per-double and head-to-head records from what `before` counted to what `after` counts."""
    for index, (model, keys, values) in enumerate((
        (DoubleRecord, ("player_id", "starting_double"), ("rounds", "pips_sum", "score_sum")),
        (OpponentRecord, ("player_id", "opponent_id"), ("games", "ahead", "behind", "level")),
    )):  # fmt: skip
        delta = Counter(after[index]) if after else Counter()
        if before:
            delta.subtract(before[index])
        rows: dict[tuple, list[int]] = {}
        for (*key, part), amount in delta.items():
            rows.setdefault(tuple(key), [0] * len(values))[part] += amount
        rows = {key: amounts for key, amounts in rows.items() if any(amounts)}
        _upsert_adding(
            model, ("tile_set", *keys), values, [((tile_set, *key), amounts) for key, amounts in rows.items()]
        )


def _upsert_adding(model, keys: tuple[str, ...], values: tuple[str, ...], rows: list[tuple[tuple, list[int]]]) -> None:
    """INSERT the rows, or add their values to the rows already there: one statement, on SQLite and
    PostgreSQL alike (INSERT ... ON CONFLICT ... DO UPDATE)."""
    if not rows:
        return
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = [model._meta.get_field(name).column for name in (*keys, *values)]
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (
        f"INSERT INTO {table} ({', '.join(map(quote, columns))}) VALUES {', '.join([row] * len(rows))} "
        f"ON CONFLICT ({', '.join(quote(column) for column in columns[: len(keys)])}) DO UPDATE SET "
        + ", ".join(f"{quote(c)} = {table}.{quote(c)} + excluded.{quote(c)}" for c in columns[len(keys) :])
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for key, amounts in rows for value in (*key, *amounts)])


def _round_results(played) -> list[RoundResult]:
    """Entries given in round order as (position, player, score, went_out, double_blank,
    ended_on_double), gathered into one RoundResult per round."""
    rounds: dict[int, dict] = {}
    for position, player, score, went_out, double_blank, ended_on_double, *_rest in played:
        line = rounds.setdefault(position, {"scores": {}, "went_out": set(), "double_blank": set(), "ended": set()})
        line["scores"][player] = score
        for flag, key in ((went_out, "went_out"), (double_blank, "double_blank"), (ended_on_double, "ended")):
            if flag:
                line[key].add(player)
    return [
        RoundResult(position, line["scores"], frozenset(line["went_out"]), frozenset(line["double_blank"]),
                    frozenset(line["ended"]))
        for position, line in rounds.items()
    ]  # fmt: skip


def _played(game: Game) -> list[tuple]:
    """The game's entries in round order, as rows for _round_results (and starting double and pips
    at the end, for the per-double records)."""
    return list(
        Entry.objects.filter(round__game=game)
        .order_by("round__number", "position")
        .values_list("round__position", "player_id", "score", "went_out", "double_blank", "ended_on_double",
                     "round__starting_double", "pips")
    )  # fmt: skip


def _save_state(game: Game, seats: list[Seat], played, *, played_before=None, finished_at=None) -> GameState:
    """Derive the game's state from its entries (rows of _played) and save it: seats, records,
    ratings and the game row. `played_before`: the entries as they were, when a finished game's
    entries have just changed (what the records counted must be taken back)."""
    results = _round_results(played)
    was_finished, finished_before = game.is_finished, game.finished_at
    before = [_figures(seat) for seat in seats] if was_finished else []
    detail_before = _detail(seats, played if played_before is None else played_before) if was_finished else None
    ranks_before = [seat.rank for seat in seats]
    state = derive(game.rules, [(seat.player_id, seat.player.name) for seat in seats], results)
    changed = []
    for seat, derived in zip(seats, state.seats, strict=True):
        figures = [getattr(derived, name) for name in SEAT_SUMMARY]
        if figures != [getattr(seat, name) for name in SEAT_SUMMARY]:
            for name, value in zip(SEAT_SUMMARY, figures, strict=True):
                setattr(seat, name, value)
            changed.append(seat)
    _write_seat_summaries(changed)
    # The records hold finished games only: take back what was counted, count what is now.
    _add_to_records(game.tile_set, before, sign=-1)
    if state.finished:
        _add_to_records(game.tile_set, [_figures(seat) for seat in seats], sign=+1)
    if was_finished or state.finished:
        _add_detail(game.tile_set, detail_before, _detail(seats, played) if state.finished else None)
    if not state.finished:
        game.status, game.finished_at = Game.Status.IN_PROGRESS, None
    elif not game.is_finished:
        game.status, game.finished_at = Game.Status.FINISHED, finished_at or timezone.now()
    # The game row is locked (or was created) in this transaction: its version is the current one.
    game.ended_because, game.next_double = state.ended_because or "", state.next_double
    game.version, game.updated_at = game.version + 1, timezone.now()
    Game.objects.filter(pk=game.pk).update(
        **{name: getattr(game, name) for name in
           ("status", "finished_at", "ended_because", "next_double", "version", "updated_at")}
    )  # fmt: skip
    if was_finished or state.finished:  # after the game row: the finished games are the ones now saved
        update_extremes(game.tile_set, [seat.player_id for seat in seats])
    # Ratings hang on the finishing order alone: replay them when that order appears, changes or goes.
    if (was_finished or state.finished) and (was_finished != state.finished or ranks_before != [s.rank for s in seats]):
        point = ratings.Point(finished_before if was_finished else game.finished_at, game.pk)
        ratings.changed(game.scorebook_id, point, [seat.player_id for seat in seats])
    return state


def _write_seat_summaries(seats: list[Seat]) -> None:
    """Save the seats' summary columns in one UPDATE ... FROM (VALUES ...), on SQLite and PostgreSQL
    alike (bulk_update would build a CASE expression per column and seat in Python)."""
    if not seats:
        return
    quote = connection.ops.quote_name
    table = quote(Seat._meta.db_table)
    fields = [Seat._meta.get_field(name) for name in SEAT_SUMMARY]
    # VALUES names its columns column1, column2, ... on both databases; column1 is the seat's id.
    assignments = ", ".join(
        f"{quote(field.column)} = CAST(v.column{number} AS {'boolean' if field.get_internal_type() == 'BooleanField' else 'integer'})"
        for number, field in enumerate(fields, start=2)
    )
    row = "(" + ", ".join(["%s"] * (len(fields) + 1)) + ")"
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {assignments} FROM (VALUES {', '.join([row] * len(seats))}) AS v "
            f"WHERE {table}.{quote('id')} = v.column1",
            [value for seat in seats for value in (seat.pk, *(getattr(seat, field.attname) for field in fields))],
        )


def _refresh(game: Game, seats: list[Seat], played_before=None) -> GameState:
    """Bring the saved state (totals, ranks, winners, status, next double) in step with the rounds."""
    return _save_state(game, sorted(seats, key=lambda seat: seat.position), _played(game), played_before=played_before)
