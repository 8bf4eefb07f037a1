"""What the writes share: who may write, the game's lock, scoring a round, saving entries and history."""

from collections.abc import Sequence

from django.utils.translation import gettext as _

from ..errors import Conflict, Forbidden, InvalidInput
from ..models import SCORING_ROLES, Entry, Game, Round, Seat, entry_values
from ..rules.rounds import EntryInput, InvalidRound, ScoredEntry, ScoredRound, score_round
from ..rules.scoring import GameState


def require_scorer(role: str | None) -> None:
    """Players, games and rounds are written by owners and scorers; viewers only read."""
    if role not in SCORING_ROLES:
        raise Forbidden(_("Viewers can read this scorebook but not change it: ask an owner to make you a scorer."))


def save_with_history(obj, by, action: str, **kwargs) -> None:
    """Save, and let django-simple-history keep this version with who did it and which action it was."""
    obj._history_user, obj._change_reason = by, action
    obj.save(**kwargs)


def as_saved(scored: ScoredRound, seats: list[Seat]) -> list[dict]:
    """A round's entries as the history keeps them: by player name, in seat order."""
    names = {seat.player_id: seat.player.name for seat in seats}
    order = {seat.player_id: seat.position for seat in seats}
    return [
        {"player": names[entry.player], **entry_values(entry)}
        for entry in sorted(scored.entries, key=lambda entry: order[entry.player])
    ]


def lock_game(game: Game, expected_version: int | None) -> Game:
    """Re-read the game with a row lock, so writes to one game happen one after another."""
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if expected_version is not None and expected_version != locked.version:
        raise Conflict(_("Someone else changed this game since you loaded it. Reload to see their change."), "stale")
    return locked


def seated(seats: list[Seat], state: GameState, number: int | None = None) -> list[Seat]:
    """The seats of the players seated in round `number` (None: the next round), in seat order."""
    if number is None:
        at_table = {seat.player for seat in state.seats if seat.seated}
    else:
        line = state.rounds[number - 1]
        at_table = {seat.player for seat, score in zip(state.seats, line.scores, strict=True) if score is not None}
    return [seat for seat in seats if seat.player_id in at_table]


def score_entries(
    game: Game, seats: list[Seat], starting_double: int, entries: Sequence[EntryInput], away: list[Seat] = ()
) -> ScoredRound:
    """Score a round of the players of `seats` (those seated in it); `away`: the game's other seats,
    named when an entry is for one of them."""
    try:
        return score_round(game.rules, starting_double, [seat.as_rule() for seat in seats], entries,
                           away=[seat.as_rule() for seat in away])  # fmt: skip
    except InvalidRound as invalid:
        errors: dict[str, list[str]] = {}
        for error in invalid.errors:
            errors.setdefault(error.field or "entries", []).append(error.message)
        raise InvalidInput(errors, invalid.errors) from None


def save_entries(round_: Round, seats: list[Seat], scored: ScoredRound) -> list[Entry]:
    """Insert the round's entries; they come back in seat order (what the API answers with)."""
    position = {seat.player_id: seat.position for seat in seats}
    saved = Entry.objects.bulk_create(_entry(round_, position[entry.player], entry) for entry in scored.entries)
    return sorted(saved, key=lambda entry: entry.position)


def _entry(round_: Round, position: int, entry: ScoredEntry) -> Entry:
    return Entry(round=round_, player_id=entry.player, position=position, **entry_values(entry))
