"""Club nights of a scorebook: create, change, delete (scorers), a game put in a night or taken out
of it. Every write moves the night's `version` on where what it shows changes, and announces the
night (caches.rule: its kept polls go). A game joining a night gets the night's next table number
(Game.table, what it is called without a name) under the night's row, held by that version's move. A night's live link is the live wing's (services.live:
`share(night=...)`, `revoke(night=...)`)."""

from collections.abc import Sequence
from datetime import date

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from ..caches.rule import announce
from ..errors import InvalidInput
from ..models import Game, Night, Scorebook
from .common import lock_game, require_scorer
from .live import revoke, share  # noqa: F401  (a night's link: the live wing's own)

FIELDS = ("name", "date")
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(2999, 12, 31)


def _checked(night: Night) -> None:
    """Everything wrong with the night as it would be saved, by field (nothing saved on a 400)."""
    errors: dict[str, list[str]] = {}
    night.name = (night.name or "").strip()
    if not night.name:
        errors["name"] = [_("Give the night a name.")]
    elif len(night.name) > 80:
        errors["name"] = [_("A night's name has at most 80 characters.")]
    if not isinstance(night.date, date):
        errors["date"] = [_("Give the night's day.")]
    elif not FIRST_DAY <= night.date <= LAST_DAY:
        errors["date"] = [_("Give a day from the year 1900 to 2999.")]
    if errors:
        raise InvalidInput(errors)


def night_of(scorebook_id: int, pk: int | None) -> Night | None:
    """The night `pk` of the scorebook (None for none); any other: InvalidInput naming `night`."""
    if pk is None:
        return None
    night = Night.objects.filter(pk=pk, scorebook_id=scorebook_id).first()
    if night is None:
        raise InvalidInput({"night": [_("No night of this scorebook has id {id}.").format(id=pk)]})
    return night


def _moved(*nights: int | None) -> list[int]:
    """The nights (ids, None left out) whose games changed: their versions moved on (which holds
    their rows until the transaction ends)."""
    pks = sorted({pk for pk in nights if pk is not None})
    if pks:
        Night.objects.filter(pk__in=pks).update(version=F("version") + 1)
    return pks


def _next_tables(nights: Sequence[int | None]) -> list[int | None]:
    """The table numbers of games joining `nights` (a night's id, or None, per game, in order): each
    night's next numbers after the highest it gave (its trashed games' too: a game brought back
    keeps its own). The nights' rows must be held already (_moved): a second game joining meanwhile
    waits for this transaction and then finds this one's number taken."""
    chosen = {pk for pk in nights if pk is not None}
    if not chosen:
        return [None for _pk in nights]
    highest = dict(
        Game.objects.filter(night_id__in=chosen).order_by().values("night_id").annotate(top=Max("table"))
        .values_list("night_id", "top")
    )  # fmt: skip
    numbers = []
    for pk in nights:
        if pk is not None:
            highest[pk] = (highest.get(pk) or 0) + 1
        numbers.append(None if pk is None else highest[pk])
    return numbers


def joining(nights: Sequence[int | None]) -> list[int | None]:
    """New games made in `nights` (services.games.create_game, save_imports: a night's id, or None,
    per game, under their transaction): the nights' versions move on and each game gets its table
    number (the games' announcement names the nights)."""
    _moved(*nights)
    return _next_tables(nights)


@transaction.atomic
def create_night(*, book: Scorebook, role: str | None, name: str, date: date) -> Night:
    require_scorer(role)
    night = Night(scorebook=book, name=name, date=date)
    _checked(night)
    night.save()
    announce("night created")  # nothing kept shows it yet
    return night


@transaction.atomic
def update_night(*, night: Night, role: str | None, **changes) -> Night:
    """Change any of FIELDS; the others stay as they are."""
    require_scorer(role)
    unknown = set(changes) - set(FIELDS)
    if unknown:
        raise InvalidInput({name: [_("Unknown field.")] for name in sorted(unknown)})
    before = {field: getattr(night, field) for field in FIELDS}
    for field, value in changes.items():
        setattr(night, field, value)
    try:
        _checked(night)
    except InvalidInput:
        for field, value in before.items():
            setattr(night, field, value)
        raise
    night.version = F("version") + 1  # whatever this copy was read at
    night.save(update_fields=[*FIELDS, "version"])
    night.refresh_from_db(fields=["version"])
    announce("night changed", nights=[night.pk])
    return night


@transaction.atomic
def delete_night(*, night: Night, role: str | None) -> None:
    """The night goes; its games stay, in no night (each game's answer says so: its version moves on)."""
    require_scorer(role)
    games = list(Game.objects.select_for_update().filter(night=night).values_list("pk", flat=True))
    Game.objects.filter(pk__in=games).update(night=None, table=None, version=F("version") + 1)
    night.delete()
    announce("night deleted", games=games, nights=[night.pk])


@transaction.atomic
def set_night(*, game: Game, night: int | None, expected_version: int | None = None) -> Game:
    """Put the game in the night `night` (an id of its scorebook's nights), or in none (None)."""
    game = lock_game(game, expected_version)
    chosen = night_of(game.scorebook_id, night)
    if game.night_id == (chosen.pk if chosen else None):
        return game
    before, game.night = game.night_id, chosen
    moved = _moved(before, game.night_id)
    (game.table,) = _next_tables([game.night_id])  # its table at the new night (none outside one)
    game.version += 1
    Game.objects.filter(pk=game.pk).update(
        night=chosen, table=game.table, version=game.version, updated_at=timezone.now()
    )
    announce("game moved to a night", games=[game.pk], nights=moved)
    return game
