"""Club nights of a scorebook: create, change, delete (scorers), a game put in a night or taken out
of it. Every write moves the night's `version` on where what it shows changes, and announces the
night (caches.rule: its kept polls go). A night's live link is the live wing's (services.live:
`share(night=...)`, `revoke(night=...)`)."""

from datetime import date

from django.db import transaction
from django.db.models import F
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
    """The nights (ids, None left out) whose games changed: their versions moved on."""
    pks = sorted({pk for pk in nights if pk is not None})
    if pks:
        Night.objects.filter(pk__in=pks).update(version=F("version") + 1)
    return pks


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
    Game.objects.filter(pk__in=games).update(night=None, version=F("version") + 1)
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
    game.version += 1
    Game.objects.filter(pk=game.pk).update(night=chosen, version=game.version, updated_at=timezone.now())
    announce("game moved to a night", games=[game.pk], nights=_moved(before, game.night_id))
    return game


def joined(game: Game) -> None:
    """A new game made in a night (services.games.create_game, under its transaction): the night's
    version moves on; the game's announcement names the night."""
    _moved(game.night_id)
