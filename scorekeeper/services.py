"""Writes that touch several rows. Each is one transaction that locks the game first.

Callers turn InvalidInput into a 400 (or a form error) and Conflict into a 409.
"""

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import F, RestrictedError
from django.utils import timezone

from .models import Entry, Game, Player, PlayerRecord, Round, Seat
from .rules.game import GameRules, SequenceConflict, place_round, seating_problems
from .rules.rounds import EntryInput, InvalidRound, RoundError, ScoredEntry, ScoredRound, score_round
from .rules.scoring import PlayedRound, Progress, progress, standings


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


def create_game(*, owner, players: Sequence[int], rules: GameRules, name: str = "") -> Game:
    """Seat `players` (ids of the owner's players) in the order given."""
    errors = {key: [message] for key, message in rules.problems().items()}
    player_ids = list(players)
    if seating := seating_problems(player_ids):
        errors["players"] = seating
    found = {player.pk: player for player in Player.objects.for_user(owner).filter(pk__in=player_ids)}
    missing = [str(pk) for pk in player_ids if pk not in found]
    if missing:
        errors.setdefault("players", []).append(f"No player of yours has id {', '.join(missing)}.")
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        game = Game.objects.create(
            owner=owner,
            name=name.strip(),
            tile_set=rules.tile_set,
            double_blank_penalty=rules.double_blank_penalty,
            end_on_double_penalty=rules.end_on_double_penalty,
            extended=rules.extended,
            target_score=rules.target_score,
        )
        Seat.objects.bulk_create(
            Seat(game=game, player=found[pk], position=position) for position, pk in enumerate(player_ids)
        )
        # The rows the finished-game figures are added to (see _count_finished).
        PlayerRecord.objects.bulk_create(
            [PlayerRecord(player_id=pk, tile_set=rules.tile_set) for pk in player_ids], ignore_conflicts=True
        )
    return game


@transaction.atomic
def import_game(
    *,
    owner,
    players: Sequence[int],
    rules: GameRules,
    rounds: Sequence[tuple[int, Sequence[EntryInput]]],
    name: str = "",
    played_at=None,
) -> Game:
    """A game played elsewhere (or seeded), with all its rounds, in a few bulk inserts.

    Every round passes the same checks as one recorded at the table."""
    game = create_game(owner=owner, players=players, rules=rules, name=name)
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
            Round(game=game, number=number, position=last, starting_double=starting_double, blocked=scored.blocked)
        )
        scored_rounds.append(scored)
    created = Round.objects.bulk_create(to_create)
    position = {seat.player_id: seat.position for seat in seats}
    Entry.objects.bulk_create(
        _entry(round_, position[entry.player], entry) for round_, scored in zip(created, scored_rounds, strict=True)
        for entry in scored.entries
    )  # fmt: skip
    played = (
        (round_.number, round_.position, e.player, e.score, e.went_out, e.double_blank, e.ended_on_double)
        for round_, scored in zip(created, scored_rounds, strict=True)
        for e in scored.entries
    )
    state = _summarise(rules, seats, played)
    if state.ended_after is not None and state.ended_after < len(created):
        raise InvalidInput({"rounds": [f"The game ended after round {state.ended_after}; no round can follow it."]})
    Seat.objects.bulk_update(seats, SEAT_SUMMARY)
    if state.finished:
        _count_finished(game, seats, +1)
    when = played_at or timezone.now()
    Game.objects.filter(pk=game.pk).update(
        created_at=when,
        status=Game.Status.FINISHED if state.finished else Game.Status.IN_PROGRESS,
        finished_at=when if state.finished else None,
    )
    game.refresh_from_db()
    return game


@transaction.atomic
def record_round(
    *, game: Game, starting_double: int, entries: Sequence[EntryInput], expected_version: int | None = None
) -> Round:
    """Add the next round. Two requests for the same round at once: one wins, one gets Conflict."""
    game = _lock(game, expected_version)
    if game.is_finished:
        raise Conflict("The game is finished: no more rounds can be recorded.", "game_finished")
    seats = list(game.seats.select_related("player"))
    scored = _score(game, seats, starting_double, entries)
    last = game.rounds.order_by("-number").first()
    try:
        position = place_round(game.rules, last.position if last else None, starting_double)
    except SequenceConflict as conflict:
        raise Conflict(str(conflict), "starting_double_unavailable") from None
    try:
        with transaction.atomic():
            round_ = Round.objects.create(
                game=game,
                number=last.number + 1 if last else 1,
                position=position,
                starting_double=starting_double,
                blocked=scored.blocked,
            )
            _save_entries(round_, seats, scored)
    except IntegrityError:
        raise Conflict("That round was just recorded by someone else: reload the game.", "round_exists") from None
    _refresh(game, seats)
    return round_


@transaction.atomic
def correct_round(
    *,
    round: Round,
    entries: Sequence[EntryInput],
    starting_double: int | None = None,
    expected_version: int | None = None,
) -> Round:
    """Replace a recorded round's entries; its starting double stays as it was."""
    game = _lock(round.game, expected_version)
    round_ = game.rounds.get(pk=round.pk)
    if starting_double is not None and starting_double != round_.starting_double:
        raise Conflict(
            f"Round {round_.number} started with {round_.starting_double}-{round_.starting_double}; "
            "a recorded round's starting double cannot change (undo it and record it again).",
            "starting_double_fixed",
        )
    seats = list(game.seats.select_related("player"))
    scored = _score(game, seats, round_.starting_double, entries)
    round_.entries.all().delete()
    _save_entries(round_, seats, scored)
    round_.blocked = scored.blocked
    round_.save(update_fields=["blocked", "updated_at"])
    state = _refresh(game, seats)
    if state.ended_after is not None and state.ended_after < game.rounds.count():
        raise Conflict(  # the transaction rolls the correction back
            f"With this correction the game ends after round {state.ended_after}, but later rounds are "
            "recorded: undo them first.",
            "correction_ends_game_early",
        )
    return round_


@transaction.atomic
def undo_last_round(*, game: Game, number: int | None = None, expected_version: int | None = None) -> None:
    """Delete the last round (`number`, when given, must be it)."""
    game = _lock(game, expected_version)
    last = game.rounds.order_by("-number").first()
    if last is None:
        raise Conflict("There is no round to undo.", "no_rounds")
    if number is not None and number != last.number:
        raise Conflict(f"Only the last round (round {last.number}) can be deleted.", "not_last_round")
    last.delete()
    _refresh(game, list(game.seats.select_related("player")))


@transaction.atomic
def rename_game(*, game: Game, name: str, expected_version: int | None = None) -> Game:
    game = _lock(game, expected_version)
    game.name = name.strip()
    game.version += 1
    game.save(update_fields=["name", "version", "updated_at"])
    return game


@transaction.atomic
def delete_game(*, game: Game, expected_version: int | None = None) -> None:
    game = _lock(game, expected_version)
    if game.is_finished:
        _count_finished(game, list(game.seats.all()), -1)
    game.delete()


def delete_player(*, player: Player) -> None:
    """Refused while the player has a seat in any game, so no game loses a seat."""
    if player.seats.exists():
        raise Conflict(f"{player.name} has games: delete those games first.", "player_has_games")
    try:
        with transaction.atomic():
            player.delete()
    except RestrictedError:  # seated by a game created since the check
        raise Conflict(f"{player.name} has games: delete those games first.", "player_has_games") from None


def _lock(game: Game, expected_version: int | None) -> Game:
    """Re-read the game with a row lock, so writes to one game happen one after another."""
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if expected_version is not None and expected_version != locked.version:
        raise Conflict("Someone else changed this game since you loaded it. Reload to see their change.", "stale")
    return locked


def _score(game: Game, seats: list[Seat], starting_double: int, entries: Sequence[EntryInput]) -> ScoredRound:
    try:
        return score_round(game.rules, starting_double, [seat.as_rule() for seat in seats], entries)
    except InvalidRound as invalid:
        errors: dict[str, list[str]] = {}
        for error in invalid.errors:
            errors.setdefault(error.field or "entries", []).append(error.message)
        raise InvalidInput(errors, invalid.errors) from None


def _save_entries(round_: Round, seats: list[Seat], scored: ScoredRound) -> None:
    position = {seat.player_id: seat.position for seat in seats}
    Entry.objects.bulk_create(_entry(round_, position[entry.player], entry) for entry in scored.entries)


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


def _summarise(rules: GameRules, seats: list[Seat], played) -> Progress:
    """Set each seat's summary columns from the game's entries, given in round order as
    (round, position, player, score, went_out, double_blank, ended_on_double); return the progress."""
    rounds: dict = {}
    counts: dict[int, Counter] = defaultdict(Counter)
    for key, position, player, score, went_out, double_blank, ended_on_double in played:
        rounds.setdefault(key, (position, {}))[1][player] = score
        counts[player].update(rounds=1, went_out=went_out, double_blank=double_blank, ended=ended_on_double)
    state = progress(rules, [seat.player_id for seat in seats], [PlayedRound(*round_) for round_ in rounds.values()])
    ranked = {row.player: row for row in standings([(s.player_id, s.player.name) for s in seats], state.totals)}
    for seat in seats:
        count = counts[seat.player_id]
        seat.total = ranked[seat.player_id].total
        seat.rank = ranked[seat.player_id].rank
        seat.is_winner = state.finished and seat.rank == 1
        seat.rounds = count["rounds"]
        seat.went_out = count["went_out"]
        seat.double_blank_penalties = count["double_blank"] if rules.double_blank_penalty else 0
        seat.end_on_double_penalties = count["ended"] if rules.end_on_double_penalty else 0
    return state


def _count_finished(game: Game, seats: list[Seat], sign: int) -> None:
    """Add (+1) or take back (-1) a finished game's seats in their players' records."""
    for seat in seats:
        PlayerRecord.objects.filter(player_id=seat.player_id, tile_set=game.tile_set).update(
            games=F("games") + sign,
            wins=F("wins") + sign * seat.is_winner,
            total_sum=F("total_sum") + sign * seat.total,
            rounds=F("rounds") + sign * seat.rounds,
            went_out=F("went_out") + sign * seat.went_out,
            double_blank_penalties=F("double_blank_penalties") + sign * seat.double_blank_penalties,
            end_on_double_penalties=F("end_on_double_penalties") + sign * seat.end_on_double_penalties,
        )


SEAT_SUMMARY = ["total", "rank", "is_winner", "rounds", "went_out", "double_blank_penalties", "end_on_double_penalties"]


def _refresh(game: Game, seats: list[Seat]) -> Progress:
    """Bring the summary columns (totals, ranks, winners, status) in step with the rounds."""
    played = (
        Entry.objects.filter(round__game=game)
        .order_by("round__number")
        .values_list("round_id", "round__position", "player_id", "score", "went_out", "double_blank", "ended_on_double")
    )
    if game.is_finished:
        _count_finished(game, seats, -1)
    state = _summarise(game.rules, seats, played)
    Seat.objects.bulk_update(seats, SEAT_SUMMARY)
    if state.finished:
        _count_finished(game, seats, +1)
    if state.finished and not game.is_finished:
        game.status, game.finished_at = Game.Status.FINISHED, timezone.now()
    elif not state.finished:
        game.status, game.finished_at = Game.Status.IN_PROGRESS, None
    Game.objects.filter(pk=game.pk).update(
        status=game.status, finished_at=game.finished_at, version=F("version") + 1, updated_at=timezone.now()
    )
    game.refresh_from_db(fields=["version", "updated_at"])
    return state
