"""Seasons of a scorebook: create, change, delete (owners only), and the tallies their tables are
read from. Two seasons of one scorebook never overlap: each write locks the scorebook's row, so two
at once are checked one after the other.

A season's tallies (SeasonTally) follow its finished games: `tally` adds a game that finishes or
comes back from the trash and takes back one that changes, reopens or goes to the trash (called by
services.state.save_state and services.games), `rebuild` works them out from the seats when a
season is made or its days change, and after an import."""

import zoneinfo
from datetime import date

from django.db import connection, transaction
from django.db.models import Count, Q, Sum
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from ..caches.rule import announce
from ..errors import InvalidInput
from ..models import Scorebook, Season, SeasonTally
from .scorebooks import require_owner

FIELDS = ("name", "starts", "ends", "min_games", "drop_worst")
# The days a season may hold: its bounds are moments in a time zone, which the calendar's very
# first and last days have no room for.
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(2999, 12, 31)


def _checked(season: Season) -> None:
    """Everything wrong with the season as it would be saved, by field (nothing saved on a 400)."""
    errors: dict[str, list[str]] = {}
    season.name = (season.name or "").strip()
    if not season.name:
        errors["name"] = [_("Give the season a name.")]
    elif len(season.name) > 80:
        errors["name"] = [_("A season's name has at most 80 characters.")]
    for field in ("min_games", "drop_worst"):
        value = getattr(season, field)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 32767:
            errors[field] = [_("Give a whole number from 0 to 32767.")]
    for field, words in (
        ("starts", _("Give the day the season starts.")),
        ("ends", _("Give the day the season ends.")),
    ):
        day = getattr(season, field)
        if not isinstance(day, date):
            errors[field] = [words]
        elif not FIRST_DAY <= day <= LAST_DAY:
            errors[field] = [_("Give a day from the year 1900 to 2999.")]
    if not errors.keys() & {"starts", "ends"}:
        if season.ends < season.starts:
            errors["ends"] = [_("A season cannot end before it starts.")]
        else:
            clash = (
                Season.objects.filter(scorebook_id=season.scorebook_id)
                .overlapping(season.starts, season.ends)
                .exclude(pk=season.pk)
                .first()
            )
            if clash is not None:
                errors["starts"] = [
                    _("These days overlap {name} ({starts} to {ends}): a day belongs to one season only.").format(
                        name=clash.name, starts=date_format(clash.starts, "j M Y"), ends=date_format(clash.ends, "j M Y")
                    )
                ]
    if errors:
        raise InvalidInput(errors)
    season.starts_at, season.ends_before = season.bounds()


def _lock(book: Scorebook) -> None:
    Scorebook.objects.select_for_update().filter(pk=book.pk).values_list("pk").first()


@transaction.atomic
def create_season(
    *, book: Scorebook, role: str | None, name: str, starts: date, ends: date, min_games: int = 0, drop_worst: int = 0
) -> Season:
    require_owner(role, _("add seasons"))
    _lock(book)
    season = Season(scorebook=book, name=name, starts=starts, ends=ends, min_games=min_games, drop_worst=drop_worst)
    _checked(season)
    season.save()
    rebuild(season)
    announce("season created")
    return season


@transaction.atomic
def update_season(*, season: Season, role: str | None, **changes) -> Season:
    """Change any of FIELDS; the others stay as they are."""
    require_owner(role, _("change seasons"))
    _lock(season.scorebook)
    unknown = set(changes) - set(FIELDS)
    if unknown:
        raise InvalidInput({name: [_("Unknown field.")] for name in sorted(unknown)})
    before = {field: getattr(season, field) for field in FIELDS}
    bounds = (season.starts_at, season.ends_before)
    for field, value in changes.items():
        setattr(season, field, value)
    try:
        _checked(season)
    except InvalidInput:
        for field, value in before.items():
            setattr(season, field, value)
        raise
    season.save(update_fields=[*FIELDS, "starts_at", "ends_before"])
    if (season.starts_at, season.ends_before) != bounds:  # other days, or the scorebook's time zone changed
        rebuild(season)
    announce("season changed")
    return season


@transaction.atomic
def set_time_zone(*, book: Scorebook, role: str | None, time_zone: str) -> Scorebook:
    """The scorebook's time zone (an IANA name, as zoneinfo knows it), owners only. Its seasons'
    days are days there, so each is saved again (update_season works out its bounds and rebuilds
    its tallies when they moved): it lives here, beside them."""
    require_owner(role, _("change its time zone"))
    name = time_zone.strip() if isinstance(time_zone, str) else ""
    try:
        if not name or len(name) > 64:
            raise ValueError(name)
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(
            {"time_zone": [_("Give a time zone by its IANA name, such as America/Mexico_City or Europe/Madrid.")]}
        ) from None
    _lock(book)
    book.time_zone = name
    book.save(update_fields=["time_zone"])
    for season in Season.objects.filter(scorebook=book):
        season.scorebook = book
        update_season(season=season, role=role)
    announce("scorebook time zone changed", scorebooks=[book.pk])  # days on every page of it
    return book


@transaction.atomic
def delete_season(*, season: Season, role: str | None) -> None:
    require_owner(role, _("delete seasons"))
    season.delete()
    announce("season deleted")


def tally_rows(seats) -> list[tuple[int, int, int, int, int]]:
    """What a finished game's seats give its season (Season.counted_seats: ranked players only), as
    they are now: (player, place points, win, total, place) each. Taken before a change, to take back.
    The callers leave out a casual game (it gives nothing), as Season.counted_seats does."""
    return [
        (seat.player_id, seat.place_points, int(seat.is_winner), seat.total, seat.rank)
        for seat in seats
        if seat.rank is not None and seat.left_after is None and seat.place_points is not None
    ]


def hold(scorebook_id: int) -> None:
    """Before a finished game's tallies change: wait for a season write of its scorebook that is under
    way (it holds the row FOR UPDATE), so the tally sees the season it commits, or the season's rebuild
    sees this game; without it a season made while a game finishes could miss the game. FOR NO KEY
    UPDATE, as the ratings take the row next, in the one order (a game, then its scorebook's row), so
    finishing games never wait for a new game or player of the scorebook."""
    Scorebook.objects.select_for_update(no_key=True).filter(pk=scorebook_id).values_list("pk").first()


def tally(*, scorebook_id: int, finished_at, rows, sign: int) -> None:
    """Add (+1) or take back (-1) a finished game's `rows` (tally_rows) in the tallies of its
    scorebook's season whose days hold `finished_at`: one statement, which does nothing when no
    season does (no query to find out first)."""
    if not rows or finished_at is None:
        return
    quote = connection.ops.quote_name
    table, seasons = quote(SeasonTally._meta.db_table), quote(Season._meta.db_table)
    sums = ("games", "wins", "total_sum", "place_sum")
    keys = ("season_id", "player_id", "place_points")
    amount = int(sign)
    sql = (
        f"INSERT INTO {table} ({', '.join(map(quote, (*keys, *sums)))}) "
        f"SELECT s.{quote('id')}, CAST(v.column1 AS integer), CAST(v.column2 AS integer), {amount}, "
        f"{amount} * CAST(v.column3 AS integer), {amount} * CAST(v.column4 AS bigint), {amount} * CAST(v.column5 AS integer) "
        f"FROM {seasons} s, (VALUES {', '.join(['(%s, %s, %s, %s, %s)'] * len(rows))}) AS v "
        f"WHERE s.{quote('scorebook_id')} = %s AND s.{quote('starts_at')} <= %s AND s.{quote('ends_before')} > %s "
        f"ON CONFLICT ({', '.join(map(quote, keys))}) DO UPDATE SET "
        + ", ".join(f"{quote(c)} = {table}.{quote(c)} + excluded.{quote(c)}" for c in sums)
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*(value for row in rows for value in row), scorebook_id, finished_at, finished_at])


def rebuild(season: Season) -> None:
    """The season's tallies worked out again from its seats (a season made, its days moved, games
    imported into it): one grouped query over its games, on a write, never on a read."""
    grouped = (
        season.counted_seats()
        .order_by()
        .values("player_id", "place_points")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(is_winner=True)), total_sum=Sum("total"),
                  place_sum=Sum("rank"))
    )  # fmt: skip
    SeasonTally.objects.filter(season=season).delete()
    SeasonTally.objects.bulk_create(SeasonTally(season=season, **row) for row in grouped)


def rebuild_between(scorebook_id: int, first, last) -> None:
    """Every season of the scorebook holding a moment from `first` to `last` (games imported)."""
    if first is None:
        return
    for season in Season.objects.filter(scorebook_id=scorebook_id, starts_at__lte=last, ends_before__gt=first):
        rebuild(season)
